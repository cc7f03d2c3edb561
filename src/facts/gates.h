/* gates.h: the checks a CI job fails on, each evaluated and reported.
 *
 * A gate compares one number of the run with a limit given on the command line:
 *   - max-peak:     the exact peak residency against --max-peak SIZE;
 *   - max-increase: the peak's change from the --compare base, in percent of the base's
 *                   peak, against --max-increase PCT (the regression gate);
 *   - max-growth:   the rise of each band the summary names as a leak suspect
 *                   (profile.h), in bytes per second, against --max-growth RATE;
 *   - max-pause:    the collector's worst pause (of every generation, or of one:
 *                   --max-pause genN:DURATION) against --max-pause DURATION;
 *   - min-productivity: the run's productivity (MUT elapsed over the run, as the
 *                   runtime's -s reports it: model/gcstats.h) against
 *                   --min-productivity PCT.
 * Every gate asked for is evaluated, whatever the others found, so the summaries and the
 * JUnit report (sink_junit.c) list each verdict; convert.c turns them into the exit
 * status (3 when one failed, 1 when one could not be checked). A gate that cannot be
 * checked (no census, no base, no collection events) is never taken for a pass: a CI job must not go green on a
 * run that proved nothing.
 */
#ifndef EV2HP_GATES_H
#define EV2HP_GATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct run_model;   /* runmodel.h */
struct phase_gc;
struct run_model_needs;

enum gate_kind { GATE_MAX_PEAK, GATE_MAX_INCREASE, GATE_MAX_GROWTH, GATE_MAX_PAUSE,
                 GATE_MIN_PRODUCTIVITY };
#define GATE_KINDS 5

enum gate_verdict { GATE_PASSED, GATE_FAILED, GATE_UNCHECKED };

/* The limits of a run; a gate without its has_ is not evaluated. */
struct gate_limits {
    bool has_max_peak;
    uint64_t max_peak;             /* bytes */
    bool has_max_increase;
    double max_increase;           /* percent of the base's peak */
    bool has_max_growth;
    double max_growth;             /* bytes per second */
    bool has_max_pause;
    uint64_t max_pause_ns;
    int max_pause_gen;             /* the generation judged; -1: every one */
    bool has_min_productivity;
    double min_productivity;       /* percent of the run's elapsed time */
};

struct gate {
    enum gate_kind kind;
    enum gate_verdict verdict;
    char allowed[48];              /* "512 MiB", "+50 %", "512 KiB/s" */
    char measured[48];             /* the run's number in the same form; "" unchecked */
    /* The same as numbers: bytes (max-peak), percent (max-increase, min-productivity),
     * bytes per second (max-growth; 0 without a suspect), seconds (max-pause); measured_value NAN when unchecked. When the two
     * would print alike, allowed and measured carry the digits that tell them apart. */
    double allowed_value, measured_value;
    struct ev_error why;           /* failed or unchecked: the one-line reason */
};

/* The gates asked for, in enum order. */
struct gate_report {
    size_t count;
    struct gate gates[GATE_KINDS];
};

/* The option that sets a gate, without its dashes: "max-peak", ... */
const char *gate_name(enum gate_kind kind);
/* What a gate checks, in words: "peak residency at most the budget", ... */
const char *gate_description(enum gate_kind kind);
/* A verdict as JSON names it: "passed", "failed", "unchecked". */
const char *gate_verdict_name(enum gate_verdict verdict);
/* The unit of a gate's allowed_value and measured_value: "bytes", "percent",
 * "bytes_per_s", "seconds". */
const char *gate_unit(enum gate_kind kind);

/* What the gates need of the run model: the peak, the collector's figures for
 * --max-pause and --min-productivity, and for --max-growth the summary's
 * bands over window's --from/--to (window: the charts' profile options, or NULL), so
 * the suspects judged are the ones the summary names. */
struct profile_options;
void gates_needs(const struct gate_limits *limits, const struct profile_options *window,
                 struct run_model_needs *needs);

/* Evaluates every gate of limits on run (finished), and base (finished; NULL without
 * --compare). 0, or -1 with err set when out of memory. */
int gates_check(const struct gate_limits *limits, const struct run_model *run,
                const struct run_model *base, struct gate_report *out, struct ev_error *err);

/* What the heap gates judge in one phase (facts/phases.h), worked out there. */
struct gate_phase {
    const char *name;              /* the phase's, for the messages */
    uint64_t censuses;             /* censuses in it */
    uint64_t peak_bytes;           /* its largest census total */
    size_t suspects;               /* its leak suspects */
    double rise;                   /* the fastest one's rise to its peak, bytes per second */
    uint64_t rise_peak_ns;         /* when that one peaked */
    const char *suspect;           /* its name, suspect_len bytes */
    size_t suspect_len;
    uint64_t length_ns;            /* the phase's length */
    const struct phase_gc *gc;     /* its collections (model/runmodel.h); NULL: the run
                                    * has no collector's figures */
};

/* The gates of l that apply to a phase, evaluated on it into out: --max-peak (the
 * phase's peak) and --max-growth (its suspects' rise), as for the whole run;
 * --max-pause (the longest pause of the collections begun in the phase) and
 * --min-productivity (the share of the phase's length those collections did not pause
 * the program, their pauses cut at its end). --max-increase is of the whole run only: the
 * base has no phases. */
void gates_check_phase(const struct gate_limits *limits, const struct gate_phase *phase,
                       struct gate_report *out);

/* A --max-growth RATE: a size (peak_parse_size) followed by "/s", as "512K/s" or
 * "1M/s". 0, or -1 when it is not one. */
int gates_parse_rate(const char *text, double *bytes_per_s);
/* A --max-increase PCT: a non-negative decimal number, a final '%' allowed. */
int gates_parse_percent(const char *text, double *percent);
/* A --max-pause value: a duration with its unit, "50ms", "0.1s", "250us", after an
 * optional generation, "gen1:50ms" (*gen -1 without one). 0, or -1 when it is not one. */
int gates_parse_pause(const char *text, uint64_t *ns, int *gen);

#endif
