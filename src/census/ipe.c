/* ipe.c: info-table address -> description (see ipe.h), over an intern table of the
 * printed addresses with one description string per address. */
#include "census/ipe.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/grow.h"

struct ipe_names {
    struct intern *addresses;
    char **descriptions;
    size_t *lengths;
    size_t cap;
    char key[24];
};

void ipe_names_free(struct ipe_names *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < intern_count(t->addresses) && i < t->cap; i++)
        free(t->descriptions[i]);
    intern_free(t->addresses);
    free(t->descriptions);
    free(t->lengths);
    free(t);
}

struct ipe_names *ipe_names_new(uint32_t max_count)
{
    struct ipe_names *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->addresses = intern_new(max_count, (size_t)max_count * 20);
    if (!t->addresses) {
        free(t);
        return NULL;
    }
    return t;
}

/* Where a table comes from, as a person reads it. Since GHC 9.6 the runtime writes the
 * source file and span as one string joined by a ':' whether or not they are there
 * (rts/eventlog/EventLog.c, postIPE), so a table without a source location says ":" and
 * one with a file but no span says "file:". Neither is a location: the join is left out.
 * A layout with the span apart (src_span) is joined here the same way. */
static void source_location(const struct ev_IPE *ipe, ev_STR *file, ev_STR *span)
{
    *file = ipe->srcloc;
    *span = ipe->src_span;
    if (span->len == 0 && file->len > 0 && file->ptr[file->len - 1] == ':')
        file->len--;
}

/* "name :: type at source": the parts that are there, in the order a person reads. */
static char *describe(const struct ev_IPE *ipe, size_t *len)
{
    ev_STR file, span;
    source_location(ipe, &file, &span);
    size_t cap = ipe->table_name.len + ipe->type_desc.len + file.len + span.len + 16;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    int n = snprintf(s, cap, "%.*s", (int)ipe->table_name.len, ipe->table_name.ptr);
    if (ipe->type_desc.len)
        n += snprintf(s + n, cap - (size_t)n, " :: %.*s", (int)ipe->type_desc.len,
                      ipe->type_desc.ptr);
    if (file.len)
        n += snprintf(s + n, cap - (size_t)n, " at %.*s", (int)file.len, file.ptr);
    if (span.len)
        n += snprintf(s + n, cap - (size_t)n, "%s%.*s", file.len ? ":" : " at ", (int)span.len,
                      span.ptr);
    *len = (size_t)n;
    return s;
}

enum table_status ipe_names_add(struct ipe_names *t, const struct ev_IPE *ipe, const char **key,
                              size_t *key_len)
{
    /* The runtime prints a -hi band with "%p", which glibc writes as 0x and lowercase hex. */
    int n = snprintf(t->key, sizeof t->key, "0x%" PRIx64, ipe->info);
    uint32_t id;
    enum table_status st = intern_get(t->addresses, t->key, (size_t)n, &id, NULL);
    if (st != TABLE_OK)
        return st;
    if (id >= t->cap) {
        /* lengths first: descriptions' capacity is the table's, and only grows when
         * both arrays have the room */
        size_t cap = t->cap, lengths_cap = t->cap;
        if (GROW_ARRAY(t->lengths, &lengths_cap, (size_t)id + 1) != 0)
            return TABLE_NO_MEMORY;
        if (GROW_ARRAY(t->descriptions, &cap, lengths_cap) != 0)
            return TABLE_NO_MEMORY;
        memset(t->descriptions + t->cap, 0, (cap - t->cap) * sizeof *t->descriptions);
        t->cap = cap;
    }
    size_t len;
    char *text = describe(ipe, &len);
    if (!text)
        return TABLE_NO_MEMORY;
    free(t->descriptions[id]);
    t->descriptions[id] = text;
    t->lengths[id] = len;
    *key = t->key;
    *key_len = (size_t)n;
    return TABLE_OK;
}

const char *ipe_names_find(const struct ipe_names *t, const char *label, size_t len,
                           size_t *desc_len)
{
    uint32_t id;
    if (intern_find(t->addresses, label, len, &id) != 0 || !t->descriptions[id])
        return NULL;
    *desc_len = t->lengths[id];
    return t->descriptions[id];
}
