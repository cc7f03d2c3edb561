/* autogroup_runs.c: writes -hc eventlogs of many equal stacks for the default grouping's
 * edge cases (tests/autogroup.sh; census/autogroup.h).
 *
 *     autogroup_runs STACKS MODULES OUTPUT
 *
 * STACKS cost centres, each a stack of its own ("f<i>" in module "M<i mod MODULES>"),
 * each holding 1000 bytes in each of 4 censuses. With --bands 15, OTHER holds
 * (STACKS - 15) / STACKS of the peak; grouped by cc nothing changes (one stack per cost
 * centre), grouped by module OTHER holds what the modules past the 15 largest hold. So a
 * test knows each key's share without reading the run back.
 */
#include <stdio.h>
#include <stdlib.h>

#include "evwriter.h"

#define SECOND 1000000000ull

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: autogroup_runs STACKS MODULES OUTPUT\n");
        return 2;
    }
    unsigned long stacks = strtoul(argv[1], NULL, 10), modules = strtoul(argv[2], NULL, 10);
    struct evw *w = evw_new();
    if (!w || stacks == 0 || modules == 0)
        return 1;
    static const char *const args[] = { "manystacks", "+RTS", "-hc", "-l", "-RTS" };
    evw_ghc9_header(w, true);
    evw_program_args(w, 1, args, 5);
    for (unsigned long i = 0; i < stacks; i++) {
        char label[32], module[32];
        snprintf(label, sizeof label, "f%lu", i);
        snprintf(module, sizeof module, "M%lu", i % modules);
        evw_cost_centre(w, 2, (uint32_t)(i + 1), label, module);
    }
    evw_prof_begin(w, 3, 1 /* cost-centre stack */, SECOND / 10);
    for (uint64_t c = 1; c <= 4; c++) {
        uint64_t t = c * SECOND / 10;
        evw_sample_begin(w, t, c);
        for (unsigned long i = 0; i < stacks; i++) {
            uint32_t cc = (uint32_t)(i + 1);
            evw_sample_stack(w, t + 1, 1000, &cc, 1);
        }
        evw_sample_end(w, t + 2, c);
    }
    evw_data_end(w);
    int rc = evw_save(w, argv[3]) == 0 ? 0 : 1;
    evw_free(w);
    return rc;
}
