/* livemodel.c: recent censuses whole, older ones merged by band (see livemodel.h).
 *
 * The recent censuses are a ring of slots whose entry arrays are reused, so steady state
 * allocates nothing. A bucket's bands are a list sorted by band number, and two buckets
 * merge by walking both lists once. Censuses come in time order, so only the newest
 * bucket takes censuses: it is kept "open", by band number in arrays as long as the
 * band table, so that merging a census costs its entries and no sort (sorting every
 * census was an eighth of a dense run's work); it is written back as a sorted list
 * ("sealed") when a census falls into a later bucket, before buckets merge, and before
 * anyone reads the buckets (live_model_seal).
 *
 * The bounds (livemodel.h) are kept where memory changes hands: the oldest whole census
 * is retired while the kept ones and the new one would pass the entry bound, its array
 * freed when the arrays together are past it; buckets merge pairwise whenever a sealed
 * bucket leaves them past the record bound, and a bucket emptied by merging gives its
 * array back.
 */
#include "model/livemodel.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/order.h"

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

/* The open bucket, per band number. */
struct open_band {
    uint64_t max;
    struct sum128 sum;
    uint64_t cur;                   /* the band's bytes in the census being merged */
    uint32_t bucket;                /* == open_gen: the band is in the open bucket */
    uint32_t census;                /* == census_gen: cur is this census's */
};

struct live_model {
    struct slot *ring;
    size_t ring_size, oldest, kept;
    size_t recent_entries, kept_entries, ring_cap;  /* the bound, entries kept, allocated */
    size_t bucket_records;          /* the bound on the sealed buckets' records */
    struct bucket *buckets;
    size_t bucket_size, used;       /* used: up to the last bucket with a census */
    uint64_t width_ns;
    uint64_t censuses;
    struct agg *merged;             /* scratch: a merge's result, swapped into a bucket */
    size_t merged_cap;
    /* the open bucket (SIZE_MAX: none): its bands by number, and which they are */
    size_t open;
    struct open_band *dense;
    size_t dense_cap;
    uint32_t *present;
    size_t present_count, present_cap;
    uint32_t open_gen, census_gen;
};

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
    free(m->merged);
    free(m->dense);
    free(m->present);
    free(m);
}

struct live_model *live_model_new(size_t recent, size_t buckets)
{
    return live_model_new_bounded(recent, buckets, LIVE_MODEL_RECENT_ENTRIES,
                                  LIVE_MODEL_BUCKET_RECORDS);
}

struct live_model *live_model_new_bounded(size_t recent, size_t buckets,
                                          size_t recent_entries, size_t bucket_records)
{
    struct live_model *m = recent >= 1 && buckets >= 2 && recent_entries >= 1 &&
                           bucket_records >= 1 ? calloc(1, sizeof *m) : NULL;
    if (m) {
        m->ring_size = recent;
        m->recent_entries = recent_entries;
        m->bucket_records = bucket_records;
        m->bucket_size = buckets;
        m->width_ns = LIVE_MODEL_FIRST_WIDTH_NS;
        m->open = SIZE_MAX;
        m->ring = calloc(recent, sizeof *m->ring);
        m->buckets = calloc(buckets, sizeof *m->buckets);
    }
    if (m && (!m->ring || !m->buckets)) {
        live_model_free(m);
        return NULL;
    }
    return m;
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

static int by_number(const void *x, const void *y)
{
    return order_u64(*(const uint32_t *)x, *(const uint32_t *)y);
}

/* Room in the open arrays for band; a band new to them starts in no bucket. */
static int reach(struct live_model *m, uint32_t band)
{
    return GROW_ARRAY_ZEROED(m->dense, &m->dense_cap, (size_t)band + 1);
}

/* A band into the open bucket (its records zero when new to it). */
static struct open_band *open_band(struct live_model *m, uint32_t band)
{
    if (reach(m, band) != 0 ||
        GROW_ARRAY(m->present, &m->present_cap, m->present_count + 1) != 0)
        return NULL;
    struct open_band *d = &m->dense[band];
    if (d->bucket != m->open_gen) {
        *d = (struct open_band){ .bucket = m->open_gen };
        m->present[m->present_count++] = band;
    }
    return d;
}

/* The open bucket written back as its sorted list. */
static int seal(struct live_model *m)
{
    if (m->open == SIZE_MAX)
        return 0;
    struct bucket *b = &m->buckets[m->open];
    if (GROW_ARRAY(b->bands, &b->cap, m->present_count ? m->present_count : 1) != 0)
        return -1;
    qsort(m->present, m->present_count, sizeof *m->present, by_number);
    for (size_t i = 0; i < m->present_count; i++) {
        const struct open_band *d = &m->dense[m->present[i]];
        b->bands[i] = (struct agg){ m->present[i], d->max, d->sum };
    }
    b->count = m->present_count;
    m->open = SIZE_MAX;
    return 0;
}

/* Bucket at becomes the open one, its list (if any) spread into the arrays. */
static int open_bucket(struct live_model *m, size_t at)
{
    if (seal(m) != 0)
        return -1;
    if (++m->open_gen == 0) {   /* wrapped: no band may look present */
        for (size_t i = 0; i < m->dense_cap; i++)
            m->dense[i].bucket = 0;
        m->open_gen = 1;
    }
    m->present_count = 0;
    const struct bucket *b = &m->buckets[at];
    for (size_t i = 0; i < b->count; i++) {
        struct open_band *d = open_band(m, b->bands[i].band);
        if (!d)
            return -1;
        d->max = b->bands[i].max;
        d->sum = b->bands[i].sum;
    }
    m->open = at;
    return 0;
}

/* A census into the open bucket: each band's entries added up first (a band named twice
 * in one census is one value of it), then its maximum and sum. */
static int merge_census(struct live_model *m, const struct slot *c)
{
    if (++m->census_gen == 0) {
        for (size_t i = 0; i < m->dense_cap; i++)
            m->dense[i].census = 0;
        m->census_gen = 1;
    }
    for (size_t i = 0; i < c->count; i++) {
        struct open_band *d = open_band(m, c->entries[i].band);
        if (!d)
            return -1;
        if (d->census != m->census_gen) {
            d->census = m->census_gen;
            d->cur = 0;
        }
        d->cur += c->entries[i].bytes;
    }
    for (size_t i = 0; i < c->count; i++) {
        struct open_band *d = &m->dense[c->entries[i].band];
        if (d->census != m->census_gen)
            continue;   /* taken in already */
        d->census = 0;
        if (d->cur > d->max)
            d->max = d->cur;
        add128(&d->sum, (struct sum128){ d->cur, 0 });
    }
    struct bucket *b = &m->buckets[m->open];
    if (b->censuses++ == 0)
        b->first_ns = c->time_ns;
    b->last_ns = c->time_ns;
    return 0;
}

/* Neighbours merged pairwise, the width doubled. Bucket i takes buckets 2i and 2i+1;
 * bucket i itself was consumed before (i < 2i) or is 2i, read before it is written.
 * give_back: the emptied buckets free their arrays (merging for the record bound; a
 * merge for time keeps them, to be reused by the next buckets as before). */
static int coarsen(struct live_model *m, bool give_back)
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
        if (give_back && count && count < dst->cap) {
            /* exactly its records: a merge's scratch is sized for both lists */
            struct agg *exact = realloc(dst->bands, count * sizeof *exact);
            if (exact) {
                dst->bands = exact;
                dst->cap = count;
            }
        }
        dst->censuses = r.censuses;
        dst->first_ns = r.first_ns;
        dst->last_ns = r.last_ns;
        if (b)
            b->count = b->censuses = 0;
        if (dst != a)
            a->count = a->censuses = 0;
    }
    for (size_t i = (m->used + 1) / 2; i < m->used; i++) {
        struct bucket *e = &m->buckets[i];
        e->count = e->censuses = 0;
        if (give_back) {
            free(e->bands);
            e->bands = NULL;
            e->cap = 0;
        }
    }
    m->used = (m->used + 1) / 2;
    m->width_ns *= 2;
    if (give_back) {
        free(m->merged);
        m->merged = NULL;
        m->merged_cap = 0;
    }
    return 0;
}

/* The band records the buckets hold allocated (their arrays, and the merge's scratch):
 * what the record bound bounds. */
static size_t records(const struct live_model *m)
{
    size_t n = m->merged_cap;
    for (size_t i = 0; i < m->bucket_size; i++)
        n += m->buckets[i].cap;
    return n;
}

/* The oldest recent census into its bucket. Leaving the open bucket seals it; then the
 * buckets merge while the census falls past the last one or their records are past the
 * bound (down to one bucket: a run with more bands than the bound keeps one). */
static int retire(struct live_model *m, const struct slot *c)
{
    if (m->open != (size_t)(c->time_ns / m->width_ns) || c->time_ns / m->width_ns >=
        m->bucket_size) {
        if (seal(m) != 0)
            return -1;
        while (c->time_ns / m->width_ns >= m->bucket_size)
            if (coarsen(m, false) != 0)
                return -1;
        while (m->used > 1 && records(m) > m->bucket_records)
            if (coarsen(m, true) != 0)
                return -1;
    }
    size_t at = (size_t)(c->time_ns / m->width_ns);
    if (m->open != at && open_bucket(m, at) != 0)
        return -1;
    if (merge_census(m, c) != 0)
        return -1;
    if (at + 1 > m->used)
        m->used = at + 1;
    return 0;
}

int live_model_seal(struct live_model *m)
{
    if (seal(m) != 0) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

int live_model_add(struct live_model *m, const struct census_frame *frame)
{
    size_t need = frame->count ? frame->count : 1;
    while (m->kept > 0 && (m->kept == m->ring_size ||
                           m->kept_entries + need > m->recent_entries)) {
        struct slot *oldest = &m->ring[m->oldest];
        if (retire(m, oldest) != 0)
            goto no_memory;
        m->kept_entries -= oldest->count;
        if (m->ring_cap + need > m->recent_entries) {
            m->ring_cap -= oldest->cap;
            free(oldest->entries);
            oldest->entries = NULL;
            oldest->cap = 0;
        }
        m->oldest = (m->oldest + 1) % m->ring_size;
        m->kept--;
    }
    struct slot *s = &m->ring[(m->oldest + m->kept) % m->ring_size];
    size_t old_cap = s->cap;
    if (GROW_ARRAY(s->entries, &s->cap, need) != 0)
        goto no_memory;
    m->ring_cap += s->cap - old_cap;
    m->kept_entries += frame->count;
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
               m->bucket_size * sizeof *m->buckets + m->merged_cap * sizeof *m->merged +
               m->dense_cap * sizeof *m->dense + m->present_cap * sizeof *m->present;
    for (size_t i = 0; i < m->ring_size; i++)
        n += m->ring[i].cap * sizeof *m->ring[i].entries;
    for (size_t i = 0; i < m->bucket_size; i++)
        n += m->buckets[i].cap * sizeof *m->buckets[i].bands;
    return n;
}
