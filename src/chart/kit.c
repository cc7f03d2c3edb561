/* kit.c: the frame every chart view is drawn in (see kit.h).
 *
 * Moved out of chart.c so that the chart and the views both sit above it: the title
 * block, the time range and axis, the reduction of kept censuses to pixel columns, the
 * band colours and the numbers of the scales.
 */
#include "chart/kit.h"
#include "chart/colors.h"
#include "base/format.h"
#include "base/utf8.h"
#include "model/breakdown.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- options and numbers ------------------------------------------------------------ */

void chart_options_default(struct chart_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->width = 1280;
    opt->height = 720;
    profile_options_default(&opt->profile);
}

void chart_profile_options(const struct chart_options *opt, struct profile_options *out)
{
    *out = opt->profile;
    out->columns = opt->width;   /* kept censuses per pixel column: enough, no more */
}

double chart_nice_step(double range, unsigned max_ticks)
{
    if (!(range > 0) || max_ticks == 0)
        return 1;
    double raw = range / max_ticks;
    double magnitude = pow(10, floor(log10(raw)));
    static const double steps[] = { 1, 2, 5, 10 };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (steps[i] * magnitude >= raw * (1 - 1e-9))
            return steps[i] * magnitude;
    return 10 * magnitude;
}

double chart_bytes_step(double max_bytes, unsigned max_ticks, unsigned *unit)
{
    unsigned u = 0;
    double scale = 1;
    while (u < 4 && max_bytes >= scale * 1024) {
        scale *= 1024;
        u++;
    }
    double step = chart_nice_step(max_bytes / scale, max_ticks);
    if (u == 0 && step < 1)
        step = 1;   /* no fractions of a byte */
    *unit = u;
    return step * scale;
}

static int decimals_for(double step)
{
    int d = 0;
    while (d < 6 && fabs(step * pow(10, d) - floor(step * pow(10, d) + 0.5)) > 1e-6)
        d++;
    return d;
}

void chart_format_tick(double bytes, unsigned unit, double step, char *out, size_t size)
{
    double scale = pow(1024, unit);
    if (bytes == 0) {
        snprintf(out, size, "0");
        return;
    }
    format_snprintf(out, size, "%.*f %s", decimals_for(step / scale), bytes / scale,
                    format_unit_name(unit));
}

void chart_format_scale_top(double bytes, unsigned unit, char *out, size_t size)
{
    /* in the ticks' unit, with no more decimals than it needs (at most two): "64 MiB"
     * beside "50 MiB", not "64.0 MiB" */
    double v = bytes / pow(1024, unit);
    int d = 0;
    while (d < 2 && fabs(v * pow(10, d) - floor(v * pow(10, d) + 0.5)) > 1e-6)
        d++;
    format_snprintf(out, size, "%.*f %s", d, v, format_unit_name(unit));
}

static void format_tick_seconds(double s, double step, char *out, size_t size)
{
    format_snprintf(out, size, "%.*f", decimals_for(step), s);
}

/* --- the plot ----------------------------------------------------------------------- */

double chart_plot_x(const struct chart_plot *P, uint64_t ns)
{
    double s = ns / 1e9;
    return P->left + (s - P->x0) / (P->x1 - P->x0) * (P->right - P->left);
}

size_t chart_plot_reduce(const struct chart_plot *P, size_t *keep)
{
    const struct profile_view *v = P->v;
    size_t n = 0;
    for (size_t i = 0; i < v->point_count;) {
        long column = lround(floor(chart_plot_x(P, v->time_ns[i])));
        size_t hi = i, lo = i, j = i + 1;
        for (; j < v->point_count && lround(floor(chart_plot_x(P, v->time_ns[j]))) == column;
             j++) {
            if (v->point_totals[j] > v->point_totals[hi])
                hi = j;
            if (v->point_totals[j] < v->point_totals[lo])
                lo = j;
        }
        keep[n++] = hi < lo ? hi : lo;
        if (hi != lo)
            keep[n++] = hi < lo ? lo : hi;
        i = j;
    }
    return n;
}

void chart_kit_check(struct chart_plot *P, struct dl_item *item, const char *title)
{
    if (!item)
        P->failed = true;
    else if (title && display_set_title(item, title) != 0)
        P->failed = true;
}

void chart_kit_text(struct chart_plot *P, double x, double y, const char *s, double size,
                    struct dl_color color, enum dl_anchor anchor, bool bold, const char *role,
                    const char *tooltip)
{
    chart_kit_check(P, display_text(P->dl, x, y, s, size, color, anchor, bold, 0, role), tooltip);
}

void chart_kit_line(struct chart_plot *P, double x1, double y1, double x2, double y2,
                    struct dl_color color, double width, bool dashed, const char *role)
{
    struct dl_point pts[2] = { { x1, y1 }, { x2, y2 } };
    chart_kit_check(P, display_polyline(P->dl, pts, 2, color, width, dashed, role), NULL);
}

int chart_kit_colors_of(const struct profile_view *const *views, char **const *names,
                        size_t n, struct dl_color *const *colors)
{
    size_t count = 0;
    for (size_t k = 0; k < n; k++)
        count += views[k]->band_count;
    struct chart_color_band *bands = calloc(count ? count : 1, sizeof *bands);
    struct dl_color *out = malloc((count ? count : 1) * sizeof *out);
    if (!bands || !out) {
        free(bands);
        free(out);
        return -1;
    }
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < views[k]->band_count; i++) {
            const struct profile_band *b = &views[k]->bands[i];
            if (b->band != PROFILE_OTHER)
                bands[m++] = (struct chart_color_band){
                    b->label, names ? names[k][i] : b->label, b->stats.area, b->stats.peak };
        }
    int rc = chart_band_colors(bands, m, out);
    m = 0;
    for (size_t k = 0; rc == 0 && k < n; k++)
        for (size_t i = 0; i < views[k]->band_count; i++)
            colors[k][i] = views[k]->bands[i].band == PROFILE_OTHER ? chart_other_color()
                                                                    : out[m++];
    free(bands);
    free(out);
    return rc;
}

int chart_kit_colors(const struct profile_view *v, struct dl_color *colors)
{
    return chart_kit_colors_of(&v, NULL, 1, &colors);
}

/* --- title block -------------------------------------------------------------------- */

bool chart_kit_window_misses(const struct profile_view *v)
{
    return (v->has_from || v->has_to) && v->censuses == 0 && v->run_censuses > 0;
}

static void subtitle_text(const struct chart_plot *P, const struct run_info *info,
                          size_t unlabelled, char *out, size_t size)
{
    const struct profile_view *v = P->v;
    size_t n = 0;
    out[0] = '\0';
#define ADD(...) do { \
        if (n < size) n += (size_t)snprintf(out + n, size - n, "%s", n ? "  \xc2\xb7  " : ""); \
        if (n < size) n += (size_t)format_snprintf(out + n, size - n, __VA_ARGS__); \
    } while (0)
    /* first, so that eliding a narrow chart's subtitle never hides them */
    if (P->opt && P->opt->grouped_note)
        ADD("%s", P->opt->grouped_note);
    if (unlabelled)
        ADD("%zu marker%s unlabelled (text in %s tooltip)", unlabelled,
            unlabelled == 1 ? "" : "s", unlabelled == 1 ? "its line's" : "their lines'");
    if (info && info->has_start_time) {
        time_t t = (time_t)info->start_time;
        struct tm tm;
        char date[40];
        if (localtime_r(&t, &tm) && strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm))
            ADD("%s", date);
    }
    if (info && info->rts_version && *info->rts_version)
        ADD("%s", info->rts_version);
    if (info && (info->has_heap_profile || info->breakdown)) {
        char scratch[40];
        ADD("%s", breakdown_words(info->breakdown, scratch, sizeof scratch));
    }
    if (info && info->period_ns)
        ADD("sampled every %g s", info->period_ns / 1e9);
    ADD("%" PRIu64 " census%s", v->censuses, v->censuses == 1 ? "" : "es");
    if (chart_kit_window_misses(v))
        ADD("the window is outside the run (censuses %.2f to %.2f s)", v->run_first_ns / 1e9,
            v->run_last_ns / 1e9);
    else if (v->has_from || v->has_to)
        ADD("window %g to %g s", P->x0, P->x1);
    if (v->bands_filtered)
        ADD("%" PRIu32 " band%s filtered out", v->bands_filtered,
            v->bands_filtered == 1 ? "" : "s");
#undef ADD
}

const char *chart_kit_run_title(const char *given, const struct run_info *info,
                                const char *input_name)
{
    const char *title = given;
    if (!title || !*title)
        title = info && info->program && *info->program ? info->program : input_name;
    return title && *title ? title : "heap profile";
}

double chart_kit_title(struct chart_plot *P, const struct run_info *info, const char *title,
                       const char *prefix, size_t unlabelled, double y0)
{
    double avail = P->dl->width - 2 * KIT_MARGIN;
    double y = y0;
    char buf[KIT_LABEL_MAX];
    if (title) {
        char full[KIT_LABEL_MAX];
        utf8_end_printed(full, sizeof full, snprintf(full, sizeof full, "%s%s", prefix, title));
        bool cut = text_elide_end(P->tm, full, KIT_TITLE_SIZE, true, avail, buf, sizeof buf);
        y += KIT_TITLE_SIZE * 0.8;
        chart_kit_text(P, KIT_MARGIN, y, buf, KIT_TITLE_SIZE, COLOR_INK, DL_ANCHOR_START, true,
                       "title", cut ? full : NULL);
        y += 9;
    }
    char sub[KIT_LABEL_MAX];
    subtitle_text(P, info, unlabelled, sub, sizeof sub);
    bool cut = text_elide_end(P->tm, sub, KIT_SUBTITLE_SIZE, false, avail, buf, sizeof buf);
    y += KIT_SUBTITLE_SIZE;
    chart_kit_text(P, KIT_MARGIN, y, buf, KIT_SUBTITLE_SIZE, COLOR_QUIET, DL_ANCHOR_START, false,
                   "subtitle", cut ? sub : NULL);
    return y;
}

/* --- time --------------------------------------------------------------------------- */

void chart_kit_time_range(struct chart_plot *P, const struct run_info *info,
                          bool with_totals)
{
    const struct profile_view *v = P->v;
    uint64_t end = chart_kit_window_misses(v) ? v->run_last_ns : v->last_ns;
    if (info && info->end_time_ns > end)
        end = info->end_time_ns;
    for (int k = 0; k < 3; k++)
        if (with_totals && v->totals[k].count &&
            v->totals[k].time_ns[v->totals[k].count - 1] > end)
            end = v->totals[k].time_ns[v->totals[k].count - 1];
    P->x0 = v->has_from ? v->from_ns / 1e9 : 0;
    P->x1 = v->has_to && v->to_ns / 1e9 > P->x0 ? v->to_ns / 1e9 : end / 1e9;
    if (v->has_to && end / 1e9 < P->x1)
        P->x1 = end / 1e9 > P->x0 ? end / 1e9 : P->x1;
    if (chart_kit_window_misses(v)) {
        /* nothing of the run is in the window: show the run's real extent, not an
         * invented stretch of time after its end */
        P->x0 = 0;
        P->x1 = end / 1e9;
    }
    if (!(P->x1 > P->x0))
        P->x1 = P->x0 + 1;
}

/* The time step: the finest round step whose labels, measured, stand apart (at least
 * two ticks whenever two labels fit at all), so a narrow chart keeps a readable axis
 * and a wide one does not crowd it. */
static double time_step(const struct chart_plot *P)
{
    double span = P->x1 - P->x0, plot_w = P->right - P->left;
    char label[48];
    double best = chart_nice_step(span, 1);
    for (unsigned m = 2; m <= 64; m++) {
        double step = chart_nice_step(span, m);
        double first = ceil(P->x0 / step - 1e-9) * step;
        if (first + step > P->x1 + step * 1e-9)
            continue;   /* one tick only */
        /* the widest label of this step: the one at the end has the most digits */
        format_tick_seconds(P->x1, step, label, sizeof label);
        double w = text_width(P->tm, label, KIT_TICK_SIZE, false);
        if (step / span * plot_w < w + 10)
            break;      /* finer steps only crowd more */
        best = step;
    }
    return best;
}

void chart_kit_x_axis(struct chart_plot *P, bool grid, bool named)
{
    char label[48];
    double span = P->x1 - P->x0;
    double step = time_step(P);
    double axis = P->bottom + P->below;   /* under what the view draws below the plot */
    for (double s = ceil(P->x0 / step - 1e-9) * step; s <= P->x1 + step * 1e-9; s += step) {
        if (fabs(s) < step * 1e-6)
            s = 0;   /* no "-0" */
        double x = P->left + (s - P->x0) / span * (P->right - P->left);
        if (grid && x > P->left + 0.5)
            chart_kit_line(P, x, P->top, x, P->bottom, COLOR_GRID, 1, false, "grid");
        chart_kit_line(P, x, axis, x, axis + 4, COLOR_AXIS, 1, false, "axis");
        format_tick_seconds(s, step, label, sizeof label);
        /* the first and last labels stay inside the picture */
        double w = text_width(P->tm, label, KIT_TICK_SIZE, false);
        double lx = fmin(fmax(x, KIT_MARGIN / 2 + w / 2), P->dl->width - KIT_MARGIN / 2 - w / 2);
        chart_kit_text(P, lx, axis + 6 + KIT_TICK_SIZE, label, KIT_TICK_SIZE, COLOR_QUIET,
                       DL_ANCHOR_MIDDLE, false, "axis", NULL);
    }
    if (named)
        chart_kit_text(P, (P->left + P->right) / 2, axis + 12 + 2 * KIT_TICK_SIZE + 2,
                       "time (s)", KIT_TICK_SIZE, COLOR_QUIET, DL_ANCHOR_MIDDLE, false, "axis",
                       NULL);
}
