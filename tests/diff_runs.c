/* diff_runs.c: writes small -hc eventlogs of two bands for the diff's edge cases
 * (tests/diff_export.sh, tests/diff_browser.sh).
 *
 *     diff_runs CENSUSES FIRST LAST GROW HOLD OUTPUT
 *
 * CENSUSES censuses evenly from FIRST to LAST seconds (one census: at FIRST); the band
 * "grow" rises linearly from 0 at the first census to GROW bytes at the last, the band
 * "hold" is HOLD bytes in every census. So a test knows every band's value at every
 * moment of the run without reading it back.
 */
#include <stdio.h>
#include <stdlib.h>

#include "evwriter.h"

#define SECOND 1e9

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: diff_runs CENSUSES FIRST LAST GROW HOLD OUTPUT\n");
        return 2;
    }
    unsigned long censuses = strtoul(argv[1], NULL, 10);
    double first = strtod(argv[2], NULL), last = strtod(argv[3], NULL);
    double grow = strtod(argv[4], NULL), hold = strtod(argv[5], NULL);
    struct evw *w = evw_new();
    if (!w || censuses == 0)
        return 1;
    static const char *const args[] = { "diffrun", "+RTS", "-hc", "-l", "-RTS" };
    evw_ghc9_header(w, true);
    evw_program_args(w, 1, args, 5);
    evw_cost_centre(w, 2, 1, "grow", "Main");
    evw_cost_centre(w, 2, 2, "hold", "Main");
    evw_prof_begin(w, 3, 1 /* cost-centre stack */, (uint64_t)(SECOND / 10));
    for (unsigned long i = 0; i < censuses; i++) {
        double share = censuses > 1 ? (double)i / (double)(censuses - 1) : 0;
        uint64_t t = (uint64_t)((first + share * (last - first)) * SECOND);
        uint32_t g = 1, h = 2;
        evw_sample_begin(w, t, i + 1);
        evw_sample_stack(w, t + 1, (uint64_t)(share * grow), &g, 1);
        evw_sample_stack(w, t + 1, (uint64_t)hold, &h, 1);
        evw_sample_end(w, t + 2, i + 1);
    }
    evw_data_end(w);
    int rc = evw_save(w, argv[6]) == 0 ? 0 : 1;
    evw_free(w);
    return rc;
}
