/* view_diff.c: --view diff, this run minus the base, band by band (view_diff.h).
 *
 * The lines, their alignment and the span they cover are model/diffseries.h's, as the
 * CSV and JSON export of the diff writes them; this module only draws them, sampled at
 * one point per two layout units across the plot (the export has every census).
 */
#include "chart/view_diff.h"
#include "chart/colors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/utf8.h"
#include "model/diffseries.h"

#define LEGEND_W 330.0
#define FONT 12.0
#define SWATCH 11.0
#define LEGEND_ROW 17.0
#define Y_LABEL_W 64.0

/* Warm hues for growth, cool ones for shrinkage (ColorBrewer's diverging ends). */
static const struct dl_color WARM[] = {
    { 0xd7, 0x19, 0x1c, 255 }, { 0xf4, 0x6d, 0x43, 255 }, { 0xa5, 0x0f, 0x15, 255 },
    { 0xfd, 0x8d, 0x3c, 255 }, { 0xe7, 0x29, 0x8a, 255 }, { 0xcc, 0x4c, 0x02, 255 },
};
static const struct dl_color COOL[] = {
    { 0x2c, 0x7b, 0xb6, 255 }, { 0x1a, 0x98, 0x50, 255 }, { 0x5e, 0x3c, 0x99, 255 },
    { 0x01, 0x66, 0x5e, 255 }, { 0x45, 0x75, 0xb4, 255 }, { 0x74, 0xad, 0xd1, 255 },
};
static const struct dl_color NEUTRAL = { 0x88, 0x88, 0x88, 255 };

/* A line's colour by its change at the peak: warm for growth, cool for shrinkage, in
 * the series' order (largest growth first). */
static void line_colors(const struct diff_series *ds, struct dl_color *colors)
{
    size_t warm = 0, cool = 0;
    for (size_t k = 0; k < ds->line_count; k++) {
        double change = ds->lines[k].change;
        colors[k] = change > 0   ? WARM[warm++ % (sizeof WARM / sizeof *WARM)]
                    : change < 0 ? COOL[cool++ % (sizeof COOL / sizeof *COOL)]
                                 : NEUTRAL;
    }
}

/* A change in words: "+52.8 MiB", "-4.48 MiB", "0 B". */
static void change_text(double change, char *out, size_t size)
{
    char bytes[32];
    format_bytes(fabs(change), bytes, sizeof bytes);
    snprintf(out, size, "%s%s", change < 0 ? "-" : change > 0 ? "+" : "", bytes);
}

/* A line's tooltip, "label: +52.8 MiB at the peak", into tip (size bytes); a label too
 * long for it is cut where a character ends. */
static void line_tip(const struct diff_line *l, char *tip, size_t size)
{
    char change[48];
    change_text(l->change, change, sizeof change);
    utf8_end_printed(tip, size, snprintf(tip, size, "%s: %s at the peak", l->label,
                                                 change));
}

/* The y axis: ticks from lo to hi (bytes, signed), the grid, and the zero line. */
static void y_axis(struct chart_plot *P, double lo, double hi)
{
    unsigned unit;
    double step = chart_bytes_step(fmax(fabs(lo), fabs(hi)) * 2, 8, &unit);
    char label[48];
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
        if (fabs(v) < step * 1e-6)
            v = 0;
        double y = P->bottom - (v - lo) / (hi - lo) * (P->bottom - P->top);
        chart_kit_line(P, P->left, y, P->right, y, COLOR_GRID, 1, false, "grid");
        chart_format_tick(v, unit, step, label, sizeof label);
        chart_kit_text(P, P->left - 6, y + KIT_TICK_SIZE * 0.35, label, KIT_TICK_SIZE,
                       COLOR_QUIET, DL_ANCHOR_END, false, "axis", NULL);
    }
    double zero = P->bottom - (0 - lo) / (hi - lo) * (P->bottom - P->top);
    chart_kit_line(P, P->left, zero, P->right, zero, COLOR_AXIS, 1.2, false, "zero");
}

/* The legend: each line's colour, label and change at the peak, as many as fit. */
static void legend(struct chart_plot *P, const struct diff_line *lines,
                   const struct dl_color *colors, size_t n, double x, double top, double bottom)
{
    char text[KIT_LABEL_MAX], change[48], tip[KIT_LABEL_MAX + 64];
    chart_kit_text(P, x, top, "change at the peak", FONT, COLOR_QUIET, DL_ANCHOR_START, false,
                   "legend-head", "each band's peak in this run minus its peak in the base");
    size_t rows = (size_t)fmax(0, floor((bottom - top - LEGEND_ROW) / LEGEND_ROW));
    for (size_t i = 0; i < n && i < rows; i++) {
        double y = top + LEGEND_ROW * (double)(i + 1);
        chart_kit_check(P, display_rect(P->dl, x, y - SWATCH + 2, SWATCH, SWATCH, colors[i],
                                        (struct dl_color){ 0, 0, 0, 40 }, 0.5, "legend"),
                        lines[i].label);
        change_text(lines[i].change, change, sizeof change);
        chart_kit_text(P, x + SWATCH + 6, y, change, FONT, COLOR_INK, DL_ANCHOR_START, true,
                       "legend-change", NULL);
        const char *shown = bands_shown_label(lines[i].label, strlen(lines[i].label), NULL);
        text_elide_middle(P->tm, shown, FONT, false, LEGEND_W - SWATCH - 90, text, sizeof text);
        line_tip(&lines[i], tip, sizeof tip);
        chart_kit_text(P, x + SWATCH + 82, y, text, FONT, COLOR_INK, DL_ANCHOR_START, false,
                       "legend-label", tip);
    }
    if (n > rows && rows > 0) {
        snprintf(text, sizeof text, "\xe2\x80\xa6 and %zu more", n - rows);
        chart_kit_text(P, x, top + LEGEND_ROW * (double)(rows + 1), text, FONT, COLOR_QUIET,
                       DL_ANCHOR_START, false, "note", NULL);
    }
}

/* The lines over the plot: columns samples of each from the series' x0 to x1 (a span of
 * one moment: a short mark at it), shrinkage first so that growth (usually what is asked
 * about) is drawn on top. 0, or -1 when out of memory. */
static int draw_lines(struct chart_plot *P, const struct diff_series *ds,
                      const struct dl_color *colors, double lo, double hi,
                      const double *values, size_t columns)
{
    struct dl_point *pts = malloc((columns > 2 ? columns : 2) * sizeof *pts);
    if (!pts)
        return -1;
    bool moment = ds->x0 == ds->x1;
    for (size_t k = ds->line_count; k-- > 0;) {
        bool flat = true;   /* a band that never changed lies on the zero line */
        for (size_t c = 0; c < columns && flat; c++)
            flat = values[k * columns + c] == 0;
        if (flat)
            continue;
        size_t n = columns;
        for (size_t c = 0; c < columns; c++)
            pts[c] = (struct dl_point){
                P->left + (P->right - P->left) * (double)c / (double)(columns - 1),
                P->bottom - (values[k * columns + c] - lo) / (hi - lo) * (P->bottom - P->top) };
        if (moment) {
            double mid = (P->left + P->right) / 2;
            pts[0].x = mid - 6, pts[1] = (struct dl_point){ mid + 6, pts[0].y };
            n = 2;
        }
        char tip[KIT_LABEL_MAX + 64];
        line_tip(&ds->lines[k], tip, sizeof tip);
        chart_kit_check(P, display_polyline(P->dl, pts, n, colors[k], moment ? 3 : 1.6, false,
                                            "band"), tip);
    }
    free(pts);
    return 0;
}

int diff_layout(const struct diff_run *base, const struct diff_run *now,
                const struct chart_options *opt, struct textmeasure *tm,
                struct display_list *dl)
{
    double W = opt->width, H = opt->height;
    display_init(dl, W, H, COLOR_WHITE);
    struct diff_input bi = { base->view, base->bands, base->info };
    struct diff_input ni = { now->view, now->bands, now->info };
    struct diff_series ds;
    if (diff_series_make(&bi, &ni, opt->align, &ds) != 0) {
        display_free(dl);
        return -1;
    }
    bool progress = ds.align == DIFF_ALIGN_PROGRESS, span = diff_series_has_span(&ds);
    size_t n = ds.line_count;
    struct chart_plot P = { .dl = dl, .tm = tm, .v = now->view, .opt = opt };
    size_t columns = 0;
    double *values = NULL;
    struct dl_color *colors = malloc((n ? n : 1) * sizeof *colors);
    if (!colors)
        goto fail;
    line_colors(&ds, colors);
    const char *title = chart_kit_run_title(opt->title, now->info, now->name);
    if (display_set_document_title(dl, title) != 0)
        goto fail;
    double y = chart_kit_title(&P, now->info, title, "", 0, KIT_MARGIN);
    /* the subtitle says how the runs are aligned and why whatever the width: a long BASE
     * path gives way (cut in its middle) to the words on the alignment */
    char sub[KIT_LABEL_MAX], how[KIT_LABEL_MAX], name[KIT_LABEL_MAX];
    diff_series_describe(&ds, how, sizeof how);
    utf8_end_printed(sub, sizeof sub,
                     snprintf(sub, sizeof sub, "this run minus , band by band, %s", how));
    double room = W - 2 * KIT_MARGIN - text_width(tm, sub, KIT_SUBTITLE_SIZE, false);
    text_elide_middle(tm, base->name, KIT_SUBTITLE_SIZE, false, fmax(room, 80), name,
                      sizeof name);
    utf8_end_printed(sub, sizeof sub, snprintf(sub, sizeof sub, "this run minus %s, band by "
                                               "band, %s", name, how));
    chart_kit_text(&P, KIT_MARGIN, y + 18, sub, KIT_SUBTITLE_SIZE, COLOR_QUIET, DL_ANCHOR_START,
                   false, "subtitle", NULL);
    P.left = KIT_MARGIN + Y_LABEL_W;
    P.right = W - KIT_MARGIN - LEGEND_W;
    if (P.right - P.left < 80)
        P.right = P.left + 80;
    P.top = y + 36;
    P.bottom = H - KIT_MARGIN - 2 * KIT_TICK_SIZE - 20;
    if (P.bottom - P.top < 40)
        P.bottom = P.top + 40;
    /* the x axis spans what the lines cover: 0..100 % by progress, the overlap by time */
    P.x0 = progress ? 0 : span ? ds.x0 : 0;
    P.x1 = progress ? 100 : span ? ds.x1 : 1;
    if (!(P.x1 > P.x0))   /* one moment in common */
        P.x0 -= 0.5, P.x1 += 0.5;
    /* the curves, sampled every two units (one column at a single moment) */
    columns = !span ? 0 : ds.x0 == ds.x1 ? 2 : (size_t)fmax(2, floor((P.right - P.left) / 2));
    values = malloc((n ? n : 1) * (columns ? columns : 1) * sizeof *values);
    if (!values)
        goto fail;
    double lo = 0, hi = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t c = 0; c < columns; c++) {
            double x = ds.x0 + (ds.x1 - ds.x0) * (double)c / (double)(columns - 1);
            double d = diff_series_value(&ds, k, x);
            values[k * columns + c] = d;
            lo = fmin(lo, d), hi = fmax(hi, d);
        }
    if (hi - lo <= 0)
        hi = 1;
    /* a margin above and below, so no curve runs along the frame */
    double pad = (hi - lo) * 0.05;
    hi += hi > 0 ? pad : 0;
    lo -= lo < 0 ? pad : 0;
    y_axis(&P, lo, hi);
    chart_kit_x_axis(&P, false, !progress);
    if (progress)
        chart_kit_text(&P, (P.left + P.right) / 2, P.bottom + 12 + 2 * KIT_TICK_SIZE + 2,
                       "share of each run, from its first census to its last (%)", KIT_TICK_SIZE,
                       COLOR_QUIET, DL_ANCHOR_MIDDLE, false, "axis", NULL);
    if (draw_lines(&P, &ds, colors, lo, hi, values, columns) != 0)
        goto fail;
    const char *note = !n ? "no band in either run"
                       : !span ? "the runs have no moment in common: nothing to compare" : NULL;
    if (note)
        chart_kit_text(&P, (P.left + P.right) / 2, (P.top + P.bottom) / 2, note, 14,
                       COLOR_QUIET, DL_ANCHOR_MIDDLE, false, "note", NULL);
    legend(&P, ds.lines, colors, n, W - KIT_MARGIN - LEGEND_W + 16, P.top, H - KIT_MARGIN);
    if (P.failed)
        goto fail;
    diff_series_free(&ds);
    free(colors), free(values);
    return 0;
fail:
    diff_series_free(&ds);
    free(colors), free(values);
    display_free(dl);
    return -1;
}
