/* error.h: the error record library code fills in and main prints.
 *
 * Library code never prints. It returns a status and, where something went wrong, says
 * what and where in an ev_error: main turns that into "ev2hp: FILE: offset N: what".
 */
#ifndef EV2HP_ERROR_H
#define EV2HP_ERROR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/format.h"   /* EV_PRINTF; messages are formatted in the C locale */

struct ev_error {
    bool has_offset;   /* whether offset means anything (not for an I/O error) */
    uint64_t offset;   /* byte offset in the input where the problem is */
    /* A warning that is no damage: what the run lacks or how to see more of it (no
     * census, tables without names, censuses held back). The summaries and the report
     * list these as notes, apart from the damage. */
    bool note;
    char what[256];    /* what is wrong, without the file name or offset */
};

void ev_error_at(struct ev_error *err, uint64_t offset, const char *fmt, ...) EV_PRINTF(3, 4);
void ev_error_set(struct ev_error *err, const char *fmt, ...) EV_PRINTF(2, 3);
/* ev_error_set, for a warning that is a note (above). */
void ev_error_note(struct ev_error *err, const char *fmt, ...) EV_PRINTF(2, 3);

#endif
