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
 * A differential set (--compare) is drawn sized by this run, each frame coloured by its
 * relative change from the base (flame_change_ratio): by its own samples (or bytes), as
 * pprof's -diff_base compares, or with --diff-normalize by its share of each run's
 * total, as flamegraph's difffolded.pl -n does. Red where it grew, blue where it shrank,
 * deeper with the logarithm of the ratio: a frame that held within a few percent is
 * near the neutral grey, one that doubled (or halved) or more is full colour, whatever
 * the other frames did; a key under the graph says which measure and what full colour
 * means. The tooltip gives both runs' values and the change. A frame only the base has
 * is not drawn (it has no width in this run); the note says so. Labels are in the
 * colour chart_text_on picks for their fill (WCAG AA contrast, 4.5:1).
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

/* Full colour in a differential graph: a change of this many doublings (log2 of the
 * ratio) or more. */
#define FLAME_FULL_CHANGE 1.0

/* A frame's change from the base as a ratio (1: none): now / base, or normalize (and
 * both totals not 0) the ratio of its shares of each run's total, now / now_total over
 * base / base_total. INFINITY for a frame new in this run (base 0, now not). */
double flame_change_ratio(uint64_t now, uint64_t base, uint64_t now_total,
                          uint64_t base_total, bool normalize);

/* A differential frame's fill for its change ratio: the neutral light grey at 1 (or
 * NAN), towards red above 1 and blue below, by |log2 ratio| / FLAME_FULL_CHANGE (full
 * colour at and past it). */
struct dl_color flame_change_color(double ratio);

#endif
