/* ccslabel.c: the runtime's cost-centre stack naming (see ccslabel.h).
 *
 * The runtime appends into a buffer of L + 1 bytes and, once a piece reaches the end of
 * that buffer, overwrites from position L - 4 with "...". So a name of exactly L
 * characters is kept whole and one of L + 1 or more becomes L - 1 characters. We copy that
 * arithmetic rather than "cut when longer than L", because the two differ when a '/'
 * separator is what crosses the limit.
 */
#include "census/ccslabel.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct label_buf {
    char *out;
    size_t len;
    size_t end;   /* L + 1: the runtime's buffer end */
};

static void append(struct label_buf *b, const char *s, size_t n)
{
    size_t room = b->end - b->len;
    if (n > room)
        n = room;
    memcpy(b->out + b->len, s, n);
    b->len += n;
}

static bool is_caf(const struct ccs_name *name)
{
    return name->label_len == 3 && memcmp(name->label, "CAF", 3) == 0;
}

/* One frame of a stack as the runtime prints it: "Module.CAF" for a CAF, else its label,
 * then "/" unless it is the last. */
static void append_frame(struct label_buf *b, const struct ccs_name *name, bool last)
{
    if (is_caf(name)) {
        append(b, name->module, name->module_len);
        append(b, ".CAF", 4);
    } else {
        append(b, name->label, name->label_len);
    }
    if (!last)
        append(b, "/", 1);
}

size_t ccs_label_format(char *out, unsigned max_length, const struct ccs_name *names,
                        unsigned depth)
{
    if (max_length < CCS_LENGTH_MIN)
        max_length = CCS_LENGTH_MIN;
    if (max_length > CCS_LENGTH_MAX)
        max_length = CCS_LENGTH_MAX;
    if (depth == 0) {
        memcpy(out, "MAIN", 5);
        return 4;
    }
    struct label_buf b = { out, 0, (size_t)max_length + 1 };
    for (unsigned i = 0; i < depth; i++) {
        append_frame(&b, &names[i], i + 1 == depth);
        if (b.len >= b.end) {
            memcpy(out + max_length - 4, "...", 4);
            return max_length - 1;
        }
    }
    out[b.len] = '\0';
    return b.len;
}

char *ccs_label_whole(const struct ccs_name *names, unsigned depth, size_t *len)
{
    if (depth == 0) {
        *len = 4;
        return strdup("MAIN");
    }
    size_t need = 1;
    for (unsigned i = 0; i < depth; i++)
        need += (is_caf(&names[i]) ? names[i].module_len + 4 : names[i].label_len) + 1;
    char *out = malloc(need);
    if (!out)
        return NULL;
    /* the pieces of ccs_label_format, with a buffer end no piece reaches */
    struct label_buf b = { out, 0, need };
    for (unsigned i = 0; i < depth; i++) {
        append_frame(&b, &names[i], i + 1 == depth);
    }
    out[b.len] = '\0';
    *len = b.len;
    return out;
}
