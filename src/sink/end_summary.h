/* end_summary.h: what led up to the end of a cut-short run, in --summary and the report
 * (see end_summary.c). */
#ifndef EV2HP_END_SUMMARY_H
#define EV2HP_END_SUMMARY_H

#include <stdio.h>

struct json_writer;   /* base/json.h */
struct run_model;     /* model/runmodel.h */

/* The "end" paragraph of the text summary; nothing for a run that ended with its
 * end-of-data marker, or an input that has none (a .hp). */
void end_summary_text(FILE *out, const struct run_model *run);

/* The member "end", beginning a line, into w's open object: an object (complete,
 * last_event_s, last_census_s, growth_bytes_per_s, gc_share_last_second, last_markers,
 * ...), or null for an input that has no end-of-data marker to see. */
void end_summary_json(struct json_writer *w, const struct run_model *run);

/* A "#### How the run ended" section with the same paragraph; nothing when complete. */
void end_summary_markdown(FILE *out, const struct run_model *run);

#endif
