/* views.h: the views a chart can show (--view), and the small kit they are drawn with.
 *
 * `area` is chart.c's stacked chart. The other views reuse its frame (title block, time
 * axis, legend, markers, colours, --compare panels) and replace only what differs:
 *
 *   normalized  the bands as shares of each census, stacked to 100 % (y axis in %);
 *   stream      a streamgraph: the stack around a moving centre line (the wiggle-minimising
 *               baseline of Byron and Wattenberg), bands ordered inside-out by onset;
 *   lines       each band its own line from zero, on the memory scale of the largest;
 *   heap        the runtime's totals (heap size, live bytes, blocks), the allocation rate
 *               from HEAP_ALLOCATED and garbage collections as a strip: needs no census;
 *   detail      small multiples, one row per band (view_detail.c): a whole layout;
 *   flame, icicle  the time profile (flame.h), laid out by sink_chart.c instead.
 *
 * The table below is the one list of views: the option parser, the usage text and the
 * manual's names come from it, so adding a view (flame, icicle) is adding a row and a
 * draw function.
 *
 * The kit (struct chart_plot) is what a view's drawing gets from chart.c: the display
 * list, the text measurer, the view of the profile, the band colours and the plot's
 * rectangle and scales. chart.c fills it and exposes its title block, time axis and
 * colouring through chart_kit_* so that view modules do not copy them.
 */
#ifndef EV2HP_VIEWS_H
#define EV2HP_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"
#include "chart/display.h"
#include "model/profile.h"
#include "chart/textmeasure.h"

enum chart_view {
    CHART_VIEW_AUTO = 0,            /* area, or flame for a time profile without censuses */
    CHART_VIEW_AREA,
    CHART_VIEW_NORMALIZED,
    CHART_VIEW_STREAM,
    CHART_VIEW_LINES,
    CHART_VIEW_HEAP,
    CHART_VIEW_DETAIL,
    CHART_VIEW_FLAME,               /* the time profile, root at the bottom (flame.h) */
    CHART_VIEW_ICICLE,              /* the same, root at the top */
    CHART_VIEW_COUNT
};

/* Whether the view is the stacked heap chart (area, or auto when it comes to the heap). */
bool view_is_area(enum chart_view view);

/* The view called name ("area", "stream", ...); false when none ("auto" has no name). */
bool chart_view_from_name(const char *name, enum chart_view *view);
const char *chart_view_name(enum chart_view view);
/* "area, normalized, stream, lines, heap or detail": for messages and usage. */
const char *chart_view_names(void);

struct chart_options;

/* A plot being drawn: what chart.c hands a view. Coordinates in user units. */
struct chart_plot {
    struct display_list *dl;
    struct textmeasure *tm;
    const struct profile_view *v;
    const struct chart_options *opt;
    const struct dl_color *colors;     /* per shown band of v */
    double left, right, top, bottom;   /* the plot area */
    double x0, x1;                     /* seconds at left and right */
    double ymax;                       /* the top of the y scale, in the view's unit */
    bool failed;                       /* out of memory somewhere: the layout fails */
};

/* x of a time; the kept points that survive reduction to one pixel column (per column
 * the points with the largest and smallest total, in time order): their count. */
double chart_plot_x(const struct chart_plot *P, uint64_t ns);
size_t chart_plot_reduce(const struct chart_plot *P, size_t *keep);

/* --- what views tell chart.c ------------------------------------------------------- */

/* The top of the y scale for the view (bytes; percent for normalized), given the peak of
 * the totals chart.c computed and the plot's height; 0 means chart.c's own. */
double view_scale_top(enum chart_view view, const struct profile_view *v, double peak);
/* Whether the y axis shows memory ticks (area, lines, heap); normalized shows percent,
 * stream a scale bar. */
bool view_memory_axis(enum chart_view view);
/* Draws the y axis of a view without memory ticks; returns the width its labels need
 * when measure_only. */
double view_y_axis(struct chart_plot *P, enum chart_view view, bool measure_only);
/* Draws the data of the view (everything chart.c's bands and totals would). */
void view_draw(struct chart_plot *P, enum chart_view view);
/* Whether the view's legend lists bands (all but heap) and the runtime totals (heap). */
bool view_lists_bands(enum chart_view view);
bool view_lists_totals(enum chart_view view, bool totals_option);
/* Whether the view marks the peak of the stacked total (area only). */
bool view_marks_peak(enum chart_view view);

/* The detail view (view_detail.c): a whole layout, one row per shown band of v: its
 * label, a sparkline on a shared time axis (each on its own scale, 0 to its peak), its
 * peak, mean and growth. Rows that do not fit the height are counted in a last line.
 * 0, or -1 when out of memory (dl freed). */
int view_detail_layout(const struct profile_view *v, const struct run_info *info,
                       const char *input_name, const struct chart_options *opt,
                       struct textmeasure *tm, struct display_list *dl);

/* The heap view's pieces (view_heap.c). */
double view_heap_top(const struct profile_view *v);
void view_heap_draw(struct chart_plot *P);

/* The streamgraph's geometry, exposed for tests: for each of n points the lower edge of
 * the stack (bytes from the bottom of the plot) and the bands' order from the lowest
 * up (order[0] is drawn lowest). values[point * w + band]. Returns the stack's height
 * (the largest baseline + total). -1 when out of memory. */
double view_stream_layout(const uint64_t *values, const uint64_t *totals, size_t n, size_t w,
                          double *baseline, size_t *order);

#endif
