/* summary_parts.h: the parts of the summaries that are written from the run model alone,
 * each in text, JSON and Markdown: the collector, the ticky counters, how the run ended
 * and the capabilities' shares.
 *
 * One interface, struct summary_part, and a module a part (gc_summary.c,
 * ticky_summary.c, end_summary.c, cap_summary.c) that defines its own (no .c here, as
 * sinks.h). The text and JSON summaries (sink_summary.c) and the Markdown summary
 * (summary_markdown.c) write each part where it belongs in their document; the report's
 * data (sink_html.c) carries their JSON. What a part gives beyond the three is declared
 * after it.
 */
#ifndef EV2HP_SUMMARY_PARTS_H
#define EV2HP_SUMMARY_PARTS_H

#include <stdbool.h>
#include <stdio.h>

struct json_writer;   /* base/json.h */
struct run_model;     /* model/runmodel.h */

struct summary_part {
    /* Its lines of the text summary. */
    void (*text)(FILE *out, const struct run_model *run);
    /* Its member, beginning a line, into w's open object. */
    void (*json)(struct json_writer *w, const struct run_model *run);
    /* Its "####" section of the Markdown summary. */
    void (*markdown)(FILE *out, const struct run_model *run);
};

/* The collector (model/gcstats.h): text lines shaped like `+RTS -s`'s report; "gc", an
 * object; a "#### Collector" section, a table like `-s`'s. Nothing (null) when the run
 * model has no collection. */
extern const struct summary_part gc_summary_part;

/* The ticky counters (model/ticky.h): a "ticky counters" block of the most allocating
 * counters; "ticky", an object with every counter; a "#### Ticky counters" table of the
 * most allocating. Nothing (null) when the input had no ticky event. */
extern const struct summary_part ticky_summary_part;
/* For -o x.csv of a run with ticky counters and no heap census: the counters as CSV
 * (name, arity, kinds, entries, allocs, allocd, alloc_share, info, info_table), most
 * allocating first, RFC 4180 quoting, CRLF line ends. false (nothing written) when the
 * run has no ticky event. */
bool ticky_summary_csv(FILE *out, const struct run_model *run);

/* What led up to the end of a cut-short run (model/runend.h): the "end" paragraph, or a
 * "#### How the run ended" section with the same paragraph, nothing for a run that ended
 * with its end-of-data marker or an input that has none (a .hp); "end", an object
 * (complete, last_event_s, last_census_s, growth_bytes_per_s, gc_share_last_second,
 * last_markers, ...), or null for an input that has no end-of-data marker to see. */
extern const struct summary_part end_summary_part;

/* Each capability's shares of the run (model/capstats.h): the "capabilities" line, the
 * same line in Markdown; "capabilities", an array (each cap, running, gc, idle as
 * fractions of the run). Nothing (null) without scheduler events. */
extern const struct summary_part cap_summary_part;
/* The member "cap_timeline", beginning a line, for the report's strip per capability
 * (share/report/caps.js): the slots' width and the run's end in seconds, the strips'
 * inks, and per capability shown (model/capstats.h's cap_stats_strips) its time
 * running and collecting in each slot, in seconds; null when there is no strip. */
void cap_summary_timeline_json(struct json_writer *w, const struct run_model *run);
/* The member "nonmoving_timeline", beginning a line, for the report's strip of the
 * nonmoving collector under them (caps.js): the slots' width and the run's end in
 * seconds, the strip's inks, its phases' totals (sync_total_s, mark_total_s,
 * sweep_total_s: the synchronisations, the marking outside them, the sweeps) and their
 * time in each slot (sync_s, mark_s, sweep_s); no member at all (not even null) for a
 * run without the nonmoving collector's phases, whose report stays as it was. */
void cap_summary_nonmoving_json(struct json_writer *w, const struct run_model *run);

#endif
