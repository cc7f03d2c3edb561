/* snapshot.h: the state of a live run at one moment, apart from the run going on.
 *
 * The live server draws charts, the report and the summary while the main thread goes on
 * reading. A snapshot is a deep copy of what those outputs read (the run model, the band
 * table, the cost centres that name its stacks, the time profile, the run's facts and
 * warnings), so that each is what the matching -o output would draw had the input
 * ended there; taken under the live lock in time proportional
 * to what the model keeps (bounded: never to the length of the run); drawing from it then
 * needs no lock, so ingestion never waits on a drawing or a client. A snapshot is shared
 * by every request made while it is current (reference counted by live.c).
 *
 * The info tables are the exception: a -hi run's IPE table is as large as its bands, so
 * the report's snapshot (the one output that reads them: its grouping control) is given a
 * view of it (ipe_names_view: a pointer per band to the table's records, which the reader
 * adds to but never changes), not a copy.
 */
#ifndef EV2HP_SNAPSHOT_H
#define EV2HP_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "model/frame.h"
#include "model/runmodel.h"
#include "sink/formats.h"

struct costcentres;   /* census/costcentres.h */
struct ipe_names;     /* census/ipe.h */
struct timeprof;      /* census/timeprof.h */

struct snapshot {
    struct run_model model;        /* a finished copy */
    struct bands *bands;           /* a copy: the model's band numbers */
    struct costcentres *ccs;       /* a copy, or NULL (a .hp input) */
    struct ipe_names *ipe;         /* a view of the info tables, by bands, or NULL */
    struct timeprof *timeprof;     /* a copy over ccs, or NULL (none read) */
    struct run_info info;          /* a copy; its strings owned */
    struct ev_error *warnings;     /* a copy of the run's warnings so far */
    size_t warning_count;
    const char *input_name;        /* borrowed: alive as long as the run */
    uint64_t censuses;             /* censuses read when it was taken */
    bool ended;                    /* the input had ended */
};

/* Copies the state at one resolution (columns, run_model_copy), for a summary or not
 * (summary: a chart's or the report's copy has no band shapes); the caller holds the live
 * lock. Then snapshot_finish, without the lock. 0, or -1 with err set (out of memory); s
 * is to be freed with snapshot_free in any case. */
struct snapshot_source {
    const struct run_model *model;
    const struct bands *bands;
    const struct costcentres *ccs;     /* or NULL */
    const struct ipe_names *ipe;       /* or NULL: viewed, not copied (above) */
    const struct timeprof *timeprof;   /* or NULL */
    const struct run_info *info;
    const struct ev_error *warnings;
    size_t warning_count;
    const char *input_name;
};

int snapshot_take(struct snapshot *s, const struct snapshot_source *src, unsigned columns,
                  bool summary, struct ev_error *err);
int snapshot_finish(struct snapshot *s, struct ev_error *err);
void snapshot_free(struct snapshot *s);

/* Writes what `-o` of format would hold for the input read up to the snapshot: a chart,
 * the report or the summary, drawn by the format's own sink. 0, or -1 with err set. */
int snapshot_write(const struct snapshot *s, enum output_format format,
                   const struct sink_settings *settings, FILE *out, struct ev_error *err);

#endif
