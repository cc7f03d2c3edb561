/* evextension.h: the format's extension rule, told apart from damage.
 *
 * GHC's eventlog format lets a newer runtime add fields at the end of an event: a
 * fixed-size type is then declared longer in the header, and a variable-size event is
 * longer than the fields an older reader knows. Readers skip the rest. Damage can make an
 * event longer than its fields too (a timer tick written over a census entry leaves a
 * length that belongs to other bytes), so a surplus alone proves nothing. What the format
 * allows is a surplus that is the same across the events of a type: an extension adds the
 * same fields to every event. So the surplus of a type is set by its first event and
 * every later event must carry the same one; a different surplus is damage. Should the
 * first event itself have been damaged, the type's true surplus shows as EXTENSION_CONFIRM
 * events in a row agreeing on another value, none on the one set: it is then taken.
 *
 * Only the types whose fields fix their own length (a stack: its depth says how many
 * numbers follow) are checked; a string's length is wherever its NUL falls.
 */
#ifndef EV2HP_EVEXTENSION_H
#define EV2HP_EVEXTENSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Events in a row that replace a type's surplus set by a first event that was damaged. */
#define EXTENSION_CONFIRM 3
/* Types tracked at once: every type a census checks fits. */
#define EXTENSION_TYPES 4

struct ev_extension {
    struct {
        bool used;
        uint16_t tag;
        uint32_t surplus;         /* bytes past the known fields, set by the first event */
        uint32_t other;           /* a different surplus seen on the latest events ... */
        unsigned other_count;     /* ... this many in a row */
    } type[EXTENSION_TYPES];
};

enum ev_extension_verdict {
    EXTENSION_FITS,      /* as long as its fields, or longer by the type's surplus */
    EXTENSION_DAMAGE,    /* shorter than its fields, or longer by another amount */
    EXTENSION_REVISED,   /* the type's surplus was replaced (its first event was damage);
                            this event fits the new one */
};

void ev_extension_init(struct ev_extension *x);

/* Judges an event of type tag whose payload has size bytes, of which its known fields
 * take need. */
enum ev_extension_verdict ev_extension_judge(struct ev_extension *x, uint16_t tag,
                                             size_t need, size_t size);

/* ev_extension_judge, with its common case (the first type tracked, with the surplus set)
 * inline: it runs for every census entry. */
static inline enum ev_extension_verdict ev_extension_check(struct ev_extension *x, uint16_t tag,
                                                           size_t need, size_t size)
{
    if (x->type[0].used && x->type[0].tag == tag && size >= need &&
        size - need == x->type[0].surplus) {
        x->type[0].other_count = 0;
        return EXTENSION_FITS;
    }
    return ev_extension_judge(x, tag, need, size);
}

/* The surplus set for tag (0 when none of its events was seen). */
uint32_t ev_extension_surplus(const struct ev_extension *x, uint16_t tag);

#endif
