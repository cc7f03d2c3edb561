/* timeprof_summary.h: the time profile's part of --summary (see timeprof_summary.c). */
#ifndef EV2HP_TIMEPROF_SUMMARY_H
#define EV2HP_TIMEPROF_SUMMARY_H

#include <stdio.h>

#include <stdbool.h>

struct json_writer;   /* base/json.h */
struct timeprof;      /* census/timeprof.h */

/* Text lines after the heap summary, of tp (NULL or empty: nothing), the runtime's own
 * cost centres kept when system_ccs. 0, or -1 when out of memory. */
int timeprof_summary_text(FILE *out, const struct timeprof *tp, bool system_ccs);

/* The member "time_profile" (an object, or null without a time profile), on a line of
 * its own, into w's open object: the summary's JSON. 0, or -1 when out of memory (then
 * nothing is written). */
int timeprof_summary_json(struct json_writer *w, const struct timeprof *tp, bool system_ccs);

#endif
