/* test_profile.c: the chart profile: exact statistics, band selection and the OTHER
 * arithmetic, sort orders, label filters, the time window, bounded memory; and which
 * resolutions the run model reduces to at the end of input. */
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/bands.h"
#include "model/profile.h"
#include "model/runmodel.h"

struct fixture {
    struct bands *bands;
    uint32_t id[64];
};

/* A band table of the n labels. */
static struct fixture fixture_of(const char *const *labels, size_t n)
{
    struct fixture f = { bands_new(), { 0 } };
    for (size_t i = 0; i < n; i++)
        assert_int_equal(bands_string(f.bands, labels[i], strlen(labels[i]), &f.id[i]), TABLE_OK);
    return f;
}

/* Feeds census c at (c + 1) * 0.1 s with bytes[c * n + b] (0 = absent). */
static void feed(struct profile *p, struct fixture *f, size_t n, const uint64_t *bytes,
                 size_t censuses)
{
    struct census_entry e[64];
    for (size_t c = 0; c < censuses; c++) {
        size_t k = 0;
        for (size_t b = 0; b < n; b++)
            if (bytes[c * n + b])
                e[k++] = (struct census_entry){ f->id[b], bytes[c * n + b] };
        struct census_frame frame = { (c + 1) * 100000000ull, 0, k, e };
        assert_int_equal(profile_add_frame(p, &frame, f->bands), 0);
    }
}

static struct profile *new_profile(const struct profile_options *o)
{
    struct ev_error err;
    struct profile *p = profile_new(o, &err);
    assert_non_null(p);
    return p;
}

/* A profile with options o fed n bands' bytes over that many censuses (feed), and its view
 * in *v (made without error). Both freed by view_free. */
static struct profile *viewed(const struct profile_options *o, struct fixture *f, size_t n,
                              const uint64_t *bytes, size_t censuses, struct profile_view *v)
{
    struct profile *p = new_profile(o);
    feed(p, f, n, bytes, censuses);
    assert_int_equal(profile_view(p, f->bands, v), 0);
    return p;
}

static void view_free(struct profile *p, struct profile_view *v)
{
    profile_view_free(v);
    profile_free(p);
}

static void statistics_exact(void **state)
{
    struct fixture f = fixture_of((const char *[]){ "a", "b" }, 2);
    /* a: 10, 0 (absent), 30, 40; b: 5 every time */
    uint64_t bytes[] = { 10, 5, 0, 5, 30, 5, 40, 5 };
    struct profile_options o;
    profile_options_default(&o);
    struct profile *p = new_profile(&o);
    feed(p, &f, 2, bytes, 4);
    struct profile_band_stats a = profile_stats(p, f.id[0]), b = profile_stats(p, f.id[1]);
    assert_int_equal(a.peak, 40);
    assert_true(fabs(a.mean - 20.0) < 1e-9);
    /* population stddev of 10, 0, 30, 40 */
    assert_true(fabs(a.stddev - sqrt((100 + 400 + 100 + 400) / 4.0)) < 1e-9);
    assert_true(fabs(b.stddev) < 1e-9);
    /* trapezoids over 0.1 s steps: (10+0)/2 + (0+30)/2 + (30+40)/2 = 55 -> 5.5 byte-s */
    assert_true(fabs(a.area - 5.5) < 1e-9);
    assert_true(fabs(b.area - 1.5) < 1e-9);
    profile_free(p);
    bands_free(f.bands);
}

/* OTHER is the sum of the folded bands at every census; shown in stack order. */
static void other_is_sum_of_folded(void **state)
{
    struct fixture f =
        fixture_of((const char *[]){ "big", "mid", "small1", "small2", "small3" }, 5);
    enum { C = 7 };
    uint64_t bytes[C * 5];
    for (size_t c = 0; c < C; c++) {
        bytes[c * 5 + 0] = 10000 + c;
        bytes[c * 5 + 1] = 5000;
        bytes[c * 5 + 2] = 100 * (c % 3);
        bytes[c * 5 + 3] = 50 + c;
        bytes[c * 5 + 4] = c == 3 ? 0 : 20;
    }
    struct profile_options o;
    profile_options_default(&o);
    o.bands = 2;
    o.trace_percent = 0;
    struct profile_view v;
    struct profile *p = viewed(&o, &f, 5, bytes, C, &v);
    assert_int_equal(v.band_count, 3);
    assert_string_equal(v.bands[0].label, "big");
    assert_string_equal(v.bands[1].label, "mid");
    assert_int_equal(v.bands[2].band, PROFILE_OTHER);
    assert_int_equal(v.bands[2].folded, 3);
    assert_int_equal(v.point_count, C);   /* few censuses: every one kept */
    uint64_t other_peak = 0;
    for (size_t i = 0; i < C; i++) {
        uint64_t folded = bytes[i * 5 + 2] + bytes[i * 5 + 3] + bytes[i * 5 + 4];
        assert_int_equal(v.values[i * 3 + 2], folded);
        assert_int_equal(v.values[i * 3 + 0], bytes[i * 5 + 0]);
        assert_int_equal(v.point_totals[i], folded + bytes[i * 5] + bytes[i * 5 + 1]);
        if (folded > other_peak)
            other_peak = folded;
    }
    assert_int_equal(v.bands[2].stats.peak, other_peak);
    /* the default grouping's measure of it (autogroup.h), and its bound from the folded
     * bands' own peaks, no census read: 200 + 56 + 20, above OTHER's 275 at 0.6 s */
    const struct bandselect_rule rule = { o.bands, o.trace_percent, o.sort, o.reverse };
    uint64_t measured, bound;
    assert_int_equal(profile_grouped_other(p, &rule, NULL, 0, &measured), 0);
    assert_int_equal(measured, other_peak);
    assert_int_equal(profile_other_peak_bound(p, &rule, &bound), 0);
    assert_int_equal(bound, 276);
    double folded_area = profile_stats(p, f.id[2]).area + profile_stats(p, f.id[3]).area +
                         profile_stats(p, f.id[4]).area;
    assert_true(fabs(v.bands[2].stats.area - folded_area) < 1e-9);
    view_free(p, &v);
    bands_free(f.bands);
}

/* The table of every band: the shown one at its place in the view, the folded ones with
 * their bytes at every kept census while the budget allows, at an even subset past it. */
static void table_lists_every_band(void **state)
{
    (void)state;
    struct fixture f = fixture_of((const char *[]){ "a", "b", "c" }, 3);
    uint64_t bytes[] = { 1000, 20, 5, 1100, 0, 7, 1200, 30, 9, 1300, 40, 0 };
    struct profile_options o;
    profile_options_default(&o);
    o.bands = 1;
    struct profile_view v;
    struct profile *p = viewed(&o, &f, 3, bytes, 4, &v);
    struct profile_table t;
    assert_int_equal(profile_table(p, f.bands, &v, 1000, 1000, &t), 0);
    assert_int_equal(t.count, 3);
    assert_string_equal(t.bands[0].label, "a");
    assert_int_equal(t.shown[0], 0);
    assert_string_equal(t.bands[1].label, "b");
    assert_int_equal(t.shown[1], -1);
    assert_int_equal(t.shown[2], -1);
    assert_int_equal(t.folded, 2);
    assert_int_equal(t.points, 4);
    for (size_t c = 0; c < 4; c++) {
        assert_int_equal(t.time_ns[c], (c + 1) * 100000000ull);
        assert_int_equal(t.values[0 * 4 + c], bytes[c * 3 + 1]);   /* b */
        assert_int_equal(t.values[1 * 4 + c], bytes[c * 3 + 2]);   /* c */
    }
    assert_int_equal(t.bands[2].stats.peak, 9);
    profile_table_free(&t);
    /* at most 3 points a band: the first, the middle and the last census (c 0, 1, 3) */
    assert_int_equal(profile_table(p, f.bands, &v, 1000, 3, &t), 0);
    assert_int_equal(t.points, 3);
    assert_int_equal(t.time_ns[2], 400000000ull);
    assert_int_equal(t.values[0 * 3 + 1], 0);   /* b at the second census: absent */
    profile_table_free(&t);
    /* a budget of 5 values for 2 folded bands: 2 points, the first and the last census */
    assert_int_equal(profile_table(p, f.bands, &v, 5, 1000, &t), 0);
    assert_int_equal(t.points, 2);
    assert_int_equal(t.time_ns[1], 400000000ull);
    assert_int_equal(t.values[0 * 2 + 1], 40);
    assert_int_equal(t.values[1 * 2 + 0], 5);
    profile_table_free(&t);
    view_free(p, &v);
    bands_free(f.bands);
}

/* Kept censuses on disk (past profile_options.kept_memory) give the same views, reduced
 * copies and tables as in memory: 300 censuses of 40 bands, 64 columns, a window. */
static void stored_censuses_same(void **state)
{
    (void)state;
    const char *labels[40];
    char names[40][8];
    for (int i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "b%d", i);
        labels[i] = names[i];
    }
    struct fixture f = fixture_of(labels, 40);
    static uint64_t bytes[300 * 40];
    for (size_t c = 0; c < 300; c++)
        for (size_t b = 0; b < 40; b++)
            bytes[c * 40 + b] = (c * 7919 + b * 104729) % 5000 * (b % 5 ? 1 : 0) + b;
    struct profile_options o;
    profile_options_default(&o);
    o.columns = 16;
    o.bands = 6;
    o.has_from = true, o.from_seconds = 0.35;
    struct profile *mem = new_profile(&o);
    o.kept_memory = 1;   /* every census kept goes to disk */
    struct profile *disk = new_profile(&o);
    feed(mem, &f, 40, bytes, 300);
    feed(disk, &f, 40, bytes, 300);
    struct profile_options coarse = o;
    coarse.columns = 16;
    struct profile *mem_r = profile_reduce(mem, &coarse, &(struct ev_error){ 0 });
    struct profile *disk_r = profile_reduce(disk, &coarse, &(struct ev_error){ 0 });
    assert_non_null(mem_r);
    assert_non_null(disk_r);
    const struct profile *pairs[2][2] = { { mem, disk }, { mem_r, disk_r } };
    for (int k = 0; k < 2; k++) {
        struct profile_view a, b;
        assert_int_equal(profile_view(pairs[k][0], f.bands, &a), 0);
        assert_int_equal(profile_view(pairs[k][1], f.bands, &b), 0);
        assert_int_equal(a.point_count, b.point_count);
        assert_int_equal(a.band_count, b.band_count);
        assert_true(a.point_count > 16);
        assert_memory_equal(a.time_ns, b.time_ns, a.point_count * sizeof *a.time_ns);
        assert_memory_equal(a.values, b.values, a.point_count * a.band_count * sizeof *a.values);
        struct profile_table ta, tb;
        assert_int_equal(profile_table(pairs[k][0], f.bands, &a, 1000, 1000, &ta), 0);
        assert_int_equal(profile_table(pairs[k][1], f.bands, &b, 1000, 1000, &tb), 0);
        assert_int_equal(ta.points, tb.points);
        assert_int_equal(ta.folded, tb.folded);
        assert_memory_equal(ta.values, tb.values, ta.folded * ta.points * sizeof *ta.values);
        profile_table_free(&ta);
        profile_table_free(&tb);
        profile_view_free(&a);
        profile_view_free(&b);
    }
    profile_free(mem_r);
    profile_free(disk_r);
    profile_free(mem);
    profile_free(disk);
    bands_free(f.bands);
}

static void trace_folds_small_bands(void **state)
{
    struct fixture f = fixture_of((const char *[]){ "a", "b", "c" }, 3);
    uint64_t bytes[] = { 1000, 15, 5, 1000, 15, 5 };   /* b is 1.5 %, c 0.5 % */
    struct profile_options o;
    profile_options_default(&o);
    struct profile_view v;
    /* by default nothing folds by size: only --bands decides */
    struct profile *p = viewed(&o, &f, 3, bytes, 2, &v);
    assert_int_equal(v.band_count, 3);
    assert_string_equal(v.bands[2].label, "c");
    view_free(p, &v);
    /* --trace 1, given */
    o.trace_percent = 1;
    p = viewed(&o, &f, 3, bytes, 2, &v);
    assert_int_equal(v.band_count, 3);
    assert_string_equal(v.bands[1].label, "b");
    assert_int_equal(v.bands[2].band, PROFILE_OTHER);
    assert_int_equal(v.bands[2].folded, 1);
    view_free(p, &v);
    /* --bands 0 --trace 0: everything shown, no OTHER */
    o.bands = 0;
    o.trace_percent = 0;
    p = viewed(&o, &f, 3, bytes, 2, &v);
    assert_int_equal(v.band_count, 3);
    assert_int_not_equal(v.bands[2].band, PROFILE_OTHER);
    view_free(p, &v);
    bands_free(f.bands);
}

static void sort_orders(void **state)
{
    struct fixture f = fixture_of((const char *[]){ "zeta", "alpha", "mid" }, 3);
    /* areas: zeta largest, steady; alpha varies most */
    uint64_t bytes[] = { 1000, 10, 500, 1000, 900, 500, 1000, 10, 500 };
    struct profile_options o;
    profile_options_default(&o);
    o.trace_percent = 0;
    const char *expect[][3] = {
        { "zeta", "mid", "alpha" },   /* size */
        { "alpha", "zeta", "mid" },   /* stddev (zeta and mid 0: by size) */
        { "alpha", "mid", "zeta" },   /* name */
    };
    for (int s = 0; s < 3; s++)
        for (int rev = 0; rev < 2; rev++) {
            o.sort = (enum profile_sort)s;
            o.reverse = rev;
            struct profile_view v;
            struct profile *p = viewed(&o, &f, 3, bytes, 3, &v);
            assert_int_equal(v.band_count, 3);
            for (int i = 0; i < 3; i++)
                assert_string_equal(v.bands[rev ? 2 - i : i].label, expect[s][i]);
            view_free(p, &v);
        }
    enum profile_sort sort;
    assert_true(profile_sort_from_name("stddev", &sort));
    assert_int_equal(sort, PROFILE_SORT_STDDEV);
    assert_false(profile_sort_from_name("area", &sort));
    bands_free(f.bands);
}

static void filters_and_window(void **state)
{
    struct fixture f = fixture_of(
        (const char *[]){ "Main.leak", "Main.other", "GHC.Base", "Data.Map" }, 4);
    uint64_t bytes[4 * 4];
    for (int i = 0; i < 16; i++)
        bytes[i] = 100;
    struct profile_options o;
    profile_options_default(&o);
    o.trace_percent = 0;
    o.include[o.include_count++] = "^Main\\.";
    o.include[o.include_count++] = "Map$";
    o.exclude[o.exclude_count++] = "other";
    o.has_from = true;
    o.from_seconds = 0.15;
    o.has_to = true;
    o.to_seconds = 0.35;
    struct profile_view v;
    /* censuses at 0.1 .. 0.4 s: two in the window */
    struct profile *p = viewed(&o, &f, 4, bytes, 4, &v);
    assert_int_equal(v.censuses, 2);
    assert_int_equal(v.band_count, 2);
    assert_int_equal(v.bands_filtered, 2);
    for (size_t i = 0; i < v.point_count; i++)
        assert_int_equal(v.point_totals[i], 200);
    view_free(p, &v);
    struct ev_error err;
    assert_int_equal(profile_check_pattern("(", &err), -1);
    assert_non_null(strstr(err.what, "bad regular expression"));
    bands_free(f.bands);
}

/* A million censuses: kept censuses stay under 4 x columns, every spike survives. */
static void bounded_memory_keeps_extremes(void **state)
{
    struct fixture f = fixture_of((const char *[]){ "a" }, 1);
    struct profile_options o;
    profile_options_default(&o);
    o.columns = 100;
    struct profile *p = new_profile(&o);
    for (uint64_t c = 0; c < 1000000; c++) {
        struct census_entry e = { f.id[0], c % 100000 == 5000 ? 999999 : 1000 + c % 7 };
        struct census_frame frame = { c * 1000000, 0, 1, &e };
        assert_int_equal(profile_add_frame(p, &frame, f.bands), 0);
        if (c % 1000 == 0) {
            char text[32];
            snprintf(text, sizeof text, "m%llu", (unsigned long long)c);
            assert_int_equal(profile_add_marker(p, c * 1000000, text, strlen(text)), 0);
            assert_int_equal(profile_add_total(p, HEAP_TOTAL_SIZE, c * 1000000, c), 0);
        }
    }
    assert_true(profile_kept(p) <= 4 * 100);
    struct profile_view v;
    assert_int_equal(profile_view(p, f.bands, &v), 0);
    assert_int_equal(v.censuses, 1000000);
    size_t spikes = 0;
    for (size_t i = 0; i < v.point_count; i++)
        spikes += v.point_totals[i] == 999999;
    assert_int_equal(spikes, 10);
    /* every marker is kept with its text (up to PROFILE_MARKERS_WHOLE) */
    assert_int_equal(v.marker_count, 1000);
    assert_true(v.totals[HEAP_TOTAL_SIZE].count <= 400);
    assert_int_equal(profile_stats(p, f.id[0]).peak, 999999);
    view_free(p, &v);
    bands_free(f.bands);
}

/* --- profile_reduce: one fine profile gives what a coarse one fed directly keeps ------ */

static void assert_series_equal(const struct profile_series *a, const struct profile_series *b)
{
    assert_int_equal(a->count, b->count);
    for (size_t i = 0; i < a->count; i++) {
        assert_int_equal(a->time_ns[i], b->time_ns[i]);
        assert_int_equal(a->bytes[i], b->bytes[i]);
    }
}

static void assert_views_equal(const struct profile_view *a, const struct profile_view *b)
{
    assert_int_equal(a->band_count, b->band_count);
    for (size_t i = 0; i < a->band_count; i++) {
        assert_int_equal(a->bands[i].band, b->bands[i].band);
        assert_string_equal(a->bands[i].label, b->bands[i].label);
        assert_memory_equal(&a->bands[i].stats, &b->bands[i].stats, sizeof a->bands[i].stats);
        assert_int_equal(a->bands[i].folded, b->bands[i].folded);
    }
    assert_int_equal(a->point_count, b->point_count);
    for (size_t i = 0; i < a->point_count; i++) {
        assert_int_equal(a->time_ns[i], b->time_ns[i]);
        assert_int_equal(a->point_totals[i], b->point_totals[i]);
    }
    assert_memory_equal(a->values, b->values,
                        a->point_count * a->band_count * sizeof *a->values);
    assert_int_equal(a->censuses, b->censuses);
    assert_int_equal(a->first_ns, b->first_ns);
    assert_int_equal(a->last_ns, b->last_ns);
    assert_int_equal(a->peak_total, b->peak_total);
    assert_int_equal(a->bands_seen, b->bands_seen);
    assert_int_equal(a->bands_filtered, b->bands_filtered);
    for (int k = 0; k < PROFILE_TOTALS; k++)
        assert_series_equal(&a->totals[k], &b->totals[k]);
    assert_int_equal(a->gc.count, b->gc.count);
    assert_int_equal(a->gc.width_ns, b->gc.width_ns);
    for (int l = 0; l < PROFILE_GC_LANES; l++) {
        assert_int_equal(a->gc.collections[l], b->gc.collections[l]);
        assert_int_equal(a->gc.total_ns[l], b->gc.total_ns[l]);
        assert_int_equal(!a->gc.marks[l], !b->gc.marks[l]);
        for (size_t i = 0; a->gc.marks[l] && i < a->gc.count; i++)
            assert_memory_equal(&a->gc.marks[l][i], &b->gc.marks[l][i], sizeof(struct gc_mark));
    }
    assert_int_equal(a->marker_count, b->marker_count);
    for (size_t i = 0; i < a->marker_count; i++) {
        assert_int_equal(a->markers[i].time_ns, b->markers[i].time_ns);
        assert_string_equal(a->markers[i].text, b->markers[i].text);
        assert_int_equal(a->markers[i].merged, b->markers[i].merged);
    }
}

static uint64_t next_random(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

/* The same events into every profile of ps: censuses with few distinct totals (ties
 * between buckets decide which census a bucket keeps), irregular gaps, heap totals with
 * ties, collections, and markers, some in bursts. */
static void feed_all(struct profile **ps, size_t n, struct fixture *f, size_t censuses,
                     size_t markers_each)
{
    uint64_t x = 42, t = 0;
    for (size_t c = 0; c < censuses; c++) {
        t += 1000 + next_random(&x) % 3 * 777777 + (c % 97 == 0 ? 50000000 : 0);
        struct census_entry e[4];
        size_t k = 0;
        for (size_t b = 0; b < 4; b++)
            if (next_random(&x) % 5)
                e[k++] = (struct census_entry){ f->id[b], 100 * (1 + next_random(&x) % 3) };
        struct census_frame frame = { t, 0, k, e };
        uint64_t total = 1000 * (next_random(&x) % 4);
        char text[32];
        snprintf(text, sizeof text, "m%zu", c);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(profile_add_frame(ps[i], &frame, f->bands), 0);
            assert_int_equal(profile_add_total(ps[i], HEAP_TOTAL_SIZE, t, total), 0);
            assert_int_equal(profile_add_pause(ps[i], (unsigned)(t / 7) % 4, t + 10,
                                               t + 10 + t % 1000), 0);
            for (size_t m = 0; m < markers_each; m++)
                assert_int_equal(profile_add_marker(ps[i], t + m, text, strlen(text)), 0);
        }
    }
}

static void reduce_case(unsigned fine, unsigned coarse, size_t censuses, size_t markers_each,
                        const char *include, bool window)
{
    struct fixture f = fixture_of((const char *[]){ "(1) a", "(2) b", "c", "d" }, 4);
    struct profile_options o;
    profile_options_default(&o);
    o.bands = 2;
    if (include) {
        o.include[0] = include;
        o.include_count = 1;
    }
    if (window) {
        o.has_from = o.has_to = true;
        o.from_seconds = 0.5;
        o.to_seconds = 20;
    }
    o.columns = fine;
    struct profile *ps[2];
    ps[0] = new_profile(&o);
    o.columns = coarse;
    ps[1] = new_profile(&o);
    feed_all(ps, 2, &f, censuses, markers_each);
    struct ev_error err;
    struct profile *reduced = profile_reduce(ps[0], &o, &err);
    assert_non_null(reduced);
    assert_int_equal(profile_columns(reduced), profile_columns(ps[1]));
    struct profile_view direct, from_fine;
    assert_int_equal(profile_view(ps[1], f.bands, &direct), 0);
    assert_int_equal(profile_view(reduced, f.bands, &from_fine), 0);
    assert_true(direct.point_count > 0);
    assert_views_equal(&direct, &from_fine);
    profile_view_free(&from_fine);
    /* the same reading the fine profile's statistics instead of a copy of them, freed
     * before it (and leaving them to it) */
    struct profile *borrowing = profile_reduce_borrowing(ps[0], &o, &err);
    assert_non_null(borrowing);
    assert_int_equal(profile_view(borrowing, f.bands, &from_fine), 0);
    assert_views_equal(&direct, &from_fine);
    profile_view_free(&from_fine);
    profile_free(borrowing);
    assert_int_equal(profile_view(reduced, f.bands, &from_fine), 0);
    assert_views_equal(&direct, &from_fine);
    assert_int_equal(profile_stats(ps[0], direct.bands[0].band).peak,
                     direct.bands[0].stats.peak);
    profile_view_free(&direct);
    profile_view_free(&from_fine);
    /* the band selection is the copy's: every band, none folded */
    struct profile_options every = o;
    every.bands = 0;
    every.trace_percent = 0;
    every.columns = 0;
    struct profile *all = profile_reduce(ps[0], &every, &err);
    assert_non_null(all);
    assert_int_equal(profile_columns(all), fine);
    assert_int_equal(profile_view(all, f.bands, &from_fine), 0);
    assert_int_equal(from_fine.band_count, from_fine.bands_seen);
    assert_true(from_fine.bands[from_fine.band_count - 1].band != PROFILE_OTHER);
    profile_view_free(&from_fine);
    profile_free(all);
    profile_free(reduced);
    profile_free(ps[0]);
    profile_free(ps[1]);
    bands_free(f.bands);
}

static void reduce_matches_direct(void **state)
{
    (void)state;
    reduce_case(2560, 1280, 20000, 1, NULL, false);     /* the report's and a chart's */
    reduce_case(3000, 700, 20000, 1, "a|c", true);      /* not a power of two apart */
    reduce_case(64, 64, 5000, 1, NULL, false);          /* the same resolution */
    reduce_case(16, 16, 3, 1, NULL, false);             /* fewer censuses than buckets */
    /* markers: the fine profile keeps them all (its bound is its 8192 buckets), the
     * coarse one merges them past PROFILE_MARKERS_WHOLE */
    reduce_case(4096, 16, 1500, 3, NULL, false);
    reduce_case(4096, 100, 1500, 3, "b", true);
}

/* The end of input reduces the profile to every resolution the outputs ask for, and not to
 * those only the live server asks for (it reduces a copy when it draws). */
static void live_only_resolutions_are_not_reduced_at_the_end(void **state)
{
    (void)state;
    struct fixture f = fixture_of((const char *[]){ "a", "b" }, 2);
    struct run_model_needs needs = { 0 };
    struct profile_options o;
    profile_options_default(&o);
    static const unsigned columns[] = { 2560, 1280, 640 };   /* finest, an output's, live */
    for (size_t i = 0; i < 3; i++) {
        o.columns = columns[i];
        assert_int_equal(run_model_need_chart(&needs, &o), 0);
    }
    needs.live_only = 1u << 2;
    struct run_model m;
    struct ev_error err = { 0 };
    assert_int_equal(run_model_init(&m, &needs, &err), 0);
    m.bands = f.bands;   /* as the run's owner sets it */
    for (uint64_t c = 0; c < 5000; c++) {
        struct census_entry e[2] = { { f.id[0], 100 + c }, { f.id[1], 5000 - c } };
        struct census_frame fr = { .time_ns = (c + 1) * 1000000, .entries = e, .count = 2 };
        assert_int_equal(run_model_frame(&m, &fr), 0);
    }
    assert_int_equal(run_model_finish(&m, &err), 0);
    o.columns = 1280;
    const struct profile *asked = run_model_chart(&m, &o, &err);
    assert_non_null(asked);
    assert_int_equal(profile_columns(asked), 1280);
    o.columns = 640;
    assert_null(run_model_chart(&m, &o, &err));
    assert_string_equal(err.what, "no chart profile of 640 columns was asked of the run");
    /* the live server's copy at 640 columns is reduced when taken */
    struct run_model copy;
    assert_int_equal(run_model_copy(&m, &copy, 640, false, &err), 0);
    assert_int_equal(run_model_finish(&copy, &err), 0);
    const struct profile *drawn = run_model_chart(&copy, &o, &err);
    assert_non_null(drawn);
    assert_int_equal(profile_columns(drawn), 640);
    run_model_free(&copy);
    run_model_free(&m);
    bands_free(f.bands);
}

/* The live server's copy of the band table (snapshots): every band at its number with its
 * label, stack, description, attributes and stack number, found by key, and growing apart
 * from the original. */
static void a_band_table_copy_is_whole_and_apart(void **state)
{
    (void)state;
    struct bands *b = bands_new();
    assert_non_null(b);
    uint32_t band, stack_band;
    int is_new;
    assert_int_equal(bands_string(b, "THUNK", 5, &band), TABLE_OK);
    assert_int_equal(bands_describe(b, band, "a thunk", 7), TABLE_OK);
    assert_int_equal(bands_set_attr(b, band, BAND_KIND, "thunk", 5), TABLE_OK);
    const unsigned char ids[] = { 1, 0, 0, 0, 2, 0, 0, 0 };
    assert_int_equal(bands_stack(b, ids, sizeof ids, &stack_band, &is_new), TABLE_OK);
    assert_int_equal(bands_name_stack(b, stack_band, "MAIN/f", 6, 1), TABLE_OK);
    char key[16];
    for (int i = 0; i < 2000; i++) {
        int n = snprintf(key, sizeof key, "band %d", i);
        assert_int_equal(bands_string(b, key, (size_t)n, &band), TABLE_OK);
    }
    struct bands *c = bands_copy(b);
    assert_non_null(c);
    assert_int_equal(bands_count(c), bands_count(b));
    size_t len;
    const char *s = bands_display_label(c, 0, &len);
    assert_int_equal(len, 7);
    assert_memory_equal(s, "a thunk", 7);
    s = bands_attr(c, 0, BAND_KIND, &len);
    assert_non_null(s);
    assert_memory_equal(s, "thunk", 5);
    s = bands_label(c, stack_band, &len);
    assert_memory_equal(s, "MAIN/f", 6);
    assert_int_equal(bands_stack_number(c, stack_band), 1);
    assert_int_equal(bands_stack(c, ids, sizeof ids, &band, &is_new), TABLE_OK);
    assert_int_equal(band, stack_band);
    assert_false(is_new);
    assert_int_equal(bands_find_string(c, "band 1999", 9, &band), 0);
    assert_int_equal(band, 2001);
    assert_int_equal(bands_string(c, "later", 5, &band), TABLE_OK);   /* grows apart */
    assert_int_equal(band, 2002);
    assert_int_equal(bands_count(b), 2002);
    bands_free(b);
    assert_int_equal(bands_find_string(c, "band 0", 6, &band), 0);
    assert_int_equal(band, 2);
    bands_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_band_table_copy_is_whole_and_apart),
        cmocka_unit_test(statistics_exact),
        cmocka_unit_test(other_is_sum_of_folded),
        cmocka_unit_test(trace_folds_small_bands),
        cmocka_unit_test(table_lists_every_band),
        cmocka_unit_test(stored_censuses_same),
        cmocka_unit_test(sort_orders),
        cmocka_unit_test(filters_and_window),
        cmocka_unit_test(bounded_memory_keeps_extremes),
        cmocka_unit_test(reduce_matches_direct),
        cmocka_unit_test(live_only_resolutions_are_not_reduced_at_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
