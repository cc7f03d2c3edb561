/* evdecode.h: typed views of the events in the registry (evdefs.h).
 *
 * For every row of EV_RELATION there is a struct ev_NAME with one member per field and a
 * member of union ev_body. ev_decode() fills the view from an event's payload. Strings and
 * stacks point into the payload: they stay valid only until the reader's next call.
 */
#ifndef EV2HP_EVDECODE_H
#define EV2HP_EVDECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "read/evdefs.h"

/* A byte string inside an event payload; not NUL-terminated. */
struct ev_str {
    const char *ptr;
    size_t len;
};

/* A cost-centre stack inside an event payload: depth big-endian Word32 numbers. */
struct ev_ccs {
    unsigned depth;
    const unsigned char *ids;
};

uint32_t ev_ccs_id(const struct ev_ccs *ccs, unsigned i);

typedef uint8_t ev_U8;
typedef uint16_t ev_U16;
typedef uint32_t ev_U32;
typedef uint64_t ev_U64;
typedef struct ev_str ev_STR;
typedef struct ev_str ev_ARGV;
typedef struct ev_ccs ev_CCS;

enum ev_tag {
#define EV_ENUM_ROW(tag, NAME, FIELDS, ROLE) EV_##NAME = tag,
    EV_RELATION(EV_ENUM_ROW)
#undef EV_ENUM_ROW
};

#define EV_STRUCT_FIELD(type, name, doc) ev_##type name;
#define EV_STRUCT_ROW(tag, NAME, FIELDS, ROLE)                               \
    struct ev_##NAME {                                                           \
        char unused_;                                                            \
        FIELDS(EV_STRUCT_FIELD)                                                  \
    };
EV_RELATION(EV_STRUCT_ROW)
#undef EV_STRUCT_ROW
#undef EV_STRUCT_FIELD

union ev_body {
#define EV_UNION_ROW(tag, NAME, FIELDS, ROLE) struct ev_##NAME NAME;
    EV_RELATION(EV_UNION_ROW)
#undef EV_UNION_ROW
};

enum ev_decode_status {
    EV_DECODED,   /* every field was present */
    EV_SHORT,     /* the payload ended before the fields did */
    EV_UNKNOWN,   /* the tag is not in the registry */
};

/* Decodes the payload of an event with this tag into out's member for the tag (zeroed
 * first, so fields past a short payload read as 0); other members are left alone. */
enum ev_decode_status ev_decode(uint16_t tag, const unsigned char *payload, size_t size,
                                union ev_body *out);

/* The registry name of a tag ("HEAP_PROF_SAMPLE_BEGIN"), or NULL when unknown. */
const char *ev_name(uint16_t tag);

/* Prints the decoded fields as " name=value" pairs (strings quoted and escaped). */
void ev_print_fields(FILE *out, uint16_t tag, const union ev_body *body);

/* The smallest payload holding every field of tag (each string as its NUL alone). */
size_t ev_min_size(uint16_t tag);

/* What an event is for (evdefs.h, "Roles"); EVR_NONE for a tag not in the registry.
 * Asked once per event the assembler sees, so a table lookup the compiler can inline. */
#define EV_ROLE_TAGS 256
extern const unsigned char ev_role_by_tag[EV_ROLE_TAGS];
static inline enum ev_role ev_role(uint16_t tag)
{
    return tag < EV_ROLE_TAGS ? (enum ev_role)ev_role_by_tag[tag] : EVR_NONE;
}

/* Whether every field of tag has a fixed wire size, so that ev_min_size is its size. */
bool ev_has_fixed_size(uint16_t tag);

/* Every tag of the registry, in registry order. */
extern const uint16_t ev_registry_tags[];
extern const size_t ev_registry_count;

/* How many bytes of a variable-size event's payload the writer really wrote, when that
 * differs from the declared length: for an IPE event whose six strings end exactly one
 * byte before the declared end and whose location holds the ':' of "file:span", the
 * declared - 1 of GHC 9.6+ (the byte after is the next event's). Otherwise declared. */
size_t ev_payload_written(uint16_t tag, const unsigned char *payload, size_t declared);
/* Whether the written bytes at payload are an IPE payload as GHC 9.6+ writes it, one byte
 * shorter than it declares: six NUL-terminated strings filling them exactly, the last
 * holding the ':' of "file:span". Reads only those bytes (the declared one after them
 * may lie past the end of the event's block, see evread.c). */
bool ev_ipe_written_short(const unsigned char *payload, size_t written);

#endif
