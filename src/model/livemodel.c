/* livemodel.c: recent censuses whole, older ones merged by band (see livemodel.h).
 *
 * The recent censuses are a ring of slots whose entry arrays are reused, so steady state
 * allocates nothing. A bucket's bands are a list sorted by band number: a census is
 * merged in by sorting its entries (a copy) and walking both lists once, and two buckets
 * merge the same way, so neither costs more than the bands involved.
 */
#include "model/livemodel.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

struct sum128 {
    uint64_t lo, hi;
};

struct agg {
    uint32_t band;
    uint64_t max;
    struct sum128 sum;
};

struct bucket {
    uint64_t censuses, first_ns, last_ns;
    struct agg *bands;              /* sorted by band */
    size_t count, cap;
};

struct slot {
    uint64_t time_ns, era;
    struct census_entry *entries;
    size_t count, cap;
};

struct live_model {
    struct slot *ring;
    size_t ring_size, oldest, kept;
    struct bucket *buckets;
    size_t bucket_size, used;       /* used: up to the last bucket with a census */
    uint64_t width_ns;
    uint64_t censuses;
    struct census_entry *sorted;    /* scratch: a census's entries by band */
    size_t sorted_cap;
    struct agg *merged;             /* scratch: a merge's result, swapped into a bucket */
    size_t merged_cap;
};

struct live_model *live_model_new(size_t recent, size_t buckets)
{
    struct live_model *m = recent >= 1 && buckets >= 2 ? calloc(1, sizeof *m) : NULL;
    if (m) {
        m->ring_size = recent;
        m->bucket_size = buckets;
        m->width_ns = LIVE_MODEL_FIRST_WIDTH_NS;
        m->ring = calloc(recent, sizeof *m->ring);
        m->buckets = calloc(buckets, sizeof *m->buckets);
    }
    if (m && (!m->ring || !m->buckets)) {
        live_model_free(m);
        return NULL;
    }
    return m;
}

void live_model_free(struct live_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->ring && i < m->ring_size; i++)
        free(m->ring[i].entries);
    for (size_t i = 0; m->buckets && i < m->bucket_size; i++)
        free(m->buckets[i].bands);
    free(m->ring);
    free(m->buckets);
    free(m->sorted);
    free(m->merged);
    free(m);
}

static void add128(struct sum128 *s, struct sum128 x)
{
    uint64_t lo = s->lo + x.lo;
    s->hi += x.hi + (lo < x.lo);
    s->lo = lo;
}

static double mean_of(struct sum128 s, uint64_t n)
{
    return ((double)s.hi * 18446744073709551616.0 + (double)s.lo) / (double)n;
}

/* Gives the merge's result to b; b's old list becomes the scratch. */
static void take_merged(struct live_model *m, struct bucket *b, size_t count)
{
    struct agg *old = b->bands;
    size_t old_cap = b->cap;
    b->bands = m->merged;
    b->cap = m->merged_cap;
    b->count = count;
    m->merged = old;
    m->merged_cap = old_cap;
}

/* The union of two sorted lists into the scratch: maxima and sums combined. */
static int merge_lists(struct live_model *m, const struct agg *a, size_t na,
                       const struct agg *b, size_t nb, size_t *count)
{
    if (GROW_ARRAY(m->merged, &m->merged_cap, na + nb ? na + nb : 1) != 0)
        return -1;
    size_t i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && a[i].band < b[j].band)) {
            m->merged[n++] = a[i++];
        } else if (i == na || b[j].band < a[i].band) {
            m->merged[n++] = b[j++];
        } else {
            struct agg r = a[i++];
            if (b[j].max > r.max)
                r.max = b[j].max;
            add128(&r.sum, b[j++].sum);
            m->merged[n++] = r;
        }
    }
    *count = n;
    return 0;
}

static int by_band(const void *x, const void *y)
{
    const struct census_entry *a = x, *b = y;
    return (a->band > b->band) - (a->band < b->band);
}

/* A census into bucket b: its entries by band (one band's entries added together). */
static int merge_census(struct live_model *m, struct bucket *b, const struct slot *c)
{
    if (GROW_ARRAY(m->sorted, &m->sorted_cap, c->count ? c->count : 1) != 0)
        return -1;
    if (c->count)
        memcpy(m->sorted, c->entries, c->count * sizeof *c->entries);
    qsort(m->sorted, c->count, sizeof *m->sorted, by_band);
    size_t n = 0;
    for (size_t i = 0; i < c->count; i++) {
        if (n && m->sorted[n - 1].band == m->sorted[i].band)
            m->sorted[n - 1].bytes += m->sorted[i].bytes;
        else
            m->sorted[n++] = m->sorted[i];
    }
    if (GROW_ARRAY(m->merged, &m->merged_cap, b->count + n ? b->count + n : 1) != 0)
        return -1;
    size_t i = 0, j = 0, k = 0;
    while (i < b->count || j < n) {
        if (j == n || (i < b->count && b->bands[i].band < m->sorted[j].band)) {
            m->merged[k++] = b->bands[i++];
        } else {
            uint64_t bytes = m->sorted[j].bytes;
            struct agg r = { m->sorted[j].band, 0, { 0, 0 } };
            if (i < b->count && b->bands[i].band == m->sorted[j].band)
                r = b->bands[i++];
            if (bytes > r.max)
                r.max = bytes;
            add128(&r.sum, (struct sum128){ bytes, 0 });
            m->merged[k++] = r;
            j++;
        }
    }
    take_merged(m, b, k);
    if (b->censuses++ == 0)
        b->first_ns = c->time_ns;
    b->last_ns = c->time_ns;
    return 0;
}

/* Neighbours merged pairwise, the width doubled. Bucket i takes buckets 2i and 2i+1;
 * bucket i itself was consumed before (i < 2i) or is 2i, read before it is written. */
static int coarsen(struct live_model *m)
{
    for (size_t i = 0; i < (m->used + 1) / 2; i++) {
        struct bucket *a = &m->buckets[2 * i];
        struct bucket *b = 2 * i + 1 < m->used ? &m->buckets[2 * i + 1] : NULL;
        size_t count;
        if (merge_lists(m, a->bands, a->count, b ? b->bands : NULL, b ? b->count : 0,
                        &count) != 0)
            return -1;   /* half merged: the model is only to be freed now */
        struct bucket r = { a->censuses + (b ? b->censuses : 0), a->first_ns, a->last_ns,
                            NULL, 0, 0 };
        if (b && b->censuses) {
            if (!a->censuses)
                r.first_ns = b->first_ns;
            r.last_ns = b->last_ns;
        }
        struct bucket *dst = &m->buckets[i];
        take_merged(m, dst, count);
        dst->censuses = r.censuses;
        dst->first_ns = r.first_ns;
        dst->last_ns = r.last_ns;
        if (b)
            b->count = b->censuses = 0;
        if (dst != a)
            a->count = a->censuses = 0;
    }
    for (size_t i = (m->used + 1) / 2; i < m->used; i++)
        m->buckets[i].count = m->buckets[i].censuses = 0;
    m->used = (m->used + 1) / 2;
    m->width_ns *= 2;
    return 0;
}

/* The oldest recent census into its bucket. */
static int retire(struct live_model *m, const struct slot *c)
{
    while (c->time_ns / m->width_ns >= m->bucket_size)
        if (coarsen(m) != 0)
            return -1;
    size_t at = (size_t)(c->time_ns / m->width_ns);
    if (merge_census(m, &m->buckets[at], c) != 0)
        return -1;
    if (at + 1 > m->used)
        m->used = at + 1;
    return 0;
}

int live_model_add(struct live_model *m, const struct census_frame *frame)
{
    if (m->kept == m->ring_size) {
        struct slot *oldest = &m->ring[m->oldest];
        if (retire(m, oldest) != 0)
            goto no_memory;
        m->oldest = (m->oldest + 1) % m->ring_size;
        m->kept--;
    }
    struct slot *s = &m->ring[(m->oldest + m->kept) % m->ring_size];
    if (GROW_ARRAY(s->entries, &s->cap, frame->count ? frame->count : 1) != 0)
        goto no_memory;
    if (frame->count)
        memcpy(s->entries, frame->entries, frame->count * sizeof *frame->entries);
    s->count = frame->count;
    s->time_ns = frame->time_ns;
    s->era = frame->era;
    m->kept++;
    m->censuses++;
    return 0;
no_memory:
    errno = ENOMEM;
    return -1;
}

uint64_t live_model_censuses(const struct live_model *m) { return m->censuses; }
size_t live_model_recent_count(const struct live_model *m) { return m->kept; }
size_t live_model_bucket_count(const struct live_model *m) { return m->used; }
uint64_t live_model_width_ns(const struct live_model *m) { return m->width_ns; }

struct census_frame live_model_recent(const struct live_model *m, size_t i)
{
    const struct slot *s = &m->ring[(m->oldest + i) % m->ring_size];
    return (struct census_frame){ s->time_ns, s->era, s->count, s->entries };
}

struct live_bucket live_model_bucket(const struct live_model *m, size_t i)
{
    const struct bucket *b = &m->buckets[i];
    return (struct live_bucket){ b->censuses, b->first_ns, b->last_ns, b->count };
}

struct live_band live_model_bucket_band(const struct live_model *m, size_t i, size_t k)
{
    const struct bucket *b = &m->buckets[i];
    const struct agg *a = &b->bands[k];
    return (struct live_band){ a->band, a->max, mean_of(a->sum, b->censuses) };
}

size_t live_model_bytes(const struct live_model *m)
{
    size_t n = sizeof *m + m->ring_size * sizeof *m->ring +
               m->bucket_size * sizeof *m->buckets + m->sorted_cap * sizeof *m->sorted +
               m->merged_cap * sizeof *m->merged;
    for (size_t i = 0; i < m->ring_size; i++)
        n += m->ring[i].cap * sizeof *m->ring[i].entries;
    for (size_t i = 0; i < m->bucket_size; i++)
        n += m->buckets[i].cap * sizeof *m->buckets[i].bands;
    return n;
}
