/* growth.h: --compare in the summary: the bands whose peak grew most over the base's.
 *
 * Bands are matched between the runs by label as charts show it (a .hp's "(123)" stack
 * number dropped, bands_shown_label), so an eventlog compares with a .hp of the same
 * program. The match is a hash join: the base's labels go into an interning table once,
 * and each band of this run is one look-up, not a scan of every base band.
 */
#ifndef EV2HP_GROWTH_H
#define EV2HP_GROWTH_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

/* A band whose peak grew from the base to this run. */
struct band_growth {
    const char *label;             /* as in now's view (owned by it) */
    uint64_t base, now;            /* peaks in bytes; base 0 when new */
};

/* The bands of now whose peak is larger than the base's band of the same label (0 when
 * the base has none), largest growth first (equal growth: by label), at most max of
 * them into out. When the base view shows a label twice (two "(n)" stacks of one name),
 * the first it shows (the larger by area) is the one compared with. OTHER, in either
 * view, matches nothing and is never listed. Their number, or -1 when out of memory. */
long growth_rank(const struct profile_view *base, const struct profile_view *now,
                 struct band_growth *out, size_t max);

#endif
