/* ipe.c: info-table address -> parts and description (see ipe.h), over an intern table
 * of the printed addresses with one record per address: its parts, never changed once
 * made, so that a view (ipe_names_view) can point at records while the table goes on
 * taking IPE events in another thread. */
#include "census/ipe.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/grow.h"
#include "census/srcloc.h"
#include "census/symnames.h"
#include "model/bands.h"

/* What one IPE event says of one table, in one block; not changed once made. Its
 * description is made when asked for (ipe_info_describe): the band table keeps it, and
 * a copy here would be a third of the record. */
struct ipe_record {
    struct ipe_info info;       /* first (ipe_info_describe); its strings in text */
    struct ipe_record *next;    /* on the table's retired list */
    bool span_only;             /* a span and no file: location is ":span" */
    char text[];
};

/* A table (addresses set) or a view (bands set; see ipe_names_view). */
struct ipe_names {
    struct intern *addresses;   /* a table: the printed addresses, numbered */
    struct ipe_record **records;   /* a table: per address; a view: per band, or NULL */
    size_t cap;
    /* a table: views alive; while there are some, a record an address's new event
     * replaces is kept (retired) instead of freed, since a view may point at it */
    atomic_uint views;
    struct ipe_record *retired;
    /* a view: the bands it answers for, and the table it holds */
    const struct bands *bands;
    struct ipe_names *of;
    char key[24];
};

/* Frees the records replaced while views were alive, when none is left (under the
 * table's writer: no view is made meanwhile, and a view gone read its last before). */
static void free_retired(struct ipe_names *t)
{
    if (!t->retired || atomic_load(&t->views) != 0)
        return;
    while (t->retired) {
        struct ipe_record *next = t->retired->next;
        free(t->retired);
        t->retired = next;
    }
}

void ipe_names_free(struct ipe_names *t)
{
    if (!t)
        return;
    if (t->of) {   /* a view: its records are the table's */
        atomic_fetch_sub(&t->of->views, 1);
        free(t->records);
        free(t);
        return;
    }
    for (uint32_t i = 0; i < intern_count(t->addresses) && i < t->cap; i++)
        free(t->records[i]);
    atomic_store(&t->views, 0);
    free_retired(t);
    intern_free(t->addresses);
    free(t->records);
    free(t);
}

struct ipe_names *ipe_names_new(uint32_t max_count)
{
    struct ipe_names *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    atomic_init(&t->views, 0);
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

/* The parts of an IPE event into info, their strings copied to at (room enough:
 * record_new). */
static void split(const struct ev_IPE *ipe, ev_STR file, ev_STR span, struct ipe_info *info,
                  char *at)
{
    size_t file_len;
    srcloc_split(file.ptr, file.len, &file_len, &info->line);
    if (info->line == 0 && span.len)
        srcloc_split(span.ptr, span.len, &(size_t){ 0 }, &info->line);
    if (file_len == 0 && file.len && file.ptr[0] != '<')
        file_len = file.len;
    const ev_STR parts[] = { ipe->table_name, ipe->closure_desc, ipe->type_desc, ipe->label,
                             ipe->module, { file.ptr, file_len } };
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
}

/* The record of an IPE event, its parts in the same block; NULL when out of memory. */
static struct ipe_record *record_new(const struct ev_IPE *ipe)
{
    ev_STR file, span;
    source_location(ipe, &file, &span);
    /* five strings, the file (at most file.len) and "file:span", each with a NUL */
    size_t parts_cap = ipe->table_name.len + ipe->closure_desc.len + ipe->type_desc.len +
                       ipe->label.len + ipe->module.len + 2 * file.len + span.len + 8;
    struct ipe_record *r = malloc(sizeof *r + parts_cap);
    if (!r)
        return NULL;
    r->next = NULL;
    r->span_only = file.len == 0 && span.len > 0;
    split(ipe, file, span, &r->info, r->text);
    r->info.from_symbol = false;
    r->info.package = "";
    return r;
}

/* The record of a table named by its symbol: its name, module and package; the other
 * parts empty (they point at the NUL ending the name). NULL when out of memory. */
static struct ipe_record *symbol_record(const struct sym_name *s)
{
    size_t name = strlen(s->name) + 1, module = strlen(s->module) + 1;
    struct ipe_record *r = malloc(sizeof *r + name + module + strlen(s->package) + 1);
    if (!r)
        return NULL;
    char *at = r->text;
    const char *none = at + name - 1;
    r->info = (struct ipe_info){ .table_name = memcpy(at, s->name, name), .closure_desc = none,
                                 .type_desc = none, .label = none, .file = none,
                                 .location = none, .from_symbol = true };
    r->info.module = memcpy(at + name, s->module, module);
    r->info.package = strcpy(at + name + module, s->package);
    r->next = NULL;
    r->span_only = false;
    return r;
}

/* "name :: type at source": the parts that are there, in the order a person reads. */
char *ipe_info_describe(const struct ipe_info *info, size_t *len)
{
    const struct ipe_record *r = (const struct ipe_record *)info;   /* its first member */
    const char *source = info->location + r->span_only;
    size_t cap = strlen(info->table_name) + strlen(info->type_desc) + strlen(source) + 9;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    int n = snprintf(s, cap, "%s", info->table_name);
    if (*info->type_desc)
        n += snprintf(s + n, cap - (size_t)n, " :: %s", info->type_desc);
    if (*source)
        n += snprintf(s + n, cap - (size_t)n, " at %s", source);
    *len = (size_t)n;
    return s;
}

/* Address key's record slot in t: 0 and *id, or a failure. */
static enum table_status slot(struct ipe_names *t, const char *key, size_t len, uint32_t *id)
{
    enum table_status st = intern_get(t->addresses, key, len, id, NULL);
    if (st != TABLE_OK)
        return st;
    if (GROW_ARRAY_ZEROED(t->records, &t->cap, (size_t)*id + 1) != 0)
        return TABLE_NO_MEMORY;
    return TABLE_OK;
}

/* Puts r, a record just made, in slot id: a record it replaces is freed unless a view may
 * hold it. TABLE_NO_MEMORY, the slot kept, when r is NULL (making it ran out of memory). */
static enum table_status put_record(struct ipe_names *t, uint32_t id, struct ipe_record *r)
{
    if (!r)
        return TABLE_NO_MEMORY;
    struct ipe_record *old = t->records[id];
    t->records[id] = r;
    if (old) {
        old->next = t->retired;
        t->retired = old;
    }
    free_retired(t);
    return TABLE_OK;
}

enum table_status ipe_names_add_symbol(struct ipe_names *t, const char *label, size_t len,
                                       const struct sym_name *symbol)
{
    uint32_t id;
    enum table_status st = slot(t, label, len, &id);
    if (st != TABLE_OK || t->records[id])
        return st;
    return put_record(t, id, symbol_record(symbol));
}

enum table_status ipe_names_add(struct ipe_names *t, const struct ev_IPE *ipe, const char **key,
                              size_t *key_len)
{
    /* The runtime prints a -hi band with "%p", which glibc writes as 0x and lowercase hex. */
    int n = snprintf(t->key, sizeof t->key, "0x%" PRIx64, ipe->info);
    uint32_t id;
    enum table_status st = slot(t, t->key, (size_t)n, &id);
    if (st != TABLE_OK)
        return st;
    /* a second event for an address (a restarted eventlog dumps them again), or an event
     * for a table named from its symbol: the event says */
    st = put_record(t, id, record_new(ipe));
    *key = t->key;
    *key_len = (size_t)n;
    return st;
}

/* The record of the address a -hi label prints, in a table or a view, or NULL. */
static struct ipe_record *record_of(const struct ipe_names *t, const char *label,
                                          size_t len)
{
    uint32_t id;
    if (t->of ? bands_find_string(t->bands, label, len, &id) != 0
              : intern_find(t->addresses, label, len, &id) != 0)
        return NULL;
    return id < t->cap ? t->records[id] : NULL;
}

const struct ipe_info *ipe_names_info(const struct ipe_names *t, const char *label, size_t len)
{
    const struct ipe_record *r = record_of(t, label, len);
    return r ? &r->info : NULL;
}

struct ipe_names *ipe_names_view(const struct ipe_names *table, const struct bands *bands)
{
    struct ipe_names *t = (struct ipe_names *)table;   /* only its count of views changes */
    struct ipe_names *v = calloc(1, sizeof *v);
    /* no IPE event (yet): no band has a record, and none is kept for any */
    uint32_t count = intern_count(t->addresses) ? bands_count(bands) : 0;
    if (!v || (count && !(v->records = calloc(count, sizeof *v->records)))) {
        free(v);
        return NULL;
    }
    v->cap = count;
    v->bands = bands;
    v->of = t;
    atomic_init(&v->views, 0);
    atomic_fetch_add(&t->views, 1);
    for (uint32_t b = 0; b < count; b++) {
        size_t len;
        const char *label = bands_stack_ids(bands, b, &len) ? NULL : bands_label(bands, b, &len);
        v->records[b] = label ? record_of(t, label, len) : NULL;
    }
    return v;
}
