/* closuretypes.h: the names of GHC's closure types, as the run's GHC numbers them.
 *
 * Since GHC 9.4 an IPE event gives an info table's closure type as a number ("4"), the
 * runtime's own (rts/include/rts/storage/ClosureTypes.h: 4 is CONSTR_2_0, 8 FUN, 15
 * THUNK, 30 RET_SMALL). The numbering is GHC's and has changed: types are added
 * (CONTINUATION, 64, in GHC 9.6; ANN_FRAME, 65, in 9.14) and were renumbered before
 * IPE events existed (8.x's CONSTR_STATIC ...). So a number is named only for a run
 * whose RTS_IDENTIFIER says a GHC this table knows (9.2 to 9.14) and that numbers it;
 * otherwise it stays a number. GHC 9.2 wrote the name itself, which is kept.
 *
 * GHC (9.10 at least) gives return frames (block_..._info) closure type 53, STACK, in
 * their IPE events, where their info tables say RET_SMALL: the name follows the event.
 */
#ifndef EV2HP_CLOSURETYPES_H
#define EV2HP_CLOSURETYPES_H

#include <stdbool.h>

/* The name of the closure type an IPE event gives as desc ("4": "CONSTR_2_0"), for a run
 * whose RTS_IDENTIFIER is rts_identifier ("GHC-9.10.3 rts_v"; NULL: not known); NULL
 * when it cannot be told (an unknown GHC, a number it does not have). desc that is not a
 * number is a name already: itself. */
const char *closure_type_name(const char *desc, const char *rts_identifier);

/* The GHC version an RTS_IDENTIFIER says ("GHC-9.10.3 ..." -> 9, 10): false when none. */
bool closure_ghc_version(const char *rts_identifier, unsigned *major, unsigned *minor);

#endif
