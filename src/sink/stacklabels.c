/* stacklabels.c: the band table's stack labels as frame indices (see stacklabels.h).
 *
 * The texts are kept in an intern table (one number per distinct string, in order of
 * first appearance), which makes the indices the same for the same input. Each band's
 * label is rebuilt from its texts and compared with the label the report would write, so
 * what the page rebuilds is that label byte for byte or the label is written whole.
 */
#include "sink/stacklabels.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/intern.h"

struct stacklabels {
    struct intern *texts;
    uint32_t *frames;   /* the last band's indices */
    size_t cap;
};

struct stacklabels *stacklabels_new(void)
{
    struct stacklabels *s = calloc(1, sizeof *s);
    if (s && !(s->texts = intern_new(BANDS_MAX, BANDS_MAX_TEXT))) {
        free(s);
        return NULL;
    }
    return s;
}

void stacklabels_free(struct stacklabels *s)
{
    if (!s)
        return;
    intern_free(s->texts);
    free(s->frames);
    free(s);
}

/* One frame's text as the runtime's label has it (ccslabel.c, append_frame). */
static void frame_text(const struct costcentres *ccs, uint32_t number, char *buf, size_t size,
                       const char **text, size_t *len)
{
    struct ccs_name name;
    if (!ccs || !costcentres_lookup(ccs, number, &name)) {
        int n = snprintf(buf, size, "#%lu", (unsigned long)number);
        *text = buf;
        *len = (size_t)n;
    } else if (name.label_len == 3 && memcmp(name.label, "CAF", 3) == 0) {
        int n = snprintf(buf, size, "%.*s.CAF", (int)name.module_len, name.module);
        *text = buf;
        *len = n < 0 || (size_t)n >= size ? SIZE_MAX : (size_t)n;
    } else {
        *text = name.label;
        *len = name.label_len;
    }
}

const uint32_t *stacklabels_band(struct stacklabels *s, const struct bands *bands,
                                 const struct costcentres *ccs, uint32_t band,
                                 const char *label, size_t *depth)
{
    size_t ids_len;
    const unsigned char *ids = bands_stack_ids(bands, band, &ids_len);
    size_t n = ids_len / 4, at = 0, label_len = strlen(label);
    *depth = 0;
    if (!ids || n == 0 || ids_len % 4 != 0)
        return NULL;
    if (GROW_ARRAY(s->frames, &s->cap, n) != 0) {
        *depth = SIZE_MAX;
        return NULL;
    }
    /* the label must be the texts joined: each found at its place in the label, where
     * s->frames keeps its start until every one has matched */
    for (size_t k = 0; k < n; k++) {
        const unsigned char *p = ids + 4 * k;
        uint32_t number = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        char buf[512];
        const char *text;
        size_t len;
        frame_text(ccs, number, buf, sizeof buf, &text, &len);
        if (len == SIZE_MAX || (k > 0 && (at >= label_len || label[at++] != '/')) ||
            len > label_len - at || memcmp(label + at, text, len) != 0)
            return NULL;
        s->frames[k] = (uint32_t)at;
        at += len;
    }
    if (at != label_len)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        size_t from = s->frames[k], to = k + 1 < n ? s->frames[k + 1] - 1 : label_len;
        if (intern_get(s->texts, label + from, to - from, &s->frames[k], NULL) != TABLE_OK) {
            *depth = SIZE_MAX;
            return NULL;
        }
    }
    *depth = n;
    return s->frames;
}

uint32_t stacklabels_count(const struct stacklabels *s)
{
    return intern_count(s->texts);
}

const char *stacklabels_text(const struct stacklabels *s, uint32_t frame, size_t *len)
{
    return intern_key(s->texts, frame, len);
}
