/* compare.c: --compare BASE (see compare.h).
 *
 * The base's censuses feed a peak tracker and up to two profiles while it is read; no
 * census is kept beyond what a profile keeps, so memory stays bounded however long the
 * base run was. Bands are matched between the runs by label as charts show it (a .hp's
 * "(123)" stack number dropped), so an eventlog compares with a .hp of the same program.
 */
#include "chart/compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int base_frame(void *ctx, const struct census_frame *frame)
{
    struct compare_base *b = ctx;
    if (peak_add(&b->peak, frame) != 0 ||
        (b->chart && profile_add_frame(b->chart, frame, b->bands) != 0) ||
        (b->every && profile_add_frame(b->every, frame, b->bands) != 0)) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

static int base_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct compare_base *b = ctx;
    if (b->chart && profile_add_marker(b->chart, time_ns, text, len) != 0) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

static int base_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct compare_base *b = ctx;
    if (b->chart && profile_add_total(b->chart, kind, time_ns, bytes) != 0) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

static int new_profiles(struct compare_base *b, const struct compare_needs *needs,
                        struct ev_error *err)
{
    struct profile_options opt;
    if (needs->chart) {
        chart_profile_options(needs->chart, &opt);
        if (!(b->chart = profile_new(&opt, err)))
            return -1;
    }
    if (needs->summary) {
        profile_options_every_band(&opt);
        if (!(b->every = profile_new(&opt, err)))
            return -1;
    }
    return 0;
}

enum input_status compare_base_read(struct compare_base *b, const struct input_options *opt,
                                    const struct compare_needs *needs,
                                    struct input_outcome *out, struct ev_error *err)
{
    memset(b, 0, sizeof *b);
    memset(out, 0, sizeof *out);
    b->name = input_name(opt->path);
    if (new_profiles(b, needs, err) != 0)
        return INPUT_BAD;
    struct census_events events = { base_frame, base_marker, base_total, b };
    b->input = input_open(opt, &events, err);
    if (!b->input)
        return INPUT_BAD;
    b->info = input_run_info(b->input);
    b->bands = input_bands(b->input);
    enum input_status st = input_read(b->input, out, err);
    if (st == INPUT_STOPPED) {
        ev_error_set(err, "out of memory");
        return INPUT_BAD;
    }
    peak_sort(&b->peak);
    return st;
}

void compare_base_free(struct compare_base *b)
{
    profile_free(b->chart);
    profile_free(b->every);
    peak_free(&b->peak);
    input_free(b->input);
    memset(b, 0, sizeof *b);
}

/* --- matching labels across runs ---------------------------------------------------- */

static bool same_band(const char *a, size_t alen, const char *b)
{
    size_t x, y;
    a = bands_shown_label(a, alen, &x);
    b = bands_shown_label(b, strlen(b), &y);
    return x == y && memcmp(a, b, x) == 0;
}

/* The bands either view shows alone (OTHER aside). */
struct union_of {
    const struct profile_view *views[2];
};

static bool in_union(void *ctx, const char *label, size_t len)
{
    const struct union_of *u = ctx;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < u->views[k]->band_count; i++)
            if (u->views[k]->bands[i].band != PROFILE_OTHER &&
                same_band(label, len, u->views[k]->bands[i].label))
                return true;
    return false;
}

/* Views of both runs showing the union of the bands each would show alone. */
int compare_union_views(const struct compare_base *b, const struct profile *p,
                       const struct bands *bands, struct profile_view *base_view,
                       struct profile_view *now_view)
{
    struct profile_view alone[2];
    if (profile_view(b->chart, b->bands, &alone[0]) != 0)
        return -1;
    if (profile_view(p, bands, &alone[1]) != 0) {
        profile_view_free(&alone[0]);
        return -1;
    }
    struct union_of u = { { &alone[0], &alone[1] } };
    struct profile_keep keep = { in_union, &u };
    int rc = profile_view_keep(b->chart, b->bands, &keep, base_view);
    if (rc == 0 && (rc = profile_view_keep(p, bands, &keep, now_view)) != 0)
        profile_view_free(base_view);
    profile_view_free(&alone[0]);
    profile_view_free(&alone[1]);
    return rc;
}

int compare_layout(const struct sink_context *ctx, const struct profile *p,
                   const struct chart_options *opt, struct textmeasure *tm,
                   struct display_list *dl)
{
    const struct compare_base *b = ctx->base;
    struct profile_view now_view, base_view;
    if (!b || !b->chart) {
        if (profile_view(p, ctx->bands, &now_view) != 0)
            return -1;
        int rc = chart_layout(&now_view, ctx->info, ctx->input_name, opt, tm, dl);
        profile_view_free(&now_view);
        return rc;
    }
    if (compare_union_views(b, p, ctx->bands, &base_view, &now_view) != 0)
        return -1;
    struct chart_run base = { &base_view, b->info, b->name };
    struct chart_run now = { &now_view, ctx->info, ctx->input_name };
    int rc = chart_layout_compare(&base, &now, opt, tm, dl);
    profile_view_free(&base_view);
    profile_view_free(&now_view);
    return rc;
}

/* --- growth ------------------------------------------------------------------------- */

static uint64_t base_peak_of(const struct profile_view *base, const char *label)
{
    for (size_t i = 0; i < base->band_count; i++)
        if (same_band(label, strlen(label), base->bands[i].label))
            return base->bands[i].stats.peak;
    return 0;
}

static int by_growth_desc(const void *a, const void *b)
{
    const struct compare_growth *x = a, *y = b;
    uint64_t gx = x->now - x->base, gy = y->now - y->base;
    if (gx != gy)
        return gx > gy ? -1 : 1;
    return strcmp(x->label, y->label);
}

long compare_grew(const struct compare_base *b, const struct profile_view *now,
                  struct compare_growth *out, size_t max)
{
    struct profile_view base;
    if (!b->every || profile_view(b->every, b->bands, &base) != 0)
        return -1;
    struct compare_growth *all = malloc((now->band_count + 1) * sizeof *all);
    if (!all) {
        profile_view_free(&base);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < now->band_count; i++) {
        uint64_t was = base_peak_of(&base, now->bands[i].label);
        if (now->bands[i].stats.peak > was)
            all[n++] = (struct compare_growth){ now->bands[i].label, was,
                                                now->bands[i].stats.peak };
    }
    qsort(all, n, sizeof *all, by_growth_desc);
    if (n > max)
        n = max;
    memcpy(out, all, n * sizeof *out);
    free(all);
    profile_view_free(&base);
    return (long)n;
}
