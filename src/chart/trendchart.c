/* trendchart.c: the heap across commits laid out (see trendchart.h). */
#include "chart/trendchart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/utf8.h"
#include "chart/colors.h"

#define LEGEND_NAME_MAX 260.0     /* a legend entry's text, at most (elided in the middle) */
#define SWATCH 10.0
#define POINT 6.0                 /* a point's side */
#define PANEL_GAP 34.0            /* between the memory panel and the growth panel */
#define GROWTH_SHARE 0.3          /* of the two panels' height, the growth panel's */

/* A series: the peak, a band's peak, or the growth. */
struct series {
    char name[KIT_LABEL_MAX];     /* as the legend and tooltips say it */
    struct dl_color color;
    double width;
    const char *role;             /* its line's role: "trend-peak", "trend-band", ... */
    double *values;               /* one per run */
};

struct trend_layout {
    struct chart_plot P;          /* the kit's state: dl, tm and the failure flag (its
                                   * plot and time fields are unused: scales of its own) */
    const struct trend *t;
    double colw;                  /* a commit's column */
    double left, right;
};

static double x_of(const struct trend_layout *L, size_t i)
{
    return L->left + (i + 0.5) * L->colw;
}

void trend_chart_title(const struct trend_chart *tc, char *out, size_t size)
{
    if (tc->title)
        snprintf(out, size, "%s", tc->title);
    else
        snprintf(out, size, "Heap across %zu commit%s", tc->trend->count,
                 tc->trend->count == 1 ? "" : "s");
}

/* "12.5 MiB", or with a sign and "/s" for a rate. */
static void value_text(double v, bool rate, char *out, size_t size)
{
    if (rate)
        format_rate(v, out, size);
    else
        format_bytes(v, out, size);
}

/* A memory or rate scale: ticks from lo to hi (lo <= 0 <= hi) with a round step. */
struct scale {
    double lo, hi, step;
    unsigned unit;
    double top, bottom;           /* the panel's y extent */
    bool rate;
};

static double y_of(const struct scale *s, double v)
{
    return s->bottom - (v - s->lo) / (s->hi - s->lo) * (s->bottom - s->top);
}

static void scale_fit(struct scale *s, double lo, double hi, unsigned ticks)
{
    lo = fmin(lo, 0);
    hi = fmax(hi, 0);
    if (hi - lo <= 0)
        hi = lo + 1024;
    s->step = chart_bytes_step(fmax(hi, -lo), ticks, &s->unit);
    s->lo = floor(lo / s->step + 1e-9) * s->step;
    s->hi = ceil(hi / s->step - 1e-9) * s->step;
    if (s->hi <= s->lo)
        s->hi = s->lo + s->step;
}

static void tick_text(const struct scale *s, double v, char *out, size_t size)
{
    char t[40];
    chart_format_tick(fabs(v), s->unit, s->step, t, sizeof t);
    snprintf(out, size, "%s%s%s", v < 0 ? "-" : "", t, s->rate ? "/s" : "");
}

static double widest_tick(struct trend_layout *L, const struct scale *s)
{
    double w = 0;
    char t[48];
    for (double v = s->lo; v <= s->hi + s->step * 1e-6; v += s->step) {
        tick_text(s, v, t, sizeof t);
        w = fmax(w, text_width(L->P.tm, t, KIT_TICK_SIZE, false));
    }
    return w;
}

/* The scale's grid, ticks and labels, and its name turned along it. */
static void draw_scale(struct trend_layout *L, const struct scale *s, const char *name)
{
    char t[48];
    for (double v = s->lo; v <= s->hi + s->step * 1e-6; v += s->step) {
        double y = y_of(s, v);
        chart_kit_line(&L->P, L->left, y, L->right, y, fabs(v) < s->step * 1e-6 && s->lo < 0
                       ? COLOR_AXIS : COLOR_GRID, 1, false, "grid");
        chart_kit_line(&L->P, L->left - 4, y, L->left, y, COLOR_AXIS, 1, false, "axis");
        tick_text(s, fabs(v) < s->step * 1e-6 ? 0 : v, t, sizeof t);
        chart_kit_text(&L->P, L->left - 7, y + KIT_TICK_SIZE * 0.35, t, KIT_TICK_SIZE,
                       COLOR_QUIET, DL_ANCHOR_END, false, "axis", NULL);
    }
    chart_kit_check(&L->P, display_text(L->P.dl, KIT_MARGIN + KIT_TICK_SIZE * 0.8,
                                        (s->top + s->bottom) / 2, name, KIT_TICK_SIZE,
                                        COLOR_QUIET, DL_ANCHOR_MIDDLE, false, -90, "axis"),
                    NULL);
    chart_kit_line(&L->P, L->left, s->top, L->left, s->bottom, COLOR_AXIS, 1, false, "axis");
}

/* A series' line and its points, each point with its tooltip. */
static void draw_series(struct trend_layout *L, const struct series *s, const struct scale *sc)
{
    size_t n = L->t->count;
    struct dl_point *pts = malloc(n * sizeof *pts);
    if (!pts) {
        L->P.failed = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        pts[i] = (struct dl_point){ x_of(L, i), y_of(sc, s->values[i]) };
    if (n > 1)
        chart_kit_check(&L->P, display_polyline(L->P.dl, pts, n, s->color, s->width, false,
                                                s->role), NULL);
    for (size_t i = 0; i < n; i++) {
        const struct trend_run *r = &L->t->runs[i];
        char value[48], tip[KIT_LABEL_MAX * 2];
        value_text(s->values[i], sc->rate, value, sizeof value);
        utf8_end_printed(tip, sizeof tip,
                         snprintf(tip, sizeof tip, "%s\n%s%s%s\n%s", s->name, r->name,
                                  r->subject ? " " : "", r->subject ? r->subject : "", value));
        double h = POINT * (s->width > 2 ? 1.2 : 1);
        chart_kit_check(&L->P, display_rect(L->P.dl, pts[i].x - h / 2, pts[i].y - h / 2, h, h,
                                            s->color, COLOR_WHITE, 1, "trend-point"), tip);
    }
    free(pts);
}

/* The commits where a gate failed: a band across both panels and a mark above. */
static void draw_failures(struct trend_layout *L, double top, double bottom)
{
    struct dl_color wash = COLOR_ALERT;
    wash.a = 40;
    double w = fmax(6, fmin(L->colw * 0.6, 28));
    for (size_t i = 0; i < L->t->count; i++) {
        const struct trend_run *r = &L->t->runs[i];
        if (!r->gates_failed)
            continue;
        char tip[KIT_LABEL_MAX];
        utf8_end_printed(tip, sizeof tip,
                         snprintf(tip, sizeof tip, "%s: %zu of %zu gate%s failed: %s", r->name,
                                  r->gates_failed, r->gates, r->gates == 1 ? "" : "s",
                                  r->failed));
        double x = x_of(L, i);
        chart_kit_check(&L->P, display_rect(L->P.dl, x - w / 2, top, w, bottom - top, wash,
                                            (struct dl_color){ 0, 0, 0, 0 }, 0, "gate-failed"),
                        tip);
        struct dl_point tri[3] = { { x - 6, top - 11 }, { x + 6, top - 11 }, { x, top - 2 } };
        chart_kit_check(&L->P, display_polygon(L->P.dl, tri, 3, COLOR_ALERT,
                                               (struct dl_color){ 0, 0, 0, 0 }, 0,
                                               "gate-failed-mark"), tip);
    }
}

/* The commits' names under the lower panel: level when they fit their columns, else
 * turned, and every k-th only when even turned they would overlap. */
static double draw_commit_axis(struct trend_layout *L, double y, bool measure_only)
{
    double widest = 0;
    for (size_t i = 0; i < L->t->count; i++)
        widest = fmax(widest, text_width(L->P.tm, L->t->runs[i].name, KIT_TICK_SIZE, false));
    bool level = widest + 6 <= L->colw;
    double height = level ? KIT_TICK_SIZE * 1.6 : fmin(widest, 120) * 0.72 + KIT_TICK_SIZE * 1.6;
    if (measure_only)
        return height;
    size_t every = level ? 1 : (size_t)ceil(KIT_TICK_SIZE * 1.5 / L->colw);
    if (every == 0)
        every = 1;
    for (size_t i = 0; i < L->t->count; i++) {
        const struct trend_run *r = &L->t->runs[i];
        double x = x_of(L, i);
        chart_kit_line(&L->P, x, y, x, y + 4, COLOR_AXIS, 1, false, "axis");
        if (i % every)
            continue;
        char name[KIT_LABEL_MAX], tip[KIT_LABEL_MAX * 2];
        text_elide_middle(L->P.tm, r->name, KIT_TICK_SIZE, false, 120, name, sizeof name);
        utf8_end_printed(tip, sizeof tip,
                         snprintf(tip, sizeof tip, "%s%s%s%s%s (%s)",
                                  r->sha ? r->sha : r->name, r->time ? " " : "",
                                  r->time ? r->time : "", r->subject ? "\n" : "",
                                  r->subject ? r->subject : "", r->file));
        chart_kit_check(&L->P, display_text(L->P.dl, level ? x : x + KIT_TICK_SIZE * 0.35,
                                            y + KIT_TICK_SIZE + 4, name, KIT_TICK_SIZE,
                                            COLOR_QUIET, level ? DL_ANCHOR_MIDDLE : DL_ANCHOR_END,
                                            false, level ? 0 : -45, "commit"), tip);
    }
    return height;
}

/* The legend: a swatch and a name per series, in rows from y; returns its bottom. */
static double draw_legend(struct trend_layout *L, const struct series *s, size_t n, double y,
                          bool measure_only)
{
    double x = KIT_MARGIN, row = KIT_TICK_SIZE * 1.7;
    double right = L->P.dl->width - KIT_MARGIN;
    y += row;
    for (size_t i = 0; i < n; i++) {
        char name[KIT_LABEL_MAX];
        bool cut = text_elide_middle(L->P.tm, s[i].name, KIT_TICK_SIZE, false, LEGEND_NAME_MAX,
                                     name, sizeof name);
        double w = SWATCH + 5 + text_width(L->P.tm, name, KIT_TICK_SIZE, false) + 18;
        if (x > KIT_MARGIN && x + w > right) {
            x = KIT_MARGIN;
            y += row;
        }
        if (!measure_only) {
            chart_kit_check(&L->P, display_rect(L->P.dl, x, y - SWATCH, SWATCH, SWATCH,
                                                s[i].color, (struct dl_color){ 0, 0, 0, 0 }, 0,
                                                "legend"), NULL);
            chart_kit_text(&L->P, x + SWATCH + 5, y, name, KIT_TICK_SIZE, COLOR_INK,
                           DL_ANCHOR_START, false, "legend", cut ? s[i].name : NULL);
        }
        x += w;
    }
    return y + KIT_TICK_SIZE * 0.6;
}

/* The series: the peak, then each band drawn; the growth apart. */
static int make_series(const struct trend_chart *tc, struct series **out, size_t *count,
                       struct series *growth)
{
    const struct trend *t = tc->trend;
    size_t want = trend_band_count(t) < tc->bands ? trend_band_count(t) : tc->bands;
    uint32_t *top = malloc((want ? want : 1) * sizeof *top);
    long nb = top ? trend_top_bands(t, want, top) : -1;
    struct series *s = nb < 0 ? NULL : calloc((size_t)nb + 1, sizeof *s);
    struct chart_color_band *cb = nb < 0 ? NULL : calloc((size_t)nb + 1, sizeof *cb);
    struct dl_color *colors = nb < 0 ? NULL : calloc((size_t)nb + 1, sizeof *colors);
    int rc = -1;
    if (!s || !cb || !colors)
        goto done;
    for (long b = 0; b < nb; b++) {
        size_t len;
        const char *label = trend_band_label(t, top[b], &len);
        utf8_end_printed(s[b + 1].name, sizeof s[b + 1].name,
                         snprintf(s[b + 1].name, sizeof s[b + 1].name, "%.*s", (int)len, label));
        cb[b] = (struct chart_color_band){ s[b + 1].name, s[b + 1].name, (double)(nb - b), 0 };
    }
    if (chart_band_colors(cb, (size_t)nb, colors) != 0)
        goto done;
    snprintf(s[0].name, sizeof s[0].name, "peak (the heap's largest census)");
    s[0].color = COLOR_INK;
    s[0].width = 2.5;
    s[0].role = "trend-peak";
    snprintf(growth->name, sizeof growth->name, "growth (the heap over each run, per second)");
    growth->color = COLOR_INK;
    growth->width = 2;
    growth->role = "trend-growth";
    growth->values = calloc(t->count ? t->count : 1, sizeof *growth->values);
    if (!growth->values)
        goto done;
    for (long k = 0; k <= nb; k++) {
        s[k].values = calloc(t->count ? t->count : 1, sizeof *s[k].values);
        if (!s[k].values)
            goto done;
        if (k > 0) {
            s[k].color = colors[k - 1];
            s[k].width = 1.5;
            s[k].role = "trend-band";
        }
        for (size_t i = 0; i < t->count; i++)
            s[k].values[i] = k == 0 ? (double)t->runs[i].peak
                                    : (double)trend_run_band_peak(&t->runs[i], top[k - 1]);
    }
    for (size_t i = 0; i < t->count; i++)
        growth->values[i] = t->runs[i].growth;
    *out = s;
    *count = (size_t)nb + 1;
    s = NULL;
    rc = 0;
done:
    if (s)
        for (long k = 0; k <= nb; k++)
            free(s[k].values);
    free(s);
    free(cb);
    free(colors);
    free(top);
    return rc;
}

int trend_chart_layout(const struct trend_chart *tc, const struct chart_options *opt,
                       struct textmeasure *tm, struct display_list *dl)
{
    const struct trend *t = tc->trend;
    display_init(dl, opt->width, opt->height, COLOR_WHITE);
    struct trend_layout L = { .t = t };
    L.P.dl = dl;
    L.P.tm = tm;
    L.P.opt = opt;
    char title[KIT_LABEL_MAX], buf[KIT_LABEL_MAX];
    trend_chart_title(tc, title, sizeof title);
    if (display_set_document_title(dl, title) != 0)
        return -1;
    struct series *s = NULL, growth = { 0 };
    size_t ns = 0;
    if (make_series(tc, &s, &ns, &growth) != 0) {
        free(growth.values);
        return -1;
    }
    /* the title block */
    double avail = dl->width - 2 * KIT_MARGIN, y = KIT_MARGIN + KIT_TITLE_SIZE * 0.8;
    bool cut = text_elide_end(tm, title, KIT_TITLE_SIZE, true, avail, buf, sizeof buf);
    chart_kit_text(&L.P, KIT_MARGIN, y, buf, KIT_TITLE_SIZE, COLOR_INK, DL_ANCHOR_START, true,
                   "title", cut ? title : NULL);
    char sub[KIT_LABEL_MAX];
    size_t failed = 0;
    for (size_t i = 0; i < t->count; i++)
        failed += t->runs[i].gates_failed > 0;
    utf8_end_printed(sub, sizeof sub,
                     snprintf(sub, sizeof sub, "the peak and the %zu largest band%s' peaks at each "
                              "commit, the heap's growth over each run below; %zu commit%s "
                              "where a gate failed%s%s", ns - 1, ns == 2 ? "" : "s", failed,
                              failed == 1 ? "" : "s", failed ? " (marked red)" : "",
                              tc->note ? tc->note : ""));
    y += 9 + KIT_SUBTITLE_SIZE;
    cut = text_elide_end(tm, sub, KIT_SUBTITLE_SIZE, false, avail, buf, sizeof buf);
    chart_kit_text(&L.P, KIT_MARGIN, y, buf, KIT_SUBTITLE_SIZE, COLOR_QUIET, DL_ANCHOR_START,
                   false, "subtitle", cut ? sub : NULL);
    double legend_y = y + 6;
    y = draw_legend(&L, s, ns, legend_y, true);
    /* the scales, the plot's extent and the columns */
    struct scale mem = { 0 }, rate = { .rate = true };
    double top = 0, lo = 0, hi = 0;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < t->count; i++)
            top = fmax(top, s[k].values[i]);
    for (size_t i = 0; i < t->count; i++) {
        lo = fmin(lo, growth.values[i]);
        hi = fmax(hi, growth.values[i]);
    }
    scale_fit(&mem, 0, top, 6);
    scale_fit(&rate, lo, hi, 3);
    L.left = KIT_MARGIN + KIT_TICK_SIZE * 1.6 + fmax(widest_tick(&L, &mem), widest_tick(&L, &rate))
             + 8;
    L.right = dl->width - KIT_MARGIN;
    L.colw = (L.right - L.left) / (double)(t->count ? t->count : 1);
    double axis = draw_commit_axis(&L, 0, true);
    double plot_top = y + 18, plot_bottom = dl->height - KIT_MARGIN - axis;
    double panels = plot_bottom - plot_top - PANEL_GAP;
    mem.top = plot_top;
    mem.bottom = plot_top + panels * (1 - GROWTH_SHARE);
    rate.top = mem.bottom + PANEL_GAP;
    rate.bottom = plot_bottom;
    if (panels < 40) {   /* too small a picture for two panels: say so rather than overlap */
        chart_kit_text(&L.P, KIT_MARGIN, y + 20, "(--height too small for the trend)",
                       KIT_SUBTITLE_SIZE, COLOR_ALERT, DL_ANCHOR_START, false, "note", NULL);
    } else {
        draw_legend(&L, s, ns, legend_y, false);
        draw_failures(&L, mem.top, rate.bottom);
        draw_scale(&L, &mem, "memory");
        draw_scale(&L, &rate, "growth");
        for (size_t k = ns; k-- > 0;)   /* the peak last, on top */
            draw_series(&L, &s[k], &mem);
        draw_series(&L, &growth, &rate);
        chart_kit_text(&L.P, L.left + 4, rate.top - 6, "growth over the run (least squares, "
                       "per second)", KIT_TICK_SIZE, COLOR_QUIET, DL_ANCHOR_START, false, "axis",
                       NULL);
        draw_commit_axis(&L, rate.bottom, false);
    }
    for (size_t k = 0; k < ns; k++)
        free(s[k].values);
    free(s);
    free(growth.values);
    return L.P.failed ? -1 : 0;
}
