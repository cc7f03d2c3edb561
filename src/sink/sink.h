/* sink.h: output formats behind one small ops table, and what every sink shares.
 *
 * A sink receives what the census assembler (or the .hp reader) reports, in order:
 * censuses, markers and heap totals as they happen, then finish at the end of input. It
 * writes to a FILE it does not own (outfile.c opens and commits it). Every op returns 0,
 * or -1 when writing failed (errno tells why). This is the base the sinks build on
 * (sink_alloc, sink_writer_alloc for those that only write at finish, sink_free, ...);
 * it knows none of them. Each format's constructor is in
 * sinks.h, and formats.h is the one place formats are chosen.
 */
#ifndef EV2HP_SINK_H
#define EV2HP_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "model/frame.h"

enum output_format {
    FORMAT_NONE = 0, FORMAT_HP, FORMAT_CSV, FORMAT_JSON, FORMAT_SVG,
    FORMAT_SUMMARY_TEXT, FORMAT_SUMMARY_JSON,   /* --summary, --summary=json */
    FORMAT_PNG,
    FORMAT_PDF, FORMAT_PS, FORMAT_EPS,          /* cairo's vector documents (vector.h) */
    FORMAT_FOLDED,                              /* time profile: folded stacks */
    FORMAT_HTML,                                /* the interactive report */
    FORMAT_SUMMARY_MARKDOWN,                    /* --summary=markdown */
    FORMAT_JUNIT,                               /* --junit: the gates as JUnit XML */
    FORMAT_PPROF,                               /* pprof's profile.proto, gzipped */
    FORMAT_SUMMARY_BENCHMARK,                   /* --summary=benchmark */
};

struct run_model;       /* runmodel.h */
struct gate_report;     /* gates.h */
struct autogroup;       /* census/autogroup.h */

/* What every sink may read; owned by the producer and alive until finish returns. Knobs
 * of one format are not here: each sink gets its own settings at construction. */
struct phase_report;   /* facts/phases.h */

struct sink_context {
    const struct run_info *info;
    const struct bands *bands;
    const char *input_name;     /* for titles and metadata */
    bool live;                  /* the output is a pipe or terminal: flush each census */
    /* The run's warnings (damage and anomalies), complete by the time finish is called. */
    const struct ev_error *warnings;
    const size_t *warning_count;
    /* The run read once (runmodel.h), complete when finish is called: charts, the report
     * and the summary draw from it at finish; streaming formats ignore it. */
    const struct run_model *run;
    /* --compare: the base run, read whole before this one; NULL without. Charts draw it
     * above this run, the summary reports the change; .hp, CSV and JSON ignore it. */
    const struct run_model *base;
    /* An eventlog's cost centres, complete by the time finish is called (JSON lists each
     * -hc band's stack by them); NULL for a .hp. */
    const struct costcentres *ccs;
    /* An eventlog's info tables (census/ipe.h), complete by the time finish is called
     * (pprof's -hi frames); NULL for a .hp. */
    const struct ipe_names *ipe;
    /* --group-by merged the input's bands: the bands are groups (the report then offers
     * no grouping of its own). */
    bool grouped;
    /* The default grouping (census/autogroup.h) applies to this output: its bands are the
     * groups (grouped is true), and it says so with the flag that undoes it
     * (autogroup_note). NULL: the bands are as the input has them, or as --group-by asked. */
    const struct autogroup *autogroup;
    /* The output is gzip-compressed on its way (a name ending in .gz): a format that
     * compresses itself (pprof) writes it plain. */
    bool compressed;
    /* --max-peak, --max-increase, --max-growth: every verdict, complete when finish is
     * called (gates.h); NULL or none when no gate was asked for. */
    const struct gate_report *gates;
    /* --phases: each phase's facts and gates (facts/phases.h), complete when finish is
     * called; NULL or none without. */
    const struct phase_report *phases;
};

struct sink;

struct sink_ops {
    int (*frame)(struct sink *s, const struct census_frame *frame);
    int (*marker)(struct sink *s, uint64_t time_ns, const char *text, size_t len);
    int (*total)(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes);
    int (*finish)(struct sink *s);
    void (*destroy)(struct sink *s);
    /* Optional: why the last op failed when errno cannot tell (PNG: no usable font), or
     * NULL; without it, or when it returns NULL, errno says why. */
    const struct ev_error *(*failure)(const struct sink *s);
};

struct sink {
    const struct sink_ops *ops;
    struct sink_context ctx;
    FILE *out;
    /* Why the last op failed when errno cannot say (no usable font, no time profile to
     * draw); empty otherwise. sink_recorded_failure is the failure op that reports it. */
    struct ev_error error;
    /* The failure is the input's: it lacks what the format writes (exit status 1, not
     * that of a failed write). */
    bool input_lacks;
    /* A writer's (sink_writer_alloc) whole output, written by its finish. */
    int (*write)(struct sink *s);
};

/* The one way a format makes its sink: its own struct of size bytes (whose first member
 * is its struct sink), zeroed, with that struct sink set to ops, ctx and out; NULL when
 * out of memory. */
void *sink_alloc(size_t size, const struct sink_ops *ops, const struct sink_context *ctx,
                 FILE *out);
/* The same for a writer: a sink that receives nothing while the input is read (its
 * censuses, markers and totals go to the run model, convert.c) and writes its whole
 * output at finish, from the run model, with write (0, or -1: errno, or why in
 * s->error). Its ops are write as finish, sink_free and sink_recorded_failure: charts,
 * the report, the summaries, JUnit, folded stacks, pprof. */
void *sink_writer_alloc(size_t size, int (*write)(struct sink *s),
                        const struct sink_context *ctx, FILE *out);
/* The destroy op of a sink that owns nothing besides its struct. */
void sink_free(struct sink *s);
/* The failure op of a sink that says why in s->error. */
const struct ev_error *sink_recorded_failure(const struct sink *s);

/* The file name of path, without its directories ("runs/a/prog.eventlog" gives
 * "prog.eventlog"): what a document passed around names its input by, rather than the
 * author's directories. NULL gives NULL. */
const char *sink_file_name(const char *path);

#endif
