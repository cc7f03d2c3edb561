/* trendchart.h: the heap across commits (--trend) laid out as a display list.
 *
 * Two panels over one axis of commits, in the order given (x: the commit's index, its
 * label the short sha or the summary's file name): above, the peak of each run and the
 * peaks of the bands largest in any run, a line and a point per commit each, on one
 * memory scale; below, the heap's growth over each run (bytes per second, signed).
 * Commits where a gate failed are marked across both panels in the alert colour, with
 * the failed gates in the mark's tooltip. Every point carries a tooltip of three lines:
 * the series, the commit (and its subject), the value. The chart kit's sizes, colours
 * (a band's own colour, as in every chart) and fonts make it look like the others; the
 * same back-ends draw it (SVG, PNG, PDF, PostScript).
 */
#ifndef EV2HP_TRENDCHART_H
#define EV2HP_TRENDCHART_H

#include <stddef.h>

#include "chart/display.h"
#include "chart/kit.h"
#include "chart/textmeasure.h"
#include "model/trend.h"

/* The bands a trend draws by default (--bands sets another number). */
#define TREND_DEFAULT_BANDS 5

struct trend_chart {
    const struct trend *trend;
    size_t bands;               /* the largest bands drawn (SIZE_MAX: all) */
    const char *title;          /* --title; NULL: "Heap across N commits" */
    const char *note;           /* said after the subtitle (the summaries skipped), or NULL */
};

/* Lays out tc at opt's --width and --height into dl (initialised here; the caller frees
 * it with display_free, also on failure). 0, or -1 when out of memory. */
int trend_chart_layout(const struct trend_chart *tc, const struct chart_options *opt,
                       struct textmeasure *tm, struct display_list *dl);

/* The title the chart and the page give tc: --title, or "Heap across N commits". */
void trend_chart_title(const struct trend_chart *tc, char *out, size_t size);

#endif
