/* gc_summary.h: the collector's part of --summary (see gc_summary.c). */
#ifndef EV2HP_GC_SUMMARY_H
#define EV2HP_GC_SUMMARY_H

#include <stdio.h>

struct json_writer;   /* base/json.h */
struct run_model;     /* model/runmodel.h */

/* The text lines, shaped like `+RTS -s`'s report; nothing when the run model has no
 * collection (model/gcstats.h). */
void gc_summary_text(FILE *out, const struct run_model *run);

/* The member "gc", beginning a line, into w's open object: an object, or null when
 * the input had no collection. */
void gc_summary_json(struct json_writer *w, const struct run_model *run);

/* A "#### Collector" section: a table like `-s`'s; nothing without a collection. */
void gc_summary_markdown(FILE *out, const struct run_model *run);

#endif
