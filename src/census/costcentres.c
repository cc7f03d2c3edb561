/* costcentres.c: cost-centre numbers to names, over an intern table of the numbers. */
#include "census/costcentres.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/intern.h"
#include "base/grow.h"
#include "base/textcopy.h"

struct cc_names {
    char *label;
    size_t label_len;
    char *module;
    size_t module_len;
    char *srcloc;
};

struct costcentres {
    uint32_t max_count;
    struct intern *numbers;
    struct cc_names *names;
    size_t cap;
};

void costcentres_free(struct costcentres *t)
{
    if (!t)
        return;
    uint32_t n = intern_count(t->numbers);
    for (uint32_t i = 0; i < n && i < t->cap; i++) {
        free(t->names[i].label);
        free(t->names[i].module);
        free(t->names[i].srcloc);
    }
    intern_free(t->numbers);
    free(t->names);
    free(t);
}

struct costcentres *costcentres_new(uint32_t max_count)
{
    struct costcentres *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->max_count = max_count;
    t->numbers = intern_new(max_count, (size_t)max_count * 4);
    if (!t->numbers) {
        free(t);
        return NULL;
    }
    return t;
}

struct costcentres *costcentres_copy(const struct costcentres *t)
{
    struct costcentres *c = costcentres_new(t->max_count);
    if (!c)
        return NULL;
    uint32_t n = intern_count(t->numbers);
    for (uint32_t i = 0; i < n; i++) {
        size_t len;
        const unsigned char *key = (const unsigned char *)intern_key(t->numbers, i, &len);
        if (i >= t->cap || !t->names[i].label)
            continue;   /* its names could not be kept (out of memory) */
        const struct cc_names *m = &t->names[i];
        if (costcentres_define(c, be32(key), m->label, m->label_len, m->module, m->module_len,
                               m->srcloc, strlen(m->srcloc)) != TABLE_OK) {
            costcentres_free(c);
            return NULL;
        }
    }
    return c;
}

enum table_status costcentres_define(struct costcentres *t, uint32_t number, const char *label,
                                     size_t label_len, const char *module, size_t module_len,
                                     const char *srcloc, size_t srcloc_len)
{
    unsigned char key[4] = { number >> 24, number >> 16, number >> 8, number };
    uint32_t id;
    enum table_status st = intern_get(t->numbers, key, 4, &id, NULL);
    if (st != TABLE_OK)
        return st;
    if (GROW_ARRAY_ZEROED(t->names, &t->cap, (size_t)id + 1) != 0)
        return TABLE_NO_MEMORY;
    char *l = text_copy(label, label_len), *m = text_copy(module, module_len);
    char *src = text_copy(srcloc, srcloc_len);
    if (!l || !m || !src) {
        free(l);
        free(m);
        free(src);
        return TABLE_NO_MEMORY;
    }
    struct cc_names *n = &t->names[id];
    free(n->label);
    free(n->module);
    free(n->srcloc);
    *n = (struct cc_names){ l, label_len, m, module_len, src };
    return TABLE_OK;
}

bool costcentres_lookup(const struct costcentres *t, uint32_t number, struct ccs_name *name)
{
    unsigned char key[4] = { number >> 24, number >> 16, number >> 8, number };
    uint32_t id;
    if (intern_find(t->numbers, key, 4, &id) != 0)
        return false;
    const struct cc_names *n = &t->names[id];
    *name = (struct ccs_name){ n->label, n->label_len, n->module, n->module_len };
    return true;
}

const char *costcentres_srcloc(const struct costcentres *t, uint32_t number)
{
    unsigned char key[4] = { number >> 24, number >> 16, number >> 8, number };
    uint32_t id;
    if (intern_find(t->numbers, key, 4, &id) != 0)
        return NULL;
    return t->names[id].srcloc;
}
