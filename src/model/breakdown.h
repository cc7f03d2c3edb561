/* breakdown.h: what a heap profile is broken down by (-hc, -hm, ... -he), and its name.
 *
 * The runtime says it in the heap profile's header event (run_info.breakdown); the
 * assembler uses the number to decide how bands are keyed, and every writer that
 * describes the run (the chart's subtitle, the summary, the JSON export) names it with
 * the same words from here.
 */
#ifndef EV2HP_BREAKDOWN_H
#define EV2HP_BREAKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum breakdown {
    BREAKDOWN_UNKNOWN = 0,
    BREAKDOWN_COST_CENTRE = 1,
    BREAKDOWN_MODULE = 2,
    BREAKDOWN_CLOSURE_DESCR = 3,
    BREAKDOWN_TYPE_DESCR = 4,
    BREAKDOWN_RETAINER = 5,
    BREAKDOWN_BIOGRAPHY = 6,
    BREAKDOWN_CLOSURE_TYPE = 7,
    BREAKDOWN_INFO_TABLE = 8,
    BREAKDOWN_ERA = 9,
};

/* The breakdown a .hp's JOB line asked for (its last +RTS -hX), or BREAKDOWN_UNKNOWN. */
uint32_t breakdown_from_job(const char *job);

/* "by cost-centre stack", "by closure type", ...; BREAKDOWN_UNKNOWN (a .hp whose JOB line
 * names no +RTS -h option) "breakdown unknown"; later values get "by breakdown N". */
const char *breakdown_words(uint32_t breakdown, char *scratch, size_t scratch_size);

/* When a run broken down by `now` is compared with a base broken down by `base` and both
 * are known and differ: true, with the words for it in out ("this run is broken down by
 * closure type and the --compare base by cost-centre stack: their bands do not
 * correspond"). An unknown breakdown is no evidence of a mismatch. */
bool breakdown_mismatch(uint32_t now, uint32_t base, char *out, size_t size);

#endif
