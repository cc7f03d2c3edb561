/* view_diff.c: --view diff, this run minus the base, band by band (view_diff.h).
 *
 * The curves are sampled at one point per two layout units across the plot: each run's
 * band is interpolated at the time (or share of its run) a column stands for, so two runs
 * whose censuses fall at different times still subtract point by point.
 */
#include "chart/view_diff.h"
#include "chart/colors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/utf8.h"
#include "model/bandmatch.h"

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

/* A pair of bands: their indices in the two views (SIZE_MAX: absent), the change at the
 * peak, and its line's colour. */
struct line {
    size_t base, now;
    const char *label;
    double change;
    struct dl_color color;
};

static int by_change(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    if (x->change != y->change)
        return x->change > y->change ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* A band of one run at a moment: linear between the kept points around t (seconds from
 * the start, or with progress a share 0..1 of the run), 0 outside the run. */
static double value_at(const struct profile_view *v, size_t band, double t, bool progress)
{
    if (band == SIZE_MAX || !v->point_count)
        return 0;
    double first = v->time_ns[0] / 1e9, last = v->time_ns[v->point_count - 1] / 1e9;
    if (progress)
        t = first + t * (last - first);
    if (t < first || t > last)
        return 0;
    size_t lo = 0, hi = v->point_count - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (v->time_ns[mid] / 1e9 <= t)
            lo = mid;
        else
            hi = mid;
    }
    double t0 = v->time_ns[lo] / 1e9, t1 = v->time_ns[hi] / 1e9;
    double a = (double)v->values[lo * v->band_count + band];
    double b = (double)v->values[hi * v->band_count + band];
    return t1 > t0 ? a + (b - a) * (t - t0) / (t1 - t0) : b;
}

/* The lines: every pair of bands the views show, OTHER left out; NULL when out of
 * memory. */
static struct line *pair_lines(const struct diff_run *base, const struct diff_run *now,
                               size_t *count)
{
    struct bandmatch_view b = { base->view, base->bands, base->info };
    struct bandmatch_view n = { now->view, now->bands, now->info };
    struct bandmatch_pair *pairs;
    size_t np;
    if (bandmatch_views(&b, &n, &pairs, &np) != 0)
        return NULL;
    struct line *lines = malloc((np + 1) * sizeof *lines);
    if (lines) {
        size_t warm = 0, cool = 0;
        for (size_t k = 0; k < np; k++) {
            struct line *l = &lines[k];
            l->base = pairs[k].base == BANDMATCH_ABSENT ? SIZE_MAX : pairs[k].base;
            l->now = pairs[k].now == BANDMATCH_ABSENT ? SIZE_MAX : pairs[k].now;
            const struct profile_band *pb = l->base != SIZE_MAX ? &base->view->bands[l->base]
                                                                : NULL;
            const struct profile_band *pn = l->now != SIZE_MAX ? &now->view->bands[l->now]
                                                               : NULL;
            l->label = pn ? pn->label : pb->label;
            l->change = (pn ? (double)pn->stats.peak : 0) - (pb ? (double)pb->stats.peak : 0);
        }
        qsort(lines, np, sizeof *lines, by_change);
        for (size_t k = 0; k < np; k++)
            lines[k].color = lines[k].change > 0   ? WARM[warm++ % (sizeof WARM / sizeof *WARM)]
                             : lines[k].change < 0 ? COOL[cool++ % (sizeof COOL / sizeof *COOL)]
                                                   : NEUTRAL;
        *count = np;
    }
    free(pairs);
    return lines;
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
static void line_tip(const struct line *l, char *tip, size_t size)
{
    char change[48];
    change_text(l->change, change, sizeof change);
    utf8_end_printed(tip, size, snprintf(tip, size, "%s: %s at the peak", l->label,
                                                 change));
}

static double run_end(const struct profile_view *v)
{
    return v->point_count ? v->time_ns[v->point_count - 1] / 1e9 : 0;
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
static void legend(struct chart_plot *P, const struct line *lines, size_t n, double x,
                   double top, double bottom)
{
    char text[KIT_LABEL_MAX], change[48], tip[KIT_LABEL_MAX + 64];
    chart_kit_text(P, x, top, "change at the peak", FONT, COLOR_QUIET, DL_ANCHOR_START, false,
                   "legend-head", "each band's peak in this run minus its peak in the base");
    size_t rows = (size_t)fmax(0, floor((bottom - top - LEGEND_ROW) / LEGEND_ROW));
    for (size_t i = 0; i < n && i < rows; i++) {
        double y = top + LEGEND_ROW * (double)(i + 1);
        chart_kit_check(P, display_rect(P->dl, x, y - SWATCH + 2, SWATCH, SWATCH, lines[i].color,
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

int diff_layout(const struct diff_run *base, const struct diff_run *now,
                const struct chart_options *opt, struct textmeasure *tm,
                struct display_list *dl)
{
    double W = opt->width, H = opt->height;
    display_init(dl, W, H, COLOR_WHITE);
    bool progress = opt->align_progress;
    size_t n = 0;
    struct line *lines = pair_lines(base, now, &n);
    struct chart_plot P = { .dl = dl, .tm = tm, .v = now->view, .opt = opt };
    size_t columns = 0;
    double *values = NULL;
    struct dl_point *pts = NULL;
    if (!lines)
        goto fail;
    const char *title = chart_kit_run_title(opt->title, now->info, now->name);
    if (display_set_document_title(dl, title) != 0)
        goto fail;
    double y = chart_kit_title(&P, now->info, title, "", 0, KIT_MARGIN);
    char sub[KIT_LABEL_MAX];
    utf8_end_printed(sub, sizeof sub,   /* a long BASE path */
                     snprintf(sub, sizeof sub, "this run minus %s, band by band, aligned by %s",
                              base->name,
                              progress ? "share of each run (--align progress)" : "time"));
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
    P.x0 = 0;
    P.x1 = progress ? 100 : fmax(run_end(base->view), run_end(now->view));
    if (!(P.x1 > 0))
        P.x1 = 1;
    /* the curves, sampled every two units */
    columns = (size_t)fmax(2, floor((P.right - P.left) / 2));
    values = malloc((n ? n : 1) * columns * sizeof *values);
    pts = malloc(columns * sizeof *pts);
    if (!values || !pts)
        goto fail;
    double lo = 0, hi = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t c = 0; c < columns; c++) {
            double t = P.x0 + (P.x1 - P.x0) * (double)c / (double)(columns - 1);
            if (progress)
                t /= 100;
            double d = value_at(now->view, lines[k].now, t, progress) -
                       value_at(base->view, lines[k].base, t, progress);
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
    /* shrinkage first, so the growth (usually what is asked about) is drawn on top */
    for (size_t k = n; k-- > 0;) {
        bool flat = true;   /* a band that never changed lies on the zero line */
        for (size_t c = 0; c < columns && flat; c++)
            flat = values[k * columns + c] == 0;
        if (flat)
            continue;
        for (size_t c = 0; c < columns; c++)
            pts[c] = (struct dl_point){
                P.left + (P.right - P.left) * (double)c / (double)(columns - 1),
                P.bottom - (values[k * columns + c] - lo) / (hi - lo) * (P.bottom - P.top) };
        char tip[KIT_LABEL_MAX + 64];
        line_tip(&lines[k], tip, sizeof tip);
        chart_kit_check(&P, display_polyline(dl, pts, columns, lines[k].color, 1.6, false,
                                             "band"), tip);
    }
    if (!n)
        chart_kit_text(&P, (P.left + P.right) / 2, (P.top + P.bottom) / 2,
                       "no band in either run", 14, COLOR_QUIET, DL_ANCHOR_MIDDLE, false, "note",
                       NULL);
    legend(&P, lines, n, W - KIT_MARGIN - LEGEND_W + 16, P.top, H - KIT_MARGIN);
    if (P.failed)
        goto fail;
    free(lines), free(values), free(pts);
    return 0;
fail:
    free(lines), free(values), free(pts);
    display_free(dl);
    return -1;
}
