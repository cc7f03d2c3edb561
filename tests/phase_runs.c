/* phase_runs.c: writes small eventlogs of markers and censuses for --phases' edge cases
 * (tests/phases.sh; census/phases.h).
 *
 *     phase_runs OUTPUT ITEM...
 *
 * Each ITEM, in the order given, is one of
 *     c:MS:A:B     a census at MS milliseconds: band "a" of A bytes, band "b" of B bytes
 *     m:MS:TEXT    a marker (traceMarker) at MS milliseconds
 * after a GHC 9 header and a -hT heap profile's begin, so a test states exactly which
 * censuses each phase holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evwriter.h"

#define MS 1000000ull

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: phase_runs OUTPUT ITEM...\n");
        return 2;
    }
    struct evw *w = evw_new();
    if (!w)
        return 1;
    static const char *const args[] = { "phases", "+RTS", "-hT", "-l", "-RTS" };
    evw_ghc9_header(w, true);
    evw_program_args(w, 1, args, 5);
    evw_prof_begin(w, 2, 7 /* closure type */, 10 * MS);
    for (int i = 2; i < argc; i++) {
        char kind;
        unsigned long long ms, a, b;
        int used = 0;
        if (sscanf(argv[i], "c:%llu:%llu:%llu%n", &ms, &a, &b, &used) == 3 && !argv[i][used]) {
            evw_two_band_census(w, ms * MS, "a", a, "b", b);
        } else if (sscanf(argv[i], "%c:%llu:%n", &kind, &ms, &used) == 2 && kind == 'm' &&
                   used) {
            evw_marker(w, ms * MS, argv[i] + used);
        } else {
            fprintf(stderr, "phase_runs: not an item: %s\n", argv[i]);
            evw_free(w);
            return 2;
        }
    }
    evw_data_end(w);
    int rc = evw_save(w, argv[1]) == 0 ? 0 : 1;
    evw_free(w);
    return rc;
}
