/* timeprof_summary.h: the time profile's part of --summary (see timeprof_summary.c). */
#ifndef EV2HP_TIMEPROF_SUMMARY_H
#define EV2HP_TIMEPROF_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sink/runstacks.h"
#include "sink/sink.h"

struct json_writer;   /* base/json.h */
struct timeprof;      /* census/timeprof.h */

/* Text lines after the heap summary, of tp (NULL or empty: nothing), the runtime's own
 * cost centres kept when system_ccs. 0, or -1 when out of memory. */
int timeprof_summary_text(FILE *out, const struct timeprof *tp, bool system_ccs);

/* The member "time_profile" (an object, or null without a time profile), on a line of
 * its own, into w's open object: the summary's JSON. 0, or -1 when out of memory (then
 * nothing is written). */
int timeprof_summary_json(struct json_writer *w, const struct timeprof *tp, bool system_ccs);

/* --compare of two time profiles: each cost centre's samples in both runs, as each run's
 * own folded output counts them (the stacks it ends: its individual samples), the same
 * stacks the differential flame graph draws (runstacks.h). */
struct cc_change {
    const char *name;               /* the frame's name, Module.label (ccframe) */
    size_t len;
    const char *src;                /* its source location; "" when unknown */
    uint64_t base, now;             /* samples */
    double change;                  /* what it is ranked by: now - base in samples, or
                                     * by share, the change of its share of its run */
};

struct timeprof_change {
    uint64_t base_total, now_total; /* every kept sample of each run */
    bool by_share;                  /* ranked by the change of share (--diff-normalize),
                                     * not of samples */
    /* Every cost centre of either run, the largest growth first, the largest shrinkage
     * last (ties by name). */
    struct cc_change *ccs;
    size_t count;
    size_t grew_count;              /* ccs[0 .. grew_count-1] grew most */
    size_t shrank_count;            /* the last shrank_count shrank most */
    struct runstacks rs;            /* owns the names */
};

#define TIMEPROF_CHANGED_MOST 10    /* cost centres listed as grown most, and shrunk most */

/* The change of ctx's time profile from its base's (system_ccs: keep the runtime's own
 * cost centres, as the folded output does): 0 with c filled; 1 when there is none to
 * compare (no base, either run without a time profile, or --at, which shows heap
 * censuses), c zeroed; -1 out of memory. Free with timeprof_change_free. */
int timeprof_change_of(const struct sink_context *ctx, bool system_ccs, bool by_share,
                       struct timeprof_change *c);
void timeprof_change_free(struct timeprof_change *c);

/* The i-th cost centre that shrank most (i < c->shrank_count), the largest first. */
const struct cc_change *timeprof_shrank(const struct timeprof_change *c, size_t i);

/* A run's share of its total (0 when it has none). */
double timeprof_share(uint64_t part, uint64_t total);

/* The text summary's lines of the change (after "compare    with BASE"). */
void timeprof_change_text(FILE *out, const struct timeprof_change *c);

/* The compare object's members of the change, into w's open object: "base_samples",
 * "samples", "cost_centres_by" and "cost_centres" (every cost centre, in c's order),
 * each null when c is NULL (nothing to compare). */
void timeprof_change_json(struct json_writer *w, const struct timeprof_change *c);

#endif
