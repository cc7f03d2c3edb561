/* compare.h: --compare BASE: an earlier run read first, then set against this one.
 *
 * BASE (an eventlog or a .hp) is read whole before INPUT, through the same input path
 * (input.h), into what the outputs will need of it, in bounded memory: a profile like a
 * chart's (when a chart is written), a profile of every band (when a summary is), and the
 * exact peak. Sinks find it in sink_context.base. Chart sinks draw through compare_layout,
 * which gives one chart, or with a base two charts on shared scales; the summary adds the
 * change of peak and the bands that grew most (compare_grew).
 */
#ifndef EV2HP_COMPARE_H
#define EV2HP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chart/chart.h"
#include "read/input.h"
#include "census/peak.h"
#include "chart/profile.h"
#include "sink/sink.h"

struct compare_base {
    const char *name;              /* for titles and messages */
    const struct run_info *info;   /* valid until compare_base_free */
    const struct bands *bands;
    struct profile *chart;         /* fed like a chart sink's profile; NULL: no chart */
    struct profile *every;         /* every band, for the summary; NULL: no summary */
    struct peak peak;
    struct input *input;           /* kept open: info and bands live in it */
};

/* What to keep of the base. */
struct compare_needs {
    const struct chart_options *chart;   /* a chart is written: its options; else NULL */
    bool summary;
};

/* Reads all of BASE (path; NULL or "-" is standard input) into b. INPUT_OK (damaged or not:
 * see out), or INPUT_BAD with err set. b is to be freed with compare_base_free in any case. */
enum input_status compare_base_read(struct compare_base *b, const struct input_options *opt,
                                    const struct compare_needs *needs,
                                    struct input_outcome *out, struct ev_error *err);
void compare_base_free(struct compare_base *b);

/* The display list a chart sink draws: its profile p (labels from ctx->bands) as one
 * chart, or with ctx->base the base above and p below, showing the union of the bands
 * either chart would show alone. 0, or -1 when out of memory. */
int compare_layout(const struct sink_context *ctx, const struct profile *p,
                   const struct chart_options *opt, struct textmeasure *tm,
                   struct display_list *dl);

/* The views of the base (b->chart) and of this run (p, labels from bands) that show the
 * union of the bands either would show alone, as compare_layout draws them (the HTML
 * report draws them in the browser). 0, or -1 when out of memory (neither view set). */
int compare_union_views(const struct compare_base *b, const struct profile *p,
                        const struct bands *bands, struct profile_view *base_view,
                        struct profile_view *now_view);

/* A band whose peak grew from the base to this run. */
struct compare_growth {
    const char *label;             /* as in now's view (owned by it) */
    uint64_t base, now;            /* peaks in bytes; base 0 when new */
};

/* The bands of now (a view of every band) whose peak grew most over the base's, largest
 * growth first, at most max of them: their number, or -1 when out of memory. */
long compare_grew(const struct compare_base *b, const struct profile_view *now,
                  struct compare_growth *out, size_t max);

#endif
