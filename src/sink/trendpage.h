/* trendpage.h: the heap across commits (--trend -o x.html) as one HTML page.
 *
 * The page needs nothing else and runs no script: the trend chart's SVG (the same
 * display list the .svg output writes, so its tooltips work in the browser), then a
 * table of the commits in order (the commit's short sha and time, its subject, the
 * summary file, the peak, the growth, the gates), a failed gate's row in the alert
 * colour, and the summaries that were skipped and why. Every text from the summaries is
 * escaped (textout_html).
 */
#ifndef EV2HP_TRENDPAGE_H
#define EV2HP_TRENDPAGE_H

#include <stdio.h>

#include "base/error.h"
#include "chart/display.h"
#include "model/trend.h"

/* A summary left out of the trend, and why. */
struct trend_skip {
    const char *file;
    struct ev_error why;
};

/* Writes the page: 0, or -1 with errno set (a failed write, out of memory). */
int trendpage_write(FILE *out, const char *title, const struct trend *t,
                    const struct display_list *chart, const struct trend_skip *skipped,
                    size_t skipped_count);

#endif
