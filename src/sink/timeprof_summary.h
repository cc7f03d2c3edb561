/* timeprof_summary.h: the time profile's part of --summary (see timeprof_summary.c). */
#ifndef EV2HP_TIMEPROF_SUMMARY_H
#define EV2HP_TIMEPROF_SUMMARY_H

#include <stdio.h>

#include <stdbool.h>

struct timeprof;   /* census/timeprof.h */

/* Text lines after the heap summary, of tp (NULL or empty: nothing), the runtime's own
 * cost centres kept when system_ccs. 0, or -1 when out of memory. */
int timeprof_summary_text(FILE *out, const struct timeprof *tp, bool system_ccs);

/* `,\n "time_profile": {...}` (or null) inside the summary's JSON object. */
int timeprof_summary_json(FILE *out, const struct timeprof *tp, bool system_ccs);

#endif
