/* mutspan.h: when the program's own code ran, from the end of the runtime's start-up to
 * the beginning of its exit, so that MUT time and productivity are `+RTS -s`'s: -s's MUT
 * is start_exit - end_init minus the collections before the exit (rts/Stats.c,
 * stat_exitReport), where ev2hp would otherwise count the whole run less its collections
 * (INIT and EXIT as mutator time: 0.2 to 1.9 points more productive on the test runs).
 *
 * No event marks stat_endInit or stat_startExit, but the main OS thread's Haskell work
 * is bracketed by its bound tasks: hs_main's rts_lock creates one (TASK_CREATE with the
 * process's own id as kernel thread id, OSPROCESS_PID) right after the start-up ends,
 * and rts_unlock deletes it (TASK_DELETE) when main returns, right before hs_exit's
 * stat_startExit. The start-up's own evaluation (the threaded runtime starting its IO
 * manager) and the exit's (flushing stdout) are bound tasks of that thread too, but short
 * ones: the program's span is the longest. Within microseconds of -s's on the test runs
 * (GHC 9.10.3, tests/data/gcsched). Needs the scheduler's class of events (`+RTS -l`'s
 * default; `-l-agu` leaves the tasks out) and OSPROCESS_PID before the tasks in the
 * file (the runtime writes it at start-up, in its first block); else no span (the
 * caller falls back to the whole run). A creation past the first MUTSPAN_TASKS of the
 * main thread's is not kept (a program calling into Haskell from C over and over): its
 * span is among the first; a deletion read before its creation is kept while the first
 * MUTSPAN_DELETES deletions of any task have room.
 */
#ifndef EV2HP_MUTSPAN_H
#define EV2HP_MUTSPAN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/frame.h"

#define MUTSPAN_TASKS 16
#define MUTSPAN_DELETES 64

/* Plain counters, zeroed to begin; copied with the struct that holds it. */
struct mut_span {
    bool has_pid;
    uint64_t pid;
    unsigned ids;                          /* the main thread's task ids seen */
    uint64_t id[4];
    unsigned created_count, deleted_count;
    uint64_t created[MUTSPAN_TASKS];
    /* Deletions of any task while there is room (a deletion may come in the file before
     * its task's creation, which says whose it is), then of the main thread's only. */
    struct { uint64_t task, time_ns; } deleted[MUTSPAN_DELETES];
};

/* Feeding (GC_EVENT_PID, GC_EVENT_TASK_CREATE, GC_EVENT_TASK_DELETE; others ignored). */
void mut_span_event(struct mut_span *s, const struct gc_event *e);
/* The program's span [*from, *to): the main thread's longest bound task; false when the
 * events do not give one. */
bool mut_span_main(const struct mut_span *s, uint64_t *from, uint64_t *to);

#endif
