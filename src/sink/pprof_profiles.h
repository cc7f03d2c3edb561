/* pprof_profiles.h: ev2hp's heap and time profiles as pprof profiles (pprof.h).
 *
 * What the pprof sink (-o x.pb.gz) writes and the live server's /debug/pprof paths
 * serve, made in one place so that both give the same profile of the same data:
 *
 *   - a heap profile of one census: sample type inuse_space/bytes, one sample per band
 *     (its bytes; the samples sum to the census's total), a label "band" with the band's
 *     label, time_nanos the census's wall-clock time when the eventlog has the run's
 *     start. The frames: for a -hc band the stack of cost centres, leaf first, each a
 *     function "Module.label" with the file and first line of its source location (the
 *     empty stack is one frame, MAIN); for a -hi band named by an IPE event, a frame for
 *     the info table ("table :: type, closure description", the IPE's file and line)
 *     under a frame for its module; for every other band one frame, its label;
 *   - a time profile: sample types samples/count and cpu/nanoseconds (samples times the
 *     tick interval), period cpu/nanoseconds of one tick, one sample per stack, the
 *     stacks and counts of the folded stacks (sink_folded.c): the runtime's own cost
 *     centres left out unless system.
 */
#ifndef EV2HP_PPROF_PROFILES_H
#define EV2HP_PPROF_PROFILES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/frame.h"

struct pprof;
struct bands;
struct costcentres;
struct ipe_names;
struct timeprof;

/* What a heap profile is made from; ccs and ipe may be NULL (a .hp). which says which
 * census it is, for the profile's comment ("the peak"). */
struct pprof_heap_source {
    const struct census_frame *census;
    const struct run_info *info;
    const struct bands *bands;
    const struct costcentres *ccs;
    const struct ipe_names *ipe;
    const char *which;
};

/* The heap profile of src's census; NULL when out of memory (errno). */
struct pprof *pprof_heap_profile(const struct pprof_heap_source *src);

/* The time profile of tp's samples, less before[i] for stack i < before_count (the
 * counts a window began with: the live server's ?seconds=N; NULL, 0 for all), over
 * duration_ns; NULL when out of memory (errno). */
struct pprof *pprof_time_profile(const struct timeprof *tp, const struct run_info *info,
                                 bool system, const uint64_t *before, uint32_t before_count,
                                 uint64_t duration_ns);

#endif
