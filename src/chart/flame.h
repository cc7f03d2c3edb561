/* flame.h: the flame graph (and icicle graph) of a time profile, as a display list.
 *
 * One rectangle per calling context (timeprof_tree): its width is the share of samples
 * whose stack passes through it (inclusive), its row its depth; the root, "all", spans
 * the width. A flame graph grows up from the root at the bottom, an icicle graph down
 * from the root at the top. Siblings are in alphabetical order of their frame name, as
 * flamegraph.pl draws them, so the picture does not depend on sample order. A frame's
 * colour comes from a hash of its module (chart_band_color), so one module keeps one
 * colour in every graph; its label ("Module.label", elided at the end on a character
 * boundary to fit, left out when not even one character fits) and its tooltip (the whole
 * name, module, source location, samples and percentages) are part of the list, so the
 * SVG and PNG back-ends draw the same picture. Frames narrower than a third of a unit and
 * rows below the plot's height are not drawn, and a note at the bottom says how many.
 */
#ifndef EV2HP_FLAME_H
#define EV2HP_FLAME_H

#include <stdbool.h>

#include "model/frame.h"
#include "census/timeprof.h"
#include "chart/chart.h"
#include "chart/display.h"
#include "chart/textmeasure.h"

/* Lays out tp's graph into dl (initialised here): icicle for root at the top, system to
 * keep the runtime's own cost centres. info and input_name give the title. 0, or -1
 * when out of memory (dl freed). */
int flame_layout(const struct timeprof *tp, bool system, bool icicle,
                 const struct run_info *info, const char *input_name,
                 const struct chart_options *opt, struct textmeasure *tm,
                 struct display_list *dl);

/* A frame's fill: its module's colour (chart_band_color), lightened by a hash of its
 * label. The HTML report colours its flame graph with it too. */
struct dl_color flame_frame_color(const struct timeprof_cc *cc);

#endif
