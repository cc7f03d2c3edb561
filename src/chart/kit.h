/* kit.h: what every chart view is drawn with: the options, the plot, scales, the title
 * block and the time axis.
 *
 * The chart (chart.c) and each view (views.h) draw into the same frame: a title block, a
 * plot between a time axis and a y axis, the band colours. This module is that frame's
 * kit, below both of them, so that views and the chart never include each other: the
 * chart fills a struct chart_plot and hands it to the view's operations (views.h), and a
 * view that lays out a whole picture (detail) builds its own plot and draws its title and
 * axis with the same functions the chart uses.
 */
#ifndef EV2HP_KIT_H
#define EV2HP_KIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/diffseries.h"
#include "model/frame.h"
#include "model/profile.h"
#include "chart/display.h"
#include "chart/textmeasure.h"

/* Sizes in user units shared by the chart and the views. */
#define KIT_MARGIN 16.0
#define KIT_TITLE_SIZE 18.0
#define KIT_SUBTITLE_SIZE 12.0
#define KIT_TICK_SIZE 11.0
#define KIT_LABEL_MAX 1024

/* --view. The names, and what each view does, are views.h's table. */
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
    CHART_VIEW_DIFF,                /* --compare: this run minus the base (view_diff.h) */
    CHART_VIEW_COUNT
};

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
    enum diff_align align;          /* --align: how the diff view aligns the runs
                                     * (default: by the rule of diffseries.h) */
    bool diff_normalize;            /* --diff-normalize: a differential flame graph
                                     * colours a frame by the change of its share of
                                     * each run's total, not of its own value */
    bool has_at;                    /* --at: one census shown (a heap census as a flame
                                     * graph, folded stacks): the last at or before */
    double at_seconds;              /* this time; without --at, the peak's census */
    /* The creation date PDF and PostScript carry: SOURCE_DATE_EPOCH (Unix seconds), for
     * reproducible builds. Without it they carry none (never the clock's). */
    bool has_date;
    int64_t date;
    /* Set by the chart's sink, not the command line: the bands are grouped by default
     * (census/autogroup.h), said first in the subtitle with the flag that undoes it. */
    const char *grouped_note;
    /* Set by the chart's sink, not the command line: the leak suspects of a view
     * (facts/suspects.h's suspects_of, above the chart: handed down as a function), which
     * the detail view marks. NULL: none is marked. */
    size_t (*suspects)(const struct profile_view *v, size_t *out, size_t max);
};

/* The defaults of ev2hp(1). */
void chart_options_default(struct chart_options *opt);

/* The profile options a chart of opt is fed with (its resolution follows its width). */
void chart_profile_options(const struct chart_options *opt, struct profile_options *out);

/* A plot being drawn: what the chart hands a view. Coordinates in user units. */
struct chart_plot {
    struct display_list *dl;
    struct textmeasure *tm;
    const struct profile_view *v;
    const struct chart_options *opt;
    const struct dl_color *colors;     /* per shown band of v */
    double left, right, top, bottom;   /* the plot area */
    double x0, x1;                     /* seconds at left and right */
    double ymax;                       /* the top of the y scale, in the view's unit */
    const struct run_info *info;       /* the run drawn (may be NULL) */
    double below;                      /* what the view draws under the plot (views.h's
                                        * below): the time axis is under it */
    bool failed;                       /* out of memory somewhere: the layout fails */
};

/* x of a time; the kept points that survive reduction to one pixel column (per column
 * the points with the largest and smallest total, in time order): their count. */
double chart_plot_x(const struct chart_plot *P, uint64_t ns);
size_t chart_plot_reduce(const struct chart_plot *P, size_t *keep);

/* Drawing into P: an item that could not be added (out of memory) fails the plot; a
 * title (tooltip), when given, is set on the item. */
void chart_kit_check(struct chart_plot *P, struct dl_item *item, const char *title);
void chart_kit_text(struct chart_plot *P, double x, double y, const char *s, double size,
                    struct dl_color color, enum dl_anchor anchor, bool bold, const char *role,
                    const char *tooltip);
void chart_kit_line(struct chart_plot *P, double x1, double y1, double x2, double y2,
                    struct dl_color color, double width, bool dashed, const char *role);

/* The colours of the shown bands of n views drawn together (both panels of a
 * comparison), colors[k][i] for band i of views[k]: chart_band_colors over all of them,
 * a band told apart by names[k][i] (its legend entry: one name in two panels is one band)
 * or, when names is NULL, by its label; OTHER grey. 0, or -1 when out of memory. */
int chart_kit_colors_of(const struct profile_view *const *views, char **const *names,
                        size_t n, struct dl_color *const *colors);
/* The colours of v's shown bands (colors: band_count): chart_kit_colors_of of v alone. */
int chart_kit_colors(const struct profile_view *v, struct dl_color *colors);

/* The title of a run: --title (when given for it), the JOB line, or the file name. */
const char *chart_kit_run_title(const char *given, const struct run_info *info,
                                const char *input_name);
/* Draws the title (prefixed, e.g. "base: "; none when title is NULL: --title '') and the
 * subtitle from y0 (first in it, the count of markers left unlabelled when not 0);
 * returns the subtitle's baseline. */
double chart_kit_title(struct chart_plot *P, const struct run_info *info, const char *title,
                       const char *prefix, size_t unlabelled, double y0);

/* Whether --from / --to hold none of the run's censuses although it has some. */
bool chart_kit_window_misses(const struct profile_view *v);
/* The time range of P's view (x0, x1 of P): the window, or the run to its end (the
 * latest heap total's too when with_totals). */
void chart_kit_time_range(struct chart_plot *P, const struct run_info *info,
                          bool with_totals);
/* The time axis under P's plot: ticks, their labels, the grid when grid, and the axis
 * name when named. */
void chart_kit_x_axis(struct chart_plot *P, bool grid, bool named);

/* --- numbers, exposed for tests --------------------------------------------------- */

/* A round step (1, 2 or 5 x 10^k) cutting [0, range] into at most max_ticks steps. */
double chart_nice_step(double range, unsigned max_ticks);

/* Memory ticks: the binary unit (0 B, 1 KiB, 2 MiB, 3 GiB, 4 TiB) and a round step in
 * bytes (1, 2 or 5 x 10^k units) for [0, max_bytes] in at most max_ticks steps. */
double chart_bytes_step(double max_bytes, unsigned max_ticks, unsigned *unit);

/* "512 MiB", "1.5 GiB": value in unit with the decimals step needs (tick labels). */
void chart_format_tick(double bytes, unsigned unit, double step, char *out, size_t size);

/* The top of a fixed memory scale (--y-max) in the ticks' unit: "64 MiB". */
void chart_format_scale_top(double bytes, unsigned unit, char *out, size_t size);

#endif
