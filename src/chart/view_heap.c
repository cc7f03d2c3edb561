/* view_heap.c: the heap view, the runtime's own account of its heap (views.h).
 *
 * The lines are chart.c's heap totals (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE, with their
 * legend entries); this module adds what they do not show: the allocation rate, from the
 * cumulative HEAP_ALLOCATED counts (bytes between two kept counts over the time between
 * them), as a light area on a scale of its own in the lower third of the plot, labelled
 * with its peak; and the garbage collections (GC_START to GC_END) as a strip along the
 * bottom of the plot whose darkness in each pixel column is the share of that time spent
 * collecting. None of it needs a heap census, so the view works for any eventlog.
 */
#include "chart/views.h"
#include "chart/colors.h"
#include "base/format.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STRIP 9.0                /* the collections' strip, user units */
#define NOTE_SIZE 10.0

static const struct dl_color ALLOC_FILL = { 0x59, 0xa1, 0x4f, 70 };
static const struct dl_color ALLOC_LINE = { 0x3b, 0x7a, 0x33, 255 };

static double heap_top(const struct profile_view *v)
{
    double top = 0;
    for (int k = 0; k < HEAP_TOTAL_RUNTIME; k++)
        for (size_t i = 0; i < v->totals[k].count; i++)
            top = fmax(top, (double)v->totals[k].bytes[i]);
    return top;
}

/* The allocation rate between kept counts (bytes per second); counts that go back (a
 * capability's count out of order) give no interval. */
static void allocation(struct chart_plot *P)
{
    const struct profile_series *a = &P->v->totals[HEAP_TOTAL_ALLOCATED];
    if (a->count < 2)
        return;
    double *rate = malloc(a->count * sizeof *rate);
    struct dl_point *pts = malloc((2 * a->count + 2) * sizeof *pts);
    if (!rate || !pts) {
        P->failed = true;
        goto done;
    }
    double peak = 0;
    for (size_t i = 1; i < a->count; i++) {
        double dt = (double)(a->time_ns[i] - a->time_ns[i - 1]) / 1e9;
        double db = (double)a->bytes[i] - (double)a->bytes[i - 1];
        rate[i] = dt > 0 && db >= 0 ? db / dt : 0;
        peak = fmax(peak, rate[i]);
    }
    if (!(peak > 0))
        goto done;
    /* each interval a step at its rate: what was allocated over it, spread evenly */
    double floor_y = P->bottom - STRIP - 1, height = (P->bottom - P->top) * 0.33;
    size_t m = 0;
    pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[0]), floor_y };
    for (size_t i = 1; i < a->count; i++) {
        double y = floor_y - rate[i] / peak * height;
        pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[i - 1]), y };
        pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[i]), y };
    }
    pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[a->count - 1]), floor_y };
    char peak_text[32], label[160];
    format_bytes(peak, peak_text, sizeof peak_text);
    snprintf(label, sizeof label, "allocation rate, on its own scale: peak %s/s", peak_text);
    chart_kit_check(P, display_polygon(P->dl, pts, m, ALLOC_FILL, ALLOC_LINE, 0.8, "allocation"),
                    label);
    chart_kit_check(P, display_text(P->dl, P->left + 6, floor_y - height - 4, label, NOTE_SIZE,
                                    ALLOC_LINE, DL_ANCHOR_START, false, 0, "allocation"), NULL);
done:
    free(rate);
    free(pts);
}

/* The strip: per pixel column the share of its time spent collecting, in eight steps of
 * darkness; neighbouring columns of one step are one rectangle (a dense run would
 * otherwise be a thousand items, which PDF in particular pays for). */
#define GC_STEPS 8

static void strip_run(struct chart_plot *P, long from, long to, int step)
{
    if (step <= 0 || to <= from)
        return;
    uint8_t alpha = (uint8_t)lround(60 + 195.0 * step / GC_STEPS);
    chart_kit_check(P, display_rect(P->dl, (double)from, P->bottom - STRIP, (double)(to - from),
                                    STRIP, (struct dl_color){ 0x80, 0x20, 0x20, alpha },
                                    (struct dl_color){ 0 }, 0, "gc"), NULL);
}

struct strip {
    bool started;
    long from;                   /* the run's first column */
    int step;                    /* its darkness */
};

/* A column is complete: it joins the run or ends it and starts the next. */
static void strip_column(struct chart_plot *P, struct strip *s, long column, double busy,
                         double span)
{
    int step = busy > 0 && span > 0 ? (int)ceil(fmin(1, busy / span) * GC_STEPS) : 0;
    if (!s->started) {
        *s = (struct strip){ true, column, step };
    } else if (step != s->step) {
        strip_run(P, s->from, column, s->step);
        s->from = column;
        s->step = step;
    }
}

static void collections(struct chart_plot *P)
{
    const struct profile_gc *gc = &P->v->gc;
    if (!gc->count || !gc->collections)
        return;
    double y = P->bottom - STRIP;
    struct strip run = { 0 };
    long column = LONG_MIN;
    double busy = 0, span = 0;
    for (size_t i = 0; i < gc->count; i++) {
        double x = chart_plot_x(P, gc->origin_ns + i * gc->width_ns);
        if (x < P->left - 0.5 || x > P->right + 0.5)
            continue;
        long c = lround(floor(x));
        if (c != column) {
            if (column != LONG_MIN)
                strip_column(P, &run, column, busy, span);
            column = c;
            busy = span = 0;
        }
        busy += gc->busy_ns[i];
        span += (double)gc->width_ns;
    }
    if (column != LONG_MIN) {
        strip_column(P, &run, column, busy, span);
        strip_run(P, run.from, column + 1, run.step);
    }
    char label[160];
    format_snprintf(label, sizeof label, "garbage collections: %llu, %.3f s in all",
                    (unsigned long long)gc->collections, gc->total_ns / 1e9);
    chart_kit_check(P, display_text(P->dl, P->right - 4, y - 3, label, NOTE_SIZE, COLOR_QUIET,
                                    DL_ANCHOR_END, false, 0, "gc"), NULL);
}

static void heap_draw(struct chart_plot *P)
{
    allocation(P);
    collections(P);
}

/* The lines are the chart's heap totals, always listed; no band is. */
const struct view_ops view_heap_ops = {
    .name = "heap", .view = CHART_VIEW_HEAP, .scale_top = heap_top, .draw = heap_draw,
    .lists_bands = false, .totals = VIEW_TOTALS_ALWAYS,
};
