/* closuretypes.c: closure type numbers to names per GHC version (closuretypes.h). */
#include "census/closuretypes.h"

#include <stdlib.h>
#include <string.h>

/* rts/include/rts/storage/ClosureTypes.h, GHC 9.2 to 9.14 (the same numbers for the
 * types they share; later types appended). */
static const char *const names[] = {
    "INVALID_OBJECT", "CONSTR", "CONSTR_1_0", "CONSTR_0_1", "CONSTR_2_0", "CONSTR_1_1",
    "CONSTR_0_2", "CONSTR_NOCAF", "FUN", "FUN_1_0", "FUN_0_1", "FUN_2_0", "FUN_1_1",
    "FUN_0_2", "FUN_STATIC", "THUNK", "THUNK_1_0", "THUNK_0_1", "THUNK_2_0", "THUNK_1_1",
    "THUNK_0_2", "THUNK_STATIC", "THUNK_SELECTOR", "BCO", "AP", "PAP", "AP_STACK", "IND",
    "IND_STATIC", "RET_BCO", "RET_SMALL", "RET_BIG", "RET_FUN", "UPDATE_FRAME",
    "CATCH_FRAME", "UNDERFLOW_FRAME", "STOP_FRAME", "BLOCKING_QUEUE", "BLACKHOLE",
    "MVAR_CLEAN", "MVAR_DIRTY", "TVAR", "ARR_WORDS", "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY", "MUT_ARR_PTRS_FROZEN_DIRTY", "MUT_ARR_PTRS_FROZEN_CLEAN",
    "MUT_VAR_CLEAN", "MUT_VAR_DIRTY", "WEAK", "PRIM", "MUT_PRIM", "TSO", "STACK",
    "TREC_CHUNK", "ATOMICALLY_FRAME", "CATCH_RETRY_FRAME", "CATCH_STM_FRAME", "WHITEHOLE",
    "SMALL_MUT_ARR_PTRS_CLEAN", "SMALL_MUT_ARR_PTRS_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_DIRTY", "SMALL_MUT_ARR_PTRS_FROZEN_CLEAN", "COMPACT_NFDATA",
    "CONTINUATION", "ANN_FRAME",
};

/* How many of the names a GHC major.minor has (its N_CLOSURE_TYPES), or 0: not known. */
static unsigned types_in(unsigned major, unsigned minor)
{
    if (major != 9 || minor < 2 || minor > 14)
        return 0;
    return minor >= 14 ? 66 : minor >= 6 ? 65 : 64;
}

bool closure_ghc_version(const char *rts_identifier, unsigned *major, unsigned *minor)
{
    if (!rts_identifier || strncmp(rts_identifier, "GHC-", 4) != 0)
        return false;
    char *end;
    unsigned long a = strtoul(rts_identifier + 4, &end, 10);
    if (end == rts_identifier + 4 || *end != '.')
        return false;
    const char *m = end + 1;
    unsigned long b = strtoul(m, &end, 10);
    if (end == m || a > 1000 || b > 1000)
        return false;
    *major = (unsigned)a;
    *minor = (unsigned)b;
    return true;
}

const char *closure_type_name(const char *desc, const char *rts_identifier)
{
    size_t len = strlen(desc);
    if (len == 0)
        return NULL;
    if (strspn(desc, "0123456789") != len)
        return desc;
    unsigned major, minor;
    if (len > 3 || !closure_ghc_version(rts_identifier, &major, &minor))
        return NULL;
    unsigned long n = strtoul(desc, NULL, 10);
    return n < types_in(major, minor) ? names[n] : NULL;
}
