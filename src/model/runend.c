/* runend.c: the last moments of a run, streamed (see runend.h).
 *
 * Memory is bounded by the last censuses' bands, the last markers' text and the pauses of
 * the last second: the censuses are a ring of RUN_END_CENSUSES slots whose entry arrays
 * are reused, the markers a ring of RUN_END_MARKERS copies, the pauses a queue from which
 * those that ended more than a second before the latest one are dropped (the run's end
 * is at or after the latest pause's end, so they cannot fall in its last second).
 */
#include "model/runend.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"
#include "base/order.h"
#include "base/textcopy.h"
#include "base/utf8.h"

struct end_census {
    uint64_t time_ns, bytes;
    struct census_entry *entries;
    size_t count, cap;
};

struct end_pause {
    uint64_t start_ns, end_ns;
};

struct run_end {
    struct end_census census[RUN_END_CENSUSES];
    size_t censuses;               /* fed so far (the ring holds the last ones) */
    struct run_end_marker marker[RUN_END_MARKERS];
    size_t markers;                /* fed so far */
    bool has_heap_size;
    uint64_t heap_size;
    bool has_gc;                   /* a GC_START was seen */
    struct end_pause *pauses;      /* pauses[head .. count): the last second's */
    size_t head, count, pause_cap;
    uint64_t *open;                /* per capability: its GC_START's time + 1, or 0 */
    size_t open_cap;
};

struct run_end *run_end_new(void)
{
    return calloc(1, sizeof(struct run_end));
}

void run_end_free(struct run_end *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < RUN_END_CENSUSES; i++)
        free(e->census[i].entries);
    for (size_t i = 0; i < RUN_END_MARKERS; i++)
        free((char *)e->marker[i].text);
    free(e->pauses);
    free(e->open);
    free(e);
}

struct run_end *run_end_copy(const struct run_end *e)
{
    struct run_end *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *e;
    bool ok = true;
    for (size_t i = 0; i < RUN_END_CENSUSES; i++) {
        const struct end_census *s = &e->census[i];
        c->census[i].entries = copy_array(s->entries, s->count, sizeof *s->entries);
        c->census[i].cap = s->count;
        ok = ok && c->census[i].entries;
    }
    for (size_t i = 0; i < RUN_END_MARKERS; i++) {
        const char *t = e->marker[i].text;
        c->marker[i].text = t ? strdup(t) : NULL;
        ok = ok && (c->marker[i].text || !t);
    }
    c->pauses = copy_array(e->pauses, e->count, sizeof *e->pauses);
    c->pause_cap = e->count;
    c->open = copy_array(e->open, e->open_cap, sizeof *e->open);
    ok = ok && c->pauses && c->open;
    if (!ok) {
        run_end_free(c);
        return NULL;
    }
    return c;
}

int run_end_frame(struct run_end *e, const struct census_frame *frame)
{
    struct end_census *s = &e->census[e->censuses % RUN_END_CENSUSES];
    if (GROW_ARRAY(s->entries, &s->cap, frame->count) != 0)
        return -1;
    if (frame->count)
        memcpy(s->entries, frame->entries, frame->count * sizeof *frame->entries);
    s->count = frame->count;
    s->time_ns = frame->time_ns;
    s->bytes = 0;
    for (size_t i = 0; i < frame->count; i++)
        s->bytes += frame->entries[i].bytes;
    e->censuses++;
    return 0;
}

int run_end_marker(struct run_end *e, uint64_t time_ns, const char *text, size_t len)
{
    if (len > PROFILE_MAX_MARKER_TEXT)
        len = utf8_boundary(text, PROFILE_MAX_MARKER_TEXT);   /* never inside a character */
    char *copy = text_copy(text, len);
    if (!copy)
        return -1;
    struct run_end_marker *m = &e->marker[e->markers % RUN_END_MARKERS];
    free((char *)m->text);
    *m = (struct run_end_marker){ time_ns, copy };
    e->markers++;
    return 0;
}

void run_end_heap_size(struct run_end *e, uint64_t bytes)
{
    e->has_heap_size = true;
    e->heap_size = bytes;
}

int run_end_pause(struct run_end *e, uint64_t start_ns, uint64_t end_ns)
{
    /* drop what ended more than a second before this one; compact once half is dropped */
    while (e->head < e->count && e->pauses[e->head].end_ns + RUN_END_WINDOW_NS < end_ns)
        e->head++;
    if (e->head > e->count / 2) {
        memmove(e->pauses, e->pauses + e->head, (e->count - e->head) * sizeof *e->pauses);
        e->count -= e->head;
        e->head = 0;
    }
    if (GROW_ARRAY(e->pauses, &e->pause_cap, e->count + 1) != 0)
        return -1;
    e->pauses[e->count++] = (struct end_pause){ start_ns, end_ns };
    return 0;
}

void run_end_gc_start(struct run_end *e, uint16_t cap, uint64_t time_ns)
{
    e->has_gc = true;
    if (cap == GC_CAP_NONE || cap >= GC_STATS_MAX_CAPS ||
        GROW_ARRAY_ZEROED(e->open, &e->open_cap, (size_t)cap + 1) != 0)
        return;   /* not followed: its collection, if cut short, is not counted */
    e->open[cap] = time_ns + 1;
}

void run_end_gc_end(struct run_end *e, uint16_t cap)
{
    if (cap < e->open_cap)
        e->open[cap] = 0;
}

/* The part of [start, end] inside [from, to]. */
static uint64_t overlap(uint64_t start, uint64_t end, uint64_t from, uint64_t to)
{
    uint64_t a = start > from ? start : from, b = end < to ? end : to;
    return b > a ? b - a : 0;
}

static int by_band(const void *a, const void *b)
{
    const struct census_entry *x = a, *y = b;
    return order_u64(x->band, y->band);
}

/* The bands of last that grew most since first, into out (fastest first, growth > 0). */
static void fastest_bands(const struct end_census *first, const struct end_census *last,
                          double seconds, struct run_end_summary *out)
{
    struct census_entry *before = copy_array(first->entries, first->count, sizeof *before);
    if (!before)
        return;   /* out of memory: no band is said rather than a wrong one */
    if (first->count)
        qsort(before, first->count, sizeof *before, by_band);
    for (size_t i = 0; i < last->count; i++) {
        const struct census_entry *now = &last->entries[i];
        const struct census_entry *was = first->count ?
            bsearch(now, before, first->count, sizeof *before, by_band) : NULL;
        double growth = ((double)now->bytes - (was ? (double)was->bytes : 0)) / seconds;
        if (growth <= 0)
            continue;
        size_t at = out->bands;
        while (at > 0 && out->band[at - 1].growth_bytes_per_s < growth)
            at--;
        if (at == RUN_END_BANDS)
            continue;
        size_t keep = out->bands < RUN_END_BANDS ? out->bands : RUN_END_BANDS - 1;
        memmove(&out->band[at + 1], &out->band[at], (keep - at) * sizeof out->band[0]);
        out->band[at] = (struct run_end_band){ now->band, now->bytes, growth };
        if (out->bands < RUN_END_BANDS)
            out->bands++;
    }
    free(before);
}

void run_end_summary(const struct run_end *e, uint64_t end_ns, struct run_end_summary *out)
{
    memset(out, 0, sizeof *out);
    size_t n = e->censuses < RUN_END_CENSUSES ? e->censuses : RUN_END_CENSUSES;
    out->censuses = n;
    if (n) {
        const struct end_census *last = &e->census[(e->censuses - 1) % RUN_END_CENSUSES];
        const struct end_census *first = &e->census[(e->censuses - n) % RUN_END_CENSUSES];
        out->first_census_ns = first->time_ns;
        out->first_census_bytes = first->bytes;
        out->last_census_ns = last->time_ns;
        out->last_census_bytes = last->bytes;
        if (last->time_ns > first->time_ns) {
            double s = (double)(last->time_ns - first->time_ns) / 1e9;
            out->has_growth = true;
            out->growth_bytes_per_s = ((double)last->bytes - (double)first->bytes) / s;
            fastest_bands(first, last, s, out);
        }
    }
    out->has_heap_size = e->has_heap_size;
    out->has_gc = e->has_gc;
    out->heap_size_bytes = e->heap_size;
    uint64_t from = end_ns > RUN_END_WINDOW_NS ? end_ns - RUN_END_WINDOW_NS : 0;
    out->window_ns = end_ns - from;
    for (size_t i = e->head; i < e->count; i++)
        out->gc_in_window_ns += overlap(e->pauses[i].start_ns, e->pauses[i].end_ns, from, end_ns);
    /* a collection the end cut short: from its earliest capability's GC_START */
    uint64_t open = 0;
    for (size_t c = 0; c < e->open_cap; c++)
        if (e->open[c] && (!open || e->open[c] < open))
            open = e->open[c];
    if (open)
        out->gc_in_window_ns += overlap(open - 1, end_ns, from, end_ns);
    if (out->gc_in_window_ns > out->window_ns)
        out->gc_in_window_ns = out->window_ns;
    out->gc_share = out->window_ns ? (double)out->gc_in_window_ns / (double)out->window_ns : 0;
    size_t m = e->markers < RUN_END_MARKERS ? e->markers : RUN_END_MARKERS;
    out->markers = m;
    for (size_t i = 0; i < m; i++)
        out->marker[i] = e->marker[(e->markers - m + i) % RUN_END_MARKERS];
}
