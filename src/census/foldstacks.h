/* foldstacks.h: a run's stacks (model/stacks.h) from its time profile or a heap census.
 *
 * Folded output and flame graphs show one of two things of a run, both as weighted
 * stacks of frames named "Module.label":
 *
 *   - the time profile: samples per cost-centre stack (timeprof.h), stacks holding one
 *     of the runtime's own cost centres left out unless asked for;
 *   - one heap census (the peak's, or the last at or before --at: run_census), bytes per
 *     band, for the breakdowns whose bands are stacks: -hc (an eventlog's cost-centre
 *     numbers named by its cost centres; a .hp's "a/b/c" labels split at '/', cut labels
 *     keeping their "...") and -hi (a tree: the info table's module, its type when the
 *     IPE event gives one, then its description; the runtime's tables named from the
 *     symbol table (--binary) under "rts"; "(no module)" for an address nothing named).
 *
 * With --compare the base goes into the other column of the same set. Time profiles
 * meet by frame names (cost-centre numbers are not in them: another build's renumbered
 * stacks are the same stacks); heap censuses through the one matching rule
 * (model/bandmatch.h): a base band paired with a band of this run is counted under this
 * run's stack, so a .hp's cut labels join the eventlog's whole stacks.
 */
#ifndef EV2HP_FOLDSTACKS_H
#define EV2HP_FOLDSTACKS_H

#include <stdbool.h>

#include "census/costcentres.h"
#include "census/timeprof.h"
#include "model/runmodel.h"
#include "model/stacks.h"

/* The time profile into column: 0, or -1 when out of memory or past the set's bound. */
int foldstacks_time(struct stacks *s, const struct timeprof *tp, bool system,
                    enum stacks_column column);

/* Whether a run's heap bands are stacks this module can fold (-hc, -hi; a .hp whose JOB
 * line says neither is taken for -hc when its labels are stacks: not known, so no). */
bool foldstacks_heap_supported(const struct run_info *info);

/* One run's heap census as foldstacks reads it. */
struct heap_census_run {
    struct run_census census;
    const struct run_info *info;
    const struct costcentres *ccs;   /* an eventlog's; NULL for a .hp */
};

/* now's census into STACKS_NOW and, with base (non-NULL), base's into STACKS_BASE, the
 * base's bands paired with now's counted under now's stacks. 0, or -1 when out of
 * memory or past the set's bound. */
int foldstacks_heap(struct stacks *s, const struct heap_census_run *now,
                    const struct heap_census_run *base);

/* The stack of one band of run, added to s (with no value): its number in *stack. For
 * the report, which draws any census of the run from its bands' stacks. 0, or -1 when
 * out of memory or past the set's bound. */
int foldstacks_band(struct stacks *s, const struct heap_census_run *run, uint32_t band,
                    uint32_t *stack);

#endif
