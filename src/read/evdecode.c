/* evdecode.c: the decoders, names and field printers generated from evdefs.h.
 *
 * Each field type has a decode_TYPE(cursor, out) that checks the bytes left before it
 * reads, and a print_TYPE used by --dump. The per-event code is nothing but the relation
 * expanded through those helpers, so no event is decoded by hand anywhere else.
 */
#include "read/evdecode.h"

#include <string.h>

#include "base/bytes.h"

struct cursor {
    const unsigned char *pos;
    const unsigned char *end;
};

uint32_t ev_ccs_id(const struct ev_ccs *ccs, unsigned i)
{
    return be32(ccs->ids + 4 * (size_t)i);
}

static inline uint8_t be8(const unsigned char *p)
{
    return p[0];
}

/* decode_U8 ... decode_U64: an unsigned big-endian integer of its width. */
#define DECODE_UNSIGNED(bits)                                                    \
    static inline bool decode_U##bits(struct cursor *c, ev_U##bits *out)         \
    {                                                                            \
        if (c->end - c->pos < (bits) / 8)                                        \
            return false;                                                        \
        *out = be##bits(c->pos);                                                 \
        c->pos += (bits) / 8;                                                    \
        return true;                                                             \
    }
DECODE_UNSIGNED(8)
DECODE_UNSIGNED(16)
DECODE_UNSIGNED(32)
DECODE_UNSIGNED(64)
#undef DECODE_UNSIGNED

/* A string ends at its NUL or, when the writer left the NUL out, at the payload's end. */
static inline bool decode_STR(struct cursor *c, ev_STR *out)
{
    size_t left = (size_t)(c->end - c->pos);
    const unsigned char *nul = memchr(c->pos, 0, left);
    out->ptr = (const char *)c->pos;
    out->len = nul ? (size_t)(nul - c->pos) : left;
    c->pos += nul ? out->len + 1 : left;
    return true;
}

/* GHC ends every string with a NUL. Bytes after the last NUL that do not end with one
 * are no string GHC wrote: fields a later format added at the end (the extension rule),
 * left out. A payload without any NUL is one string whose NUL the writer left out. */
static inline bool decode_ARGV(struct cursor *c, ev_ARGV *out)
{
    size_t len = (size_t)(c->end - c->pos);
    out->ptr = (const char *)c->pos;
    if (len > 0 && c->pos[len - 1] != '\0') {
        const unsigned char *p = c->end;
        while (p > c->pos && p[-1] != '\0')
            p--;
        if (p > c->pos)
            len = (size_t)(p - c->pos);
    }
    out->len = len;
    c->pos = c->end;
    return true;
}

static inline bool decode_CCS(struct cursor *c, ev_CCS *out)
{
    if (c->end - c->pos < 1)
        return false;
    unsigned depth = c->pos[0];
    if ((size_t)(c->end - c->pos - 1) < 4 * (size_t)depth)
        return false;
    out->depth = depth;
    out->ids = c->pos + 1;
    c->pos += 1 + 4 * (size_t)depth;
    return true;
}

enum ev_decode_status ev_decode(uint16_t tag, const unsigned char *payload, size_t size,
                                union ev_body *out)
{
    struct cursor c = { payload, payload + size };
    switch (tag) {
#define EV_DECODE_FIELD(type, name, doc)                                         \
    if (!decode_##type(&c, &view->name))                                         \
        return EV_SHORT;
    /* Only the view of this tag is zeroed, not the whole union (a hundred bytes and more,
     * for each of the million census entries of a big eventlog). */
#define EV_DECODE_ROW(tag, NAME, FIELDS, ROLE)                                \
    case tag: {                                                                  \
        struct ev_##NAME *view = &out->NAME;                                     \
        memset(view, 0, sizeof *view);                                           \
        FIELDS(EV_DECODE_FIELD)                                                  \
        return EV_DECODED;                                                       \
    }
        EV_RELATION(EV_DECODE_ROW)
#undef EV_DECODE_ROW
#undef EV_DECODE_FIELD
    default:
        return EV_UNKNOWN;
    }
}

const char *ev_name(uint16_t tag)
{
    switch (tag) {
#define EV_NAME_ROW(tag, NAME, FIELDS, ROLE)                                  \
    case tag:                                                                    \
        return #NAME;
        EV_RELATION(EV_NAME_ROW)
#undef EV_NAME_ROW
    default:
        return NULL;
    }
}

/* A string takes at least its NUL; ARGV may be empty. */
enum { SIZE_U8 = 1, SIZE_U16 = 2, SIZE_U32 = 4, SIZE_U64 = 8, SIZE_STR = 1, SIZE_ARGV = 0,
       SIZE_CCS = 1 };

size_t ev_min_size(uint16_t tag)
{
    switch (tag) {
#define EV_SIZE_FIELD(type, name, doc) +SIZE_##type
#define EV_SIZE_ROW(tag, NAME, FIELDS, ROLE)                                  \
    case tag:                                                                    \
        return 0 FIELDS(EV_SIZE_FIELD);
        EV_RELATION(EV_SIZE_ROW)
#undef EV_SIZE_ROW
#undef EV_SIZE_FIELD
    default:
        return 0;
    }
}

/* EVR_NONE is 0, so the rows left out are "none". Every registered tag fits. */
const unsigned char ev_role_by_tag[EV_ROLE_TAGS] = {
#define EV_ROLE_ROW(tag, NAME, FIELDS, ROLE) [tag] = EVR_##ROLE,
    EV_RELATION(EV_ROLE_ROW)
#undef EV_ROLE_ROW
};

/* Whether a field's wire size depends on its content. */
enum { VARIABLE_U8 = 0, VARIABLE_U16 = 0, VARIABLE_U32 = 0, VARIABLE_U64 = 0, VARIABLE_STR = 1,
       VARIABLE_ARGV = 1, VARIABLE_CCS = 1 };

bool ev_has_fixed_size(uint16_t tag)
{
    switch (tag) {
#define EV_FIXED_FIELD(type, name, doc) || VARIABLE_##type
#define EV_FIXED_ROW(tag, NAME, FIELDS, ROLE)                                 \
    case tag:                                                                \
        return !(0 FIELDS(EV_FIXED_FIELD));
        EV_RELATION(EV_FIXED_ROW)
#undef EV_FIXED_ROW
#undef EV_FIXED_FIELD
    default:
        return false;
    }
}

const uint16_t ev_registry_tags[] = {
#define EV_TAG_ROW(tag, NAME, FIELDS, ROLE) tag,
    EV_RELATION(EV_TAG_ROW)
#undef EV_TAG_ROW
};
const size_t ev_registry_count = sizeof ev_registry_tags / sizeof *ev_registry_tags;

bool ev_ipe_written_short(const unsigned char *payload, size_t written)
{
    if (written < 8 + 6)
        return false;
    /* Walk the six strings GHC writes; each must end with its NUL, the last at the end. */
    const unsigned char *p = payload + 8, *end = payload + written, *last = NULL;
    for (int i = 0; i < 6; i++) {
        const unsigned char *nul = memchr(p, 0, (size_t)(end - p));
        if (!nul)
            return false;
        last = p;
        p = nul + 1;
    }
    return p == end && memchr(last, ':', (size_t)(p - 1 - last));
}

size_t ev_payload_written(uint16_t tag, const unsigned char *payload, size_t declared)
{
    if (tag == EV_IPE && declared > 0 && ev_ipe_written_short(payload, declared - 1))
        return declared - 1;
    return declared;
}

/* Strings are printed in C-like quotes so a dump line stays one line whatever they hold. */
static void print_quoted(FILE *out, const char *p, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)p[i];
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == 0)
            fputs("\\0", out);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\x%02x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void print_U8(FILE *out, const ev_U8 *v) { fprintf(out, "%u", (unsigned)*v); }
static void print_U16(FILE *out, const ev_U16 *v) { fprintf(out, "%u", (unsigned)*v); }
static void print_U32(FILE *out, const ev_U32 *v) { fprintf(out, "%lu", (unsigned long)*v); }
static void print_U64(FILE *out, const ev_U64 *v)
{
    fprintf(out, "%llu", (unsigned long long)*v);
}
static void print_STR(FILE *out, const ev_STR *v) { print_quoted(out, v->ptr, v->len); }

static void print_ARGV(FILE *out, const ev_ARGV *v)
{
    /* GHC ends every string with a NUL; the last one is a terminator, not a separator. */
    size_t len = v->len;
    if (len > 0 && v->ptr[len - 1] == '\0')
        len--;
    fputc('[', out);
    if (v->len == 0) {
        fputc(']', out);
        return;
    }
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || v->ptr[i] == '\0') {
            if (start > 0)
                fputc(',', out);
            print_quoted(out, v->ptr + start, i - start);
            start = i + 1;
        }
    }
    fputc(']', out);
}

static void print_CCS(FILE *out, const ev_CCS *v)
{
    fputc('[', out);
    for (unsigned i = 0; i < v->depth; i++)
        fprintf(out, i ? ",%lu" : "%lu", (unsigned long)ev_ccs_id(v, i));
    fputc(']', out);
}

void ev_print_fields(FILE *out, uint16_t tag, const union ev_body *body)
{
    switch (tag) {
#define EV_PRINT_FIELD(type, name, doc)                                          \
    fputs(" " #name "=", out);                                                   \
    print_##type(out, &view->name);
#define EV_PRINT_ROW(tag, NAME, FIELDS, ROLE)                                \
    case tag: {                                                                  \
        const struct ev_##NAME *view = &body->NAME;                              \
        (void)view;                                                              \
        FIELDS(EV_PRINT_FIELD)                                                   \
        break;                                                                   \
    }
        EV_RELATION(EV_PRINT_ROW)
#undef EV_PRINT_ROW
#undef EV_PRINT_FIELD
    default:
        break;
    }
}
