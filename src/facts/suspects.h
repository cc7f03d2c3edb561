/* suspects.h: the leak suspects of a view, the one place they are found.
 *
 * A band is a suspect by model/bandstats.h's rule (profile_is_suspect: it rose steadily to
 * its peak, by enough of the heap's peak), judged on the statistics the view carries
 * over its window. Every output that names suspects (the summaries, the report's data,
 * --max-growth, each phase's facts, the detail view through chart_options.suspects) asks
 * this module, so none applies the rule itself (tests/layers.py checks that no module
 * outside model/ and facts/ calls the rule).
 */
#ifndef EV2HP_SUSPECTS_H
#define EV2HP_SUSPECTS_H

#include <stddef.h>

#include "model/profile.h"

/* The suspects of v: up to max indices into v->bands, by the slope of their rise,
 * largest first (the max fastest when there are more); OTHER is never one. Returns how
 * many it put in out. */
size_t suspects_of(const struct profile_view *v, size_t *out, size_t max);

#endif
