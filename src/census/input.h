/* input.h: one input (an eventlog or a .hp, plain or gzip) read into census callbacks.
 *
 * ev2hp reads two kinds of input the same way: INPUT, whose censuses feed the outputs,
 * and the BASE of --compare, read first into a profile for the comparison. Both go
 * through this one path: open the file (or standard input), tell an eventlog from a .hp by
 * its first bytes, read the eventlog's header, then run the reader and the census
 * assembler (or the .hp reader) to the end, reporting censuses, markers and heap totals
 * to the caller's callbacks. Damage is not a failure here: what came before it stands,
 * and the outcome says what was kept. Nothing is printed.
 */
#ifndef EV2HP_INPUT_H
#define EV2HP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/limits.h"
#include "model/bands.h"
#include "census/census.h"
#include "base/error.h"
#include "read/progress.h"

struct input_options {
    const char *path;           /* NULL or "-" = standard input */
    unsigned ccs_length;        /* -L; 0 = as the program ran */
    size_t read_buffer;         /* reader buffer bytes; 0 = default */
    FILE *dump;                 /* --dump: every event of an eventlog here; or NULL */
    progress_fn progress;       /* an eventlog: called at most ten times a second while
                                 * reading and once at its end (progress.h); or NULL */
    void *progress_ctx;
    /* An eventlog: assemble its time profile with these options (input_timeprof);
     * NULL: its events are skipped. */
    const struct timeprof_options *time_profile;
    bool stop_at_damage;        /* stop at the first damage instead of recovering */
};

enum input_status {
    INPUT_OK,                   /* read to the end; damaged or not (see the outcome) */
    INPUT_BAD,                  /* unusable input, or out of memory: err says why */
    INPUT_STOPPED,              /* a callback returned non-zero (errno says why) */
};

#define INPUT_MAX_REGIONS 8     /* damaged regions listed (all are counted) */

struct input_outcome {
    uint64_t censuses;
    bool damaged;               /* damage was found (a region skipped, or the input stops
                                 * early): damage holds the first raw error */
    struct ev_error damage;
    /* Recovery: the damaged regions skipped (the first INPUT_MAX_REGIONS of region_count),
     * and the censuses lost to them. */
    struct ev_region regions[INPUT_MAX_REGIONS];
    size_t region_count;
    uint64_t lost_to_damage;
    /* Damage in words (with what was kept) first, then census anomalies. */
    struct ev_error warnings[INPUT_MAX_WARNINGS];
    size_t warning_count;
};

struct input;

/* Opens an input and reads an eventlog's header; NULL with err set when the input cannot
 * be opened, is not an eventlog or .hp, or memory runs out. events is copied. */
struct input *input_open(const struct input_options *opt, const struct census_events *events,
                         struct ev_error *err);

/* What the input says about its run, and its labels: valid until input_free (a .hp fills
 * them as it is read). */
const struct run_info *input_run_info(const struct input *in);
const struct bands *input_bands(const struct input *in);
/* Whether the input is a .hp (else an eventlog). */
bool input_is_hp(const struct input *in);
/* The time profile of an eventlog read with input_options.time_profile, else NULL. */
const struct timeprof *input_timeprof(const struct input *in);
/* An eventlog's cost centres (census_costcentres); NULL for a .hp, which names stacks
 * only by their cut labels. */
const struct costcentres *input_costcentres(const struct input *in);

/* Reads the rest of the input through the callbacks. */
enum input_status input_read(struct input *in, struct input_outcome *out, struct ev_error *err);

void input_free(struct input *in);

/* The name messages use for a path: the path, or "(standard input)". */
const char *input_name(const char *path);

#endif
