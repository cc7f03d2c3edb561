/* timeprof.h: the time-profile assembler, from PROF_BEGIN and PROF_SAMPLE_COST_CENTRE
 * events (a program run with `+RTS -p -l` or `-P -l`) to sample counts per stack.
 *
 * Every tick the runtime writes one sample per capability: the capability, the tick
 * number and the cost-centre stack it was running, innermost first. The .prof the
 * runtime writes from the same ticks has, stack for stack, the same individual `ticks`.
 * The assembler keeps one count per distinct stack (the stack's numbers are its key, so
 * memory follows the number of distinct stacks, not of samples), the samples of each
 * capability, and the tick interval; names come from the cost centres the census
 * assembler collects (costcentres.h), looked up only when an output asks. Samples
 * outside the --from/--to window are counted apart and left out.
 *
 * The flame graph and the folded stacks read it as weighted stacks (foldstacks.h).
 */
#ifndef EV2HP_TIMEPROF_H
#define EV2HP_TIMEPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/table.h"
#include "base/error.h"
#include "base/limits.h"
#include "census/ccframe.h"
#include "census/costcentres.h"
#include "read/evdecode.h"

/* Limits (base/limits.h): TIMEPROF_MAX_STACKS distinct stacks are kept, and
 * TIMEPROF_MAX_CAPS capabilities counted one by one (the samples of capabilities above
 * it are counted together in the last slot). */

struct timeprof_options {
    bool has_from, has_to;          /* --from/--to: samples outside are left out */
    uint64_t from_ns, to_ns;
};


struct timeprof;

struct timeprof *timeprof_new(const struct timeprof_options *opt);
void timeprof_free(struct timeprof *tp);

/* The names are read from ccs (owned by the caller, alive as long as tp is used). */
void timeprof_set_names(struct timeprof *tp, const struct costcentres *ccs);

/* A copy of tp as it stands, its names read from ccs (a copy of tp's, for the live
 * server, which draws while the input goes on); NULL when out of memory. */
struct timeprof *timeprof_copy(const struct timeprof *tp, const struct costcentres *ccs);

/* PROF_BEGIN: the tick interval. */
void timeprof_begin(struct timeprof *tp, uint64_t interval_ns);

/* PROF_SAMPLE_COST_CENTRE at time_ns. TABLE_FULL past TIMEPROF_MAX_STACKS stacks. */
enum table_status timeprof_sample(struct timeprof *tp, uint64_t time_ns, uint32_t cap,
                                     const struct ev_ccs *stack);

/* Whether the input has a time profile: a PROF_BEGIN or at least one sample. */
bool timeprof_present(const struct timeprof *tp);
uint64_t timeprof_interval_ns(const struct timeprof *tp);   /* 0: no PROF_BEGIN */
uint64_t timeprof_samples(const struct timeprof *tp);       /* inside the window */
uint64_t timeprof_outside(const struct timeprof *tp);       /* left out by the window */
/* Samples per capability; caps = how many slots are meaningful (highest cap seen + 1). */
const uint64_t *timeprof_cap_samples(const struct timeprof *tp, uint32_t *caps);

/* How many capabilities have samples (the "processors" of the .prof's total time). */
uint32_t timeprof_cap_count(const struct timeprof *tp);

/* The distinct stacks, in order of first appearance (i < timeprof_stack_count). The
 * numbers are innermost first, as in the event. */
uint32_t timeprof_stack_count(const struct timeprof *tp);
uint64_t timeprof_stack(const struct timeprof *tp, uint32_t i, unsigned *depth);
uint32_t timeprof_stack_cc(const struct timeprof *tp, uint32_t i, unsigned k);

/* A cost centre's names (ccframe_lookup with the run's table). */
void timeprof_cc_names(const struct timeprof *tp, uint32_t number, struct cc_frame *out,
                       char scratch[16]);

/* Whether stack i has a system cost centre in it. */
bool timeprof_stack_is_system(const struct timeprof *tp, uint32_t i);

/* Samples kept with or without the system stacks. */
uint64_t timeprof_kept_samples(const struct timeprof *tp, bool system);

/* Per cost centre (not per stack), as the .prof's first table: individual samples (the
 * cost centre innermost) and inherited ones (the cost centre anywhere in the stack,
 * counted once per sample). Sorted by individual, then inherited, largest first. */
struct timeprof_cc_total {
    uint32_t cc;
    uint64_t individual;
    uint64_t inherited;
};
/* *out is malloc'd (caller frees); 0, or -1 when out of memory. */
int timeprof_cc_totals(const struct timeprof *tp, bool system, struct timeprof_cc_total **out,
                       size_t *count);

#endif
