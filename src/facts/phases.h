/* phases.h: the facts of each phase (--phases), as the summaries, gates and JUnit say them.
 *
 * A phase (census/phases.h) is a window of the run; the run model keeps every band's
 * exact statistics over each phase's censuses (run_model_phase), and this module works
 * out, once, what every output says of a phase:
 *
 *   - its start, and its end (a marker's time, or the run's end for the last phase of
 *     `--phases marker`: the run's duration), and the censuses in it;
 *   - its peak: the largest census total among them (every band; exact);
 *   - its growth: the least-squares slope of the census totals against their times, in
 *     bytes per second (the sum of every band's slope, which is the slope of the sum);
 *     none with fewer than two censuses at distinct times;
 *   - the band that grew most: the largest slope of a band in it, when one grew by 1 B/s
 *     or more (none otherwise);
 *   - its leak suspects, by the rule of the whole run (model/bandstats.h), judged on the
 *     phase's censuses alone: the rise from its first census to each band's peak in it;
 *   - the gates judged on it (gates.h's gates_check_phase: all but --max-increase).
 *
 * A phase without a census has no peak, growth or suspect: the outputs say so (censuses
 * 0, has_heap false) instead of writing numbers, and its gates cannot be checked.
 */
#ifndef EV2HP_FACTS_PHASES_H
#define EV2HP_FACTS_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "census/phases.h"
#include "facts/gates.h"
#include "model/profile.h"

struct run_model;   /* runmodel.h */

struct phase_suspect {
    uint32_t band;
    double rise, rise_r2;          /* the rise to its peak, bytes per second, and its R^2 */
    uint64_t peak_ns;              /* when it peaked */
};

struct phase_facts {
    const char *name;              /* the phase list's (borrowed) */
    uint64_t start_ns, end_ns;     /* end_ns: the run's end when to_end */
    bool to_end;                   /* the phase runs to the run's end */
    uint64_t censuses;
    bool has_heap;                 /* censuses > 0: peak, and suspects, are known */
    uint64_t peak_bytes;
    bool has_growth;               /* two censuses at distinct times at least */
    double growth;                 /* bytes per second */
    bool has_grew_most;
    uint32_t grew_most;            /* the band that grew most */
    double grew_most_growth;
    size_t suspect_count;          /* largest rise first */
    struct phase_suspect suspects[PROFILE_SUSPECTS_LISTED];
    struct gate_report gates;      /* the gates asked for, of this phase */
};

struct phase_report {
    size_t count;
    struct phase_facts *phases;    /* in the list's order (by start) */
};

/* The facts of every phase of list over run (finished; its needs.phases were list's
 * windows), with the gates of limits judged on each. 0, or -1 with err set (out of
 * memory); out is to be freed with phase_report_free in any case. */
int phase_report_of(const struct run_model *run, const struct phase_list *list,
                    const struct gate_limits *limits, struct phase_report *out,
                    struct ev_error *err);
void phase_report_free(struct phase_report *r);

/* The windows of list's phases for the run model (run_model_needs.phases): into out,
 * list->count of them. */
void phase_windows(const struct phase_list *list, struct time_window *out);

/* The verdict of the gates of every phase: the first unchecked gate (a CI job must not take
 * it for a pass) or else the first failed one; NULL when all passed. */
const struct gate *phase_report_deciding(const struct phase_report *r);

#endif
