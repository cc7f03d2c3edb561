/* peakbands.c: each table band's bytes in the peak census (see peakbands.h). */
#include "facts/peakbands.h"

#include <stdlib.h>

int peakbands_of_table(const struct peak *pk, uint32_t band_cap, const struct profile_table *t,
                       uint64_t *out)
{
    uint64_t *by_band = calloc(band_cap ? band_cap : 1, sizeof *by_band);
    if (!by_band)
        return -1;
    for (size_t e = 0; e < pk->count; e++)
        if (pk->entries[e].band < band_cap)
            by_band[pk->entries[e].band] += pk->entries[e].bytes;
    for (size_t i = 0; i < t->count; i++)
        out[i] = t->bands[i].band < band_cap ? by_band[t->bands[i].band] : 0;
    free(by_band);
    return 0;
}
