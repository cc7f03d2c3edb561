/* costcentres.h: the cost centres a profiled program declared (HEAP_PROF_COST_CENTRE).
 *
 * Maps a cost-centre number to its label and module, the two things a stack's name is
 * made of, and its source location, which time profiles show in tooltips and summaries.
 * A number declared twice takes its latest names. At most
 * CENSUS_MAX_COST_CENTRES numbers are kept.
 */
#ifndef EV2HP_COSTCENTRES_H
#define EV2HP_COSTCENTRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "census/ccslabel.h"
#include "base/table.h"

struct costcentres;


struct costcentres *costcentres_new(uint32_t max_count);
void costcentres_free(struct costcentres *t);
/* A copy of t with the same numbers and names (the live server draws from a copy while
 * the input goes on defining); NULL when out of memory. */
struct costcentres *costcentres_copy(const struct costcentres *t);

enum table_status costcentres_define(struct costcentres *t, uint32_t number, const char *label,
                                     size_t label_len, const char *module, size_t module_len,
                                     const char *srcloc, size_t srcloc_len);

/* Fills *name for number; false when it was never defined. */
bool costcentres_lookup(const struct costcentres *t, uint32_t number, struct ccs_name *name);

/* The source location of number ("Main.hs:(12,9)-(13,73)", "<built-in>"), NUL-terminated;
 * NULL when it was never defined. */
const char *costcentres_srcloc(const struct costcentres *t, uint32_t number);

#endif
