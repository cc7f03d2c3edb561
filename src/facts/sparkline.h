/* sparkline.h: a band over the run in eight block characters, for text and Markdown.
 *
 * The summaries (text on a UTF-8 terminal, Markdown in a pull request) show each band's
 * shape as a word of the blocks U+2581 to U+2588 (▁▂▃▄▅▆▇█), one cell per slot of the
 * band's shape (bandstats.h): the window's time from its first census cut into slots of
 * one width (the smallest power of two nanoseconds that makes at most 24 of them), each
 * cell the band's largest value at any census in its slot, exact, from every census read
 * (0 where the band was absent; a slot no census falls in repeats the one before: the
 * band held its value until the next census), on the band's own scale: level
 * round(7 x value / peak), so the cell of its largest census is █ and a cell where it
 * reaches an eighth of its peak is at least ▂. OTHER, whose shape is not kept, is drawn
 * from the view's kept censuses, in as many equal cells.
 */
#ifndef EV2HP_SPARKLINE_H
#define EV2HP_SPARKLINE_H

#include <stddef.h>

#include "model/profile.h"

/* Cells of a summary's sparkline at most (BAND_SHAPE_SLOTS). */
#define SPARKLINE_CELLS 24
/* Bytes a sparkline of SPARKLINE_CELLS takes, with its NUL (3 bytes a block). */
#define SPARKLINE_SIZE (3 * SPARKLINE_CELLS + 1)

/* The sparkline of v->bands[band] into out (size bytes, at least SPARKLINE_SIZE),
 * NUL-terminated: UTF-8, at most SPARKLINE_CELLS cells; "" when the view has no point.
 * Returns its length in bytes. */
size_t sparkline_of(const struct profile_view *v, size_t band, char *out, size_t size);

#endif
