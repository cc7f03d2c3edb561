/* buckets.c: bounded census buckets, heap totals, collections and markers (buckets.h).
 *
 * Hot path: buckets_place_spare swaps buffers; a census is copied only into the spare,
 * and buffers are recycled between censuses, so placing one allocates only when a
 * buffer must grow.
 */
#include "model/buckets.h"

#include "base/grow.h"
#include "base/limits.h"
#include "base/textcopy.h"
#include "base/utf8.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_BUCKET_NS 1000u   /* 1 us: doubled as needed, a few dozen times at most */

int buckets_init(struct buckets *g, unsigned columns, uint64_t origin_ns)
{
    memset(g, 0, sizeof *g);
    if (columns < PROFILE_MIN_COLUMNS)
        columns = PROFILE_MIN_COLUMNS;
    if (columns > PROFILE_MAX_COLUMNS)
        columns = PROFILE_MAX_COLUMNS;
    g->count = 2 * (size_t)columns;
    g->origin_ns = origin_ns;
    g->width_ns = FIRST_BUCKET_NS;
    g->census = calloc(g->count, sizeof *g->census);
    return g->census ? 0 : -1;
}

void buckets_free(struct buckets *g)
{
    if (g->census)
        for (size_t i = 0; i < g->count; i++)
            for (unsigned r = 0; r < 2; r++)
                free(g->census[i].rep[r].entries);
    free(g->census);
    free(g->spare.entries);
    census_store_unref(g->store);
    for (int k = 0; k < PROFILE_TOTALS; k++)
        free(g->totals[k]);
    for (int l = 0; l < PROFILE_GC_LANES; l++)
        free(g->gc_marks[l]);
    for (size_t i = 0; i < g->marker_count; i++)
        free(g->markers[i].text);
    free(g->markers);
    memset(g, 0, sizeof *g);
}

static void kept_swap(struct kept_census *a, struct kept_census *b)
{
    struct kept_census t = *a;
    *a = *b;
    *b = t;
}

/* Which of n censuses (time order) a bucket keeps: the first with the largest total and
 * the first with the smallest, in time order; when all totals are equal, the first two.
 * The choice is the same whether made over all the bucket's censuses at once or over
 * what earlier choices kept (ties go to the earlier census either way), which is what
 * lets buckets_reduce merge buckets exactly. Sets pick[0..*picked). */
static void pick_extremes(const uint64_t *totals, unsigned n, unsigned pick[2], unsigned *picked)
{
    unsigned hi = 0, lo = 0;
    for (unsigned i = 1; i < n; i++) {
        if (totals[i] > totals[hi])
            hi = i;
        if (totals[i] < totals[lo])
            lo = i;
    }
    if (hi == lo)
        lo = hi == 0 ? 1 : 0;   /* two censuses at least: keep two */
    pick[0] = hi < lo ? hi : lo;
    pick[1] = hi < lo ? lo : hi;
    *picked = n < 2 ? n : 2;
}

/* Keeps, of the censuses in cands (time order), the largest and smallest total. */
static void keep_extremes(struct kept_census *cands, unsigned n, struct census_bucket *out,
                          struct kept_census *discard_to_spare)
{
    uint64_t totals[4] = { 0 };
    for (unsigned i = 0; i < n; i++)
        totals[i] = cands[i].total;
    unsigned pick[2], picked;
    pick_extremes(totals, n, pick, &picked);
    unsigned first = pick[0], second = pick[1];
    out->reps = picked;
    out->rep[0] = cands[first];
    if (n >= 2)
        out->rep[1] = cands[second];
    for (unsigned i = 0; i < n; i++) {
        if (i == first || (n >= 2 && i == second))
            continue;
        /* a dropped census: its buffer becomes the spare if that has none */
        if (discard_to_spare && !discard_to_spare->entries && cands[i].entries)
            *discard_to_spare = cands[i];
        else
            free(cands[i].entries);
    }
}

/* The entries a bucket's kept censuses hold in memory. */
static uint64_t in_memory(const struct census_bucket *b)
{
    uint64_t n = 0;
    for (unsigned r = 0; r < b->reps; r++)
        n += b->rep[r].stored ? 0 : b->rep[r].count;
    return n;
}

static void merge_bucket_pair(struct buckets *g, struct census_bucket *a,
                              struct census_bucket *b, struct census_bucket *out)
{
    g->kept_entries -= in_memory(a) + in_memory(b);
    struct kept_census cands[4];
    unsigned n = 0;
    for (unsigned i = 0; i < a->reps; i++)
        cands[n++] = a->rep[i];
    for (unsigned i = 0; i < b->reps; i++)
        cands[n++] = b->rep[i];
    /* buffers of empty slots are freed so no entries pointer is shared */
    for (unsigned i = a->reps; i < 2; i++)
        free(a->rep[i].entries);
    for (unsigned i = b->reps; i < 2; i++)
        free(b->rep[i].entries);
    memset(out, 0, sizeof *out);
    if (n)
        keep_extremes(cands, n, out, &g->spare);
    g->kept_entries += in_memory(out);
}

/* Two total buckets as one: the larger high, the smaller low. */
static void merge_total(struct total_bucket *m, const struct total_bucket *t)
{
    if (!t->used)
        return;
    if (!m->used) {
        *m = *t;
        return;
    }
    if (t->hi > m->hi)
        m->hi = t->hi, m->hi_ns = t->hi_ns;
    if (t->lo < m->lo)
        m->lo = t->lo, m->lo_ns = t->lo_ns;
}

static void merge_totals(struct total_bucket *t, size_t count)
{
    for (size_t i = 0; i < count / 2; i++) {
        struct total_bucket m = t[2 * i];
        merge_total(&m, &t[2 * i + 1]);
        t[i] = m;
    }
    memset(t + count / 2, 0, (count - count / 2) * sizeof *t);
}

static void merge_markers(struct buckets *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->marker_count; i++) {
        if (n && buckets_index(g, g->markers[n - 1].time_ns) ==
                     buckets_index(g, g->markers[i].time_ns)) {
            g->markers[n - 1].merged += 1 + g->markers[i].merged;
            free(g->markers[i].text);
            continue;
        }
        g->markers[n++] = g->markers[i];
    }
    g->marker_count = n;
}

/* b's collections into a: the longer pause kept (the earlier of equal ones: the same
 * whatever the order of merging), the counts summed. */
static void merge_mark(struct gc_mark *a, const struct gc_mark *b)
{
    if (!b->count)
        return;
    if (!a->count || b->pause_ns > a->pause_ns ||
        (b->pause_ns == a->pause_ns && b->start_ns < a->start_ns)) {
        a->start_ns = b->start_ns;
        a->pause_ns = b->pause_ns;
    }
    a->count += b->count;
}

void buckets_make_room(struct buckets *g, uint64_t time_ns)
{
    if (time_ns > g->room_ns)
        g->room_ns = time_ns;
    while (buckets_index(g, time_ns) >= g->count) {
        size_t half = g->count / 2;
        for (size_t i = 0; i < half; i++) {
            struct census_bucket merged;
            merge_bucket_pair(g, &g->census[2 * i], &g->census[2 * i + 1], &merged);
            g->census[i] = merged;
        }
        memset(g->census + half, 0, (g->count - half) * sizeof *g->census);
        for (int k = 0; k < PROFILE_TOTALS; k++)
            if (g->totals[k])
                merge_totals(g->totals[k], g->count);
        for (int l = 0; l < PROFILE_GC_LANES; l++) {
            struct gc_mark *m = g->gc_marks[l];
            if (!m)
                continue;
            for (size_t i = 0; i < half; i++) {
                struct gc_mark a = m[2 * i], b = m[2 * i + 1];
                m[i] = a;
                merge_mark(&m[i], &b);
            }
            memset(m + half, 0, (g->count - half) * sizeof *m);
        }
        g->width_ns *= 2;
        if (g->markers_merging)
            merge_markers(g);
    }
}

/* buckets_place_spare with a store: only a census the bucket keeps is written (a dip or
 * a spike; the others of its bucket are never), and the bucket keeps its place. */
static int place_stored(struct buckets *g, struct census_bucket *b)
{
    const struct kept_census *k = &g->spare;
    if (b->reps == 2) {
        uint64_t totals[3] = { b->rep[0].total, b->rep[1].total, k->total };
        unsigned pick[2], picked;
        pick_extremes(totals, 3, pick, &picked);
        if (pick[0] != 2 && pick[1] != 2)
            return 0;   /* dropped at once */
    }
    struct kept_census light = { .time_ns = k->time_ns, .total = k->total, .count = k->count };
    uint64_t where;
    if (census_store_put(g->store, k->entries, k->count, &where) != 0)
        return -1;
    light.stored = where + 1;
    if (b->reps < 2) {
        free(b->rep[b->reps].entries);   /* a buffer left from before the store */
        b->rep[b->reps++] = light;
        return 0;
    }
    struct kept_census cands[3] = { b->rep[0], b->rep[1], light };
    keep_extremes(cands, 3, b, NULL);
    return 0;
}

int buckets_place_spare(struct buckets *g)
{
    struct census_bucket *b = &g->census[buckets_index(g, g->spare.time_ns)];
    if (g->store)
        return place_stored(g, b);
    g->kept_entries -= in_memory(b);
    if (b->reps < 2) {
        kept_swap(&b->rep[b->reps], &g->spare);
        b->reps++;
    } else {
        struct kept_census cands[3] = { b->rep[0], b->rep[1], g->spare };
        memset(&g->spare, 0, sizeof g->spare);
        keep_extremes(cands, 3, b, &g->spare);
    }
    g->kept_entries += in_memory(b);
    return 0;
}

int buckets_use_store(struct buckets *g)
{
    if (g->store)
        return 0;
    if (!(g->store = census_store_new()))
        return -1;
    for (size_t i = 0; i < g->count; i++)
        for (unsigned r = 0; r < 2; r++) {
            struct kept_census *k = &g->census[i].rep[r];
            if (r < g->census[i].reps && !k->stored) {
                uint64_t where;
                if (census_store_put(g->store, k->entries, k->count, &where) != 0)
                    return -1;
                k->stored = where + 1;
            }
            free(k->entries);
            k->entries = NULL;
            k->cap = 0;
        }
    g->kept_entries = 0;
    return 0;
}

const struct census_entry *buckets_entries(const struct buckets *g, const struct kept_census *k,
                                           struct census_entry **scratch, size_t *cap)
{
    static const struct census_entry none[1];
    if (!k->stored)
        return k->entries ? k->entries : none;   /* a census without entries */
    if (census_store_get(g->store, k->stored - 1, k->count, scratch, cap) != 0)
        return NULL;
    return *scratch;
}

int kept_census_reserve(struct kept_census *k, size_t count)
{
    if (count <= k->cap)
        return 0;
    /* a fresh buffer is sized to the census at once: most censuses are alike in size, and
     * a growing chain of reallocs per kept census showed up as most of the cost */
    size_t cap = k->cap;
    if (GROW_ARRAY(k->entries, &cap, k->cap ? count : count + count / 4 + 16) != 0)
        return -1;
    k->cap = (uint32_t)cap;   /* count is at most CENSUS_MAX_ENTRIES: cap fits */
    return 0;
}

/* Sized exactly: a copy is read (reports, snapshots of a live run), and reserve's room
 * to grow would cost a quarter more memory for every copy of a dense profile. */
int kept_census_copy(struct kept_census *to, const struct kept_census *from)
{
    *to = (struct kept_census){ .time_ns = from->time_ns, .total = from->total };
    if (from->stored) {
        /* on disk: the copy shares the store (buckets_reduce) */
        to->count = from->count;
        to->stored = from->stored;
        return 0;
    }
    if (!from->count)
        return 0;
    if (!(to->entries = copy_array(from->entries, from->count, sizeof *from->entries)))
        return -1;
    to->cap = to->count = from->count;
    return 0;
}

/* The bound on markers kept whole. */
static size_t marker_limit(const struct buckets *g)
{
    return g->count > PROFILE_MARKERS_WHOLE ? g->count : PROFILE_MARKERS_WHOLE;
}

int buckets_add_marker(struct buckets *g, uint64_t time_ns, const char *text, size_t len)
{
    buckets_make_room(g, time_ns);
    g->markers_seen++;
    /* Every marker is kept whole (its text for its line's tooltip) up to a bound; past it,
     * markers within one bucket become one, the others counted. */
    size_t limit = marker_limit(g);
    if (!g->markers_merging && g->marker_count >= limit) {
        g->markers_merging = true;
        merge_markers(g);
    }
    if (g->markers_merging && g->marker_count &&
        buckets_index(g, g->markers[g->marker_count - 1].time_ns) == buckets_index(g, time_ns)) {
        g->markers[g->marker_count - 1].merged++;
        return 0;
    }
    if (g->marker_count == 0) {
        g->markers = calloc(limit, sizeof *g->markers);
        if (!g->markers)
            return -1;
    }
    if (g->marker_count >= limit)
        return 0;   /* markers out of time order beyond the range: keep what we have */
    if (len > PROFILE_MAX_MARKER_TEXT)
        len = utf8_boundary(text, PROFILE_MAX_MARKER_TEXT);   /* never inside a character */
    char *copy = text_copy(text, len);
    if (!copy)
        return -1;
    g->markers[g->marker_count++] = (struct profile_marker){ time_ns, copy, 0 };
    return 0;
}

int buckets_add_collection(struct buckets *g, unsigned lane, uint64_t start_ns,
                           uint64_t end_ns)
{
    if (lane >= PROFILE_GC_LANES)
        lane = PROFILE_GC_LANES - 1;
    if (!g->gc_marks[lane] && !(g->gc_marks[lane] = calloc(g->count, sizeof(struct gc_mark))))
        return -1;
    buckets_make_room(g, start_ns);
    struct gc_mark one = { start_ns, end_ns - start_ns, 1 };
    merge_mark(&g->gc_marks[lane][buckets_index(g, start_ns)], &one);
    return 0;
}

int buckets_add_total(struct buckets *g, enum heap_total kind, uint64_t time_ns,
                      uint64_t bytes)
{
    if (!g->totals[kind]) {
        g->totals[kind] = calloc(g->count, sizeof *g->totals[kind]);
        if (!g->totals[kind])
            return -1;
    }
    buckets_make_room(g, time_ns);
    struct total_bucket one = { true, time_ns, bytes, time_ns, bytes };
    merge_total(&g->totals[kind][buckets_index(g, time_ns)], &one);
    return 0;
}

size_t buckets_kept(const struct buckets *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->count; i++)
        n += g->census[i].reps;
    return n;
}

/* q's bucket from p's buckets [lo, hi): the censuses a bucket of q's width would have
 * kept. pick_extremes chooses the same over what p's buckets kept as over every census
 * they saw, so folding them in time order is exact. */
static int reduce_bucket(struct census_bucket *out, const struct buckets *p, size_t lo,
                         size_t hi)
{
    const struct kept_census *kept[2];
    unsigned n = 0;
    for (size_t i = lo; i < hi; i++) {
        const struct census_bucket *b = &p->census[i];
        const struct kept_census *cands[4];
        uint64_t totals[4];
        unsigned m = 0;
        for (unsigned k = 0; k < n; k++)
            cands[m++] = kept[k];
        for (unsigned k = 0; k < b->reps; k++)
            cands[m++] = &b->rep[k];
        if (m == n)
            continue;
        for (unsigned k = 0; k < m; k++)
            totals[k] = cands[k]->total;
        unsigned pick[2];
        pick_extremes(totals, m, pick, &n);
        for (unsigned k = 0; k < n; k++)
            kept[k] = cands[pick[k]];
    }
    for (unsigned k = 0; k < n; k++)
        if (kept_census_copy(&out->rep[k], kept[k]) != 0)
            return -1;
    out->reps = n;
    return 0;
}

/* q's markers from p's: all of them while q keeps every marker whole; past q's bound,
 * one per run of markers in one of q's buckets (the first, the others counted), which is
 * what merging as the buckets widened leaves, whatever width it started at. */
static int reduce_markers(struct buckets *q, const struct buckets *p)
{
    q->markers_seen = p->markers_seen;
    if (!p->marker_count)
        return 0;
    size_t limit = marker_limit(q);
    q->markers = calloc(limit, sizeof *q->markers);
    if (!q->markers)
        return -1;
    q->markers_merging = q->markers_seen > limit;
    for (size_t i = 0; i < p->marker_count; i++) {
        const struct profile_marker *m = &p->markers[i];
        if (q->markers_merging && q->marker_count &&
            buckets_index(q, q->markers[q->marker_count - 1].time_ns) ==
                buckets_index(q, m->time_ns)) {
            q->markers[q->marker_count - 1].merged += 1 + m->merged;
            continue;
        }
        if (q->marker_count >= limit)
            break;   /* as add_marker: markers out of time order beyond the range */
        char *text = strdup(m->text);
        if (!text)
            return -1;
        q->markers[q->marker_count++] = (struct profile_marker){ m->time_ns, text, m->merged };
    }
    return 0;
}

int buckets_reduce(struct buckets *q, const struct buckets *p)
{
    q->room_ns = p->room_ns;
    if (p->store && !q->store)
        q->store = census_store_ref(p->store);
    /* The width make_room would have reached with q's buckets: the least that holds the
     * latest time any bucket had to hold. Both widths are FIRST_BUCKET_NS times a power
     * of two and q has no more buckets than p, so each of q's buckets is r of p's. */
    q->width_ns = FIRST_BUCKET_NS;
    while (buckets_index(q, p->room_ns) >= q->count)
        q->width_ns *= 2;
    if (q->width_ns < p->width_ns)
        return -2;
    size_t r = (size_t)(q->width_ns / p->width_ns);
    for (size_t j = 0; j < q->count && j * r < p->count; j++) {
        size_t lo = j * r, hi = lo + r < p->count ? lo + r : p->count;
        if (reduce_bucket(&q->census[j], p, lo, hi) != 0)
            return -1;
        q->kept_entries += in_memory(&q->census[j]);
    }
    for (int k = 0; k < PROFILE_TOTALS; k++) {
        if (!p->totals[k])
            continue;
        q->totals[k] = calloc(q->count, sizeof *q->totals[k]);
        if (!q->totals[k])
            return -1;
        for (size_t i = 0; i < p->count; i++)
            if (i / r < q->count)
                merge_total(&q->totals[k][i / r], &p->totals[k][i]);
    }
    for (int l = 0; l < PROFILE_GC_LANES; l++) {
        if (!p->gc_marks[l])
            continue;
        /* the longest of a group, whichever order it is merged in, as make_room's */
        if (!(q->gc_marks[l] = calloc(q->count, sizeof *q->gc_marks[l])))
            return -1;
        for (size_t i = 0; i < p->count; i++)
            if (i / r < q->count)
                merge_mark(&q->gc_marks[l][i / r], &p->gc_marks[l][i]);
    }
    return reduce_markers(q, p);
}

int buckets_series(const struct buckets *g, enum heap_total kind, struct profile_series *s)
{
    memset(s, 0, sizeof *s);
    const struct total_bucket *t = g->totals[kind];
    if (!t)
        return 0;
    s->time_ns = malloc(2 * g->count * sizeof *s->time_ns);
    s->bytes = malloc(2 * g->count * sizeof *s->bytes);
    if (!s->time_ns || !s->bytes)
        return -1;
    for (size_t i = 0; i < g->count; i++) {
        if (!t[i].used)
            continue;
        bool lo_first = t[i].lo_ns <= t[i].hi_ns;
        uint64_t t1 = lo_first ? t[i].lo_ns : t[i].hi_ns, v1 = lo_first ? t[i].lo : t[i].hi;
        uint64_t t2 = lo_first ? t[i].hi_ns : t[i].lo_ns, v2 = lo_first ? t[i].hi : t[i].lo;
        s->time_ns[s->count] = t1;
        s->bytes[s->count++] = v1;
        if (t2 != t1 || v2 != v1) {
            s->time_ns[s->count] = t2;
            s->bytes[s->count++] = v2;
        }
    }
    return 0;
}
