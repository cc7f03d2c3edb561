/* input.h: one input (an eventlog or a .hp, plain or gzip) read into census callbacks.
 *
 * ev2hp reads two kinds of input the same way: INPUT, whose censuses feed the outputs,
 * and the BASE of --compare, read first into a profile for the comparison. Both go
 * through this one path: open the file (or standard input), tell an eventlog from a .hp by
 * its first bytes, read the eventlog's header, then run the reader and the census
 * assembler (or the .hp reader) to the end, reporting censuses, markers and heap totals
 * to the caller's callbacks. Damage is not a failure here: what came before it stands,
 * and the outcome says what was kept. Nothing is printed.
 *
 * Live inputs: a program still writing. `unix:PATH` and `tcp:HOST:PORT` connect to a
 * program streaming its eventlog (read/connect.h), waiting for it to listen; when the
 * connection closes before the end-of-data marker, the input connects again and goes on
 * with the same run: the new connection's header and repeated definitions are taken as
 * such (census_restarted), the census cut by the gap is dropped, a marker
 * "ev2hp: connection lost" is placed where the gap began, and a warning says how long
 * it was. With input_options.follow a regular file is read as it grows until its
 * end-of-data marker, starting empty or half-written if need be. Partial events at the
 * edge of what has arrived are simply waited for.
 */
#ifndef EV2HP_INPUT_H
#define EV2HP_INPUT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/limits.h"
#include "model/bands.h"
#include "census/census.h"
#include "census/grouping.h"
#include "base/error.h"
#include "read/control.h"
#include "read/progress.h"

/* Something worth saying while a live input is read (waiting for the program, connected
 * again); what is a sentence without the input's name. */
typedef void (*input_notice_fn)(void *ctx, const char *what);

/* A lock shared with other threads (input_options.lock). */
struct input_lock {
    void (*lock)(void *ctx);
    void (*unlock)(void *ctx);
    void *ctx;
};

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
    /* An eventlog: its scheduler's events (RUN_THREAD, STOP_THREAD) go to events.gc, for
     * each capability's shares (model/capstats.h); false: they are skipped, one or two
     * each time a thread runs, most of a busy run's events. */
    bool sched;
    bool stop_at_damage;        /* stop at the first damage instead of recovering */
    /* An eventlog: only its markers are decoded (every other event is skipped, no census
     * assembled): census/markerwindow.h's first read. */
    bool markers_only;
    enum group_key group_by;    /* --group-by: bands merged by this key (grouping.h) */
    /* An eventlog's -hi info tables no IPE event names are named from this symbol table
     * (--binary PROG: census/symnames.h), read from symbols_path; NULL: none (a warning
     * says how to name them). */
    const struct elf_symbols *symbols;
    const char *symbols_path;
    const char *symbols_option; /* the option that gives them, for the warning: "--binary"
                                 * (NULL) or "--base-binary" */
    /* Live inputs (see the top). */
    bool follow;                /* a regular file: follow it until its end-of-data marker */
    double wait_seconds;        /* unix:/tcp:: how long to wait for the program to listen,
                                 * at the start and after a dropped connection; 0 = one
                                 * attempt, INFINITY = no limit */
    /* Non-zero (set from a signal handler or another thread): a live input stops being
     * read within LIVE_POLL_MS and ends there, as if it ended (outcome.stopped). Also
     * honoured by pipes and standard input. NULL = never. */
    const volatile sig_atomic_t *stop;
    input_notice_fn notice;     /* NULL = silent */
    void *notice_ctx;
    /* Another thread reads what the input builds while it is read (--serve: the bands,
     * the run information, the cost centres, the time profile, and what the callbacks
     * feed): input_read holds this lock while it works on bytes that arrived, callbacks
     * included, and releases it only while it waits for bytes (or for a program to
     * listen again). So the lock is never held across a wait, and nothing the input
     * builds changes while the other thread holds it. NULL: no lock. */
    const struct input_lock *lock;
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
    /* Live inputs. */
    bool stopped;               /* input_options.stop ended the reading */
    uint64_t reconnections;     /* connections dropped and made again */
    uint64_t lost_to_gaps;      /* censuses cut by a dropped connection */
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
/* An eventlog's info tables (census_ipe_names); NULL for a .hp. */
const struct ipe_names *input_ipe_names(const struct input *in);

/* Reads the rest of the input through the callbacks. */
enum input_status input_read(struct input *in, struct input_outcome *out, struct ev_error *err);

/* A followed input (a pipe, a FIFO, a socket, --follow FILE) whose censuses the runtime
 * holds back in its buffers, or held back until they came in one burst
 * (census/heldback.h): false until that is found; then true, with the sentence that
 * says why and what to run in why (at most size bytes; HELDBACK_TEXT is enough). The
 * first time, the sentence goes to input_options.notice too (said once a run). Asked by
 * the reading thread's own waits when there is no input_options.lock, and at the end
 * of input_read; with a lock, also by the thread that shares it (--serve's worker,
 * every second), holding it. */
bool input_held_back(struct input *in, char *why, size_t size);

/* Whether the input is a program's socket (unix:, tcp:), which control messages reach. */
bool input_is_socket(const struct input *in);

/* Sends cmd (read/control.h) to the program a unix:/tcp: input is connected to.
 * Thread-safe: meant for server threads while the main thread is in input_read; the
 * input must stay open (until input_free) meanwhile. Returns 0, or -1 with errno =
 * ENOTSOCK when the input is not a socket (a file, a FIFO, standard input), ENOTCONN
 * when its connection dropped and is not made again yet, or the errno of the failed
 * write (EAGAIN: the program has not read the commands sent before). */
int input_send_control(struct input *in, enum control_command cmd);

/* Frees the input; a socket input's connection is closed here, not at the end of
 * input_read, so that input_send_control (read/control.h) works until then. */
void input_free(struct input *in);

/* The name messages use for a path: the path, or "(standard input)". */
const char *input_name(const char *path);

#endif
