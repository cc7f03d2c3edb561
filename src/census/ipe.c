/* ipe.c: info-table address -> description and parts (see ipe.h), over an intern table
 * of the printed addresses with one description string and one block of parts per
 * address. */
#include "census/ipe.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/grow.h"
#include "census/srcloc.h"

struct ipe_names {
    struct intern *addresses;
    char **descriptions;
    size_t *lengths;
    struct ipe_info *infos;     /* their strings in one block each, parts[i] */
    char **parts;
    size_t cap;
    char key[24];
};

void ipe_names_free(struct ipe_names *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < intern_count(t->addresses) && i < t->cap; i++) {
        free(t->descriptions[i]);
        free(t->parts[i]);
    }
    intern_free(t->addresses);
    free(t->descriptions);
    free(t->lengths);
    free(t->infos);
    free(t->parts);
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

/* The parts of an IPE event into info, their strings copied into one block (returned,
 * for the caller to free; NULL when out of memory). */
static char *split(const struct ev_IPE *ipe, struct ipe_info *info)
{
    ev_STR file, span;
    source_location(ipe, &file, &span);
    size_t file_len;
    srcloc_split(file.ptr, file.len, &file_len, &info->line);
    if (info->line == 0 && span.len)
        srcloc_split(span.ptr, span.len, &(size_t){ 0 }, &info->line);
    if (file_len == 0 && file.len && file.ptr[0] != '<')
        file_len = file.len;
    const ev_STR parts[] = { ipe->table_name, ipe->closure_desc, ipe->type_desc, ipe->label,
                             ipe->module, { file.ptr, file_len } };
    size_t need = file.len + 1 + (span.len ? span.len + 1 : 0);   /* the location */
    for (size_t i = 0; i < 6; i++)
        need += parts[i].len + 1;
    char *block = malloc(need), *at = block;
    if (!block)
        return NULL;
    const char **fields[] = { &info->table_name, &info->closure_desc, &info->type_desc,
                              &info->label, &info->module, &info->file };
    for (size_t i = 0; i < 6; i++) {
        if (parts[i].len)
            memcpy(at, parts[i].ptr, parts[i].len);
        at[parts[i].len] = '\0';
        *fields[i] = at;
        at += parts[i].len + 1;
    }
    /* "file:span", as the description shows it */
    info->location = at;
    if (file.len)
        memcpy(at, file.ptr, file.len);
    at += file.len;
    if (span.len) {
        *at++ = ':';
        memcpy(at, span.ptr, span.len);
        at += span.len;
    }
    *at = '\0';
    return block;
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
        /* the others first: descriptions' capacity is the table's, and only grows when
         * every array has the room */
        size_t cap = t->cap, lengths_cap = t->cap, infos_cap = t->cap, parts_cap = t->cap;
        if (GROW_ARRAY(t->lengths, &lengths_cap, (size_t)id + 1) != 0 ||
            GROW_ARRAY(t->infos, &infos_cap, lengths_cap) != 0 ||
            GROW_ARRAY(t->parts, &parts_cap, infos_cap) != 0)
            return TABLE_NO_MEMORY;
        if (GROW_ARRAY(t->descriptions, &cap, parts_cap) != 0)
            return TABLE_NO_MEMORY;
        memset(t->descriptions + t->cap, 0, (cap - t->cap) * sizeof *t->descriptions);
        memset(t->parts + t->cap, 0, (cap - t->cap) * sizeof *t->parts);
        t->cap = cap;
    }
    size_t len;
    char *text = describe(ipe, &len);
    char *parts = text ? split(ipe, &t->infos[id]) : NULL;
    if (!parts) {
        free(text);
        return TABLE_NO_MEMORY;
    }
    free(t->descriptions[id]);
    free(t->parts[id]);
    t->descriptions[id] = text;
    t->lengths[id] = len;
    t->parts[id] = parts;
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

const struct ipe_info *ipe_names_info(const struct ipe_names *t, const char *label, size_t len)
{
    uint32_t id;
    if (intern_find(t->addresses, label, len, &id) != 0 || !t->parts[id])
        return NULL;
    return &t->infos[id];
}
