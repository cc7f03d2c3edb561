/* chart.h: the chart layout, from a profile to a display list.
 *
 * One geometry for every picture format: chart_layout decides every coordinate, colour,
 * font size and string of a heap chart and emits them as a display list (display.h); the
 * SVG and PNG back-ends only draw that list. Reading order follows hp2pretty's charts:
 * a title (JOB) and a quieter subtitle (date, GHC version, breakdown in words, sampling
 * interval, number of censuses); a stacked area chart, largest band at the bottom; a
 * legend on the right listing the bands top to bottom as they are stacked, each with its
 * swatch, label (elided in the middle when long; whole in the tooltip) and peak; memory
 * ticks in binary units on round values; time in seconds; markers as thin vertical lines
 * with their text on top; heap totals as dashed lines with their own legend entries; the
 * peak of the total marked with its value.
 *
 * Text is measured with textmeasure (DejaVu Sans, cairo metrics), so nothing overlaps:
 * the title is elided, the legend shrinks its font and then cuts its list ("… N more")
 * before it would leave its column, marker labels that would collide are left to their
 * tooltips.
 */
#ifndef EV2HP_CHART_H
#define EV2HP_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"
#include "model/profile.h"
#include "chart/display.h"
#include "chart/kit.h"
#include "chart/textmeasure.h"
#include "chart/views.h"


/* Lays out the chart of view into dl (initialised here). info and input_name give the
 * title and subtitle. 0, or -1 when out of memory (dl freed). */
int chart_layout(const struct profile_view *view, const struct run_info *info,
                 const char *input_name, const struct chart_options *opt,
                 struct textmeasure *tm, struct display_list *dl);

/* One chart of a comparison: a run's view, what it says about itself, and its name. */
struct chart_run {
    const struct profile_view *view;
    const struct run_info *info;
    const char *input_name;
};

/* --compare: base above, this run below, in one picture: the same time and memory
 * scales (the larger of the two, or --y-max), one legend for both in which a label has
 * one colour, titled "base: ..." and "this run: ..." (opt->title names this run). The
 * views should show the same bands (compare.c makes them the union of both runs'
 * largest). 0, or -1 when out of memory (dl freed). */
int chart_layout_compare(const struct chart_run *base, const struct chart_run *now,
                         const struct chart_options *opt, struct textmeasure *tm,
                         struct display_list *dl);

/* Options, the plot, scales and band colours: kit.h. The views: views.h. */

#endif
