/* trendrun.h: one run of `ev2hp --trend FILE...`, from summaries to pictures, without
 * printing.
 *
 * Reads each FILE (a run's --summary=json, in commit order) into a trend
 * (read/summaryread.h), leaving out those without a heap census and saying which,
 * lays the trend out once (chart/trendchart.h) and writes it to every output: SVG, PNG,
 * PDF, PostScript and EPS through the chart back-ends, HTML as a page of its own
 * (sink/trendpage.h). Outputs appear whole or not at all (sink/outfile.h). main prints
 * what the result says.
 */
#ifndef EV2HP_TRENDRUN_H
#define EV2HP_TRENDRUN_H

#include <stddef.h>

#include "base/error.h"
#include "chart/kit.h"
#include "convert.h"
#include "sink/trendpage.h"

struct trendrun_options {
    const char *const *files;      /* the summaries, in commit order */
    size_t file_count;             /* two or more (the command line checks) */
    const struct output_request *outputs;
    size_t output_count;
    const struct chart_options *chart;   /* --width, --height, --title, dates */
    size_t bands;                  /* the largest bands drawn (SIZE_MAX: all) */
    double png_scale;              /* --scale; 0 = 1 */
};

struct trendrun_result {
    int exit_status;               /* convert.h's statuses */
    const char *error_file;        /* what error is about */
    struct ev_error error;
    struct trend_skip *skipped;    /* the summaries left out (no heap census), and why */
    size_t skipped_count;
};

void trendrun(const struct trendrun_options *opt, struct trendrun_result *result);
void trendrun_result_free(struct trendrun_result *result);

/* Whether --trend writes format (the pictures and the page). */
bool trendrun_writes(enum output_format format);

#endif
