/* profile.c: bounded census buckets, exact band statistics, band selection (profile.h).
 *
 * Hot path: profile_add_frame touches each entry of the census a constant number of
 * times (filter lookup, statistics, copy into the bucket's spare census) and allocates
 * only when a buffer must grow; buffers are recycled between censuses.
 */
#include "model/profile.h"
#include "base/grow.h"

#include "base/utf8.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_BUCKET_NS 1000u   /* 1 us: doubled as needed, a few dozen times at most */

struct kept_census {
    uint64_t time_ns;
    uint64_t total;
    uint32_t count, cap;
    struct census_entry *entries;
};

struct bucket {
    unsigned reps;               /* kept censuses: 0, 1 or 2, in time order */
    struct kept_census rep[2];
};

struct total_bucket {
    bool used;
    uint64_t lo_ns, lo, hi_ns, hi;   /* the smallest and the largest value, with times */
};

struct band_state {
    signed char filter;          /* 0 not decided yet, 1 kept, -1 dropped by a filter */
    bool seen;
    uint64_t peak;
    double area;
    uint64_t counted;            /* censuses accounted for in mean and m2 */
    double mean, m2;
    uint64_t last;               /* the band's bytes in the last census it was in */
    long double sty;             /* sum of (t - first census) x bytes, t in seconds */
    /* the fit's sums when the band reached its peak (suspects judge the rise to it) */
    uint64_t pk_n, pk_ns;
    double pk_tmean, pk_tm2, pk_mean, pk_m2;
    long double pk_sty;
};

struct profile {
    struct profile_options opt;
    regex_t include[PROFILE_MAX_FILTERS];
    regex_t exclude[PROFILE_MAX_FILTERS];
    size_t include_count, exclude_count;
    uint64_t from_ns, to_ns;

    struct band_state *band;
    size_t band_cap;

    uint64_t censuses;
    uint64_t first_ns, last_ns;
    struct kept_census previous; /* the last census (kept entries), for trapezoid areas */
    struct kept_census spare;    /* where the next census is copied before it is placed */
    /* The window's edges: the censuses on either side of each, so bands can be cut at
     * the edges by interpolation; and the run's extent whatever the window. */
    struct kept_census before, first, after;
    bool has_before, has_first, has_after;
    uint64_t run_censuses, run_first_ns, run_last_ns;

    size_t bucket_count;         /* 2 x columns */
    uint64_t origin_ns;          /* the start of bucket 0 */
    uint64_t width_ns;           /* the width of a bucket */
    struct bucket *buckets;
    struct total_bucket *totals[PROFILE_TOTALS];
    struct profile_marker *markers;
    size_t marker_count;
    bool markers_merging;        /* past PROFILE_MARKERS_WHOLE: one marker per bucket */
    uint64_t markers_seen;       /* markers in the window, kept or merged */
    uint64_t room_ns;            /* the latest time buckets were made to hold: with
                                  * bucket_count it decides width_ns (profile_reduce) */

    double t_mean, t_m2;         /* census times (s after the first): Welford, for growth */
    uint64_t peak_total;         /* the largest census total */
    double *gc_busy;             /* per bucket: ns spent collecting; NULL before any */
    bool gc_open;
    uint64_t gc_start_ns;        /* when the open collection began */
    uint64_t gc_count;
    double gc_total_ns;
};

void profile_options_default(struct profile_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->bands = 15;
    opt->trace_percent = 1.0;
    opt->sort = PROFILE_SORT_SIZE;
    opt->columns = 1280;
}

void profile_options_every_band(struct profile_options *opt)
{
    profile_options_default(opt);
    opt->bands = 0;
    opt->trace_percent = 0;
    opt->columns = PROFILE_MAX_COLUMNS;
}

bool profile_sort_from_name(const char *name, enum profile_sort *sort)
{
    static const struct { const char *name; enum profile_sort sort; } sorts[] = {
        { "size", PROFILE_SORT_SIZE }, { "stddev", PROFILE_SORT_STDDEV },
        { "name", PROFILE_SORT_NAME }, { "growth", PROFILE_SORT_GROWTH },
    };
    for (size_t i = 0; i < sizeof sorts / sizeof *sorts; i++)
        if (strcmp(name, sorts[i].name) == 0) {
            *sort = sorts[i].sort;
            return true;
        }
    return false;
}

static int compile(regex_t *re, const char *pattern, struct ev_error *err)
{
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[160];
        regerror(rc, re, msg, sizeof msg);
        ev_error_set(err, "bad regular expression '%s': %s", pattern, msg);
        return -1;
    }
    return 0;
}

int profile_check_pattern(const char *pattern, struct ev_error *err)
{
    regex_t re;
    if (compile(&re, pattern, err) != 0)
        return -1;
    regfree(&re);
    return 0;
}

struct profile *profile_new(const struct profile_options *opt, struct ev_error *err)
{
    struct profile *p = calloc(1, sizeof *p);
    if (!p) {
        ev_error_set(err, "out of memory");
        return NULL;
    }
    p->opt = *opt;
    unsigned columns = opt->columns;
    if (columns < PROFILE_MIN_COLUMNS)
        columns = PROFILE_MIN_COLUMNS;
    if (columns > PROFILE_MAX_COLUMNS)
        columns = PROFILE_MAX_COLUMNS;
    for (size_t i = 0; i < opt->include_count && i < PROFILE_MAX_FILTERS; i++, p->include_count++)
        if (compile(&p->include[i], opt->include[i], err) != 0)
            goto fail;
    for (size_t i = 0; i < opt->exclude_count && i < PROFILE_MAX_FILTERS; i++, p->exclude_count++)
        if (compile(&p->exclude[i], opt->exclude[i], err) != 0)
            goto fail;
    p->from_ns = opt->has_from && opt->from_seconds > 0 ? (uint64_t)(opt->from_seconds * 1e9) : 0;
    p->to_ns = opt->has_to ? (uint64_t)(opt->to_seconds * 1e9) : UINT64_MAX;
    p->bucket_count = 2 * (size_t)columns;
    p->origin_ns = p->from_ns;
    p->width_ns = FIRST_BUCKET_NS;
    p->buckets = calloc(p->bucket_count, sizeof *p->buckets);
    if (!p->buckets) {
        ev_error_set(err, "out of memory");
        goto fail;
    }
    return p;
fail:
    profile_free(p);
    return NULL;
}

void profile_free(struct profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->include_count; i++)
        regfree(&p->include[i]);
    for (size_t i = 0; i < p->exclude_count; i++)
        regfree(&p->exclude[i]);
    if (p->buckets)
        for (size_t i = 0; i < p->bucket_count; i++)
            for (unsigned r = 0; r < 2; r++)
                free(p->buckets[i].rep[r].entries);
    free(p->buckets);
    for (int k = 0; k < PROFILE_TOTALS; k++)
        free(p->totals[k]);
    free(p->gc_busy);
    for (size_t i = 0; i < p->marker_count; i++)
        free(p->markers[i].text);
    free(p->markers);
    free(p->previous.entries);
    free(p->spare.entries);
    free(p->before.entries);
    free(p->first.entries);
    free(p->after.entries);
    free(p->band);
    free(p);
}

/* --- buckets ---------------------------------------------------------------------- */

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
 * lets profile_reduce merge buckets exactly. Sets pick[0..*picked). */
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
static void keep_extremes(struct kept_census *cands, unsigned n, struct bucket *out,
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
        if (discard_to_spare && !discard_to_spare->entries)
            *discard_to_spare = cands[i];
        else
            free(cands[i].entries);
    }
}

static void merge_bucket_pair(struct profile *p, struct bucket *a, struct bucket *b,
                              struct bucket *out)
{
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
        keep_extremes(cands, n, out, &p->spare);
}

static void merge_totals(struct total_bucket *t, size_t count)
{
    for (size_t i = 0; i < count / 2; i++) {
        struct total_bucket a = t[2 * i], b = t[2 * i + 1], m = a;
        if (!a.used)
            m = b;
        else if (b.used) {
            if (b.hi > a.hi)
                m.hi = b.hi, m.hi_ns = b.hi_ns;
            if (b.lo < a.lo)
                m.lo = b.lo, m.lo_ns = b.lo_ns;
        }
        t[i] = m;
    }
    memset(t + count / 2, 0, (count - count / 2) * sizeof *t);
}

static uint64_t bucket_of(const struct profile *p, uint64_t time_ns)
{
    return time_ns <= p->origin_ns ? 0 : (time_ns - p->origin_ns) / p->width_ns;
}

static void merge_markers(struct profile *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->marker_count; i++) {
        if (n && bucket_of(p, p->markers[n - 1].time_ns) == bucket_of(p, p->markers[i].time_ns)) {
            p->markers[n - 1].merged += 1 + p->markers[i].merged;
            free(p->markers[i].text);
            continue;
        }
        p->markers[n++] = p->markers[i];
    }
    p->marker_count = n;
}

/* Doubles the bucket width until time_ns falls in a bucket. */
static void make_room(struct profile *p, uint64_t time_ns)
{
    if (time_ns > p->room_ns)
        p->room_ns = time_ns;
    while (bucket_of(p, time_ns) >= p->bucket_count) {
        size_t half = p->bucket_count / 2;
        for (size_t i = 0; i < half; i++) {
            struct bucket merged;
            merge_bucket_pair(p, &p->buckets[2 * i], &p->buckets[2 * i + 1], &merged);
            p->buckets[i] = merged;
        }
        memset(p->buckets + half, 0, (p->bucket_count - half) * sizeof *p->buckets);
        for (int k = 0; k < PROFILE_TOTALS; k++)
            if (p->totals[k])
                merge_totals(p->totals[k], p->bucket_count);
        if (p->gc_busy) {
            for (size_t i = 0; i < half; i++)
                p->gc_busy[i] = p->gc_busy[2 * i] + p->gc_busy[2 * i + 1];
            memset(p->gc_busy + half, 0, (p->bucket_count - half) * sizeof *p->gc_busy);
        }
        p->width_ns *= 2;
        if (p->markers_merging)
            merge_markers(p);
    }
}

/* Places the spare census (just filled) in its bucket; what is dropped becomes spare. */
static void place_spare(struct profile *p)
{
    struct bucket *b = &p->buckets[bucket_of(p, p->spare.time_ns)];
    if (b->reps < 2) {
        kept_swap(&b->rep[b->reps], &p->spare);
        b->reps++;
        return;
    }
    struct kept_census cands[3] = { b->rep[0], b->rep[1], p->spare };
    memset(&p->spare, 0, sizeof p->spare);
    keep_extremes(cands, 3, b, &p->spare);
}

static int reserve(struct kept_census *k, size_t count)
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

/* --- statistics ------------------------------------------------------------------- */

static int grow_bands(struct profile *p, uint32_t needed)
{
    if (needed <= p->band_cap)
        return 0;
    size_t old = p->band_cap;
    if (GROW_ARRAY(p->band, &p->band_cap, needed) != 0)
        return -1;
    memset(p->band + old, 0, (p->band_cap - old) * sizeof *p->band);
    return 0;
}

static bool label_passes(const struct profile *p, const char *label)
{
    if (p->include_count) {
        bool any = false;
        for (size_t i = 0; i < p->include_count && !any; i++)
            any = regexec(&p->include[i], label, 0, NULL, 0) == 0;
        if (!any)
            return false;
    }
    for (size_t i = 0; i < p->exclude_count; i++)
        if (regexec(&p->exclude[i], label, 0, NULL, 0) == 0)
            return false;
    return true;
}

/* Decided once per band; labels are not NUL-terminated in the band table. */
static bool band_kept(struct profile *p, uint32_t band, const struct bands *bands)
{
    struct band_state *s = &p->band[band];
    if (s->filter == 0 && !p->include_count && !p->exclude_count)
        s->filter = 1;
    if (s->filter == 0) {
        size_t len;
        const char *label = bands_display_label(bands, band, &len);
        char *copy = strndup(label ? label : "", label ? len : 0);
        if (!copy)
            return false;   /* decided again next time */
        s->filter = label_passes(p, copy) ? 1 : -1;
        free(copy);
    }
    return s->filter > 0;
}

/* Counts `zeros` censuses without the band into its mean and m2 (Chan et al.). */
static void add_zeros(struct band_state *s, uint64_t zeros)
{
    if (!zeros)
        return;
    double n = (double)s->counted, m = (double)zeros, total = n + m;
    s->m2 += s->mean * s->mean * n * m / total;
    s->mean = s->mean * n / total;
    s->counted += zeros;
}

/* Takes the last observation x back out of mean and m2 (Welford in reverse). */
static void remove_last(struct band_state *s, uint64_t x_bytes)
{
    double x = (double)x_bytes, n = (double)s->counted;
    s->counted--;
    if (s->counted == 0) {
        s->mean = s->m2 = 0;
        return;
    }
    double mean = (n * s->mean - x) / (n - 1);
    s->m2 -= (x - mean) * (x - s->mean);
    if (s->m2 < 0)
        s->m2 = 0;
    s->mean = mean;
}

static void add_value(struct band_state *s, uint64_t census_index, uint64_t bytes)
{
    if (s->counted > census_index) {
        /* the band twice in one census: one observation of the sum */
        remove_last(s, s->last);
        bytes += s->last;
    }
    add_zeros(s, census_index - s->counted);
    s->counted++;
    s->last = bytes;
    double x = (double)bytes, d = x - s->mean;
    s->mean += d / (double)s->counted;
    s->m2 += d * (x - s->mean);
    if (bytes > s->peak)
        s->peak = bytes;
    s->seen = true;
}

/* Half of each trapezoid between the previous census and this one comes from each end. */
static void add_areas(struct profile *p, const struct kept_census *now)
{
    if (p->censuses == 0)
        return;
    double half_dt = (double)(now->time_ns - p->previous.time_ns) / 2e9;
    for (uint32_t i = 0; i < p->previous.count; i++)
        p->band[p->previous.entries[i].band].area += (double)p->previous.entries[i].bytes * half_dt;
    for (uint32_t i = 0; i < now->count; i++)
        p->band[now->entries[i].band].area += (double)now->entries[i].bytes * half_dt;
}

/* A census outside the window, its kept bands copied into k (no statistics). */
static int copy_kept(struct profile *p, const struct census_frame *frame,
                     const struct bands *bands, struct kept_census *k)
{
    if (reserve(k, frame->count) != 0)
        return -1;
    k->time_ns = frame->time_ns;
    k->count = 0;
    k->total = 0;
    for (size_t i = 0; i < frame->count; i++) {
        const struct census_entry *e = &frame->entries[i];
        if (e->band >= p->band_cap || !band_kept(p, e->band, bands))
            continue;
        k->entries[k->count++] = *e;
        k->total += e->bytes;
    }
    return 0;
}

int profile_add_frame(struct profile *p, const struct census_frame *frame,
                      const struct bands *bands)
{
    if (grow_bands(p, bands_count(bands)) != 0)
        return -1;
    if (p->run_censuses == 0)
        p->run_first_ns = frame->time_ns;
    if (frame->time_ns > p->run_last_ns)
        p->run_last_ns = frame->time_ns;
    p->run_censuses++;
    if (frame->time_ns < p->from_ns) {
        p->has_before = true;   /* the last census before the window */
        return copy_kept(p, frame, bands, &p->before);
    }
    if (frame->time_ns > p->to_ns) {
        if (p->has_after)
            return 0;
        p->has_after = true;    /* the first census after it */
        return copy_kept(p, frame, bands, &p->after);
    }
    if (reserve(&p->spare, frame->count) != 0)
        return -1;
    uint64_t time_ns = frame->time_ns;
    if (p->censuses && time_ns < p->last_ns)
        time_ns = p->last_ns;   /* the assembler sorts; keep time order whatever comes */
    struct kept_census *k = &p->spare;
    k->time_ns = time_ns;
    k->total = 0;
    k->count = 0;
    /* growth: times in seconds after the window's first census, so the sums stay small */
    double t = p->censuses ? (double)(time_ns - p->first_ns) / 1e9 : 0;
    double dt = t - p->t_mean;
    p->t_mean += dt / (double)(p->censuses + 1);
    p->t_m2 += dt * (t - p->t_mean);
    for (size_t i = 0; i < frame->count; i++) {
        const struct census_entry *e = &frame->entries[i];
        if (e->band >= p->band_cap || !band_kept(p, e->band, bands))
            continue;
        struct band_state *s = &p->band[e->band];
        uint64_t old_peak = s->peak;
        add_value(s, p->censuses, e->bytes);
        s->sty += (long double)t * (long double)e->bytes;
        if (s->peak > old_peak) {
            /* every census so far is in mean and m2 (the band is in this one) */
            s->pk_n = p->censuses + 1;
            s->pk_ns = time_ns;
            s->pk_tmean = p->t_mean, s->pk_tm2 = p->t_m2;
            s->pk_mean = s->mean, s->pk_m2 = s->m2, s->pk_sty = s->sty;
        }
        k->entries[k->count++] = *e;
        k->total += e->bytes;
    }
    if (k->total > p->peak_total)
        p->peak_total = k->total;
    add_areas(p, k);
    if (reserve(&p->previous, k->count) != 0)
        return -1;
    if (k->count)   /* a census whose bands are all filtered out has none to copy */
        memcpy(p->previous.entries, k->entries, k->count * sizeof *k->entries);
    p->previous.count = k->count;
    p->previous.time_ns = time_ns;
    if (p->censuses == 0) {
        p->first_ns = time_ns;
        p->has_first = true;
        if (reserve(&p->first, k->count) != 0)
            return -1;
        if (k->count)
            memcpy(p->first.entries, k->entries, k->count * sizeof *k->entries);
        p->first.count = k->count;
        p->first.time_ns = time_ns;
    }
    p->last_ns = time_ns;
    p->censuses++;
    make_room(p, time_ns);
    place_spare(p);
    return 0;
}

int profile_add_marker(struct profile *p, uint64_t time_ns, const char *text, size_t len)
{
    if (time_ns < p->from_ns || time_ns > p->to_ns)
        return 0;
    make_room(p, time_ns);
    p->markers_seen++;
    /* Every marker is kept whole (its text for its line's tooltip) up to a bound; past it,
     * markers within one bucket become one, the others counted. */
    size_t limit = p->bucket_count > PROFILE_MARKERS_WHOLE ? p->bucket_count
                                                           : PROFILE_MARKERS_WHOLE;
    if (!p->markers_merging && p->marker_count >= limit) {
        p->markers_merging = true;
        merge_markers(p);
    }
    if (p->markers_merging && p->marker_count &&
        bucket_of(p, p->markers[p->marker_count - 1].time_ns) == bucket_of(p, time_ns)) {
        p->markers[p->marker_count - 1].merged++;
        return 0;
    }
    if (p->marker_count == 0) {
        p->markers = calloc(limit, sizeof *p->markers);
        if (!p->markers)
            return -1;
    }
    if (p->marker_count >= limit)
        return 0;   /* markers out of time order beyond the range: keep what we have */
    if (len > PROFILE_MAX_MARKER_TEXT)
        len = utf8_boundary(text, PROFILE_MAX_MARKER_TEXT);   /* never inside a character */
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, text, len);
    copy[len] = '\0';
    p->markers[p->marker_count++] = (struct profile_marker){ time_ns, copy, 0 };
    return 0;
}

/* A collection from start_ns to end_ns, clipped to the window: its time goes to the
 * buckets it overlaps. */
static int add_collection(struct profile *p, uint64_t start_ns, uint64_t end_ns)
{
    if (end_ns < p->from_ns || start_ns > p->to_ns)
        return 0;
    if (start_ns < p->from_ns)
        start_ns = p->from_ns;
    if (end_ns > p->to_ns)
        end_ns = p->to_ns;
    if (!p->gc_busy) {
        p->gc_busy = calloc(p->bucket_count, sizeof *p->gc_busy);
        if (!p->gc_busy)
            return -1;
    }
    make_room(p, end_ns);
    p->gc_count++;
    p->gc_total_ns += (double)(end_ns - start_ns);
    for (uint64_t b = bucket_of(p, start_ns); b <= bucket_of(p, end_ns); b++) {
        uint64_t lo = p->origin_ns + b * p->width_ns, hi = lo + p->width_ns;
        uint64_t from = start_ns > lo ? start_ns : lo, to = end_ns < hi ? end_ns : hi;
        if (to > from)
            p->gc_busy[b] += (double)(to - from);
    }
    return 0;
}

int profile_add_total(struct profile *p, enum heap_total kind, uint64_t time_ns,
                      uint64_t bytes)
{
    if (kind == HEAP_GC_START) {
        /* several capabilities may report one collection: the first start opens it */
        if (!p->gc_open)
            p->gc_open = true, p->gc_start_ns = time_ns;
        return 0;
    }
    if (kind == HEAP_GC_END) {
        if (!p->gc_open || time_ns < p->gc_start_ns)
            return 0;   /* an end without its start (the eventlog began inside a GC) */
        p->gc_open = false;
        return add_collection(p, p->gc_start_ns, time_ns);
    }
    if ((unsigned)kind >= PROFILE_TOTALS || time_ns < p->from_ns || time_ns > p->to_ns)
        return 0;
    if (!p->totals[kind]) {
        p->totals[kind] = calloc(p->bucket_count, sizeof *p->totals[kind]);
        if (!p->totals[kind])
            return -1;
    }
    make_room(p, time_ns);
    struct total_bucket *t = &p->totals[kind][bucket_of(p, time_ns)];
    if (!t->used) {
        *t = (struct total_bucket){ true, time_ns, bytes, time_ns, bytes };
        return 0;
    }
    if (bytes > t->hi)
        t->hi = bytes, t->hi_ns = time_ns;
    if (bytes < t->lo)
        t->lo = bytes, t->lo_ns = time_ns;
    return 0;
}

/* --- reading back ------------------------------------------------------------------ */

/* Least squares over n censuses: slope = Sty / Stt, R^2 = Sty^2 / (Stt Syy), the absent
 * censuses counted as 0 like the mean; Sty = sum (t - tbar) y = sum t y - n tbar ybar. */
static void fit(uint64_t n, double t_mean, double t_m2, double y_mean, double y_m2,
                long double sum_ty, double *slope, double *r2)
{
    *slope = *r2 = 0;
    if (n < 2 || !(t_m2 > 0))
        return;
    double sty = (double)(sum_ty - (long double)n * t_mean * y_mean);
    *slope = sty / t_m2;
    *r2 = y_m2 > 0 ? sty * sty / (t_m2 * y_m2) : 0;
    if (*r2 > 1)
        *r2 = 1;   /* rounding */
}

static struct profile_band_stats finished_stats(const struct profile *p, uint32_t band)
{
    struct profile_band_stats st = { 0 };
    if (band >= p->band_cap || !p->band[band].seen)
        return st;
    struct band_state s = p->band[band];
    add_zeros(&s, p->censuses - s.counted);
    st.area = s.area;
    st.peak = s.peak;
    st.mean = s.mean;
    st.stddev = s.counted ? sqrt(s.m2 / (double)s.counted) : 0;
    fit(p->censuses, p->t_mean, p->t_m2, s.mean, s.m2, s.sty, &st.growth, &st.growth_r2);
    st.rise_censuses = s.pk_n;
    st.peak_ns = s.pk_ns;
    fit(s.pk_n, s.pk_tmean, s.pk_tm2, s.pk_mean, s.pk_m2, s.pk_sty, &st.rise, &st.rise_r2);
    return st;
}

struct profile_band_stats profile_stats(const struct profile *p, uint32_t band)
{
    return finished_stats(p, band);
}

size_t profile_kept(const struct profile *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->bucket_count; i++)
        n += p->buckets[i].reps;
    return n;
}

unsigned profile_columns(const struct profile *p)
{
    return (unsigned)(p->bucket_count / 2);
}

/* --- reduction ----------------------------------------------------------------------- */

/* A deep copy of a kept census (to->entries must be empty), sized exactly: a copy is
 * read (reports, snapshots of a live run), and reserve's room to grow would cost a
 * quarter more memory for every copy of a dense profile. */
static int copy_census(struct kept_census *to, const struct kept_census *from)
{
    *to = (struct kept_census){ .time_ns = from->time_ns, .total = from->total };
    if (!from->count)
        return 0;
    size_t cap = 0;
    if (GROW_ARRAY(to->entries, &cap, from->count) != 0)
        return -1;
    to->cap = (uint32_t)cap;
    memcpy(to->entries, from->entries, from->count * sizeof *from->entries);
    to->count = from->count;
    return 0;
}

/* q's bucket j from p's buckets [lo, hi): the censuses a bucket of q's width would have
 * kept. pick_extremes chooses the same over what p's buckets kept as over every census
 * they saw, so folding them in time order is exact. */
static int reduce_bucket(struct bucket *out, const struct profile *p, size_t lo, size_t hi)
{
    const struct kept_census *kept[2];
    unsigned n = 0;
    for (size_t i = lo; i < hi; i++) {
        const struct bucket *b = &p->buckets[i];
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
        if (copy_census(&out->rep[k], kept[k]) != 0)
            return -1;
    out->reps = n;
    return 0;
}

/* Heap totals of q's bucket from p's buckets [lo, hi), merged as make_room merges them. */
static struct total_bucket reduce_totals(const struct total_bucket *t, size_t lo, size_t hi)
{
    struct total_bucket m = { 0 };
    for (size_t i = lo; i < hi; i++) {
        if (!t[i].used)
            continue;
        if (!m.used) {
            m = t[i];
            continue;
        }
        if (t[i].hi > m.hi)
            m.hi = t[i].hi, m.hi_ns = t[i].hi_ns;
        if (t[i].lo < m.lo)
            m.lo = t[i].lo, m.lo_ns = t[i].lo_ns;
    }
    return m;
}

/* q's markers from p's: all of them while q keeps every marker whole; past q's bound,
 * one per run of markers in one of q's buckets (the first, the others counted), which is
 * what merging as the buckets widened leaves, whatever width it started at. */
static int reduce_markers(struct profile *q, const struct profile *p)
{
    if (!p->marker_count)
        return 0;
    size_t limit = q->bucket_count > PROFILE_MARKERS_WHOLE ? q->bucket_count
                                                           : PROFILE_MARKERS_WHOLE;
    q->markers = calloc(limit, sizeof *q->markers);
    if (!q->markers)
        return -1;
    q->markers_merging = q->markers_seen > limit;
    for (size_t i = 0; i < p->marker_count; i++) {
        const struct profile_marker *m = &p->markers[i];
        if (q->markers_merging && q->marker_count &&
            bucket_of(q, q->markers[q->marker_count - 1].time_ns) == bucket_of(q, m->time_ns)) {
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

struct profile *profile_reduce(const struct profile *p, const struct profile_options *opt,
                               struct ev_error *err)
{
    struct profile_options o = *opt;
    if (o.columns == 0 || o.columns > profile_columns(p))
        o.columns = profile_columns(p);
    struct profile *q = profile_new(&o, err);
    if (!q)
        return NULL;
    /* what was fed: the window's edges, statistics, the run's extent */
    q->from_ns = p->from_ns;
    q->to_ns = p->to_ns;
    q->origin_ns = p->origin_ns;
    if (p->band_cap) {
        q->band = malloc(p->band_cap * sizeof *q->band);
        if (!q->band)
            goto no_memory;
        memcpy(q->band, p->band, p->band_cap * sizeof *q->band);
        q->band_cap = p->band_cap;
    }
    q->censuses = p->censuses;
    q->first_ns = p->first_ns;
    q->last_ns = p->last_ns;
    q->has_before = p->has_before;
    q->has_first = p->has_first;
    q->has_after = p->has_after;
    q->run_censuses = p->run_censuses;
    q->run_first_ns = p->run_first_ns;
    q->run_last_ns = p->run_last_ns;
    q->t_mean = p->t_mean;
    q->t_m2 = p->t_m2;
    q->peak_total = p->peak_total;
    q->gc_open = p->gc_open;
    q->gc_start_ns = p->gc_start_ns;
    q->gc_count = p->gc_count;
    q->gc_total_ns = p->gc_total_ns;
    q->markers_seen = p->markers_seen;
    q->room_ns = p->room_ns;
    if ((p->censuses && copy_census(&q->previous, &p->previous) != 0) ||
        (p->has_before && copy_census(&q->before, &p->before) != 0) ||
        (p->has_first && copy_census(&q->first, &p->first) != 0) ||
        (p->has_after && copy_census(&q->after, &p->after) != 0))
        goto no_memory;
    /* The width make_room would have reached with q's buckets: the least that holds the
     * latest time any bucket had to hold. Both widths are FIRST_BUCKET_NS times a power
     * of two and q has no more buckets than p, so each of q's buckets is r of p's. */
    q->width_ns = FIRST_BUCKET_NS;
    while (bucket_of(q, p->room_ns) >= q->bucket_count)
        q->width_ns *= 2;
    if (q->width_ns < p->width_ns) {
        ev_error_set(err, "a profile cannot be made finer than it was fed");
        goto fail;
    }
    size_t r = (size_t)(q->width_ns / p->width_ns);
    for (size_t j = 0; j < q->bucket_count && j * r < p->bucket_count; j++) {
        size_t lo = j * r, hi = lo + r < p->bucket_count ? lo + r : p->bucket_count;
        if (reduce_bucket(&q->buckets[j], p, lo, hi) != 0)
            goto no_memory;
    }
    for (int k = 0; k < PROFILE_TOTALS; k++) {
        if (!p->totals[k])
            continue;
        q->totals[k] = calloc(q->bucket_count, sizeof *q->totals[k]);
        if (!q->totals[k])
            goto no_memory;
        for (size_t j = 0; j < q->bucket_count && j * r < p->bucket_count; j++) {
            size_t lo = j * r, hi = lo + r < p->bucket_count ? lo + r : p->bucket_count;
            q->totals[k][j] = reduce_totals(p->totals[k], lo, hi);
        }
    }
    if (p->gc_busy) {
        /* whole nanoseconds (buckets start on whole nanoseconds): the sums are exact in
         * any order, as make_room's pairwise ones are */
        q->gc_busy = calloc(q->bucket_count, sizeof *q->gc_busy);
        if (!q->gc_busy)
            goto no_memory;
        for (size_t i = 0; i < p->bucket_count; i++)
            if (i / r < q->bucket_count)
                q->gc_busy[i / r] += p->gc_busy[i];
    }
    if (reduce_markers(q, p) != 0)
        goto no_memory;
    return q;
no_memory:
    ev_error_set(err, "out of memory");
fail:
    profile_free(q);
    return NULL;
}

struct ranked {
    uint32_t band;
    const char *label;           /* NUL-terminated copy once shown; NULL before */
    struct profile_band_stats stats;
};

static int by_area_desc(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    double ka = x->stats.area, kb = y->stats.area;
    if (ka == kb) {
        ka = (double)x->stats.peak;
        kb = (double)y->stats.peak;
    }
    if (ka != kb)
        return ka > kb ? -1 : 1;
    return x->band < y->band ? -1 : x->band > y->band;
}

static int by_growth_desc(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->stats.growth != y->stats.growth)
        return x->stats.growth > y->stats.growth ? -1 : 1;
    return by_area_desc(a, b);
}

static int by_stddev_desc(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->stats.stddev != y->stats.stddev)
        return x->stats.stddev > y->stats.stddev ? -1 : 1;
    return by_area_desc(a, b);
}

/* Names sort as charts show them (bands_shown_label). */
static const char *chart_label(const char *label)
{
    return bands_shown_label(label, strlen(label), NULL);
}

static int by_name(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    int c = strcmp(chart_label(x->label), chart_label(y->label));
    return c ? c : by_area_desc(a, b);
}

/* The bands with bytes in the window, ranked by area; *count set. */
static struct ranked *rank_bands(const struct profile *p, const struct bands *bands,
                                 size_t *count, uint32_t *filtered)
{
    size_t n = 0;
    *filtered = 0;
    for (uint32_t b = 0; b < p->band_cap; b++) {
        n += p->band[b].seen;
        *filtered += p->band[b].filter < 0;
    }
    struct ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return NULL;
    n = 0;
    for (uint32_t b = 0; b < p->band_cap; b++) {
        if (!p->band[b].seen)
            continue;
        r[n++] = (struct ranked){ b, NULL, finished_stats(p, b) };
    }
    qsort(r, n, sizeof *r, by_area_desc);
    *count = n;
    return r;
}

/* How many of the ranked bands are shown: the first `bands`, none under the trace. */
static size_t shown_count(const struct profile *p, const struct ranked *r, size_t n,
                          double total_area)
{
    size_t shown = 0;
    bool by_peak = total_area <= 0;   /* a single census has no area: rank by peak */
    uint64_t top_peak = n ? r[0].stats.peak : 0;
    for (; shown < n; shown++) {
        if (p->opt.bands && shown >= p->opt.bands)
            break;
        double share = by_peak ? (top_peak ? (double)r[shown].stats.peak / (double)top_peak : 0)
                               : r[shown].stats.area / total_area;
        if (share * 100.0 < p->opt.trace_percent)
            break;
    }
    return shown;
}

static void sort_shown(const struct profile *p, struct ranked *r, size_t shown)
{
    if (p->opt.sort == PROFILE_SORT_STDDEV)
        qsort(r, shown, sizeof *r, by_stddev_desc);
    else if (p->opt.sort == PROFILE_SORT_NAME)
        qsort(r, shown, sizeof *r, by_name);
    else if (p->opt.sort == PROFILE_SORT_GROWTH)
        qsort(r, shown, sizeof *r, by_growth_desc);
    if (p->opt.reverse)
        for (size_t i = 0; i < shown / 2; i++) {
            struct ranked t = r[i];
            r[i] = r[shown - 1 - i];
            r[shown - 1 - i] = t;
        }
}

static int series_from_totals(const struct profile *p, enum heap_total kind,
                              struct profile_series *s)
{
    memset(s, 0, sizeof *s);
    const struct total_bucket *t = p->totals[kind];
    if (!t)
        return 0;
    s->time_ns = malloc(2 * p->bucket_count * sizeof *s->time_ns);
    s->bytes = malloc(2 * p->bucket_count * sizeof *s->bytes);
    if (!s->time_ns || !s->bytes)
        return -1;
    for (size_t i = 0; i < p->bucket_count; i++) {
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

/* Fills the values of the kept censuses; band_slot maps a band to its column. */
static void fill_points(const struct profile *p, struct profile_view *v, const uint32_t *slot)
{
    size_t w = v->band_count, n = 0;
    for (size_t i = 0; i < p->bucket_count; i++)
        for (unsigned r = 0; r < p->buckets[i].reps; r++) {
            const struct kept_census *k = &p->buckets[i].rep[r];
            uint64_t *row = v->values + n * w;
            v->time_ns[n] = k->time_ns;
            for (uint32_t e = 0; e < k->count; e++)
                row[slot[k->entries[e].band]] += k->entries[e].bytes;
            uint64_t sum = 0;
            for (size_t b = 0; b < w; b++)
                sum += row[b];
            v->point_totals[n++] = sum;
        }
    v->point_count = n;
}

/* The value of every shown band (by slot) at time t, interpolated between the kept
 * censuses a and b on either side of it, as a new point at the start or the end. */
static void edge_point(struct profile_view *v, const uint32_t *slot, uint32_t band_cap,
                       const struct kept_census *a, const struct kept_census *b, uint64_t t,
                       bool at_start)
{
    size_t w = v->band_count, n = v->point_count;
    if (!w)
        return;
    if (at_start && n) {
        memmove(v->time_ns + 1, v->time_ns, n * sizeof *v->time_ns);
        memmove(v->point_totals + 1, v->point_totals, n * sizeof *v->point_totals);
        memmove(v->values + w, v->values, n * w * sizeof *v->values);
    }
    size_t at = at_start ? 0 : n;
    uint64_t *row = v->values + at * w;
    double *va = calloc(w, sizeof *va), *vb = calloc(w, sizeof *vb);
    if (va && vb) {
        for (uint32_t e = 0; e < a->count; e++)
            if (a->entries[e].band < band_cap)
                va[slot[a->entries[e].band]] += (double)a->entries[e].bytes;
        for (uint32_t e = 0; e < b->count; e++)
            if (b->entries[e].band < band_cap)
                vb[slot[b->entries[e].band]] += (double)b->entries[e].bytes;
    }
    double f = b->time_ns > a->time_ns ? (double)(t - a->time_ns) / (double)(b->time_ns - a->time_ns)
                                       : 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < w; i++) {
        double x = va && vb ? va[i] + (vb[i] - va[i]) * f : 0;
        row[i] = x > 0 ? (uint64_t)llround(x) : 0;
        sum += row[i];
    }
    free(va);
    free(vb);
    v->time_ns[at] = t;
    v->point_totals[at] = sum;
    v->point_count = n + 1;
}

/* Bands cut at the window's edges: a point at --from and one at --to, interpolated
 * between the censuses on either side, where the window cuts between two censuses. */
static void window_edges(const struct profile *p, struct profile_view *v, const uint32_t *slot)
{
    if (p->opt.has_from && p->from_ns > 0 && p->has_before) {
        const struct kept_census *b = p->has_first ? &p->first : p->has_after ? &p->after : NULL;
        if (b && b->time_ns > p->from_ns)
            edge_point(v, slot, p->band_cap, &p->before, b, p->from_ns, true);
    }
    if (p->opt.has_to && p->has_after) {
        const struct kept_census *a = p->censuses ? &p->previous : p->has_before ? &p->before : NULL;
        if (a && a->time_ns < p->to_ns)
            edge_point(v, slot, p->band_cap, a, &p->after, p->to_ns, false);
    }
}

/* Moves the ranked bands past the first `shown` that keep wants into the shown part (in
 * rank order); returns the new number shown. */
static size_t also_shown(struct ranked *r, size_t n, size_t shown, const struct bands *bands,
                         const struct profile_keep *keep)
{
    if (!keep)
        return shown;
    for (size_t i = shown; i < n; i++) {
        size_t len;
        const char *label = bands_display_label(bands, r[i].band, &len);
        if (!label || !keep->wants(keep->ctx, label, len))
            continue;
        struct ranked t = r[i];
        memmove(&r[shown + 1], &r[shown], (i - shown) * sizeof *r);
        r[shown++] = t;
    }
    return shown;
}

int profile_view(const struct profile *p, const struct bands *bands, struct profile_view *v)
{
    return profile_view_keep(p, bands, NULL, v);
}

int profile_view_keep(const struct profile *p, const struct bands *bands,
                      const struct profile_keep *keep, struct profile_view *v)
{
    memset(v, 0, sizeof *v);
    v->censuses = p->censuses;
    v->first_ns = p->first_ns;
    v->last_ns = p->last_ns;
    v->run_censuses = p->run_censuses;
    v->run_first_ns = p->run_first_ns;
    v->run_last_ns = p->run_last_ns;
    v->markers = p->markers;
    v->marker_count = p->marker_count;
    v->has_from = p->opt.has_from;
    v->has_to = p->opt.has_to;
    v->from_ns = p->from_ns;
    v->to_ns = p->opt.has_to ? p->to_ns : 0;
    v->peak_total = p->peak_total;
    for (int k = 0; k < PROFILE_TOTALS; k++)
        if (series_from_totals(p, (enum heap_total)k, &v->totals[k]) != 0)
            goto fail;
    if (p->gc_busy) {
        v->gc.busy_ns = malloc(p->bucket_count * sizeof *v->gc.busy_ns);
        if (!v->gc.busy_ns)
            goto fail;
        memcpy(v->gc.busy_ns, p->gc_busy, p->bucket_count * sizeof *v->gc.busy_ns);
        v->gc.count = p->bucket_count;
        v->gc.origin_ns = p->origin_ns;
        v->gc.width_ns = p->width_ns;
        v->gc.collections = p->gc_count;
        v->gc.total_ns = p->gc_total_ns;
    }
    size_t n;
    struct ranked *r = rank_bands(p, bands, &n, &v->bands_filtered);
    if (!r)
        goto fail;
    v->bands_seen = (uint32_t)n;
    for (size_t i = 0; i < n; i++)
        v->total_area += r[i].stats.area;
    size_t shown = also_shown(r, n, shown_count(p, r, n, v->total_area), bands, keep);
    bool other = shown < n;
    struct profile_band other_band = { .band = PROFILE_OTHER, .label = "OTHER",
                                       .folded = (uint32_t)(n - shown) };
    other_band.stats.growth_r2 = NAN;
    for (size_t i = shown; i < n; i++) {
        other_band.stats.area += r[i].stats.area;
        other_band.stats.mean += r[i].stats.mean;
        other_band.stats.growth += r[i].stats.growth;
    }
    for (size_t i = 0; i < shown; i++) {
        size_t len;
        const char *label = bands_display_label(bands, r[i].band, &len);
        r[i].label = strndup(label ? label : "", label ? len : 0);
        if (!r[i].label) {
            for (size_t j = 0; j < i; j++)
                free((char *)r[j].label);
            free(r);
            goto fail;
        }
    }
    sort_shown(p, r, shown);
    v->band_count = shown + other;
    v->bands = malloc((v->band_count ? v->band_count : 1) * sizeof *v->bands);
    uint32_t *slot = malloc((p->band_cap ? p->band_cap : 1) * sizeof *slot);
    size_t kept = profile_kept(p) + 2;   /* and the window's edges */
    v->time_ns = malloc((kept ? kept : 1) * sizeof *v->time_ns);
    v->point_totals = malloc((kept ? kept : 1) * sizeof *v->point_totals);
    v->values = calloc((kept ? kept : 1) * (v->band_count ? v->band_count : 1), sizeof *v->values);
    if (!v->bands || !slot || !v->time_ns || !v->point_totals || !v->values) {
        for (size_t i = 0; i < shown; i++)
            free((char *)r[i].label);
        free(slot);
        free(r);
        v->band_count = 0;
        goto fail;
    }
    for (uint32_t b = 0; b < p->band_cap; b++)
        slot[b] = (uint32_t)shown;   /* anything not shown is OTHER */
    for (size_t i = 0; i < shown; i++) {
        v->bands[i] = (struct profile_band){ r[i].band, r[i].label, r[i].stats, 0,
                                            bands_stack_number(bands, r[i].band) };
        slot[r[i].band] = (uint32_t)i;
    }
    free(r);
    if (other)
        v->bands[shown] = other_band;
    if (v->band_count) {
        fill_points(p, v, slot);
        window_edges(p, v, slot);
    }
    free(slot);
    if (other)
        for (size_t i = 0; i < v->point_count; i++) {
            uint64_t x = v->values[i * v->band_count + shown];
            if (x > v->bands[shown].stats.peak)
                v->bands[shown].stats.peak = x;
        }
    return 0;
fail:
    profile_view_free(v);
    return -1;
}

void profile_view_free(struct profile_view *v)
{
    for (size_t i = 0; v->bands && i < v->band_count; i++)
        if (v->bands[i].band != PROFILE_OTHER)
            free((char *)v->bands[i].label);
    free(v->bands);
    free(v->time_ns);
    free(v->values);
    free(v->point_totals);
    for (int k = 0; k < PROFILE_TOTALS; k++) {
        free(v->totals[k].time_ns);
        free(v->totals[k].bytes);
    }
    free(v->gc.busy_ns);
    memset(v, 0, sizeof *v);
}

bool profile_is_suspect(const struct profile_band_stats *s, uint64_t first_ns,
                        uint64_t peak_total)
{
    double span = s->peak_ns > first_ns ? (double)(s->peak_ns - first_ns) / 1e9 : 0;
    return s->rise_censuses >= PROFILE_SUSPECT_CENSUSES && s->rise > 0 &&
           s->rise_r2 >= PROFILE_SUSPECT_R2 && peak_total > 0 &&
           s->rise * span >= PROFILE_SUSPECT_RISE * (double)peak_total;
}

size_t profile_suspects(const struct profile_view *v, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < v->band_count; i++) {
        if (v->bands[i].band == PROFILE_OTHER ||
            !profile_is_suspect(&v->bands[i].stats, v->first_ns, v->peak_total))
            continue;
        /* insertion by slope, largest first, keeping the best max */
        size_t j = n < max ? n++ : max;
        while (j > 0 && v->bands[out[j - 1]].stats.rise < v->bands[i].stats.rise) {
            if (j < max)
                out[j] = out[j - 1];
            j--;
        }
        if (j < max)
            out[j] = i;
    }
    return n;
}
