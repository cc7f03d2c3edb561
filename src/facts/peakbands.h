/* peakbands.h: each band's bytes in the run's peak census, for the bands of a table.
 *
 * The report's peak list sums a grouping's bands from each band's bytes in the peak
 * census (the run's "peak" names only its largest bands), so every band of its table
 * needs its own: this is that figure, worked out here so that the report's writer
 * (sink_html.c) only packs it. The peak is the run model's, of the window's censuses
 * (--from/--to). A band the census lists more than once (entries of one band) is summed.
 */
#ifndef EV2HP_PEAKBANDS_H
#define EV2HP_PEAKBANDS_H

#include <stddef.h>
#include <stdint.h>

#include "model/peak.h"
#include "model/profile.h"

/* Into out[i] (t->count of them), the bytes of t->bands[i] in pk's census (0 where the
 * census has none of it); band_cap: the number of bands the run has. 0, or -1 when out of
 * memory. */
int peakbands_of_table(const struct peak *pk, uint32_t band_cap, const struct profile_table *t,
                       uint64_t *out);

#endif
