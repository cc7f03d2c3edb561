/* capstats.h: how each capability of a -threaded run spent the run: running Haskell
 * threads, collecting, idle (issue 35, item 2), from the scheduler's and the collector's
 * events, streamed in memory bounded by the capabilities.
 *
 * Each capability's own events are in its own blocks, in time order (ev_event.cap), so
 * each is followed as a state machine, the way ThreadScope draws its activity: RUN_THREAD
 * makes it running and STOP_THREAD idle; GC_START makes it collecting (the leader's and
 * the helper threads' pairs alike: each capability's own collecting time) and GC_END
 * idle. The time between two of its events goes to the state the first left it in; from
 * the run's start to its first event it is idle, and from its last event to the run's
 * end (run_info.end_time_ns) in the state it was left in. So running + gc + idle is the
 * run's length exactly, per capability. A capability without a scheduler event is not
 * listed (a collection alone says nothing of what it ran).
 *
 * The same time is also kept along the run, for the heap view's strip per capability
 * (chart/view_heap.c) and the report's: per capability CAP_TIMELINE_SLOTS slots of equal
 * width from the run's start, each with the nanoseconds running and collecting in it
 * (idle is the rest). The width starts at CAP_TIMELINE_FIRST_WIDTH_NS and doubles when
 * the run outgrows the slots, neighbouring slots merging pairwise: sums merge exactly, so
 * a capability's slots add up to its shares whatever the merging (memory: 4 KiB per
 * capability, whatever the length of the run). The nonmoving collector's phases are kept
 * on the same slots, for its strip under theirs (cap_stats_nonmoving, below).
 */
#ifndef EV2HP_CAPSTATS_H
#define EV2HP_CAPSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

struct cap_stats;

struct cap_stats *cap_stats_new(void);
/* A deep copy (the live server summarises a copy), or NULL when out of memory. */
struct cap_stats *cap_stats_copy(const struct cap_stats *s);
void cap_stats_free(struct cap_stats *s);

/* Feeding, in the input's order (each capability's events in time order): 0, or -1 when
 * out of memory. Events of no capability, or of one past GC_STATS_MAX_CAPS, are not
 * followed (counted in cap_stats_dropped). */
int cap_stats_event(struct cap_stats *s, const struct gc_event *e);

/* One capability's shares of the run, fractions summing to 1. */
struct cap_share {
    unsigned cap;
    uint64_t running_ns, gc_ns, idle_ns;
    double running, gc, idle;
};

/* The capabilities with a scheduler event, in number order, at the run's end end_ns:
 * how many; out (may be NULL) receives up to cap of them. */
size_t cap_stats_shares(const struct cap_stats *s, uint64_t end_ns, struct cap_share *out,
                        size_t cap);
/* How one listed capability spent the run along it: slots of width_ns from 0, the last
 * one reaching end_ns (the state left at the capability's last event held to end_ns, as
 * in cap_stats_shares); running_ns[i] and gc_ns[i] are the time running and collecting
 * in slot i (idle: the rest of the slot, up to end_ns). Summed over the slots they are
 * cap_stats_shares' running_ns and gc_ns exactly. */
#define CAP_TIMELINE_SLOTS 256
#define CAP_TIMELINE_FIRST_WIDTH_NS (1u << 20)   /* about 1 ms */
struct cap_timeline {
    unsigned cap;
    uint64_t width_ns;
    size_t slots;                  /* used: up to the one holding end_ns */
    uint64_t running_ns[CAP_TIMELINE_SLOTS], gc_ns[CAP_TIMELINE_SLOTS];
};

/* The timeline of the index-th listed capability (as cap_stats_shares orders them) at the
 * run's end end_ns: false when there is no such capability. */
bool cap_stats_timeline(const struct cap_stats *s, size_t index, uint64_t end_ns,
                        struct cap_timeline *out);

/* The nonmoving collector's phases along the run (`+RTS --nonmoving-gc`), for the heap
 * view's strip under the capabilities' (and the report's): from its CONC_MARK_,
 * CONC_SYNC_ and CONC_SWEEP_BEGIN/END (model/nonmoving.h reads the same events for its
 * counts), on slots as wide as the capabilities'. The phases are exclusive: a
 * synchronisation (the program stopped) covers the marks it finishes, so marking here is
 * the concurrent marking, beside the program; the synchronisations' and sweeps' time is
 * model/nonmoving.h's. Time is counted between the collector's events: a phase the
 * eventlog ends in is drawn up to its last event. */
enum nm_phase { NM_SYNC, NM_MARK, NM_SWEEP, NM_PHASES };
struct nonmoving_timeline {
    uint64_t width_ns;
    size_t slots;                  /* used: up to the one holding end_ns */
    uint64_t total_ns[NM_PHASES];  /* by enum nm_phase: the slots' sums */
    uint64_t ns[NM_PHASES][CAP_TIMELINE_SLOTS];
};
/* The timeline at the run's end end_ns: false when the run has no nonmoving collector's
 * phase (s may be NULL). */
bool cap_stats_nonmoving(const struct cap_stats *s, uint64_t end_ns,
                         struct nonmoving_timeline *out);
/* Whether cap_stats_nonmoving has a timeline to give, without building it (the room a
 * chart keeps for the strip). */
bool cap_stats_has_nonmoving(const struct cap_stats *s);

/* The capabilities a strip per capability shows (the heap view's, the report's): those
 * cap_stats_shares lists, when the runtime is the threaded one (RTS_IDENTIFIER naming
 * "rts_thr") or they are more than one; else 0 (a non-threaded run's one capability's
 * time is the run's). s may be NULL. */
size_t cap_stats_strips(const struct cap_stats *s, const struct run_info *info);

/* Events of capabilities not followed. */
uint64_t cap_stats_dropped(const struct cap_stats *s);

#endif
