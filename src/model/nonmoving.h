/* nonmoving.h: the nonmoving collector's concurrent phases (`+RTS --nonmoving-gc`), from
 * its events, as `+RTS -s` reports them on its `syncs` and `concurrent` lines.
 *
 * With the nonmoving collector the oldest generation is collected mostly beside the
 * program: after a stop-the-world collection (counted by gcstats.h like any other) a
 * collector thread marks (CONC_MARK_BEGIN .. CONC_MARK_END, the END carrying the objects
 * marked), stops the program for a short synchronisation in which it finishes marking
 * (CONC_SYNC_BEGIN .. CONC_SYNC_END: a pause of the program, which -s does not add to
 * its GC time), and sweeps (CONC_SWEEP_BEGIN .. CONC_SWEEP_END) while the program runs.
 * A cycle is from its first mark to the end of its sweep: the runtime's own concurrent
 * time (rts/Stats.c, stat_startNonmovingGc .. stat_endNonmovingGc) begins a little
 * before the first mark, so a cycle here is a few tenths of a millisecond shorter.
 * A synchronisation the collector gives up (out of its marking budget) and starts
 * again is two; GHC 9.10 writes each CONC_SYNC_BEGIN and CONC_SYNC_END twice (once
 * from stat_startNonmovingGcSync, once from the flush), so a phase is from the first
 * BEGIN of a nesting to the END that closes it. With `-ln`, the heap's census after each
 * cycle (NONMOVING_HEAP_CENSUS, one per block size) gives its last occupancy. The events
 * are the collector thread's,
 * written into the global buffer (no capability), in time order. Plain counters: no
 * allocation, copied with the struct that holds it.
 */
#ifndef EV2HP_NONMOVING_H
#define EV2HP_NONMOVING_H

#include <stdbool.h>
#include <stdint.h>

#include "model/frame.h"

/* One phase's occurrences: how many, their time summed and the longest. */
struct nonmoving_phase {
    uint64_t count, total_ns, max_ns;
    unsigned depth;                /* BEGINs not yet closed */
    uint64_t since;                /* the first of them */
};

/* The nonmoving heap as its last census found it (NONMOVING_HEAP_CENSUS, `+RTS -ln`: a
 * census of each sub-heap, one per block size, after each cycle): each block size's
 * latest figures, at most NONMOVING_BLOCK_SIZES of them (GHC has a few dozen). */
#define NONMOVING_BLOCK_SIZES 64
struct nonmoving_census {
    uint64_t time_ns;              /* its latest census */
    uint32_t block_size, active, filled, live;
};

struct nonmoving_stats {
    struct nonmoving_phase mark, sync, sweep, cycle;
    uint64_t marked;               /* objects, over every CONC_MARK_END */
    unsigned sizes;
    struct nonmoving_census heap[NONMOVING_BLOCK_SIZES];
};

/* The heap's last census summed over its block sizes: false without one. */
struct nonmoving_heap {
    uint64_t time_ns;              /* the latest sub-heap's census */
    unsigned block_sizes;
    uint64_t active_segments, filled_segments, live_blocks, live_bytes;
};
bool nonmoving_heap(const struct nonmoving_stats *s, struct nonmoving_heap *out);

/* Whether e is one of the nonmoving collector's events (GC_EVENT_CONC_...). */
bool nonmoving_event_kind(enum gc_event_kind kind);
/* Feeding, in time order (zeroed struct to begin). */
void nonmoving_event(struct nonmoving_stats *s, const struct gc_event *e);
/* Whether the run had the nonmoving collector's events (a phase completed). */
bool nonmoving_any(const struct nonmoving_stats *s);

#endif
