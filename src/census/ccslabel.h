/* ccslabel.h: cost-centre stack labels, formatted as the GHC runtime formats them.
 *
 * The runtime's .hp names a -hc band by its stack: the cost-centre labels innermost first,
 * joined by '/', a cost centre labelled "CAF" written as "Module.CAF", the empty stack (the
 * MAIN stack, which the eventlog records as depth 0) as "MAIN". A name longer than the
 * -L limit is cut to its first L-4 characters and "...". This mirrors fprint_ccs() in
 * rts/ProfHeap.c byte for byte, including where a trailing '/' makes a name too long.
 */
#ifndef EV2HP_CCSLABEL_H
#define EV2HP_CCSLABEL_H

#include <stddef.h>

#include "base/limits.h"

struct ccs_name {
    const char *label;
    size_t label_len;
    const char *module;
    size_t module_len;
};

/* The runtime's default -L. */
#define CCS_LENGTH_DEFAULT 25u

/* Writes the label of the stack names[0..depth) (innermost first) into out, which has room
 * for max_length + 1 bytes, and returns its length. max_length is clamped to
 * [CCS_LENGTH_MIN, CCS_LENGTH_MAX]. */
size_t ccs_label_format(char *out, unsigned max_length, const struct ccs_name *names,
                        unsigned depth);

/* The whole label of the stack, as the runtime would print it with no length limit: what
 * charts, CSV, JSON and summaries show (only the .hp keeps the -L form). A malloc'd
 * string of *len bytes, NUL-terminated, or NULL when out of memory. */
char *ccs_label_whole(const struct ccs_name *names, unsigned depth, size_t *len);

#endif
