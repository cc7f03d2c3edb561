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

#include "base/limits.h"
#include "model/frame.h"
#include "chart/display.h"
#include "chart/colors.h"
#include "base/error.h"
#include "model/profile.h"
#include "chart/textmeasure.h"
#include "chart/views.h"


/* --view: enum chart_view and its names are in views.h. */

struct chart_options {
    enum chart_view view;           /* --view */
    unsigned width, height;         /* user units (CSS px); default 1280 x 720 */
    bool height_given;              /* --height: a flame graph without it is only as
                                     * tall as its deepest stack needs */
    const char *title;              /* --title; NULL: the JOB line */
    bool no_markers;                /* --no-markers */
    bool totals;                    /* --totals: heap totals as dashed lines */
    bool has_y_max;                 /* --y-max: the top of the memory scale, fixed */
    uint64_t y_max;                 /* bytes; values above are clipped to the plot */
    struct profile_options profile; /* band selection, filters, time window */
};

/* The defaults of ev2hp(1). */
void chart_options_default(struct chart_options *opt);

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

/* The profile options a chart of opt is fed with (its resolution follows its width). */
void chart_profile_options(const struct chart_options *opt, struct profile_options *out);

/* --- the kit views are drawn with (views.h) ---------------------------------------- */

/* The colours of v's shown bands, as the area chart gives them (colors: band_count). */
int chart_kit_colors(const struct profile_view *v, struct dl_color *colors);
/* The title block of a run from y0 (title: --title, the JOB line or the file name);
 * returns the subtitle's baseline. */
double chart_kit_title(struct chart_plot *P, const struct run_info *info, const char *title,
                       const char *input_name, double y0);
/* The time range of a view (x0, x1 of P), as the area chart takes it. */
void chart_kit_time_range(struct chart_plot *P, const struct run_info *info);
/* The time axis under P's plot: ticks, their labels, the grid when grid, and the axis
 * name when named. */
void chart_kit_x_axis(struct chart_plot *P, bool grid, bool named);

/* --- pieces, exposed for tests --------------------------------------------------- */

/* A round step (1, 2 or 5 x 10^k) cutting [0, range] into at most max_ticks steps. */
double chart_nice_step(double range, unsigned max_ticks);

/* Memory ticks: the binary unit (0 B, 1 KiB, 2 MiB, 3 GiB, 4 TiB) and a round step in
 * bytes (1, 2 or 5 x 10^k units) for [0, max_bytes] in at most max_ticks steps. */
double chart_bytes_step(double max_bytes, unsigned max_ticks, unsigned *unit);

/* "512 MiB", "1.5 GiB": value in unit with the decimals step needs (tick labels). */
void chart_format_tick(double bytes, unsigned unit, double step, char *out, size_t size);

/* The top of a fixed memory scale (--y-max) in the ticks' unit: "64 MiB". */
void chart_format_scale_top(double bytes, unsigned unit, char *out, size_t size);


/* Band colours (chart_band_color, chart_other_color) and the picture's ink: colors.h. */


#endif
