/* view_diff.h: --view diff, the change between two runs band by band.
 *
 * With --compare BASE, each band both runs show (paired by the one matching rule,
 * model/bandmatch.h; a band of one run only is compared with nothing, 0) becomes one line:
 * this run's bytes minus the base's, over the span where both runs have censuses, aligned
 * by time or by progress (model/diffseries.h: the rule, the default, and why a run that
 * has ended is never read as 0); the subtitle says which and why, and by time where the
 * lines stop. Bands whose peak grew are drawn in warm hues, those whose peak shrank in
 * cool ones; a zero line; the legend gives each band's change at the peak (its peak in
 * this run minus its peak in the base), largest growth first. A band that never changed
 * is listed but not drawn (it lies on the zero line). OTHER is not drawn (it folds
 * different bands in each run). Laid out by compare.c, which has both runs' views.
 */
#ifndef EV2HP_VIEW_DIFF_H
#define EV2HP_VIEW_DIFF_H

#include "chart/display.h"
#include "chart/kit.h"
#include "chart/textmeasure.h"
#include "model/bands.h"
#include "model/profile.h"

/* One run as the diff view reads it. */
struct diff_run {
    const struct profile_view *view;
    const struct bands *bands;
    const struct run_info *info;
    const char *name;              /* for the subtitle */
};

/* The display list of now minus base (dl initialised here). 0, or -1 when out of
 * memory (dl freed). */
int diff_layout(const struct diff_run *base, const struct diff_run *now,
                const struct chart_options *opt, struct textmeasure *tm,
                struct display_list *dl);

#endif
