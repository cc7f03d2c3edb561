/* runstacks.h: the stacks an output of the run shows (folded stacks, flame graphs).
 *
 * Folded output, the flame and icicle views and the report's flame graph show either the
 * time profile or one heap census (census/foldstacks.h), and with --compare the base's
 * of the same kind beside it (the differential form). Which one is decided here, once
 * for all of them: the time profile when the input has one and --at was not given; else
 * the heap census of the peak, or the last at or before --at, when the heap profile's
 * bands are stacks (-hc, -hi). What is shown is said in words for the pictures'
 * subtitles.
 */
#ifndef EV2HP_RUNSTACKS_H
#define EV2HP_RUNSTACKS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "model/stacks.h"
#include "sink/sink.h"

struct runstacks {
    struct stacks *stacks;          /* differential with a base */
    bool heap;                      /* a heap census (bytes), else the time profile */
    bool at;                        /* heap: chosen by --at */
    uint64_t census_ns, base_census_ns;   /* heap: the censuses' times */
};

/* The run's stacks for an output (system: keep the runtime's own cost centres; flame:
 * for a picture, which says "draw" where folded output says "fold"). 0; or -1 with err
 * set to why there is nothing to show, or errno ENOMEM. */
int runstacks_open(const struct sink_context *ctx, bool system, bool flame,
                   struct runstacks *out, struct ev_error *err);
void runstacks_close(struct runstacks *rs);

/* What the stacks are, for a subtitle: "the time profile · 1234 samples @ 1 ms = ..."
 * or "the heap census at 4.21 s (the peak) · 131 MiB"; with a base, its part too. */
void runstacks_describe(const struct runstacks *rs, const struct sink_context *ctx,
                        char *out, size_t size);

#endif
