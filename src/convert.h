/* convert.h: one run of ev2hp, from an input to every output, without printing.
 *
 * convert_run reads the input once and feeds every requested output (and --dump) from
 * that one read. It reports what happened in a convert_result: the exit status, the
 * error that decided it, and warnings (damage and anomalies, with what was kept). main
 * prints them; tests and fuzzers read them.
 */
#ifndef EV2HP_CONVERT_H
#define EV2HP_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/limits.h"
#include "base/error.h"
#include "census/input.h"
#include "census/markerwindow.h"
#include "read/progress.h"
#include "serve/serve.h"
#include "facts/gates.h"
#include "sink/formats.h"

/* Exit statuses (doc/guide.md, "Exit status", and ev2hp(1), "EXIT STATUS"). */
enum exit_status {
    EXIT_SUCCESS_ = 0,   /* done; warnings allowed */
    EXIT_BAD_INPUT = 1,  /* input unreadable, not an eventlog, or damaged beyond use; or
                          * a gate that cannot be checked (gates.h) */
    EXIT_USAGE = 2,      /* bad command line */
    EXIT_BUDGET = 3,     /* a gate failed: --max-peak, --max-increase, --max-growth */
    EXIT_WRITE = 4,      /* an output could not be written, or --serve cannot serve */
};

struct convert_result;

struct convert_options {
    const char *input_path;        /* NULL or "-" = standard input */
    unsigned ccs_length;           /* -L; 0 = as the program ran */
    enum group_key group_by;       /* --group-by: INPUT's and BASE's bands merged by it */
    /* No --group-by was given: when the largest bands leave most of the peak in OTHER,
     * the charts, the report and the summaries group by the key that shows the heap
     * (census/autogroup.h), a regular file being read again for them. */
    bool group_by_default;
    bool strict;                   /* damage is a failure */
    bool stop_at_damage;           /* keep only what precedes the first damage */
    FILE *dump;                    /* --dump: every event, one line each, here; or NULL */
    const struct output_request *outputs;
    size_t output_count;
    size_t read_buffer;            /* reader buffer bytes; 0 = default */
    const struct chart_options *chart; /* for chart outputs; NULL = defaults */
    /* --from/--to marker:TEXT: the window's ends are the times of these markers, read
     * first (census/markerwindow.h) and set into a copy of chart's window, which every
     * output then honours. Needs chart and a regular file (else a usage error). */
    struct marker_window window;
    /* --phases marker|REGEX: the run's phases, read first from its markers
     * (census/phases.h) like a marker window (a regular file only): the summaries list
     * them (facts/phases.h) and the heap gates judge each. NULL: none. */
    const char *phases;
    struct gate_limits gates;      /* --max-peak, ...: every gate evaluated (gates.h) */
    /* --compare: an earlier run (eventlog or .hp), read whole before the input; charts
     * and the summary set it against the input. NULL: none. */
    const char *compare_path;
    /* --binary, --base-binary: the executables whose symbol tables name INPUT's and
     * BASE's -hi info tables that no IPE event names (census/symnames.h); NULL: none. */
    const char *binary_path;
    const char *base_binary_path;
    double png_scale;              /* --scale for PNG outputs; 0 = 1 */
    progress_fn progress;          /* eventlog inputs: called at most ten times a second
                                    * while reading and once at its end; NULL = never */
    void *progress_ctx;
    bool system_ccs;               /* --system-ccs: time profiles keep GC, SYSTEM, ... */
    /* --serve, --every (serve/serve.h): the run served live; NULL: a plain run. */
    const struct serve_options *serve;
    /* The server listens at url ("http://HOST:PORT/"): main says so. */
    void (*serving)(void *ctx, const char *url);
    /* SIGINT or SIGTERM during a live run's input: called from another thread once the
     * outputs are written; prints what main prints and ends the process with r's status
     * (it does not return). */
    void (*interrupted)(void *ctx, const struct convert_result *r);
    void *serve_ctx;
    bool unicode;                  /* the text summary may draw sparklines */
    /* --commit, --commit-time, --commit-subject: the commit the run was made at, which
     * --summary=json writes as its `commit` (for --trend); NULL: none. */
    const struct trend_commit *commit;
    const char *report_url;        /* --report-url: the Markdown summary links into it */
    /* Live inputs (census/input.h): --follow, --wait, a stop flag set from a signal
     * handler or another thread, and what to say meanwhile (NULL = nothing). */
    bool follow;
    double wait_seconds;
    const volatile sig_atomic_t *stop;
    input_notice_fn notice;
    void *notice_ctx;
};


struct convert_result {
    int exit_status;
    const char *error_file;        /* the file the error is about */
    struct ev_error error;
    struct ev_error warnings[CONVERT_MAX_WARNINGS];
    size_t warning_count;
    uint64_t censuses;
    bool damaged;
    /* --compare: the warnings about BASE, apart (messages name BASE). */
    const char *base_name;
    struct ev_error base_warnings[CONVERT_MAX_WARNINGS];
    size_t base_warning_count;
    /* --compare: what makes the comparison doubtful (runs broken down differently), said
     * on standard error under the input's name; no damage to either run. */
    bool has_compare_note;
    struct ev_error compare_note;
    /* The gates' verdicts (every gate asked for, once the input was read whole); when
     * one decided the exit status, gate_status is true and error is that gate's why. */
    struct gate_report gates;
    bool gate_status;
    /* --phases: the messages of the phases' gates that did not pass, in phase order (at
     * most CONVERT_MAX_WARNINGS; the rest counted): main prints them after the run's. */
    struct ev_error phase_gates[CONVERT_MAX_WARNINGS];
    size_t phase_gate_count;
    uint64_t phase_gates_not_listed;
};

/* The name messages use for the input: its path, or "(standard input)". */
const char *convert_input_name(const struct convert_options *opt);

void convert_run(const struct convert_options *opt, struct convert_result *result);

#endif
