/* flame.h: flame graphs and icicle graphs of weighted stacks, as a display list.
 *
 * What is drawn is a set of stacks (model/stacks.h): a time profile's samples, or a heap
 * census's bytes (sink/runstacks.h decides). One rectangle per calling context (the
 * stacks' tree): its width is the share of the whole that passes through it
 * (inclusive), its row its depth; the root, "all", spans the width. A flame graph grows
 * up from the root at the bottom, an icicle graph down from the root at the top.
 * Siblings are in alphabetical order of their frame name, as flamegraph.pl draws them,
 * so the picture does not depend on the order of the input. A frame's colour comes from a
 * hash of its module (chart_band_color), so one module keeps one colour in every graph;
 * its label (elided at the end on a character boundary to fit, left out when not even
 * one character fits) and its tooltip (the whole name, module, source location, value
 * and percentages) are part of the list, so the SVG and PNG back-ends draw the same
 * picture. Frames narrower than a third of a unit and rows below the plot's height are
 * not drawn, and a note at the bottom says how many.
 *
 * A differential set (--compare) is drawn sized by this run, each frame coloured by how
 * its inclusive value changed from the base: red where it grew, blue where it shrank,
 * the deeper the larger the change against the largest change of any frame, a light
 * grey where it did not change; the tooltip gives both runs' values and the change. A
 * frame only the base has is not drawn (it has no width in this run); the note says how
 * much of the base that is.
 */
#ifndef EV2HP_FLAME_H
#define EV2HP_FLAME_H

#include <stdbool.h>

#include "chart/chart.h"
#include "chart/display.h"
#include "chart/textmeasure.h"
#include "model/frame.h"
#include "model/stacks.h"

/* What to draw and how to say it. */
struct flame_input {
    const struct stacks *stacks;
    bool bytes;                     /* values are bytes (a heap census), else samples */
    const char *what;               /* the subtitle after "flame graph of ": "the time
                                     * profile · 1234 samples ..." */
};

/* Lays out the graph into dl (initialised here): icicle for root at the top. info and
 * input_name give the title. 0, or -1 when out of memory (dl freed). */
int flame_layout(const struct flame_input *in, bool icicle, const struct run_info *info,
                 const char *input_name, const struct chart_options *opt,
                 struct textmeasure *tm, struct display_list *dl);

/* A frame's fill: its module's colour (chart_band_color), lightened by a hash of its
 * name after the module. The HTML report colours its flame graph with it too. */
struct dl_color flame_frame_color(const struct stacks *s, uint32_t frame);

/* A differential frame's fill: red for growth, blue for shrinkage, by change / most
 * (the largest change of any frame, in magnitude); light grey for none. */
struct dl_color flame_change_color(int64_t change, uint64_t most);

#endif
