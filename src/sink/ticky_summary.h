/* ticky_summary.h: the ticky counters' part of --summary (see ticky_summary.c). */
#ifndef EV2HP_TICKY_SUMMARY_H
#define EV2HP_TICKY_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

struct json_writer;   /* base/json.h */
struct run_model;     /* model/runmodel.h */

/* A "ticky counters" block: the most allocating counters; nothing without ticky events. */
void ticky_summary_text(FILE *out, const struct run_model *run);

/* The member "ticky", beginning a line, into w's open object: an object with every
 * counter, or null when the input had no ticky event. */
void ticky_summary_json(struct json_writer *w, const struct run_model *run);

/* For -o x.csv of a run with ticky counters and no heap census: the counters as CSV
 * (name, arity, kinds, entries, allocs, allocd, alloc_share, info, info_table), most
 * allocating first, RFC 4180 quoting, CRLF line ends. false (nothing written) when the
 * run has no ticky event. */
bool ticky_summary_csv(FILE *out, const struct run_model *run);

/* A "#### Ticky counters" table of the most allocating counters; nothing without ticky. */
void ticky_summary_markdown(FILE *out, const struct run_model *run);

#endif
