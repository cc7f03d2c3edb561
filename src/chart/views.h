/* views.h: the views a chart can show (--view), one table of operations.
 *
 * `area` is chart.c's stacked chart. The other views reuse its frame (title block, time
 * axis, legend, markers, colours, --compare panels) and replace only what differs:
 *
 *   normalized  the bands as shares of each census, stacked to 100 % (y axis in %);
 *   stream      a streamgraph: the stack around a moving centre line (the wiggle-minimising
 *               baseline of Byron and Wattenberg), bands ordered inside-out by onset;
 *   lines       each band its own line from zero, on the memory scale of the largest;
 *               (these three: view_bands.c)
 *   heap        the runtime's totals (heap size, live bytes, blocks), the allocation rate
 *               from HEAP_ALLOCATED, each garbage collection a mark as long as its
 *               pause, and under the plot a strip per capability of a -threaded run:
 *               needs no census (view_heap.c);
 *   detail      small multiples, one row per band (view_detail.c): a whole layout;
 *   flame, icicle  the time profile or a heap census (flame.h), laid out by sink_chart.c;
 *   diff        --compare: this run minus the base per band (view_diff.h), laid out by
 *               compare.c.
 *
 * Views plug into the chart the way formats plug into sinks: each view module fills a
 * struct view_ops, and the table in views.c is the one list of views: the option parser,
 * the usage text and the manual's names come from it, and chart.c asks it what to do for
 * a view, so adding a view is adding a module and a row. Views draw with the kit
 * (kit.h) and never include chart.h; chart.c never names a view's functions.
 */
#ifndef EV2HP_VIEWS_H
#define EV2HP_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"
#include "model/profile.h"
#include "chart/display.h"
#include "chart/kit.h"
#include "chart/textmeasure.h"

/* Which heap totals a view's legend lists (and its plot draws). */
enum view_totals {
    VIEW_TOTALS_NEVER,          /* bytes of the whole heap would mean nothing here */
    VIEW_TOTALS_ASKED,          /* with --totals (or when there is no census) */
    VIEW_TOTALS_ALWAYS,         /* the view is the totals (heap) */
};

/* What a view does in the chart's frame. A NULL operation is the area chart's. */
struct view_ops {
    const char *name;                      /* --view NAME */
    enum chart_view view;
    /* A view that lays out the whole picture itself (detail): the chart's frame is not
     * used. 0, or -1 when out of memory (dl freed). */
    int (*layout)(const struct profile_view *v, const struct run_info *info,
                  const char *input_name, const struct chart_options *opt,
                  struct textmeasure *tm, struct display_list *dl);
    /* The top of the y scale (bytes; percent for normalized); 0 means the chart's own. */
    double (*scale_top)(const struct profile_view *v);
    /* A y axis without memory ticks (normalized: percent; stream: a scale bar); returns
     * the width its labels need when measure_only. NULL: memory ticks. */
    double (*y_axis)(struct chart_plot *P, bool measure_only);
    /* Draws the data in place of the area chart's bands; NULL draws nothing (the area
     * chart draws its bands itself: view_is_area). */
    void (*draw)(struct chart_plot *P);
    /* The height the view draws into under its plot (the heap view's strip per
     * capability), the time axis under that; NULL or 0: none. draw draws it, from
     * P->bottom down P->below. */
    double (*below)(const struct profile_view *v, const struct run_info *info);
    bool lists_bands;                      /* the legend lists bands (all but heap) */
    enum view_totals totals;
    bool marks_peak;                       /* the peak of the stacked total (area) */
};

/* The operations of view (auto: area's). Never NULL. */
const struct view_ops *view_ops(enum chart_view view);

/* Whether the view is the stacked heap chart (area, or auto when it comes to the heap). */
bool view_is_area(enum chart_view view);
/* Whether the legend of view lists the heap totals, given --totals (or no census). */
bool view_lists_totals(enum chart_view view, bool totals_option);

/* The view called name ("area", "stream", ...); false when none ("auto" has no name). */
bool chart_view_from_name(const char *name, enum chart_view *view);
const char *chart_view_name(enum chart_view view);
/* "area, normalized, stream, lines, heap or detail": for messages and usage. */
const char *chart_view_names(void);

/* The views' operations, for the table (each defined in its own module). */
extern const struct view_ops view_normalized_ops, view_stream_ops, view_lines_ops;
extern const struct view_ops view_heap_ops, view_detail_ops;

/* The streamgraph's geometry, exposed for tests (view_bands.c): for each of n points the
 * lower edge of the stack (bytes from the bottom of the plot) and the bands' order from
 * the lowest up (order[0] is drawn lowest). values[point * w + band]. Returns the stack's
 * height (the largest baseline + total). -1 when out of memory. */
double view_stream_layout(const uint64_t *values, const uint64_t *totals, size_t n, size_t w,
                          double *baseline, size_t *order);

#endif
