/* stacklabels.h: the band table's -hc labels as stacks of indices into one table of frames.
 *
 * The report's band table keeps every band, and a dense -hc run has thousands of stacks
 * whose labels repeat the same few hundred cost-centre names: written out whole they were
 * a megabyte of a 4,000-band run's report. A stack band's label is its frames' texts
 * joined by '/', innermost first (ccslabel.h: a cost centre's label, "Module.CAF" for a
 * CAF, "#N" for a number the run never defined); this module gives each distinct text an
 * index once and each stack band its indices, so the page rebuilds the label by joining.
 * A band whose label is not exactly that join (a string band, a group, the empty stack's
 * "MAIN") has none, and the report writes its label as it is.
 */
#ifndef EV2HP_STACKLABELS_H
#define EV2HP_STACKLABELS_H

#include <stddef.h>
#include <stdint.h>

#include "census/costcentres.h"
#include "model/bands.h"

struct stacklabels;

/* An empty table of frame texts; NULL when out of memory. */
struct stacklabels *stacklabels_new(void);
void stacklabels_free(struct stacklabels *s);

/* The frame indices of band (of bands, labelled label): *depth of them, valid until the
 * next call; NULL when the label is not its stack's frames joined by '/' (then the
 * caller writes the label itself), or out of memory (*depth set to SIZE_MAX). */
const uint32_t *stacklabels_band(struct stacklabels *s, const struct bands *bands,
                                 const struct costcentres *ccs, uint32_t band,
                                 const char *label, size_t *depth);

/* The frame texts given indices so far, in index order. */
uint32_t stacklabels_count(const struct stacklabels *s);
const char *stacklabels_text(const struct stacklabels *s, uint32_t frame, size_t *len);

#endif
