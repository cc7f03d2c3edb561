/* ratio_profiles.c: two time profiles whose cost centres changed by exact ratios, for
 * tests/timecompare.sh (the differential flame graph's colours).
 *
 *     ratio_profiles BASE NOW
 *
 * Each run samples main's callees (every sample's stack is main, then one of them) at a
 * 1 ms interval: in BASE, 100 samples each; in NOW, held 100 (no change), up5 105
 * (+5 %), up50 150 (+50 %), up100 200 (+100 %), down5 95 (-5 %) and down50 50 (-50 %).
 * NOW then has 700 samples to BASE's 600, so normalised to each run's total (--diff-
 * normalize) held is a share that fell by a seventh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evwriter.h"

#define MS 1000000ull

static const char *const callees[] = { "held", "up5", "up50", "up100", "down5", "down50" };
static const unsigned now_samples[] = { 100, 105, 150, 200, 95, 50 };
#define CALLEES (sizeof callees / sizeof *callees)

static int write_run(const char *path, const char *program, bool now)
{
    struct evw *w = evw_new();
    const char *argv[] = { program, "+RTS", "-p", "-l", "-RTS" };
    evw_ghc9_header(w, true);
    evw_program_args(w, 1, argv, 5);
    evw_time_begin(w, 2, MS);
    evw_cost_centre_at(w, 3, 1, "main", "Main", "Ratio.hs:3:1-20");
    for (uint32_t i = 0; i < CALLEES; i++)
        evw_cost_centre_at(w, 4 + i, 2 + i, callees[i], "Main", "Ratio.hs:9:1-30");
    uint64_t tick = 0;
    for (uint32_t i = 0; i < CALLEES; i++) {
        const uint32_t stack[] = { 2 + i, 1 };   /* innermost first */
        for (unsigned k = 0; k < (now ? now_samples[i] : 100); k++, tick++)
            evw_time_sample(w, (tick + 1) * MS, 0, tick, stack, 2);
    }
    evw_data_end(w);
    int rc = evw_save(w, path) != 0;
    evw_free(w);
    if (rc)
        perror(path);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: ratio_profiles BASE NOW\n", stderr);
        return 2;
    }
    return write_run(argv[1], "ratio-base", false) || write_run(argv[2], "ratio-now", true);
}
