/* growth.h: --compare in the summary: every band of both runs, paired, with its change.
 *
 * The bands of the base and of this run are paired by the one matching rule
 * (model/bandmatch.h: same label, renumbered stack, a .hp's cut label, an -hi table's
 * location), and each band either run shows becomes one change: its peak in each run
 * (absent where the run has no such band) and how it was matched. The summaries list
 * them all (JSON's compare.bands) and the largest changes both ways (grew most, shrank
 * most), new and gone bands included.
 */
#ifndef EV2HP_GROWTH_H
#define EV2HP_GROWTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/bandmatch.h"
#include "model/profile.h"

/* One band of either run. */
struct band_change {
    const char *label;             /* this run's label; the base's when only it has one
                                    * (owned by the views) */
    const char *base_label;        /* the base's label, or NULL when only now has it */
    bool in_base, in_now;
    uint64_t base, now;            /* peaks in bytes; 0 where the run lacks the band */
    enum band_match how;
};

/* Whether the summaries say how a band was matched: renumbered, location, and cut where
 * the base's label as shown differs from this run's (a short label a .hp did not cut
 * reads the same in both runs, and saying "cut" on each would drown the ones that were). */
bool band_change_says_match(const struct band_change *c);

/* The change now - base in bytes, held to what int64 says. */
int64_t band_change_bytes(const struct band_change *c);

/* Every band of both views (OTHER in either is left out), paired by bandmatch, in order
 * of change: the largest growth first, the largest shrinkage last (equal change: by
 * label). *out is malloc'd (caller frees), *count long. 0, or -1 when out of memory. */
int growth_changes(const struct bandmatch_view *base, const struct bandmatch_view *now,
                   struct band_change **out, size_t *count);

#endif
