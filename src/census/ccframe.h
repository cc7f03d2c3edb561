/* ccframe.h: a cost centre as a frame of a stack, named "Module.label".
 *
 * Folded stacks, flame graphs and pprof profiles name a cost centre the same way whether
 * it comes from a heap census's stack (the run's cost-centre table) or from a time
 * profile's samples (timeprof_cc_names): its module, a dot and its label, the label alone
 * when it has no module, "#N" for a number the run never defined, and "MAIN" for the
 * empty stack. The rule lives here so the outputs cannot drift apart. Folded stacks
 * clean the name on their own (stacks_clean_name: their line is ';'-joined frames); only
 * pprof uses the source location (census/srcloc.h splits it into file and line).
 */
#ifndef EV2HP_CCFRAME_H
#define EV2HP_CCFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "census/costcentres.h"

/* The one frame of the empty stack (the runtime's MAIN, as in the .prof and the .hp). */
#define CCFRAME_EMPTY_STACK "MAIN"

/* A cost centre's names. Undefined numbers get "#N" as label and empty module and
 * source location. */
struct cc_frame {
    const char *label;
    size_t label_len;
    const char *module;
    size_t module_len;
    const char *srcloc;             /* NUL-terminated */
};

/* Fills *out for number from ccs (which may be NULL: every number undefined); scratch
 * holds the "#N" of an undefined number, so *out lives as long as ccs and scratch. */
void ccframe_lookup(const struct costcentres *ccs, uint32_t number, struct cc_frame *out,
                    char scratch[16]);

/* The frame name, "Module.label" ("label" without a module), as the names are. Writes at
 * most size-1 bytes and a NUL (nothing when size is 0); returns the length it needed. */
size_t ccframe_name(const struct cc_frame *cc, char *out, size_t size);

#endif
