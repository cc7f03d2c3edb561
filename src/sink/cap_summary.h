/* cap_summary.h: each capability's shares of the run in --summary (see cap_summary.c). */
#ifndef EV2HP_CAP_SUMMARY_H
#define EV2HP_CAP_SUMMARY_H

#include <stdio.h>

struct json_writer;   /* base/json.h */
struct run_model;     /* model/runmodel.h */

/* The "capabilities" line; nothing without scheduler events. */
void cap_summary_text(FILE *out, const struct run_model *run);
/* The member "capabilities", beginning a line, into w's open object: an array (each
 * cap, running, gc, idle as fractions of the run), or null without scheduler events. */
void cap_summary_json(struct json_writer *w, const struct run_model *run);
/* The member "cap_timeline", beginning a line, for the report's strip per capability
 * (share/report/caps.js): the slots' width and the run's end in seconds, the strips'
 * inks, and per capability shown (model/capstats.h's cap_stats_strips) its time
 * running and collecting in each slot, in seconds; null when there is no strip. */
void cap_summary_timeline_json(struct json_writer *w, const struct run_model *run);
/* The same line in Markdown; nothing without scheduler events. */
void cap_summary_markdown(FILE *out, const struct run_model *run);

#endif
