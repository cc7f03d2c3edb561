/* compare.h: --compare BASE in the chart layer: two runs in one picture.
 *
 * BASE is read by the input layer (census/base_input.h) into a run model of its own
 * (model/runmodel.h); the change of peak and the bands that grew most belong to the
 * summary (facts/growth.h). What is left here is the picture: the views of both runs that
 * show the same bands (the union of those either would show alone), and the layout of
 * one chart, or of the base above this run on shared scales (chart_layout_compare).
 */
#ifndef EV2HP_COMPARE_H
#define EV2HP_COMPARE_H

#include "chart/chart.h"
#include "model/profile.h"

/* One run as a chart draws it. */
struct compare_run {
    const struct profile *profile;
    const struct bands *bands;     /* names the profile's bands */
    const struct run_info *info;
    const char *name;              /* for titles */
};

/* The display list of now as one chart, or with base (non-NULL) the base above and now
 * below, showing the union of the bands either chart would show alone, a base band
 * paired with one of now drawn under now's label (one legend entry, one colour) (--view
 * diff: one chart of now minus base, view_diff.h). 0, or -1 when out of memory. */
int compare_layout(const struct compare_run *base, const struct compare_run *now,
                   const struct chart_options *opt, struct textmeasure *tm,
                   struct display_list *dl);

/* The views of base and now that show the union of the bands either would show alone
 * (paired by the one matching rule, model/bandmatch.h: each run shows the bands it would
 * show alone and their partners in the other run), as compare_layout draws them (the
 * HTML report draws them in the browser). 0, or -1 when out of memory (neither set). */
int compare_union_views(const struct compare_run *base, const struct compare_run *now,
                        struct profile_view *base_view, struct profile_view *now_view);

#endif
