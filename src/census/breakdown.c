/* breakdown.c: the names of the breakdowns (see breakdown.h). */
#include "census/breakdown.h"

#include <stdio.h>

const char *breakdown_words(uint32_t breakdown, char *scratch, size_t scratch_size)
{
    static const char *const words[] = {
        [BREAKDOWN_COST_CENTRE] = "by cost-centre stack",
        [BREAKDOWN_MODULE] = "by module",
        [BREAKDOWN_CLOSURE_DESCR] = "by closure description",
        [BREAKDOWN_TYPE_DESCR] = "by type",
        [BREAKDOWN_RETAINER] = "by retainer set",
        [BREAKDOWN_BIOGRAPHY] = "by biography",
        [BREAKDOWN_CLOSURE_TYPE] = "by closure type",
        [BREAKDOWN_INFO_TABLE] = "by info table",
        [BREAKDOWN_ERA] = "by era",
    };
    if (breakdown < sizeof words / sizeof *words && words[breakdown])
        return words[breakdown];
    snprintf(scratch, scratch_size, "by breakdown %lu", (unsigned long)breakdown);
    return scratch;
}
