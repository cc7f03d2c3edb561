/* profile.c: a chart's profile, joining census buckets, band statistics and band
 * selection (profile.h).
 *
 * Hot path: profile_add_frame touches each entry of the census a constant number of
 * times (filter lookup, statistics, copy into the buckets' spare census) and allocates
 * only when a buffer must grow; buffers are recycled between censuses.
 */
#include "model/profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

/* What a profile was fed besides its statistics, kept censuses and buckets: figures a
 * reduction (profile_reduce) keeps exactly as they are, so it copies them whole. */
struct profile_fed {
    uint64_t last_ns;            /* the last census in the window */
    bool has_before, has_first, has_after;   /* which of the window's edges are kept */
    uint64_t run_censuses, run_first_ns, run_last_ns;   /* the run's extent */
    uint64_t peak_total;         /* the largest census total */
    uint64_t gc_count[PROFILE_GC_LANES];    /* collections begun in the window, by lane */
    uint64_t gc_total_ns[PROFILE_GC_LANES]; /* their pauses */
    bool allocation_split;       /* profile_split_allocation */
    const struct cap_stats *caps; /* profile_show_caps: borrowed */
};

struct profile {
    struct profile_options opt;
    struct bandfilter filter;
    uint64_t from_ns, to_ns;

    struct bandstats stats;      /* censuses in the window: their count, first time */
    bool stats_borrowed;         /* stats are the profile's this was reduced from
                                  * (profile_reduce_borrowing): not freed with it */
    struct kept_census previous; /* the last census (kept entries), for trapezoid areas */
    /* The window's edges: the censuses on either side of each, so bands can be cut at
     * the edges by interpolation; fed.has_before, has_first and has_after say which are
     * kept. */
    struct kept_census before, first, after;

    struct buckets grid;
    struct profile_fed fed;
};

void profile_options_default(struct profile_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->bands = 15;
    /* 0: only --bands decides. With tens of thousands of bands (-hi with distinct
     * constructor tables) every band is under 1 % of the area, and hp2ps's 1 % trace
     * would fold them all into OTHER, leaving a chart with nothing else. */
    opt->trace_percent = 0;
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

struct time_window profile_window(const struct profile_options *opt)
{
    return (struct time_window){
        opt->has_from && opt->from_seconds > 0 ? (uint64_t)(opt->from_seconds * 1e9) : 0,
        opt->has_to ? (uint64_t)(opt->to_seconds * 1e9) : UINT64_MAX };
}

double time_window_seconds(uint64_t ns)
{
    return (ns + 0.5) / 1e9;
}

bool time_window_holds(struct time_window w, uint64_t time_ns)
{
    return time_ns >= w.from_ns && time_ns <= w.to_ns;
}

struct profile *profile_new(const struct profile_options *opt, struct ev_error *err)
{
    struct profile *p = calloc(1, sizeof *p);
    if (!p) {
        ev_error_set(err, "out of memory");
        return NULL;
    }
    p->opt = *opt;
    if (opt->band_shapes)
        bandstats_keep_shapes(&p->stats);
    if (bandfilter_init(&p->filter, opt->include, opt->include_count, opt->exclude,
                        opt->exclude_count, err) != 0)
        goto fail;
    struct time_window w = profile_window(opt);
    p->from_ns = w.from_ns;
    p->to_ns = w.to_ns;
    if (buckets_init(&p->grid, opt->columns, p->from_ns) != 0) {
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
    bandfilter_free(&p->filter);
    buckets_free(&p->grid);
    if (!p->stats_borrowed)
        bandstats_free(&p->stats);
    free(p->previous.entries);
    free(p->before.entries);
    free(p->first.entries);
    free(p->after.entries);
    free(p);
}

/* A census outside the window, its kept bands copied into k (no statistics). */
static int copy_kept(struct profile *p, const struct census_frame *frame,
                     const struct bands *bands, struct kept_census *k)
{
    if (kept_census_reserve(k, frame->count) != 0)
        return -1;
    k->time_ns = frame->time_ns;
    k->count = 0;
    k->total = 0;
    for (size_t i = 0; i < frame->count; i++) {
        const struct census_entry *e = &frame->entries[i];
        if (e->band >= p->stats.cap || !bandfilter_kept(&p->filter, e->band, bands))
            continue;
        k->entries[k->count++] = *e;
        k->total += e->bytes;
    }
    return 0;
}

/* A copy of k's entries into to (its buffer reused), for the window's edges. */
static int keep_copy(struct kept_census *to, const struct kept_census *k)
{
    if (kept_census_reserve(to, k->count) != 0)
        return -1;
    if (k->count)   /* a census whose bands are all filtered out has none to copy */
        memcpy(to->entries, k->entries, k->count * sizeof *k->entries);
    to->count = k->count;
    to->time_ns = k->time_ns;
    return 0;
}

int profile_add_frame(struct profile *p, const struct census_frame *frame,
                      const struct bands *bands)
{
    size_t band_count = bands_count(bands);
    if (bandstats_grow(&p->stats, band_count) != 0 ||
        bandfilter_grow(&p->filter, p->stats.cap) != 0)
        return -1;
    if (p->fed.run_censuses == 0)
        p->fed.run_first_ns = frame->time_ns;
    if (frame->time_ns > p->fed.run_last_ns)
        p->fed.run_last_ns = frame->time_ns;
    p->fed.run_censuses++;
    if (frame->time_ns < p->from_ns) {
        p->fed.has_before = true;   /* the last census before the window */
        return copy_kept(p, frame, bands, &p->before);
    }
    if (frame->time_ns > p->to_ns) {
        if (p->fed.has_after)
            return 0;
        p->fed.has_after = true;    /* the first census after it */
        return copy_kept(p, frame, bands, &p->after);
    }
    struct kept_census *k = &p->grid.spare;
    if (kept_census_reserve(k, frame->count) != 0)
        return -1;
    uint64_t time_ns = frame->time_ns;
    if (p->stats.censuses && time_ns < p->fed.last_ns)
        time_ns = p->fed.last_ns;   /* the assembler sorts; keep time order whatever comes */
    k->time_ns = time_ns;
    k->total = 0;
    k->count = 0;
    bandstats_begin(&p->stats, time_ns);
    bandstats_add_before(&p->stats, p->previous.entries, p->previous.count);
    for (size_t i = 0; i < frame->count; i++) {
        const struct census_entry *e = &frame->entries[i];
        if (e->band >= p->stats.cap || !bandfilter_kept(&p->filter, e->band, bands))
            continue;
        bandstats_add(&p->stats, e->band, e->bytes);
        k->entries[k->count++] = *e;
        k->total += e->bytes;
    }
    if (k->total > p->fed.peak_total)
        p->fed.peak_total = k->total;
    if (keep_copy(&p->previous, k) != 0)
        return -1;
    if (p->stats.censuses == 0) {
        p->fed.has_first = true;
        if (keep_copy(&p->first, k) != 0)
            return -1;
    }
    bandstats_end(&p->stats);
    p->fed.last_ns = time_ns;
    buckets_make_room(&p->grid, time_ns);
    /* Memory stays bounded whatever the number of bands: past PROFILE_KEPT_MEMORY the
     * kept censuses go to disk, read back by the view (which keeps only what it draws). */
    uint64_t bound = p->opt.kept_memory ? p->opt.kept_memory : PROFILE_KEPT_MEMORY;
    if (!p->grid.store && (p->grid.kept_entries + k->count) * sizeof *k->entries > bound &&
        buckets_use_store(&p->grid) != 0)
        return -1;
    return buckets_place_spare(&p->grid);
}

int profile_add_marker(struct profile *p, uint64_t time_ns, const char *text, size_t len)
{
    if (time_ns < p->from_ns || time_ns > p->to_ns)
        return 0;
    return buckets_add_marker(&p->grid, time_ns, text, len);
}

void profile_show_caps(struct profile *p, const struct cap_stats *caps)
{
    p->fed.caps = caps;
}

void profile_split_allocation(struct profile *p)
{
    p->fed.allocation_split = true;
}

int profile_add_pause(struct profile *p, unsigned gen, uint64_t start_ns, uint64_t end_ns)
{
    if (start_ns < p->from_ns || start_ns > p->to_ns || end_ns < start_ns)
        return 0;
    unsigned lane = gen < PROFILE_GC_LANES ? gen : PROFILE_GC_LANES - 1;
    if (buckets_add_collection(&p->grid, lane, start_ns, end_ns) != 0)
        return -1;
    p->fed.gc_count[lane]++;
    p->fed.gc_total_ns[lane] += end_ns - start_ns;
    return 0;
}

int profile_add_total(struct profile *p, enum heap_total kind, uint64_t time_ns,
                      uint64_t bytes)
{
    /* collections come paired by their leading capability (profile_add_pause) */
    if ((unsigned)kind >= PROFILE_TOTALS || time_ns < p->from_ns || time_ns > p->to_ns)
        return 0;
    return buckets_add_total(&p->grid, kind, time_ns, bytes);
}

/* --- reading back ------------------------------------------------------------------ */

struct profile_band_stats profile_stats(const struct profile *p, uint32_t band)
{
    return bandstats_of(&p->stats, band);
}

size_t profile_kept(const struct profile *p)
{
    return buckets_kept(&p->grid);
}

unsigned profile_columns(const struct profile *p)
{
    return (unsigned)(p->grid.count / 2);
}

static struct profile *reduce(const struct profile *p, const struct profile_options *opt,
                              bool borrow, struct ev_error *err)
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
    q->grid.origin_ns = p->grid.origin_ns;
    if (borrow) {
        q->stats = p->stats;
        q->stats_borrowed = true;
        if (!o.band_shapes) {   /* what a copy without them would read */
            q->stats.shape = NULL;
            q->stats.shapes = false;
        }
    } else if (bandstats_copy(&q->stats, &p->stats, o.band_shapes) != 0) {
        goto no_memory;
    }
    if (bandfilter_copy_decisions(&q->filter, &p->filter) != 0)
        goto no_memory;
    q->fed = p->fed;
    if ((p->stats.censuses && kept_census_copy(&q->previous, &p->previous) != 0) ||
        (p->fed.has_before && kept_census_copy(&q->before, &p->before) != 0) ||
        (p->fed.has_first && kept_census_copy(&q->first, &p->first) != 0) ||
        (p->fed.has_after && kept_census_copy(&q->after, &p->after) != 0))
        goto no_memory;
    int rc = buckets_reduce(&q->grid, &p->grid);
    if (rc == -2) {
        ev_error_set(err, "a profile cannot be made finer than it was fed");
        goto fail;
    }
    if (rc != 0)
        goto no_memory;
    return q;
no_memory:
    ev_error_set(err, "out of memory");
fail:
    profile_free(q);
    return NULL;
}

struct profile *profile_reduce(const struct profile *p, const struct profile_options *opt,
                               struct ev_error *err)
{
    return reduce(p, opt, false, err);
}

struct profile *profile_reduce_borrowing(const struct profile *p,
                                         const struct profile_options *opt,
                                         struct ev_error *err)
{
    return reduce(p, opt, true, err);
}

/* Fills the values of the kept censuses; slot maps a band to its column. 0, or -1 when
 * the census store cannot be read or memory is out. */
static int fill_points(const struct profile *p, struct profile_view *v, const uint32_t *slot)
{
    size_t w = v->band_count, n = 0, cap = 0;
    struct census_entry *scratch = NULL;
    for (size_t i = 0; i < p->grid.count; i++)
        for (unsigned r = 0; r < p->grid.census[i].reps; r++) {
            const struct kept_census *k = &p->grid.census[i].rep[r];
            const struct census_entry *entries = buckets_entries(&p->grid, k, &scratch, &cap);
            if (!entries) {
                free(scratch);
                return -1;
            }
            uint64_t *row = v->values + n * w;
            v->time_ns[n] = k->time_ns;
            for (uint32_t e = 0; e < k->count; e++)
                if (slot[entries[e].band] < w)   /* not shown and no OTHER: not drawn */
                    row[slot[entries[e].band]] += entries[e].bytes;
            uint64_t sum = 0;
            for (size_t b = 0; b < w; b++)
                sum += row[b];
            v->point_totals[n++] = sum;
        }
    v->point_count = n;
    free(scratch);
    return 0;
}

/* The times of the kept censuses alone, their totals as kept (shapes_only: no values). */
static void point_times(const struct profile *p, struct profile_view *v)
{
    size_t n = 0;
    for (size_t i = 0; i < p->grid.count; i++)
        for (unsigned r = 0; r < p->grid.census[i].reps; r++, n++) {
            v->time_ns[n] = p->grid.census[i].rep[r].time_ns;
            v->point_totals[n] = p->grid.census[i].rep[r].total;
        }
    v->point_count = n;
}

/* The value of every shown band (by slot) at time t, interpolated between the kept
 * censuses a and b on either side of it, as a new point at the start or the end. */
static void edge_point(struct profile_view *v, const uint32_t *slot, size_t band_cap,
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
        /* a band the window's censuses lack (seen only before or after it) has no slot
         * when the view has no OTHER */
        for (uint32_t e = 0; e < a->count; e++)
            if (a->entries[e].band < band_cap && slot[a->entries[e].band] < w)
                va[slot[a->entries[e].band]] += (double)a->entries[e].bytes;
        for (uint32_t e = 0; e < b->count; e++)
            if (b->entries[e].band < band_cap && slot[b->entries[e].band] < w)
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
    if (p->opt.has_from && p->from_ns > 0 && p->fed.has_before) {
        const struct kept_census *b = p->fed.has_first ? &p->first
                                      : p->fed.has_after ? &p->after : NULL;
        if (b && b->time_ns > p->from_ns)
            edge_point(v, slot, p->stats.cap, &p->before, b, p->from_ns, true);
    }
    if (p->opt.has_to && p->fed.has_after) {
        const struct kept_census *a = p->stats.censuses ? &p->previous
                                      : p->fed.has_before ? &p->before : NULL;
        if (a && a->time_ns < p->to_ns)
            edge_point(v, slot, p->stats.cap, a, &p->after, p->to_ns, false);
    }
}

int profile_view(const struct profile *p, const struct bands *bands, struct profile_view *v)
{
    return profile_view_keep(p, bands, NULL, v);
}

/* The view's run facts, totals and collections: everything but its bands and points. */
static int view_run(const struct profile *p, struct profile_view *v)
{
    v->censuses = p->stats.censuses;
    v->first_ns = p->stats.first_ns;
    v->last_ns = p->fed.last_ns;
    v->run_censuses = p->fed.run_censuses;
    v->run_first_ns = p->fed.run_first_ns;
    v->run_last_ns = p->fed.run_last_ns;
    v->markers = p->grid.markers;
    v->marker_count = p->grid.marker_count;
    v->has_from = p->opt.has_from;
    v->has_to = p->opt.has_to;
    v->from_ns = p->from_ns;
    v->to_ns = p->opt.has_to ? p->to_ns : 0;
    v->peak_total = p->fed.peak_total;
    v->allocation_split = p->fed.allocation_split;
    v->caps = p->fed.caps;
    v->shapes = p->stats.shape;
    v->shape_bands = p->stats.shape ? p->stats.cap : 0;
    v->shape_slots = bandstats_shape_slots(&p->stats);
    v->shape_width_ns = p->stats.shape_width_ns;
    v->shape_filled = p->stats.shape_filled;
    v->bands_filtered = bandfilter_dropped(&p->filter);
    for (int k = 0; k < PROFILE_TOTALS; k++)
        if (buckets_series(&p->grid, (enum heap_total)k, &v->totals[k]) != 0)
            return -1;
    for (int l = 0; l < PROFILE_GC_LANES; l++) {
        if (!p->grid.gc_marks[l])
            continue;
        if (!(v->gc.marks[l] = copy_array(p->grid.gc_marks[l], p->grid.count,
                                          sizeof *p->grid.gc_marks[l])))
            return -1;
        v->gc.count = p->grid.count;
        v->gc.width_ns = p->grid.width_ns;
        v->gc.collections[l] = p->fed.gc_count[l];
        v->gc.total_ns[l] = p->fed.gc_total_ns[l];
    }
    return 0;
}

int profile_view_keep(const struct profile *p, const struct bands *bands,
                      const struct profile_keep *keep, struct profile_view *v)
{
    memset(v, 0, sizeof *v);
    if (view_run(p, v) != 0)
        goto fail;
    const struct bandselect_rule rule = { p->opt.bands, p->opt.trace_percent, p->opt.sort,
                                          p->opt.reverse };
    struct band_selection sel;
    if (bandselect_choose(&p->stats, bands, &rule, keep, &sel) != 0)
        goto fail;
    size_t n = sel.count, shown = sel.shown;
    v->bands_seen = (uint32_t)n;
    v->total_area = sel.total_area;
    bool other = shown < n;
    struct profile_band other_band = { .band = PROFILE_OTHER, .label = "OTHER",
                                       .folded = (uint32_t)(n - shown) };
    other_band.stats.growth_r2 = NAN;
    for (size_t i = shown; i < n; i++) {
        other_band.stats.area += sel.band[i].stats.area;
        other_band.stats.mean += sel.band[i].stats.mean;
        other_band.stats.growth += sel.band[i].stats.growth;
    }
    v->band_count = shown + other;
    /* the selection's array becomes the view's (shown first, OTHER after them): one array
     * of every band at a time, not two (100,000 bands: 12 MB) */
    v->bands = realloc(sel.band, (v->band_count ? v->band_count : 1) * sizeof *v->bands);
    if (v->bands)
        sel.band = NULL;
    uint32_t *slot = malloc((p->stats.cap ? p->stats.cap : 1) * sizeof *slot);
    size_t kept = profile_kept(p) + 2;   /* and the window's edges */
    bool no_values = p->opt.shapes_only && !other && v->shapes;
    v->time_ns = malloc(kept * sizeof *v->time_ns);
    v->point_totals = malloc(kept * sizeof *v->point_totals);
    v->values = no_values ? NULL
                          : calloc(kept * (v->band_count ? v->band_count : 1), sizeof *v->values);
    if (!v->bands || !slot || !v->time_ns || !v->point_totals || (!no_values && !v->values)) {
        free(slot);
        if (sel.band) {                  /* the view has no bands: the selection's labels */
            band_selection_free(&sel);
            v->band_count = 0;
        } else {
            v->band_count = shown;       /* the shown ones' labels are the view's to free */
        }
        goto fail;
    }
    for (uint32_t b = 0; b < p->stats.cap; b++)
        slot[b] = (uint32_t)shown;   /* anything not shown is OTHER */
    for (size_t i = 0; i < shown; i++) {
        v->bands[i].stack_number = bands_stack_number(bands, v->bands[i].band);
        slot[v->bands[i].band] = (uint32_t)i;
    }
    if (other)
        v->bands[shown] = other_band;
    if (no_values) {
        point_times(p, v);
    } else if (v->band_count) {
        if (fill_points(p, v, slot) != 0) {
            free(slot);
            goto fail;
        }
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
    for (int l = 0; l < PROFILE_GC_LANES; l++)
        free(v->gc.marks[l]);
    memset(v, 0, sizeof *v);
}

int profile_table(const struct profile *p, const struct bands *bands,
                  const struct profile_view *v, size_t budget, size_t max_points,
                  struct profile_table *t)
{
    memset(t, 0, sizeof *t);
    struct census_entry *scratch = NULL;
    size_t scratch_cap = 0;
    const struct bandselect_rule every = { 0, 0, PROFILE_SORT_SIZE, false };
    struct band_selection sel;
    if (bandselect_choose(&p->stats, bands, &every, NULL, &sel) != 0)
        return -1;
    t->count = sel.count;
    t->bands = sel.band;   /* every label owned: every band is "shown" in this choice */
    t->shown = malloc((t->count ? t->count : 1) * sizeof *t->shown);
    uint32_t *slot = malloc((p->stats.cap ? p->stats.cap : 1) * sizeof *slot);
    if (!t->shown || !slot)
        goto fail;
    /* a band's place in the view, or among the folded */
    for (uint32_t b = 0; b < p->stats.cap; b++)
        slot[b] = UINT32_MAX;
    for (size_t i = 0; i < v->band_count; i++)
        if (v->bands[i].band != PROFILE_OTHER)
            slot[v->bands[i].band] = (uint32_t)i;
    for (size_t i = 0; i < t->count; i++) {
        uint32_t b = t->bands[i].band;
        t->shown[i] = slot[b] == UINT32_MAX ? -1 : (int32_t)slot[b];
        t->bands[i].stack_number = bands_stack_number(bands, b);
        slot[b] = t->shown[i] < 0 ? (uint32_t)t->folded++ | 0x80000000u : UINT32_MAX;
    }
    size_t kept = buckets_kept(&p->grid);
    if (t->folded && kept) {
        size_t points = budget / t->folded;
        if (points > kept)
            points = kept;
        if (points > max_points)
            points = max_points;
        if (points < 2)
            points = kept < 2 ? kept : 2;
        t->points = points;
        t->time_ns = malloc(points * sizeof *t->time_ns);
        t->values = calloc(t->folded * points, sizeof *t->values);
        if (!t->time_ns || !t->values)
            goto fail;
        /* kept census k is sampled as point c when k = c (kept - 1) / (points - 1) */
        size_t k = 0, c = 0;
        for (size_t i = 0; i < p->grid.count && c < points; i++)
            for (unsigned r = 0; r < p->grid.census[i].reps && c < points; r++, k++) {
                size_t want = points > 1 ? c * (kept - 1) / (points - 1) : 0;
                if (k != want)
                    continue;
                const struct kept_census *kc = &p->grid.census[i].rep[r];
                const struct census_entry *entries = buckets_entries(&p->grid, kc, &scratch,
                                                                     &scratch_cap);
                if (!entries)
                    goto fail;
                t->time_ns[c] = kc->time_ns;
                for (uint32_t e = 0; e < kc->count; e++) {
                    uint32_t s = slot[entries[e].band];
                    if (s != UINT32_MAX)
                        t->values[(size_t)(s & 0x7fffffffu) * points + c] += entries[e].bytes;
                }
                c++;
            }
    }
    free(slot);
    free(scratch);
    return 0;
fail:
    free(slot);
    free(scratch);
    profile_table_free(t);
    return -1;
}

void profile_table_free(struct profile_table *t)
{
    struct band_selection sel = { t->bands, t->count, t->count, 0 };
    band_selection_free(&sel);
    free(t->shown);
    free(t->time_ns);
    free(t->values);
    memset(t, 0, sizeof *t);
}

/* The groups (group_of, as profile_grouped_other) the rule shows: shown[g], n of them
 * (calloc'd here, for the caller to free); *bound: the peaks of the members of the others
 * summed, at least OTHER's peak in any census. 0, or -1 when out of memory. */
static int rank_groups(const struct profile *p, const struct bandselect_rule *rule,
                       const uint32_t *group_of, size_t groups, bool **shown_out,
                       uint64_t *bound)
{
    const struct bandstats *s = &p->stats;
    size_t n = group_of ? groups : s->cap;
    struct profile_band *r = calloc(n ? n : 1, sizeof *r);
    bool *shown = calloc(n ? n : 1, sizeof *shown);
    *shown_out = NULL;
    if (!r || !shown) {
        free(r);
        free(shown);
        return -1;
    }
    /* a group's area adds up from its members' (exact); its peak, which only ranks a
     * profile without area (one census), is their sum, exact for that one census */
    for (size_t g = 0; g < n; g++)
        r[g].band = (uint32_t)g;
    for (uint32_t b = 0; b < s->cap; b++) {
        if (!s->band[b].seen)
            continue;
        struct profile_band_stats st = bandstats_of(s, b);
        struct profile_band *x = &r[group_of ? group_of[b] : b];
        x->stats.area += st.area;
        x->stats.peak += st.peak;
        x->folded++;                          /* here: members with bytes */
    }
    size_t m = 0;
    for (size_t g = 0; g < n; g++)
        if (r[g].folded)
            r[m++] = r[g];
    double total_area;
    size_t count = bandselect_rank(r, m, rule, &total_area);
    for (size_t i = 0; i < count; i++)
        shown[r[i].band] = true;
    *bound = 0;
    for (size_t i = count; i < m; i++)
        *bound += r[i].stats.peak;
    free(r);
    *shown_out = shown;
    return 0;
}

int profile_grouped_other(const struct profile *p, const struct bandselect_rule *rule,
                          const uint32_t *group_of, size_t groups, uint64_t *other_peak)
{
    bool *shown;
    uint64_t bound;
    *other_peak = 0;
    if (rank_groups(p, rule, group_of, groups, &shown, &bound) != 0)
        return -1;
    struct census_entry *scratch = NULL;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; i < p->grid.count && rc == 0; i++)
        for (unsigned k = 0; k < p->grid.census[i].reps; k++) {
            const struct kept_census *c = &p->grid.census[i].rep[k];
            const struct census_entry *entries = buckets_entries(&p->grid, c, &scratch, &cap);
            if (!entries) {
                rc = -1;
                break;
            }
            uint64_t other = 0;
            for (uint32_t e = 0; e < c->count; e++)
                if (!shown[group_of ? group_of[entries[e].band] : entries[e].band])
                    other += entries[e].bytes;
            if (other > *other_peak)
                *other_peak = other;
        }
    free(scratch);
    free(shown);
    return rc;
}

int profile_other_peak_bound(const struct profile *p, const struct bandselect_rule *rule,
                             uint64_t *bound)
{
    bool *shown;
    if (rank_groups(p, rule, NULL, 0, &shown, bound) != 0)
        return -1;
    free(shown);
    return 0;
}

uint64_t profile_peak_total(const struct profile *p)
{
    return p->fed.peak_total;
}

size_t profile_band_cap(const struct profile *p)
{
    return p->stats.cap;
}
