/* frame.h: what a heap profile is made of, as every layer above the model sees it.
 *
 * A run is a sequence of complete census frames (each a list of band and bytes), markers
 * and heap totals, with what the input says about the run (run_info). Readers produce
 * them (the census assembler from an eventlog, hpread from a .hp), and sinks, profiles
 * and the run model consume them through the callbacks of census_events, so nothing that
 * consumes a run knows which reader produced it. Bands are numbered by model/bands.h.
 */
#ifndef EV2HP_FRAME_H
#define EV2HP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct census_entry {
    uint32_t band;
    uint64_t bytes;
};

struct census_frame {
    uint64_t time_ns;           /* elapsed nanoseconds since the program started */
    uint64_t era;
    size_t count;
    const struct census_entry *entries;
};

/* How an input ended: an eventlog with its end-of-data marker, or cut short without it
 * (a killed or crashed program, a closed connection); a .hp has no such marker. */
enum run_ending { RUN_ENDING_NONE, RUN_ENDING_MARKED, RUN_ENDING_CUT };

/* What the eventlog says about the run. Strings are owned by the assembler. */
struct run_info {
    char *program;              /* the JOB line: program, arguments, +RTS options */
    char *rts_version;          /* RTS_IDENTIFIER, e.g. "GHC-9.0.2 rts_p" */
    bool has_start_time;
    int64_t start_time;         /* wall-clock seconds (Unix) when the program started */
    bool has_heap_profile;      /* a HEAP_PROF_BEGIN was seen */
    uint32_t breakdown;         /* enum breakdown, or a later value */
    uint64_t period_ns;         /* the sampling interval (-i) */
    unsigned ccs_length;        /* the -L used for stack labels */
    bool labels_cut;            /* labels as a .hp has them: stacks cut at -L, the whole
                                 * name unknown (model/bandmatch.h) */
    uint64_t end_time_ns;       /* the latest timestamp seen: the end of the run */
    enum run_ending ending;     /* how the input ended (known at its end) */
};

/* The runtime's own totals (role HEAP_TOTAL), then what the heap view also draws (role
 * GC): the bytes allocated so far (HEAP_ALLOCATED, cumulative) and the beginning and end
 * of each garbage collection (GC_START, GC_END; bytes 0). Sinks that know only the first
 * three ignore the others. */
enum heap_total {
    HEAP_TOTAL_SIZE, HEAP_TOTAL_LIVE, HEAP_TOTAL_BLOCKS,
    HEAP_TOTAL_ALLOCATED, HEAP_GC_START, HEAP_GC_END
};
#define HEAP_TOTAL_RUNTIME 3        /* the first three: the runtime's heap totals */

/* The collector's events as model/gcstats.h reads them, each with the capability whose
 * blocks held it (GC_CAP_NONE: none). Only an eventlog has them. */
enum gc_event_kind { GC_EVENT_START, GC_EVENT_END, GC_EVENT_STATS, GC_EVENT_ALLOCATED,
                     /* the scheduler: the capability runs a Haskell thread, or stops it
                      * (RUN_THREAD, STOP_THREAD; model/capstats.h) */
                     GC_EVENT_RUN, GC_EVENT_STOP,
                     /* the nonmoving collector's phases (CONC_MARK_BEGIN ...
                      * CONC_SWEEP_END; model/nonmoving.h) */
                     GC_EVENT_CONC_MARK_BEGIN, GC_EVENT_CONC_MARK_END,
                     GC_EVENT_CONC_SYNC_BEGIN, GC_EVENT_CONC_SYNC_END,
                     GC_EVENT_CONC_SWEEP_BEGIN, GC_EVENT_CONC_SWEEP_END,
                     /* the runtime's tasks (OS threads) and the process, for when the
                      * program's own code began and ended (model/mutspan.h):
                      * OSPROCESS_PID, TASK_CREATE, TASK_DELETE */
                     GC_EVENT_PID, GC_EVENT_TASK_CREATE, GC_EVENT_TASK_DELETE,
                     /* one sub-heap of the nonmoving heap (NONMOVING_HEAP_CENSUS) */
                     GC_EVENT_NONMOVING_CENSUS };
#define GC_CAP_NONE 0xffffu

struct gc_event {
    enum gc_event_kind kind;
    uint16_t cap;
    uint64_t time_ns;
    /* GC_EVENT_STATS (GC_STATS_GHC) */
    unsigned gen;                   /* the generation collected (and those below it) */
    uint64_t copied, slop, threads, max_copied, balanced_copied;
    bool has_balanced;              /* the event carried balanced_copied */
    /* GC_EVENT_ALLOCATED (HEAP_ALLOCATED): the capability's allocation so far */
    uint64_t bytes;
    /* GC_EVENT_CONC_MARK_END: the objects marked in that phase */
    uint32_t marked;
    /* GC_EVENT_TASK_CREATE and _DELETE: the task; _CREATE: its kernel thread id;
     * GC_EVENT_PID: the process id in tid */
    uint64_t task, tid;
    /* GC_EVENT_NONMOVING_CENSUS: the sub-heap of blocks of block_size bytes */
    struct { uint32_t block_size, active, filled, live; } census;
};

/* Ticky counters' events (role TICKY) as model/ticky.h reads them; the strings point into
 * the reader's buffer, valid for the callback only. Only an eventlog has them. */
enum ticky_event_kind { TICKY_EVENT_DEF, TICKY_EVENT_BEGIN_SAMPLE, TICKY_EVENT_SAMPLE };

struct ticky_event {
    enum ticky_event_kind kind;
    uint64_t time_ns;
    uint64_t id;                    /* DEF and SAMPLE: the counter */
    /* TICKY_EVENT_DEF */
    unsigned arity;
    const char *kinds, *name;
    size_t kinds_len, name_len;
    uint64_t info;                  /* its info table's address */
    const char *table;              /* the table as an IPE event named it, or NULL */
    size_t table_len;
    /* TICKY_EVENT_SAMPLE: the counts since the counter's previous sample */
    uint64_t entries, allocs, allocd;
};

/* Callbacks; a non-zero return stops the producer (the assembler's census_feed returns
 * CENSUS_STOPPED). */
struct census_events {
    int (*frame)(void *ctx, const struct census_frame *frame);
    int (*marker)(void *ctx, uint64_t time_ns, const char *text, size_t len);
    int (*total)(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes);
    void *ctx;
    /* The collector's statistics, or NULL: nobody reads them (the producer then decodes
     * none: a run whose outputs do not show them pays nothing). Last, so that the
     * callers that do not read them may leave it out of their initialisers. */
    int (*gc)(void *ctx, const struct gc_event *event);
    /* Ticky counters' events, or NULL: nobody reads them (none are decoded). */
    int (*ticky)(void *ctx, const struct ticky_event *event);
};

#endif
