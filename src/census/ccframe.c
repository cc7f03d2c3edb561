/* ccframe.c: a cost centre's frame name, for folded stacks and pprof (see ccframe.h). */
#include "census/ccframe.h"

#include <stdio.h>
#include <string.h>

void ccframe_lookup(const struct costcentres *ccs, uint32_t number, struct cc_frame *out,
                    char scratch[16])
{
    struct ccs_name name;
    if (ccs && costcentres_lookup(ccs, number, &name)) {
        const char *src = costcentres_srcloc(ccs, number);
        *out = (struct cc_frame){ name.label, name.label_len, name.module, name.module_len,
                                  src ? src : "" };
        return;
    }
    int n = snprintf(scratch, 16, "#%lu", (unsigned long)number);
    *out = (struct cc_frame){ scratch, (size_t)n, "", 0, "" };
}

/* Appends s (len bytes) at out[at], as far as size-1 bytes go; returns the new length. */
static size_t put(char *out, size_t size, size_t at, const char *s, size_t len)
{
    if (at + 1 < size)
        memcpy(out + at, s, at + len < size - 1 ? len : size - 1 - at);
    return at + len;
}

size_t ccframe_name(const struct cc_frame *cc, char *out, size_t size)
{
    size_t at = 0;
    if (cc->module_len) {
        at = put(out, size, at, cc->module, cc->module_len);
        at = put(out, size, at, ".", 1);
    }
    at = put(out, size, at, cc->label, cc->label_len);
    if (size)
        out[at < size ? at : size - 1] = '\0';
    return at;
}
