/* sparkline.h: a band over the run in eight block characters, for text and Markdown.
 *
 * The summaries (text on a UTF-8 terminal, Markdown in a pull request) show each band's
 * shape as a word of the blocks U+2581 to U+2588 (▁▂▃▄▅▆▇█): the run's time, from the
 * view's first kept census to its last, cut into equal cells, each showing the largest
 * value the band has at a kept census in it (a cell no census falls in repeats the one
 * before: the band held its value until the next census), on the band's own scale from
 * 0 (▁) to its largest kept value (█), as the detail view draws its sparklines.
 */
#ifndef EV2HP_SPARKLINE_H
#define EV2HP_SPARKLINE_H

#include <stddef.h>

#include "model/profile.h"

/* Cells of a summary's sparkline: fewer when the view keeps fewer censuses. */
#define SPARKLINE_CELLS 24
/* Bytes a sparkline of SPARKLINE_CELLS takes, with its NUL (3 bytes a block). */
#define SPARKLINE_SIZE (3 * SPARKLINE_CELLS + 1)

/* The sparkline of v->bands[band] into out (size bytes, at least SPARKLINE_SIZE),
 * NUL-terminated: UTF-8, at most SPARKLINE_CELLS cells; "" when the view has no point.
 * Returns its length in bytes. */
size_t sparkline_of(const struct profile_view *v, size_t band, char *out, size_t size);

#endif
