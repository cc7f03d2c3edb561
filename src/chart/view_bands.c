/* view_bands.c: the views that only replace the area chart's bands: normalized, stream,
 * lines (views.h).
 *
 * normalized and lines draw from the kept censuses reduced to the output resolution,
 * like the area chart (chart_plot_reduce), so a view costs what the area chart costs.
 * The streamgraph's geometry is here too.
 */
#include "chart/views.h"
#include "chart/colors.h"
#include "base/format.h"
#include "base/order.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double py(const struct chart_plot *P, double value)
{
    if (value > P->ymax)
        value = P->ymax;
    return P->bottom - value / P->ymax * (P->bottom - P->top);
}

/* --- scales and axes --------------------------------------------------------------- */

static double normalized_top(const struct profile_view *v)
{
    (void)v;
    return 100;
}

static double lines_top(const struct profile_view *v)
{
    uint64_t top = 0;
    for (size_t i = 0; i < v->point_count * v->band_count; i++)
        if (v->values[i] > top)
            top = v->values[i];
    return (double)top;
}

static double stream_top(const struct profile_view *v)
{
    double *base = malloc((v->point_count ? v->point_count : 1) * sizeof *base);
    size_t *order = malloc((v->band_count ? v->band_count : 1) * sizeof *order);
    double top = base && order ? view_stream_layout(v->values, v->point_totals, v->point_count,
                                                    v->band_count, base, order)
                               : 0;
    free(base);
    free(order);
    return top > 0 ? top : 0;
}

/* Percent ticks on a grid. */
static double normalized_y_axis(struct chart_plot *P, bool measure_only)
{
    char label[48];
    double widest = 0;
    for (int pct = 0; pct <= 100; pct += 20) {
        snprintf(label, sizeof label, "%d %%", pct);
        widest = fmax(widest, text_width(P->tm, label, KIT_TICK_SIZE, false));
        if (measure_only)
            continue;
        double y = py(P, pct);
        if (pct > 0)
            chart_kit_line(P, P->left, y, P->right, y, COLOR_GRID, 1, false, "grid");
        chart_kit_line(P, P->left - 4, y, P->left, y, COLOR_AXIS, 1, false, "axis");
        chart_kit_text(P, P->left - 7, y + KIT_TICK_SIZE * 0.35, label, KIT_TICK_SIZE, COLOR_QUIET,
                       DL_ANCHOR_END, false, "axis", NULL);
    }
    return widest;
}

/* Positions mean nothing in a streamgraph, thickness does: a scale bar of a round size
 * (none when there is nothing to measure). */
static double stream_y_axis(struct chart_plot *P, bool measure_only)
{
    char label[48];
    if (!P->v->band_count || !P->v->point_count)
        return 0;
    unsigned unit;
    double step = chart_bytes_step(P->ymax > 0 ? P->ymax : 1024, 4, &unit);
    chart_format_tick(step, unit, step, label, sizeof label);
    double widest = text_width(P->tm, label, KIT_TICK_SIZE, false) + 6;
    if (measure_only)
        return widest;
    double h = step / P->ymax * (P->bottom - P->top);
    double x = P->left - 5, y1 = P->bottom, y0 = P->bottom - h;
    struct dl_point bar[4] = { { x - 3, y0 }, { x, y0 }, { x, y1 }, { x - 3, y1 } };
    chart_kit_check(P, display_polyline(P->dl, bar, 4, COLOR_AXIS, 1.2, false, "scale"),
                    "scale: the thickness of a band for this many bytes");
    chart_kit_text(P, x - 5, (y0 + y1) / 2 + KIT_TICK_SIZE * 0.35, label, KIT_TICK_SIZE,
                   COLOR_QUIET, DL_ANCHOR_END, false, "scale", NULL);
    return widest;
}

/* --- normalized -------------------------------------------------------------------- */

/* Each band from its top edge (as a share of its census) down to the axis, drawn from
 * the top of the stack down, like the area chart. One census per pixel column (the one
 * with the largest total; the area chart's smallest is a dip of the total, which shares
 * do not show) and no white separators (only a line between neighbours of too close
 * colours): on a dense profile, two censuses in a column and
 * separators along every zigzag made this view twice as slow as the area chart to draw
 * and the picture mostly white. */
static void draw_normalized(struct chart_plot *P, const size_t *keep, size_t n)
{
    const struct profile_view *v = P->v;
    size_t w = v->band_count;
    double *cum = malloc(n * sizeof *cum);
    struct dl_point *pts = malloc((n + 2) * sizeof *pts);
    if (!cum || !pts) {
        P->failed = true;
        goto done;
    }
    for (size_t k = 0; k < n; k++)
        cum[k] = v->point_totals[keep[k]] ? 100.0 : 0;
    for (size_t b = w; b-- > 0;) {
        size_t m = 0;
        pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[0]]), P->bottom };
        for (size_t k = 0; k < n; k++)
            pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[k]]), py(P, cum[k]) };
        pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[n - 1]]), P->bottom };
        /* no outlines, but between neighbours whose colours are too close (colors.h) */
        double edge_width;
        struct dl_color edge = chart_band_separator(P->colors[b], b + 1 < w ? P->colors[b + 1]
                                                                           : COLOR_WHITE,
                                                    false, &edge_width);
        chart_kit_check(P, display_polygon(P->dl, pts, m, P->colors[b], edge, edge_width, "band"),
                        v->bands[b].label);
        for (size_t k = 0; k < n; k++) {
            uint64_t total = v->point_totals[keep[k]];
            if (total)
                cum[k] -= 100.0 * (double)v->values[keep[k] * w + b] / (double)total;
        }
    }
done:
    free(cum);
    free(pts);
}

/* --- lines ------------------------------------------------------------------------- */

/* Each band its own line from zero; the largest drawn last, on top. */
static void draw_lines(struct chart_plot *P, const size_t *keep, size_t n)
{
    const struct profile_view *v = P->v;
    size_t w = v->band_count;
    struct dl_point *pts = malloc(n * sizeof *pts);
    if (!pts) {
        P->failed = true;
        return;
    }
    for (size_t b = w; b-- > 0;) {
        for (size_t k = 0; k < n; k++)
            pts[k] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[k]]),
                                        py(P, (double)v->values[keep[k] * w + b]) };
        chart_kit_check(P, display_polyline(P->dl, pts, n, P->colors[b], 1.8, false, "band"),
                        v->bands[b].label);
    }
    free(pts);
}

/* --- stream ------------------------------------------------------------------------ */

struct onset {
    size_t band;
    double at;                   /* the band's weighted mean time: when it lives */
};

static int by_onset(const void *a, const void *b)
{
    const struct onset *x = a, *y = b;
    int c = order_double(x->at, y->at);
    return c ? c : order_u64(x->band, y->band);
}

double view_stream_layout(const uint64_t *values, const uint64_t *totals, size_t n, size_t w,
                          double *baseline, size_t *order)
{
    if (!n || !w)
        return 0;
    /* inside-out (Byron and Wattenberg): bands by when they live, the earliest in the
     * middle, the later ones alternately above and below, so new bands add at the edges
     * and the layers in the middle stay calm */
    struct onset *on = malloc(w * sizeof *on);
    if (!on)
        return -1;
    for (size_t b = 0; b < w; b++) {
        double sum = 0, weighted = 0;
        for (size_t k = 0; k < n; k++) {
            sum += (double)values[k * w + b];
            weighted += (double)k * (double)values[k * w + b];
        }
        on[b] = (struct onset){ b, sum > 0 ? weighted / sum : (double)n };
    }
    qsort(on, w, sizeof *on, by_onset);
    /* on[0] in the middle: the odd ones go below (earlier in order), the even ones above */
    size_t below = w / 2;
    for (size_t i = 0; i < w; i++) {
        size_t slot = i % 2 ? below - 1 - i / 2 : below + i / 2;
        order[slot] = on[i].band;
    }
    free(on);
    /* the weighted-wiggle baseline: g0 = -1/(w+1) sum_i (w - i + 1) f_i, bottom layer
     * i = 1; then shifted so the lowest edge is 0 */
    double lowest = INFINITY, top = 0;
    for (size_t k = 0; k < n; k++) {
        double g = 0;
        for (size_t i = 0; i < w; i++)
            g -= (double)(w - i) * (double)values[k * w + order[i]];
        baseline[k] = g / (double)(w + 1);
        lowest = fmin(lowest, baseline[k]);
    }
    for (size_t k = 0; k < n; k++) {
        baseline[k] -= lowest;
        top = fmax(top, baseline[k] + (double)totals[k]);
    }
    return top;
}

/* Each band a ribbon between its lower and upper edge. */
static void draw_stream(struct chart_plot *P, const size_t *keep, size_t n)
{
    const struct profile_view *v = P->v;
    size_t w = v->band_count;
    uint64_t *vals = malloc(n * w * sizeof *vals);
    uint64_t *tot = malloc(n * sizeof *tot);
    double *base = malloc(n * sizeof *base), *lower = malloc(n * sizeof *lower);
    size_t *order = malloc(w * sizeof *order);
    struct dl_point *pts = malloc(2 * n * sizeof *pts);
    if (!vals || !tot || !base || !lower || !order || !pts) {
        P->failed = true;
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        memcpy(vals + k * w, v->values + keep[k] * w, w * sizeof *vals);
        tot[k] = v->point_totals[keep[k]];
    }
    if (view_stream_layout(vals, tot, n, w, base, order) < 0) {
        P->failed = true;
        goto done;
    }
    memcpy(lower, base, n * sizeof *lower);
    for (size_t i = 0; i < w; i++) {
        size_t b = order[i], m = 0;
        for (size_t k = 0; k < n; k++)
            pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[k]]),
                                          py(P, lower[k] + (double)vals[k * w + b]) };
        for (size_t k = n; k-- > 0;)
            pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[k]]), py(P, lower[k]) };
        chart_kit_check(P, display_polygon(P->dl, pts, m, P->colors[b], COLOR_WHITE, 0.6, "band"),
                        v->bands[b].label);
        for (size_t k = 0; k < n; k++)
            lower[k] += (double)vals[k * w + b];
    }
done:
    free(vals);
    free(tot);
    free(base);
    free(lower);
    free(order);
    free(pts);
}

/* Of the kept points, one per pixel column: the one with the largest total. */
static size_t one_per_column(const struct chart_plot *P, size_t *keep, size_t n)
{
    const struct profile_view *v = P->v;
    size_t m = 0;
    long last = LONG_MIN;
    for (size_t k = 0; k < n; k++) {
        long column = lround(floor(chart_plot_x(P, v->time_ns[keep[k]])));
        if (m && column == last) {
            if (v->point_totals[keep[k]] > v->point_totals[keep[m - 1]])
                keep[m - 1] = keep[k];
            continue;
        }
        keep[m++] = keep[k];
        last = column;
    }
    return m;
}

/* Draws the kept points of P, reduced to its pixel columns (and with one_column, to one
 * point per column), with draw; nothing when there is nothing to draw (or no memory: P
 * fails). */
static void draw_kept(struct chart_plot *P, bool one_column,
                      void (*draw)(struct chart_plot *P, const size_t *keep, size_t n))
{
    const struct profile_view *v = P->v;
    if (!v->band_count || !v->point_count)
        return;
    size_t *keep = malloc(v->point_count * sizeof *keep);
    if (!keep) {
        P->failed = true;
        return;
    }
    size_t n = chart_plot_reduce(P, keep);
    if (n && one_column)
        n = one_per_column(P, keep, n);
    if (n)
        draw(P, keep, n);
    free(keep);
}

static void normalized_draw(struct chart_plot *P)
{
    draw_kept(P, true, draw_normalized);
}

static void lines_draw(struct chart_plot *P)
{
    draw_kept(P, false, draw_lines);
}

static void stream_draw(struct chart_plot *P)
{
    draw_kept(P, false, draw_stream);
}

const struct view_ops view_normalized_ops = {
    .name = "normalized", .view = CHART_VIEW_NORMALIZED, .scale_top = normalized_top,
    .y_axis = normalized_y_axis, .draw = normalized_draw, .lists_bands = true,
    /* totals are bytes of the whole heap: on a stack of shares they would mean nothing */
    .totals = VIEW_TOTALS_NEVER,
};

const struct view_ops view_stream_ops = {
    .name = "stream", .view = CHART_VIEW_STREAM, .scale_top = stream_top,
    .y_axis = stream_y_axis, .draw = stream_draw, .lists_bands = true,
    .totals = VIEW_TOTALS_NEVER,   /* nor around a moving centre line */
};

const struct view_ops view_lines_ops = {
    .name = "lines", .view = CHART_VIEW_LINES, .scale_top = lines_top, .draw = lines_draw,
    .lists_bands = true, .totals = VIEW_TOTALS_ASKED,
};
