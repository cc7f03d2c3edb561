/* view_detail.c: the detail view, small multiples to find the leak (views.h).
 *
 * One row per shown band, in the order of the sort in force (largest area first by
 * default; --sort growth puts the fastest growing on top): its colour and label (elided in
 * the middle, whole in the tooltip), a sparkline on a time axis shared by every row, each
 * drawn on its own scale from 0 to the band's peak (so a small band's shape is as
 * readable as a large one's: the numbers beside it give its size), then its peak, mean,
 * growth (the least-squares slope over the window) and the fit's R^2. A band that is a
 * leak suspect (chart_options.suspects: facts/suspects.h) says so in its row. Rows share the height; when they would be
 * thinner than ROW_MIN the last line counts the bands left out (--bands or --height
 * show more). The title block is the area chart's.
 */
#include "chart/views.h"
#include "chart/colors.h"
#include "base/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROW_MIN 24.0
#define ROW_MAX 96.0
#define TAG 64.0                 /* room for the "suspect" tag */
#define FONT 12.0
#define SMALL 10.5
#define SWATCH 11.0
#define NUMBER_COLUMN 84.0


/* The sparkline of band b in the row from top to bottom. */
static void sparkline(struct chart_plot *P, size_t b, const size_t *keep, size_t n, double top,
                      double bottom, struct dl_point *pts)
{
    const struct profile_view *v = P->v;
    size_t w = v->band_count;
    double peak = 0;
    for (size_t k = 0; k < n; k++)
        peak = fmax(peak, (double)v->values[keep[k] * w + b]);
    if (!(peak > 0) || !n)
        return;
    size_t m = 0;
    pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[0]]), bottom };
    for (size_t k = 0; k < n; k++)
        pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[k]]),
                                      bottom - (double)v->values[keep[k] * w + b] / peak *
                                                   (bottom - top) };
    pts[m++] = (struct dl_point){ chart_plot_x(P, v->time_ns[keep[n - 1]]), bottom };
    struct dl_color fill = P->colors[b];
    fill.a = 110;
    chart_kit_check(P, display_polygon(P->dl, pts, m, fill, (struct dl_color){ 0 }, 0, "band"),
                    v->bands[b].label);
    chart_kit_check(P, display_polyline(P->dl, pts + 1, m - 2, P->colors[b], 1.4, false, "band"),
                    v->bands[b].label);
}

static int detail_layout(const struct profile_view *v, const struct run_info *info,
                       const char *input_name, const struct chart_options *opt,
                       struct textmeasure *tm, struct display_list *dl)
{
    double W = opt->width, H = opt->height;
    display_init(dl, W, H, COLOR_WHITE);
    size_t w = v->band_count;
    struct dl_color *colors = malloc((w ? w : 1) * sizeof *colors);
    size_t *keep = malloc((v->point_count ? v->point_count : 1) * sizeof *keep);
    struct dl_point *pts = malloc((v->point_count + 2) * sizeof *pts);
    bool *suspect = calloc(w ? w : 1, sizeof *suspect);
    size_t *sus = malloc((w ? w : 1) * sizeof *sus);
    char buf[KIT_LABEL_MAX];
    struct chart_plot P = { .dl = dl, .tm = tm, .v = v, .opt = opt, .colors = colors };
    if (!colors || !keep || !pts || !suspect || !sus)
        goto fail;
    if (chart_kit_colors(v, colors) != 0)
        goto fail;
    size_t ns = opt->suspects ? opt->suspects(v, sus, w) : 0;
    for (size_t i = 0; i < ns; i++)
        suspect[sus[i]] = true;

    const char *title = chart_kit_run_title(opt->title, info, input_name);
    if (display_set_document_title(dl, title) != 0)
        goto fail;
    double y = chart_kit_title(&P, info, title, "", 0, KIT_MARGIN);

    /* columns: label | sparkline | peak | mean | growth | R^2 */
    double numbers = 4 * NUMBER_COLUMN - 20;
    double label_w = fmin(W * 0.28, 320);
    P.left = KIT_MARGIN + label_w + 12;
    P.right = W - KIT_MARGIN - numbers - 16 - TAG;
    if (P.right - P.left < 60)
        P.right = P.left + 60;
    chart_kit_time_range(&P, info, true);
    double head = y + 24;
    double axis_room = 2 * 11.0 + 26;
    double rows_top = head + 8, rows_bottom = H - KIT_MARGIN - axis_room;
    size_t rows = w;
    double row = rows ? (rows_bottom - rows_top) / (double)rows : ROW_MIN;
    if (row > ROW_MAX)
        row = ROW_MAX;
    bool more = false;
    if (rows && row < ROW_MIN) {
        row = ROW_MIN;
        rows = (size_t)((rows_bottom - rows_top - row) / row);   /* one line for "more" */
        more = true;
    }
    P.top = rows_top;
    P.bottom = rows_top + row * (double)rows;
    double num_x[4];
    /* right edges: R^2 at the margin, growth, mean, peak leftwards */
    num_x[3] = W - KIT_MARGIN;
    num_x[2] = num_x[3] - 0.55 * NUMBER_COLUMN;
    num_x[1] = num_x[2] - NUMBER_COLUMN - 10;
    num_x[0] = num_x[1] - NUMBER_COLUMN;
    static const char *const heads[4] = { "peak", "mean", "growth", "R\xc2\xb2" };
    chart_kit_text(&P, KIT_MARGIN, head, "band", SMALL, COLOR_QUIET, DL_ANCHOR_START, false,
                   "header", NULL);
    chart_kit_text(&P, P.left, head, "over time, each from 0 to its own peak", SMALL, COLOR_QUIET,
                   DL_ANCHOR_START, false, "header", NULL);
    for (int c = 0; c < 4; c++)
        chart_kit_text(&P, num_x[c], head, heads[c], SMALL, COLOR_QUIET, DL_ANCHOR_END, false,
                       "header",
                       c == 2 ? "least-squares slope of the band's bytes over the window" : NULL);

    size_t n = chart_plot_reduce(&P, keep);
    for (size_t i = 0; i < rows && i < w; i++) {
        const struct profile_band *b = &v->bands[i];
        double top = P.top + row * (double)i, bottom = top + row;
        double mid = (top + bottom) / 2 + FONT * 0.35;
        struct dl_point rule[2] = { { KIT_MARGIN, bottom }, { W - KIT_MARGIN, bottom } };
        chart_kit_check(&P, display_polyline(dl, rule, 2, COLOR_GRID, 1, false, "grid"), NULL);
        chart_kit_check(&P, display_rect(dl, KIT_MARGIN, mid - FONT * 0.35 - SWATCH / 2, SWATCH,
                                         SWATCH, colors[i], (struct dl_color){ 0, 0, 0, 40 }, 0.5,
                                         "legend"), b->label);
        const char *shown = bands_shown_label(b->label, strlen(b->label), NULL);
        bool cut = text_elide_middle(tm, shown, FONT, false, label_w - SWATCH - 6, buf,
                                     sizeof buf);
        chart_kit_text(&P, KIT_MARGIN + SWATCH + 6, mid, buf, FONT, COLOR_INK, DL_ANCHOR_START,
                       false, "label", cut || shown != b->label ? b->label : NULL);
        sparkline(&P, i, keep, n, top + 4, bottom - 3, pts);
        char value[48];
        format_bytes((double)b->stats.peak, value, sizeof value);
        chart_kit_text(&P, num_x[0], mid, value, FONT, COLOR_INK, DL_ANCHOR_END, false, "peak",
                       NULL);
        format_bytes(b->stats.mean, value, sizeof value);
        chart_kit_text(&P, num_x[1], mid, value, FONT, COLOR_INK, DL_ANCHOR_END, false, "mean",
                       NULL);
        format_rate(b->stats.growth, value, sizeof value);
        chart_kit_text(&P, num_x[2], mid, value, FONT, COLOR_INK, DL_ANCHOR_END, false, "growth",
                       NULL);
        if (isnan(b->stats.growth_r2))
            snprintf(value, sizeof value, "\xe2\x80\x93");   /* OTHER: no fit of a sum */
        else
            format_snprintf(value, sizeof value, "%.2f", b->stats.growth_r2);
        chart_kit_text(&P, num_x[3], mid, value, FONT, COLOR_INK, DL_ANCHOR_END, false, "r2",
                       NULL);
        if (suspect[i]) {
            char rise[48], tip[160];
            format_rate(b->stats.rise, rise, sizeof rise);
            format_snprintf(tip, sizeof tip, "leak suspect: rose steadily, %s (R\xc2\xb2 %.2f "
                            "over %llu censuses), to its peak at %.2f s", rise, b->stats.rise_r2,
                            (unsigned long long)b->stats.rise_censuses, b->stats.peak_ns / 1e9);
            chart_kit_text(&P, P.right + 10, mid, "suspect", SMALL, COLOR_ALERT, DL_ANCHOR_START,
                           true, "suspect", tip);
        }
    }
    if (more) {
        snprintf(buf, sizeof buf, "\xe2\x80\xa6 and %zu more band%s (raise --height or lower "
                 "--bands)", w - rows, w - rows == 1 ? "" : "s");
        chart_kit_text(&P, KIT_MARGIN, P.bottom + row * 0.7, buf, FONT, COLOR_QUIET,
                       DL_ANCHOR_START, false, "note", NULL);
        P.bottom += row;
    }
    if (!w)
        chart_kit_text(&P, W / 2, (rows_top + rows_bottom) / 2,
                       v->censuses ? "no band left after --include / --exclude"
                                   : "no heap censuses: nothing to detail (try --view heap)",
                       14, COLOR_QUIET, DL_ANCHOR_MIDDLE, false, "note", NULL);
    /* markers across every row, then the shared time axis */
    for (size_t i = 0; !opt->no_markers && i < v->marker_count; i++) {
        double x = chart_plot_x(&P, v->markers[i].time_ns);
        if (x < P.left - 0.5 || x > P.right + 0.5)
            continue;
        struct dl_point m[2] = { { x, P.top }, { x, P.bottom } };
        chart_kit_check(&P, display_polyline(dl, m, 2, COLOR_MARKER_FAINT, 1, false, "marker"),
                        v->markers[i].text);
    }
    if (w)
        chart_kit_x_axis(&P, false, true);
    if (P.failed)
        goto fail;
    free(colors), free(keep), free(pts), free(suspect), free(sus);
    return 0;
fail:
    free(colors), free(keep), free(pts), free(suspect), free(sus);
    display_free(dl);
    return -1;
}

/* A whole picture: the chart's frame is not used. */
const struct view_ops view_detail_ops = {
    .name = "detail", .view = CHART_VIEW_DETAIL, .layout = detail_layout,
    .lists_bands = true, .totals = VIEW_TOTALS_NEVER,
};
