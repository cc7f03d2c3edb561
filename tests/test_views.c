/* test_views.c: the views (--view), growth and suspects, and PDF/PostScript/EPS.
 *
 * Growth is checked against least squares computed here from the same numbers, with
 * absent censuses as 0 and a band twice in one census summed; suspects on profiles built
 * to leak, to stay flat, to jump once and to grow too little to matter. Each view's
 * display list is checked for its structure (which items, on which scale), its pixels
 * (a band's colour where the band is), and the vector documents for their form and for
 * giving identical bytes twice.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "charttest.h"
#include "base/format.h"
#include "chart/textmeasure.h"
#include "chart/views.h"
#include "facts/suspects.h"
#include "render/png_render.h"
#include "render/vector.h"

/* --- growth ------------------------------------------------------------------------ */

struct built {
    struct bands *bands;
    struct profile *p;
    uint32_t ids[8];
};

/* A profile of n censuses at times t[c] (seconds) of w bands, bytes[c * w + b] (0:
 * absent); every_band: no folding; its bands in the order sort names (NULL: the default). */
static void build(struct built *b, const char *sort, const char *const *labels, size_t w,
                  const double *t, const uint64_t *bytes, size_t n, bool twice)
{
    struct profile_options po;
    profile_options_every_band(&po);
    if (sort)
        assert_true(profile_sort_from_name(sort, &po.sort));
    struct ev_error err;
    b->bands = bands_new();
    for (size_t i = 0; i < w; i++)
        bands_string(b->bands, labels[i], strlen(labels[i]), &b->ids[i]);
    b->p = profile_new(&po, &err);
    assert_non_null(b->p);
    struct census_entry e[16];
    for (size_t c = 0; c < n; c++) {
        size_t m = 0;
        for (size_t i = 0; i < w; i++) {
            uint64_t x = bytes[c * w + i];
            if (!x)
                continue;
            if (twice && i == 0 && x > 1) {
                /* the band in two entries of one census: one observation of the sum */
                e[m++] = (struct census_entry){ b->ids[i], x / 2 };
                e[m++] = (struct census_entry){ b->ids[i], x - x / 2 };
            } else {
                e[m++] = (struct census_entry){ b->ids[i], x };
            }
        }
        struct census_frame f = { (uint64_t)llround(t[c] * 1e9), 0, m, e };
        assert_int_equal(profile_add_frame(b->p, &f, b->bands), 0);
    }
}

static void built_free(struct built *b)
{
    profile_free(b->p);
    bands_free(b->bands);
}

/* The reference: ordinary least squares of y on t, straight from the definitions. */
static void reference_fit(const double *t, const double *y, size_t n, double *slope, double *r2)
{
    double tm = 0, ym = 0;
    for (size_t i = 0; i < n; i++)
        tm += t[i] / n, ym += y[i] / n;
    double stt = 0, syy = 0, sty = 0;
    for (size_t i = 0; i < n; i++) {
        stt += (t[i] - tm) * (t[i] - tm);
        syy += (y[i] - ym) * (y[i] - ym);
        sty += (t[i] - tm) * (y[i] - ym);
    }
    *slope = sty / stt;
    *r2 = syy > 0 ? sty * sty / (stt * syy) : 0;
}

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fmax(1, fabs(want))))
        fail_msg("%.17g is not %.17g", got, want);
}

static void growth_against_reference(void **state)
{
    (void)state;
    enum { N = 40, W = 3 };
    const char *labels[W] = { "grows", "wobbles", "comes and goes" };
    double t[N];
    uint64_t bytes[N * W];
    /* uneven times far from 0, large values: what rounding would spoil */
    for (int c = 0; c < N; c++) {
        t[c] = 1000.0 + c * 0.37 + (c % 3) * 0.05;
        bytes[c * W + 0] = 4000000000ull + (uint64_t)c * 1234567 + (uint64_t)(c % 5) * 99991;
        bytes[c * W + 1] = 50000 + (uint64_t)((c * 7919) % 1000);
        bytes[c * W + 2] = c % 4 == 0 ? 0 : (uint64_t)(c * c) * 1000;   /* absent: 0 */
    }
    for (int twice = 0; twice <= 1; twice++) {
        struct built b;
        build(&b, NULL, labels, W, t, bytes, N, twice);
        for (int i = 0; i < W; i++) {
            double y[N], slope, r2;
            for (int c = 0; c < N; c++)
                y[c] = (double)bytes[c * W + i];
            reference_fit(t, y, N, &slope, &r2);
            struct profile_band_stats st = profile_stats(b.p, b.ids[i]);
            assert_close(st.growth, slope, 1e-7);
            assert_close(st.growth_r2, r2, 1e-7);
            /* the rise: the same fit up to the census of the band's peak */
            size_t pk = 0;
            for (int c = 1; c < N; c++)
                if (bytes[c * W + i] > bytes[pk * W + i])
                    pk = (size_t)c;
            assert_int_equal(st.rise_censuses, pk + 1);
            if (pk >= 1) {
                reference_fit(t, y, pk + 1, &slope, &r2);
                assert_close(st.rise, slope, 1e-7);
                assert_close(st.rise_r2, r2, 1e-7);
            }
        }
        built_free(&b);
    }
}

static void growth_degenerate(void **state)
{
    (void)state;
    const char *labels[1] = { "one" };
    double t[2] = { 1, 1 };
    uint64_t bytes[2] = { 5, 9 };
    struct built b;
    build(&b, NULL, labels, 1, t, bytes, 1, false);   /* one census: no line */
    struct profile_band_stats st = profile_stats(b.p, b.ids[0]);
    assert_true(st.growth == 0 && st.growth_r2 == 0);
    built_free(&b);
    build(&b, NULL, labels, 1, t, bytes, 2, false);   /* two censuses at one time: none either */
    st = profile_stats(b.p, b.ids[0]);
    assert_true(st.growth == 0 && st.growth_r2 == 0);
    built_free(&b);
    uint64_t flat[3] = { 7, 7, 7 };
    double t3[3] = { 0, 1, 2 };
    build(&b, NULL, labels, 1, t3, flat, 3, false);   /* constant: slope 0, R^2 0 */
    st = profile_stats(b.p, b.ids[0]);
    assert_true(fabs(st.growth) < 1e-9 && st.growth_r2 == 0);
    built_free(&b);
}

/* --- suspects ---------------------------------------------------------------------- */

/* A profile built as build builds it (every band, default order) has one suspect, want. */
static void assert_one_suspect(const char *const *labels, size_t w, const double *t,
                               const uint64_t *bytes, size_t n, const char *want)
{
    struct built b;
    build(&b, NULL, labels, w, t, bytes, n, false);
    struct profile_view v;
    assert_int_equal(profile_view(b.p, b.bands, &v), 0);
    size_t sus[8];   /* build keeps at most 8 bands */
    assert_int_equal(suspects_of(&v, sus, w), 1);
    assert_string_equal(v.bands[sus[0]].label, want);
    profile_view_free(&v);
    built_free(&b);
}

static void suspects_on_built_profiles(void **state)
{
    (void)state;
    enum { N = 30, W = 5 };
    const char *labels[W] = { "leak", "flat", "jump", "small leak", "rises then falls" };
    double t[N];
    uint64_t bytes[N * W];
    for (int c = 0; c < N; c++) {
        t[c] = 0.1 * c;
        bytes[c * W + 0] = 1000000 + (uint64_t)c * 300000 + (uint64_t)((c * 37) % 7) * 20000;
        bytes[c * W + 1] = 8000000 + (uint64_t)((c * 7919) % 13) * 100000;
        bytes[c * W + 2] = c < 3 ? 100000 : 6000000;        /* at once, then flat */
        bytes[c * W + 3] = 1000 + (uint64_t)c * 1000;       /* steady, but tiny */
        bytes[c * W + 4] = c < 3 ? 100000 + (uint64_t)c * 4000000 : 100000;  /* 3 censuses */
    }
    assert_one_suspect(labels, W, t, bytes, N, "leak");

    /* the same leak with a teardown at the end (as at a program's exit): still found */
    for (int c = N - 3; c < N; c++)
        bytes[c * W + 0] = 1000;
    assert_one_suspect(labels, W, t, bytes, N, "leak");
}

static void sort_by_growth(void **state)
{
    (void)state;
    enum { N = 10, W = 3 };
    const char *labels[W] = { "big and flat", "shrinks", "grows" };
    double t[N];
    uint64_t bytes[N * W];
    for (int c = 0; c < N; c++) {
        t[c] = c;
        bytes[c * W + 0] = 100000000;
        bytes[c * W + 1] = 50000000 - (uint64_t)c * 1000000;
        bytes[c * W + 2] = 1000000 + (uint64_t)c * 500000;
    }
    struct built b;
    build(&b, "growth", labels, W, t, bytes, N, false);
    struct profile_view v;
    assert_int_equal(profile_view(b.p, b.bands, &v), 0);
    assert_string_equal(v.bands[0].label, "grows");
    assert_string_equal(v.bands[1].label, "big and flat");
    assert_string_equal(v.bands[2].label, "shrinks");
    profile_view_free(&v);
    built_free(&b);
}

/* --- the view table and the streamgraph --------------------------------------------- */

static void view_names(void **state)
{
    (void)state;
    for (int i = CHART_VIEW_AREA; i < CHART_VIEW_COUNT; i++) {
        enum chart_view v;
        assert_true(chart_view_from_name(chart_view_name((enum chart_view)i), &v));
        assert_int_equal(v, i);
        assert_non_null(strstr(chart_view_names(), chart_view_name((enum chart_view)i)));
    }
    enum chart_view v = CHART_VIEW_LINES;
    assert_false(chart_view_from_name("Area", &v));
    assert_false(chart_view_from_name("", &v));
    assert_int_equal(v, CHART_VIEW_LINES);
}

static void stream_geometry(void **state)
{
    (void)state;
    /* three bands over four points: a (early), b (middle), c (late) */
    enum { N = 4, W = 3 };
    uint64_t values[N * W] = {
        10, 0, 0,
        10, 5, 0,
        10, 5, 8,
        0, 5, 8,
    };
    uint64_t totals[N];
    for (int k = 0; k < N; k++)
        totals[k] = values[k * W] + values[k * W + 1] + values[k * W + 2];
    double base[N];
    size_t order[W];
    double top = view_stream_layout(values, totals, N, W, base, order);
    /* inside-out: the earliest-living band (a) in the middle, b below, c above */
    assert_int_equal(order[1], 0);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[2], 2);
    /* the weighted-wiggle baseline, g0 = -(3 f_low + 2 f_mid + f_high) / 4, shifted so
     * the lowest edge is 0 */
    double g[N], lowest = INFINITY, want_top = 0;
    for (int k = 0; k < N; k++) {
        g[k] = -(3.0 * values[k * W + 1] + 2.0 * values[k * W + 0] + values[k * W + 2]) / 4;
        lowest = fmin(lowest, g[k]);
    }
    for (int k = 0; k < N; k++) {
        assert_close(base[k], g[k] - lowest, 1e-12);
        want_top = fmax(want_top, g[k] - lowest + (double)totals[k]);
    }
    assert_close(top, want_top, 1e-12);
}

/* --- layouts ----------------------------------------------------------------------- */

/* Three bands over 20 censuses: "big" (flat), "leak" (grows), "small"; markers, totals,
 * allocation and collections. */
static struct profile *sample_profile(struct bands *bands, uint32_t *ids, bool censuses)
{
    const char *labels[3] = { "big", "leak", "small" };
    for (int i = 0; i < 3; i++)
        bands_string(bands, labels[i], strlen(labels[i]), &ids[i]);
    struct profile_options po;
    profile_options_default(&po);
    po.columns = 640;
    struct ev_error err;
    struct profile *p = profile_new(&po, &err);
    for (int c = 0; censuses && c < 20; c++) {
        struct census_entry e[3] = {
            { ids[0], 40000000 }, { ids[1], 1000000 + (uint64_t)c * 2000000 },
            { ids[2], 2000000 + (uint64_t)(c % 2) * 100000 },
        };
        struct census_frame f = { (uint64_t)(c + 1) * 100000000ull, 0, 3, e };
        assert_int_equal(profile_add_frame(p, &f, bands), 0);
    }
    for (int i = 0; i <= 40; i++) {
        uint64_t t = (uint64_t)i * 50000000ull;
        profile_add_total(p, HEAP_TOTAL_SIZE, t, 100000000 + (uint64_t)i * 1000000);
        profile_add_total(p, HEAP_TOTAL_LIVE, t, 50000000 + (uint64_t)i * 1000000);
        profile_add_total(p, HEAP_TOTAL_ALLOCATED, t, (uint64_t)i * (uint64_t)i * 10000000);
        profile_add_pause(p, (unsigned)i % 2, t + 1000000, t + 6000000);
    }
    profile_add_marker(p, 1000000000, "half way", 8);
    return p;
}

struct laid {
    struct bands *bands;
    struct profile *p;
    struct profile_view v;
    struct display_list dl;
    struct textmeasure *tm;
    uint32_t ids[3];
};

static void lay_out(struct laid *l, enum chart_view view, bool censuses)
{
    l->bands = bands_new();
    l->p = sample_profile(l->bands, l->ids, censuses);
    assert_int_equal(profile_view(l->p, l->bands, &l->v), 0);
    struct chart_options ch;
    chart_options_default(&ch);
    ch.width = 640;
    ch.height = 400;
    ch.view = view;
    ch.suspects = suspects_of;   /* as the chart sink hands it */
    l->tm = textmeasure_new();
    struct run_info info = { .program = "prog +RTS -hT -l", .end_time_ns = 2000000000 };
    assert_int_equal(chart_layout(&l->v, &info, "input", &ch, l->tm, &l->dl), 0);
}

static void laid_free(struct laid *l)
{
    display_free(&l->dl);
    textmeasure_free(l->tm);
    profile_view_free(&l->v);
    profile_free(l->p);
    bands_free(l->bands);
}

/* The chart a case looks at: laid out by laid_out, freed by the next call or after the
 * case (laid_release, its teardown). */
static struct laid current;
static bool current_in_use;

static int laid_release(void **state)
{
    (void)state;
    if (current_in_use)
        laid_free(&current);
    current_in_use = false;
    return 0;
}

/* The sample profile (with censuses or not) laid out in view, 640 x 400. */
static struct laid *laid_out(enum chart_view view, bool censuses)
{
    laid_release(NULL);
    lay_out(&current, view, censuses);
    current_in_use = true;
    return &current;
}

static size_t count_role(const struct display_list *dl, enum dl_kind kind, const char *role)
{
    size_t n = 0;
    for (size_t i = 0; i < dl->count; i++)
        n += dl->items[i].kind == kind && strcmp(dl->items[i].role, role) == 0;
    return n;
}

static const struct dl_item *find_text(const struct display_list *dl, const char *text)
{
    for (size_t i = 0; i < dl->count; i++)
        if (dl->items[i].kind == DL_TEXT && strcmp(dl->items[i].text, text) == 0)
            return &dl->items[i];
    return NULL;
}

static const struct dl_item *band_item(const struct display_list *dl, enum dl_kind kind,
                                       const char *label)
{
    for (size_t i = 0; i < dl->count; i++)
        if (dl->items[i].kind == kind && strcmp(dl->items[i].role, "band") == 0 &&
            dl->items[i].title && strcmp(dl->items[i].title, label) == 0)
            return &dl->items[i];
    return NULL;
}

static void normalized_structure(void **state)
{
    (void)state;
    struct laid *l = laid_out(CHART_VIEW_NORMALIZED, true);
    assert_int_equal(count_role(&l->dl, DL_POLYGON, "band"), 3);
    assert_int_equal(count_role(&l->dl, DL_POLYGON, "peak"), 0);   /* no bytes peak on % */
    const struct dl_item *hundred = find_text(&l->dl, "100 %"), *zero = find_text(&l->dl, "0 %");
    assert_non_null(hundred);
    assert_non_null(zero);
    double top = hundred->y - 11.0 * 0.35, bottom = zero->y - 11.0 * 0.35;
    /* the top of the stack is the 100 % line at every census; the bottom band's top edge
     * is its share: big / (big + leak + small) */
    const struct dl_item *first = NULL;
    for (size_t i = 0; i < l->dl.count && !first; i++)
        if (l->dl.items[i].kind == DL_POLYGON && strcmp(l->dl.items[i].role, "band") == 0)
            first = &l->dl.items[i];
    for (size_t k = 1; k + 1 < first->point_count; k++)
        assert_close(first->points[k].y, top, 1e-9);
    const struct dl_item *big = band_item(&l->dl, DL_POLYGON, "big");
    assert_non_null(big);
    double share = 40000000.0 / (40000000.0 + 1000000.0 + 2000000.0);   /* census 1 */
    assert_close(big->points[1].y, bottom - share * (bottom - top), 1e-9);
    assert_null(find_text(&l->dl, "heap size"));   /* totals mean nothing on shares */
}

static void lines_structure(void **state)
{
    (void)state;
    struct laid *l = laid_out(CHART_VIEW_LINES, true);
    assert_int_equal(count_role(&l->dl, DL_POLYLINE, "band"), 3);
    assert_int_equal(count_role(&l->dl, DL_POLYGON, "band"), 0);
    /* each line from zero: "small" stays low, "leak" ends near the top of the scale */
    const struct dl_item *leak = band_item(&l->dl, DL_POLYLINE, "leak");
    const struct dl_item *small = band_item(&l->dl, DL_POLYLINE, "small");
    assert_non_null(leak);
    assert_non_null(small);
    assert_true(leak->points[leak->point_count - 1].y < leak->points[0].y - 100);
    assert_true(fabs(small->points[0].y - small->points[1].y) < 10);
}

static void stream_structure(void **state)
{
    (void)state;
    struct laid *l = laid_out(CHART_VIEW_STREAM, true);
    assert_int_equal(count_role(&l->dl, DL_POLYGON, "band"), 3);
    assert_true(count_role(&l->dl, DL_POLYLINE, "scale") == 1);
    /* a ribbon: its thickness at census c is the band's bytes on the scale: the same
     * for "big" (flat) at every point */
    const struct dl_item *big = band_item(&l->dl, DL_POLYGON, "big");
    size_t n = big->point_count / 2;
    double first = big->points[2 * n - 1].y - big->points[0].y;
    double last = big->points[n].y - big->points[n - 1].y;
    assert_true(first > 5);
    assert_close(first, last, 1e-9);
}

static void heap_structure(void **state)
{
    (void)state;
    for (int censuses = 0; censuses <= 1; censuses++) {
        struct laid *l = laid_out(CHART_VIEW_HEAP, censuses);
        assert_int_equal(count_role(&l->dl, DL_POLYGON, "band"), 0);
        assert_int_equal(count_role(&l->dl, DL_POLYLINE, "total"), 2);
        assert_int_equal(count_role(&l->dl, DL_POLYGON, "allocation"), 1);
        /* each collection a mark in its generation's lane: 21 of gen 0 (the last begins
         * at 2.001 s, past the plot's end at the last heap total, 2.0 s) and 20 of gen 1 */
        assert_int_equal(count_role(&l->dl, DL_RECT, "gc0"), 20);
        assert_int_equal(count_role(&l->dl, DL_RECT, "gc1"), 20);
        assert_non_null(find_text(&l->dl, "heap size"));
        assert_non_null(find_text(&l->dl, "live data"));
        /* 41 collections of 5 ms, by generation; the allocation's peak rate is its last interval:
         * (40^2 - 39^2) x 10 MB over 50 ms */
        assert_non_null(find_text(&l->dl, "collections, each pause as long as it lasted: "
                                          "gen 0 21, 0.105 s; gen 1 20, 0.100 s"));
        char want[96], rate[32];
        format_bytes((1600.0 - 1521.0) * 10000000 / 0.05, rate, sizeof rate);
        snprintf(want, sizeof want, "allocation rate, on its own scale: peak %s/s", rate);
        assert_non_null(find_text(&l->dl, want));
        assert_null(find_text(&l->dl, "big"));   /* no bands in this view's legend */
    }
}

static void detail_structure(void **state)
{
    (void)state;
    struct laid *l = laid_out(CHART_VIEW_DETAIL, true);
    assert_int_equal(count_role(&l->dl, DL_TEXT, "label"), 3);
    assert_int_equal(count_role(&l->dl, DL_POLYLINE, "band"), 3);
    assert_int_equal(count_role(&l->dl, DL_TEXT, "suspect"), 1);
    /* the suspect is the leak's row: same baseline as its label */
    const struct dl_item *tag = NULL, *label = find_text(&l->dl, "leak");
    for (size_t i = 0; i < l->dl.count; i++)
        if (strcmp(l->dl.items[i].role, "suspect") == 0)
            tag = &l->dl.items[i];
    assert_non_null(label);
    assert_close(tag->y, label->y, 1e-9);
    /* growth as the summary gives it: leak grows 2 MB every 0.1 s */
    char want[48], mag[32];
    format_bytes(20000000, mag, sizeof mag);
    snprintf(want, sizeof want, "+%s/s", mag);
    const struct dl_item *growth = find_text(&l->dl, want);
    assert_non_null(growth);
    assert_close(growth->y, label->y, 1e-9);
}

static void detail_many_rows(void **state)
{
    (void)state;
    struct bands *bands = bands_new();
    struct profile_options po;
    profile_options_every_band(&po);
    struct ev_error err;
    struct profile *p = profile_new(&po, &err);
    struct census_entry e[60];
    for (int i = 0; i < 60; i++) {
        char label[16];
        snprintf(label, sizeof label, "band%d", i);
        bands_string(bands, label, strlen(label), &e[i].band);
    }
    for (int c = 0; c < 5; c++) {
        for (int i = 0; i < 60; i++)
            e[i].bytes = (uint64_t)(1000 * (i + 1));
        struct census_frame f = { (uint64_t)c * 100000000ull, 0, 60, e };
        profile_add_frame(p, &f, bands);
    }
    struct profile_view v;
    assert_int_equal(profile_view(p, bands, &v), 0);
    struct chart_options ch;
    chart_options_default(&ch);
    ch.height = 400;
    ch.view = CHART_VIEW_DETAIL;
    ch.suspects = suspects_of;
    struct textmeasure *tm = textmeasure_new();
    struct run_info info = { 0 };
    struct display_list dl;
    assert_int_equal(chart_layout(&v, &info, "input", &ch, tm, &dl), 0);
    size_t rows = count_role(&dl, DL_TEXT, "label");
    assert_true(rows > 5 && rows < 60);
    char want[96];
    snprintf(want, sizeof want, "\xe2\x80\xa6 and %zu more bands (raise --height or lower "
             "--bands)", 60 - rows);
    assert_non_null(find_text(&dl, want));
    for (size_t i = 0; i < dl.count; i++)
        if (dl.items[i].kind == DL_TEXT)
            assert_true(dl.items[i].y <= 400);
    display_free(&dl);
    textmeasure_free(tm);
    profile_view_free(&v);
    profile_free(p);
    bands_free(bands);
}

/* --- pixels -------------------------------------------------------------------------- */

static struct dl_color pixel_at(cairo_surface_t *s, double x, double y)
{
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t px = *(uint32_t *)(data + (int)y * stride + 4 * (int)x);
    return (struct dl_color){ (px >> 16) & 255, (px >> 8) & 255, px & 255, 255 };
}

static void assert_color(struct dl_color got, struct dl_color want)
{
    if (got.r != want.r || got.g != want.g || got.b != want.b)
        fail_msg("%u,%u,%u is not %u,%u,%u", got.r, got.g, got.b, want.r, want.g, want.b);
}

/* A point well inside a band's shape is the band's colour in the PNG drawing: in the
 * streamgraph the middle of each ribbon, in the normalized view the middle of the bottom
 * band (the largest: from its top edge down to the axis). */
static void band_colours_in_pixels(void **state)
{
    (void)state;
    const char *names[3] = { "big", "leak", "small" };
    for (int k = 0; k < 2; k++) {
        struct laid *l = laid_out(k ? CHART_VIEW_STREAM : CHART_VIEW_NORMALIZED, true);
        cairo_surface_t *s;
        struct ev_error err;
        assert_int_equal(png_render(&l->dl, 1, &s, &err), 0);
        for (int b = 0; b < (k ? 3 : 1); b++) {
            const struct dl_item *it = band_item(&l->dl, DL_POLYGON, names[b]);
            assert_non_null(it);
            double x, y;
            if (k) {   /* ribbon: upper edge forward, lower edge back */
                size_t n = it->point_count / 2;
                x = it->points[14].x;
                y = (it->points[14].y + it->points[2 * n - 1 - 14].y) / 2;
            } else {   /* from the axis, its upper edge, back to the axis */
                x = it->points[15].x;
                y = (it->points[15].y + it->points[0].y) / 2;
            }
            assert_color(pixel_at(s, x, y), it->fill);
        }
        cairo_surface_destroy(s);
    }
}

/* --- PDF and PostScript ------------------------------------------------------------ */

static char *vector_bytes(const struct display_list *dl, enum vector_kind kind,
                          const int64_t *date, size_t *len)
{
    char path[512];
    temp_path(path, sizeof path, "doc");
    FILE *f = fopen(path, "wb");
    struct ev_error err;
    assert_int_equal(vector_write(dl, kind, date, f, &err), 0);
    assert_int_equal(fclose(f), 0);
    return testkit_slurp(path, len);
}

static void vector_documents(void **state)
{
    (void)state;
    struct laid *l = laid_out(CHART_VIEW_AREA, true);
    assert_int_equal(display_set_document_title(&l->dl, "prog +RTS -hT -l"), 0);
    for (int kind = VECTOR_PDF; kind <= VECTOR_EPS; kind++) {
        size_t n1, n2;
        char *a = vector_bytes(&l->dl, (enum vector_kind)kind, NULL, &n1);
        char *b = vector_bytes(&l->dl, (enum vector_kind)kind, NULL, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);   /* nothing from the clock */
        /* No date given, none written (not the clock's, not 1 January 1970's)... */
        assert_null(memmem(a, n1, "CreationDate", 12));
        /* ...and the date given (SOURCE_DATE_EPOCH) when there is one. */
        const int64_t date = 1700000000;   /* 2023-11-14 22:13:20 UTC */
        size_t n3;
        char *c = vector_bytes(&l->dl, (enum vector_kind)kind, &date, &n3);
        if (kind == VECTOR_PDF) {
            assert_memory_equal(a, "%PDF-", 5);
            /* cairo 1.16 writes the date without PDF's "D:" prefix, later ones with it */
            const char *at = memmem(c, n3, "/CreationDate (", 15);
            assert_non_null(at);
            assert_true(strncmp(at + 15, "D:20231114221320", 16) == 0 ||
                        strncmp(at + 15, "20231114221320", 14) == 0);
        } else {
            const char *magic = kind == VECTOR_EPS ? "%!PS-Adobe-3.0 EPSF-3.0\n"
                                                   : "%!PS-Adobe-3.0\n";
            assert_memory_equal(a, magic, strlen(magic));
            assert_non_null(memmem(c, n3, "\n%%CreationDate: 2023-11-14T22:13:20Z\n", 38));
            assert_non_null(memmem(a, n1, "%%Title: prog +RTS -hT -l\n", 26));
            assert_non_null(memmem(a, n1, "%%BoundingBox: 0 0 480 300", 26));
        }
        free(a);
        free(b);
        free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(growth_against_reference),
        cmocka_unit_test(growth_degenerate),
        cmocka_unit_test(suspects_on_built_profiles),
        cmocka_unit_test(sort_by_growth),
        cmocka_unit_test(view_names),
        cmocka_unit_test(stream_geometry),
        cmocka_unit_test_teardown(normalized_structure, laid_release),
        cmocka_unit_test_teardown(lines_structure, laid_release),
        cmocka_unit_test_teardown(stream_structure, laid_release),
        cmocka_unit_test_teardown(heap_structure, laid_release),
        cmocka_unit_test_teardown(detail_structure, laid_release),
        cmocka_unit_test(detail_many_rows),
        cmocka_unit_test_teardown(band_colours_in_pixels, laid_release),
        cmocka_unit_test_teardown(vector_documents, laid_release),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
