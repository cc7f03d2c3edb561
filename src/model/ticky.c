/* ticky.c: ticky counters' totals, kept by counter id (see ticky.h).
 *
 * Counters live in one array in the order they were first seen; an open-addressing index
 * of their ids (a power of two at least twice the count) finds a sample's counter in
 * constant time, since a run writes every moving counter at every sample. Past
 * TICKY_MAX_COUNTERS a new counter is counted as dropped, never kept: the totals say so.
 * The series (ticky.h) are a counter's array of cols points, all on one set of columns.
 */
#include "model/ticky.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/order.h"
#include "base/textcopy.h"

#define NO_SLOT UINT32_MAX

struct ticky {
    struct ticky_counter *counters;
    size_t count, cap;
    uint32_t *index;            /* slot -> counter number, or NO_SLOT */
    size_t index_size;          /* a power of two, 0 before the first counter */
    uint64_t dropped;
    uint64_t samples, last_sample_ns;
    bool any;
    /* the series' columns (ticky.h) */
    size_t cols;                /* points per counter: TICKY_SERIES_COLUMNS, or fewer */
    size_t used;                /* columns begun */
    uint64_t per_col;           /* samples per column */
    uint64_t end_ns[TICKY_SERIES_COLUMNS];
    uint64_t series_cut;
};

struct ticky *ticky_new(void)
{
    struct ticky *t = calloc(1, sizeof(struct ticky));
    if (t) {
        t->cols = TICKY_SERIES_COLUMNS;
        t->per_col = 1;
    }
    return t;
}

void ticky_free(struct ticky *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++) {
        free(t->counters[i].name);
        free(t->counters[i].kinds);
        free(t->counters[i].table);
        free(t->counters[i].series);
    }
    free(t->counters);
    free(t->index);
    free(t);
}

static size_t slot_of(uint64_t id, size_t size)
{
    /* Counter ids are addresses: multiply to spread their aligned low bits. */
    return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (size - 1);
}

static uint32_t *find_slot(const struct ticky *t, uint64_t id)
{
    size_t s = slot_of(id, t->index_size);
    while (t->index[s] != NO_SLOT && t->counters[t->index[s]].id != id)
        s = (s + 1) & (t->index_size - 1);
    return &t->index[s];
}

static int reindex(struct ticky *t, size_t size)
{
    uint32_t *index = malloc(size * sizeof *index);
    if (!index)
        return -1;
    memset(index, 0xff, size * sizeof *index);
    free(t->index);
    t->index = index;
    t->index_size = size;
    for (size_t i = 0; i < t->count; i++)
        *find_slot(t, t->counters[i].id) = (uint32_t)i;
    return 0;
}

/* Neighbouring columns merged pairwise, for every counter: each column then holds twice
 * the samples. Sums, so every point stays exact. */
static void merge_columns(struct ticky *t)
{
    size_t half = (t->used + 1) / 2;
    for (size_t i = 0; i < half; i++) {
        size_t b = 2 * i + 1 < t->used ? 2 * i + 1 : 2 * i;
        for (size_t k = 0; k < t->count; k++) {
            struct ticky_point *s = t->counters[k].series;
            if (s && b != 2 * i) {
                s[i].entries = s[2 * i].entries + s[b].entries;
                s[i].allocs = s[2 * i].allocs + s[b].allocs;
            } else if (s) {
                s[i] = s[2 * i];
            }
        }
        t->end_ns[i] = t->end_ns[b];
    }
    for (size_t k = 0; k < t->count; k++)
        if (t->counters[k].series)
            memset(t->counters[k].series + half, 0,
                   (t->cols - half) * sizeof *t->counters[k].series);
    t->used = half;
    t->per_col *= 2;
}

/* A new counter's series, within TICKY_SERIES_CELLS points in all: the columns halve
 * (merged) while there are more, down to TICKY_SERIES_MIN_COLUMNS; past that, none. */
static int new_series(struct ticky *t, struct ticky_counter *c)
{
    while ((t->count + 1) * t->cols > TICKY_SERIES_CELLS) {
        if (t->cols <= TICKY_SERIES_MIN_COLUMNS) {
            t->series_cut++;
            return 0;
        }
        merge_columns(t);
        t->cols /= 2;
        for (size_t k = 0; k < t->count; k++) {
            struct ticky_point *s = t->counters[k].series;
            struct ticky_point *less = s ? realloc(s, t->cols * sizeof *s) : NULL;
            if (less)
                t->counters[k].series = less;   /* else the larger one serves */
        }
    }
    return (c->series = calloc(t->cols, sizeof *c->series)) ? 0 : -1;
}

/* The counter of id, made when new: 0 with *out set; 1 when it is past the bound (not
 * kept); -1 when out of memory. */
static int counter(struct ticky *t, uint64_t id, struct ticky_counter **out)
{
    if (t->index_size) {
        uint32_t *slot = find_slot(t, id);
        if (*slot != NO_SLOT) {
            *out = &t->counters[*slot];
            return 0;
        }
    }
    if (t->count >= TICKY_MAX_COUNTERS) {
        t->dropped++;   /* each sample of it again: "dropped" counts its mentions */
        return 1;
    }
    if (GROW_ARRAY(t->counters, &t->cap, t->count + 1) != 0 ||
        (2 * (t->count + 1) > t->index_size &&
         reindex(t, t->index_size ? 2 * t->index_size : 64) != 0))
        return -1;
    struct ticky_counter *c = &t->counters[t->count];
    memset(c, 0, sizeof *c);
    c->id = id;
    if (new_series(t, c) != 0)
        return -1;
    *find_slot(t, id) = (uint32_t)t->count++;
    *out = c;
    return 0;
}

static int define(struct ticky_counter *c, const struct ticky_event *e)
{
    if (c->defined)
        return 0;   /* a copy of an earlier block's definition */
    char *name = text_copy(e->name, e->name_len), *kinds = text_copy(e->kinds, e->kinds_len);
    char *table = e->table ? text_copy(e->table, e->table_len) : NULL;
    if (!name || !kinds || (e->table && !table)) {
        free(name);
        free(kinds);
        free(table);
        return -1;
    }
    c->table = table;
    c->defined = true;
    c->name = name;
    c->kinds = kinds;
    c->arity = e->arity;
    c->info = e->info;
    return 0;
}

int ticky_event(struct ticky *t, const struct ticky_event *e)
{
    t->any = true;
    if (e->kind == TICKY_EVENT_BEGIN_SAMPLE) {
        t->samples++;
        t->last_sample_ns = e->time_ns;
        if ((t->samples - 1) / t->per_col >= t->cols)
            merge_columns(t);
        t->used = (size_t)((t->samples - 1) / t->per_col) + 1;
        t->end_ns[t->used - 1] = e->time_ns;
        return 0;
    }
    struct ticky_counter *c;
    int rc = counter(t, e->id, &c);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (e->kind == TICKY_EVENT_DEF)
        return define(c, e);
    c->entries += e->entries;
    c->allocs += e->allocs;
    c->allocd += e->allocd;
    c->samples++;
    c->last_sample_ns = e->time_ns;
    c->last_round = t->samples;
    if (c->series && t->used) {   /* a sample before any BEGIN_SAMPLE: totals only */
        c->series[t->used - 1].entries += e->entries;
        c->series[t->used - 1].allocs += e->allocs;
    }
    return 0;
}

bool ticky_any(const struct ticky *t)
{
    return t && t->any;
}

void ticky_totals(const struct ticky *t, struct ticky_totals *out)
{
    memset(out, 0, sizeof *out);
    out->count = t->count;
    out->dropped = t->dropped;
    out->samples = t->samples;
    out->last_sample_ns = t->last_sample_ns;
    out->series_cut = t->series_cut;
    for (size_t i = 0; i < t->count; i++) {
        out->entries += t->counters[i].entries;
        out->allocs += t->counters[i].allocs;
        out->allocd += t->counters[i].allocd;
        out->moving += t->samples && t->counters[i].samples &&
                       t->counters[i].last_round == t->samples;
    }
}

void ticky_columns(const struct ticky *t, struct ticky_columns *out)
{
    out->used = t->used;
    out->per_col = t->per_col;
    out->end_ns = t->end_ns;
}

static int by_weight(const void *a, const void *b)
{
    const struct ticky_counter *x = *(const struct ticky_counter *const *)a,
                               *y = *(const struct ticky_counter *const *)b;
    int c = order_u64(y->allocs, x->allocs);   /* most first */
    if (!c)
        c = order_u64(y->entries, x->entries);
    if (!c)
        c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    return c ? c : order_u64(x->id, y->id);
}

const struct ticky_counter **ticky_sorted(const struct ticky *t, size_t *count)
{
    *count = 0;
    if (!t->count)
        return NULL;
    const struct ticky_counter **v = malloc(t->count * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < t->count; i++)
        v[i] = &t->counters[i];
    qsort(v, t->count, sizeof *v, by_weight);
    *count = t->count;
    return v;
}

struct ticky *ticky_copy(const struct ticky *t)
{
    struct ticky *c = ticky_new();
    if (!c)
        return NULL;
    *c = *t;
    c->counters = NULL;
    c->index = NULL;
    c->count = c->cap = c->index_size = 0;
    if (t->count && (!(c->counters = calloc(t->count, sizeof *c->counters)) ||
                     !(c->index = copy_array(t->index, t->index_size, sizeof *c->index)))) {
        ticky_free(c);
        return NULL;
    }
    c->cap = t->count;
    c->index_size = t->index_size;
    for (size_t i = 0; i < t->count; i++, c->count++) {
        c->counters[i] = t->counters[i];
        c->counters[i].name = c->counters[i].kinds = c->counters[i].table = NULL;
        c->counters[i].series = NULL;
        if (t->counters[i].series &&
            !(c->counters[i].series = copy_array(t->counters[i].series, t->cols,
                                                 sizeof *c->counters[i].series))) {
            c->count++;
            ticky_free(c);
            return NULL;
        }
        if (t->counters[i].defined &&
            (!(c->counters[i].name = strdup(t->counters[i].name)) ||
             !(c->counters[i].kinds = strdup(t->counters[i].kinds)) ||
             (t->counters[i].table &&
              !(c->counters[i].table = strdup(t->counters[i].table))))) {
            c->count++;
            ticky_free(c);
            return NULL;
        }
    }
    return c;
}
