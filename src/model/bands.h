/* bands.h: the named bands of a heap profile.
 *
 * A band is one line of a census: a cost-centre stack, a closure type, a retainer set.
 * The table numbers bands densely in order of first appearance and keeps two things per
 * band: the label text as the runtime prints it, and for cost-centre stacks the number
 * ev2hp gave the stack (the .hp prints it as "(n)" in front, where the runtime prints its
 * own ccsID, which the eventlog does not carry). Two stacks whose names were cut to the
 * same text stay two bands.
 *
 * Keys: a string band is keyed by its label, a stack band by its cost-centre numbers, in
 * tables of their own, so the two kinds cannot collide.
 */
#ifndef EV2HP_BANDS_H
#define EV2HP_BANDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "base/table.h"


struct bands;

struct bands *bands_new(void);
void bands_free(struct bands *b);
/* A copy of b with the same band numbers, labels, stack numbers and descriptions (the
 * live server draws from a copy while the input goes on adding bands); NULL when out of
 * memory. */
struct bands *bands_copy(const struct bands *b);

/* The band labelled by this string. */
enum table_status bands_string(struct bands *b, const char *label, size_t len, uint32_t *band);

/* The band of a stack, keyed by its raw cost-centre numbers. A new band (*is_new set)
 * has no label yet: the caller formats one and gives it with bands_name_stack. */
enum table_status bands_stack(struct bands *b, const unsigned char *ids, size_t ids_len,
                              uint32_t *band, int *is_new);
/* Names a new stack band; numbered bands get the next stack number ("(n)" in .hp). */
enum table_status bands_name_stack(struct bands *b, uint32_t band, const char *label,
                                   size_t label_len, int numbered);

uint32_t bands_count(const struct bands *b);

/* A point to come back to: bands_rollback forgets every band made since bands_mark (a
 * census dropped for damage leaves no band of its own behind, so no output lists a label
 * only a damaged census had). Label texts stay interned, unreferenced. */
struct bands_mark { uint32_t count, strings, stacks, next_stack_number; };
void bands_mark(const struct bands *b, struct bands_mark *m);
void bands_rollback(struct bands *b, const struct bands_mark *m);

/* The band labelled by this string if there is one: 0 and *band, or -1. */
int bands_find_string(const struct bands *b, const char *label, size_t len, uint32_t *band);

/* Gives a band a description for people (an info table's name, type and source for a
 * -hi address): charts, legends, summaries and exports show it instead of the label;
 * the .hp keeps the label as the runtime writes it. */
enum table_status bands_describe(struct bands *b, uint32_t band, const char *text, size_t len);

/* The one place a band's label (its key, len bytes) becomes the label people are shown:
 * without a leading "(123)" stack number (as .hp files write -hc bands; the eventlog
 * numbers stacks itself), unless nothing follows it. Charts, legends, colours, sorting by
 * name and matching bands across runs (--compare) all use it, so a band of an eventlog
 * and the same band of a .hp are one. Returns a pointer into label; *shown_len (unless
 * NULL) is the length of what remains. */
const char *bands_shown_label(const char *label, size_t len, size_t *shown_len);

/* What a band is besides its label, from what the input says of it (a -hi info table's
 * IPE event, or its symbol): its group and its type, for pictures that nest bands (the
 * heap census as a flame graph draws info tables under their module and type), and its
 * kind, which matching across runs compares (an info table's closure type). Set once;
 * NULL (none) until then; valid until the next band or text is added. */
enum band_attr { BAND_GROUP, BAND_KIND, BAND_TYPE, BAND_ATTRS };
enum table_status bands_set_attr(struct bands *b, uint32_t band, enum band_attr attr,
                                 const char *text, size_t len);
const char *bands_attr(const struct bands *b, uint32_t band, enum band_attr attr, size_t *len);

/* The description of a band when it has one, else its label. */
const char *bands_display_label(const struct bands *b, uint32_t band, size_t *len);

/* A band's name for people: "(n)" before a numbered stack's label, as the .hp writes it,
 * and a -hi address's description in place of the address. Writes into
 * buf (cap bytes, NUL-terminated, cut if needed) and returns the length written. */
size_t bands_person_name(const struct bands *b, uint32_t band, char *buf, size_t cap);

/* The label of a band; valid until the next band is added. */
const char *bands_label(const struct bands *b, uint32_t band, size_t *len);

/* What a line of text shows of a band, in one call for outputs that write a line per band
 * per census (.hp): its label (as bands_label), its stack number (as bands_stack_number)
 * and whether the label holds a line feed or a carriage return, which a line must escape
 * (found once, when the label is set, not on every line written). */
struct band_line {
    const char *label;
    size_t len;
    uint32_t stack_number;
    bool line_break;
};
void bands_line(const struct bands *b, uint32_t band, struct band_line *line);

/* A stack band's key: its cost-centre numbers as the event gave them (4 bytes each,
 * big-endian, innermost first; read them with ev_ccs_id), *ids_len bytes. NULL (and
 * *ids_len 0) for a string band. */
const unsigned char *bands_stack_ids(const struct bands *b, uint32_t band, size_t *ids_len);

/* The number ev2hp gave a cost-centre stack band (written as "(n)" in .hp), or 0. */
uint32_t bands_stack_number(const struct bands *b, uint32_t band);

#endif
