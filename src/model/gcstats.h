/* gcstats.h: the garbage collector as the runtime's own `+RTS -s` reports it, from the
 * eventlog's collection events, streamed in bounded memory.
 *
 * A collection is told by the capability that led it: its GC_START, then GC_STATS_GHC
 * (generation, bytes copied, slop, threads...), then its GC_END, all in that capability's
 * blocks (the other capabilities' GC_START/GC_END pairs, written by the collector's
 * helper threads, carry no statistics and are not counted). The pause is GC_END minus the
 * leader's GC_START: the runtime stamps them with the very times `-s` subtracts
 * (rts/Stats.c, stat_startGC and stat_endGC), so a generation's elapsed time and worst
 * pause are `-s`'s. Bytes allocated are each capability's last HEAP_ALLOCATED (a running
 * total per capability) summed; maximum residency the largest HEAP_LIVE (written after
 * each major collection, as `-s`'s samples). Pauses are also counted in a fixed histogram
 * per generation (32 buckets an octave): the percentiles are the bucket's middle, within
 * 1.6 % of the exact value (and never outside the exact least and worst pause), however
 * many collections the run has. Nothing of the eventlog's encoding is here: census.c
 * decodes, model/frame.h's gc callback carries the fields.
 */
#ifndef EV2HP_GCSTATS_H
#define EV2HP_GCSTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/limits.h"
#include "model/frame.h"
#include "model/mutspan.h"
#include "model/nonmoving.h"

struct gc_stats;

/* One generation's collections, as a `-s` line and a pause distribution. */
struct gc_generation {
    unsigned gen;
    uint64_t collections;          /* GC_STATS_GHC of this generation */
    uint64_t parallel;             /* ... collected by more than one thread */
    uint64_t copied_bytes;
    uint64_t pauses;               /* collections whose GC_END was seen */
    uint64_t elapsed_ns;           /* their pauses, summed */
    uint64_t max_pause_ns;
    uint64_t p50_ns, p90_ns, p99_ns; /* nearest rank, within 1.6 % (see above) */
};

/* The whole run's figures. */
struct gc_summary {
    bool any;                      /* the input had a collection (GC_STATS_GHC) */
    unsigned generations;          /* entries of gen[] in use: 0 .. oldest seen */
    struct gc_generation gen[GC_STATS_MAX_GENS];
    bool has_allocated;
    uint64_t allocated_bytes;
    bool has_residency;
    uint64_t max_residency_bytes;  /* the largest HEAP_LIVE */
    uint64_t max_slop_bytes;       /* the largest slop of an oldest-generation collection */
    bool has_memory;
    uint64_t memory_in_use_bytes;  /* the largest HEAP_SIZE */
    uint64_t elapsed_ns;           /* the run: its last event's time */
    uint64_t gc_ns, mut_ns;        /* pauses summed; the program's span less the
                                    * collections in it (has_span), else the rest of
                                    * the run */
    bool has_span;                 /* the program's span is known (mutspan.h) */
    uint64_t init_ns, exit_ns;     /* has_span: -s's INIT and EXIT (the exit's own
                                    * collections are GC time) */
    double productivity;           /* mut / elapsed (0 .. 1); 0 for a run of no length */
    bool has_balance;              /* a parallel collection said its balanced share */
    double work_balance;           /* balanced bytes / bytes copied by parallel
                                    * collections (0 serial .. 1 perfect), as -s */
    bool has_nonmoving;            /* the nonmoving collector's phases (nonmoving.h) */
    struct nonmoving_stats nonmoving;
};

struct gc_stats *gc_stats_new(void);
/* A deep copy (the live server summarises a copy), or NULL when out of memory. */
struct gc_stats *gc_stats_copy(const struct gc_stats *g);
void gc_stats_free(struct gc_stats *g);

/* A collection's pause, as the heap view draws it. */
struct gc_pause {
    unsigned gen;
    uint64_t start_ns, end_ns;
};

/* Feeding, in the input's order: 0; 1 when e ended a collection's pause, which *done
 * then says (done may be NULL); -1 when out of memory. */
int gc_stats_event(struct gc_stats *g, const struct gc_event *e, struct gc_pause *done);
void gc_stats_total(struct gc_stats *g, enum heap_total kind, uint64_t bytes);
/* The bytes allocated so far by every capability: each one's last HEAP_ALLOCATED summed
 * (each capability counts only its own). */
uint64_t gc_stats_allocated(const struct gc_stats *g);
/* How many capabilities have counted their allocation (HEAP_ALLOCATED) so far. */
unsigned gc_stats_allocating(const struct gc_stats *g);

/* A generation's pauses (index as gc_summary.gen[]) shorter than 2^k nanoseconds
 * (k < 64), exactly: every power of two is an edge of the histogram's buckets. For a
 * Prometheus histogram, whose bounds are "less or equal": those at most 2^k - 1 ns. */
uint64_t gc_stats_pauses_below_pow2(const struct gc_stats *g, unsigned gen, unsigned k);

/* The figures so far; end_ns: the run's end (run_info.end_time_ns). */
void gc_stats_summary(const struct gc_stats *g, uint64_t end_ns, struct gc_summary *out);

#endif
