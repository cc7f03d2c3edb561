/* vector.h: a display list written as PDF, PostScript or EPS by cairo.
 *
 * The picture back-end for print: the same display list as the SVG and the PNG, drawn
 * with png_render's cairo drawing (png_render_on) onto a cairo PDF or PostScript surface,
 * so shapes stay vector shapes and text stays text (the DejaVu Sans glyphs used are
 * embedded). One CSS pixel of the layout is 0.75 pt, as CSS defines it, so a 1280 x 720
 * chart is a 960 x 540 pt page.
 *
 * Nothing is taken from the clock: the PDF's creation date is set to a fixed value
 * instead of cairo's "now", and the date comment cairo writes at the top of PostScript is
 * replaced by a fixed one as the bytes go out; so the same display list gives the same
 * bytes. The document title (display_list.title) is the PDF's Title and the PostScript
 * %%Title.
 */
#ifndef EV2HP_VECTOR_H
#define EV2HP_VECTOR_H

#include <stdio.h>

#include "base/error.h"
#include "chart/display.h"

enum vector_kind { VECTOR_PDF, VECTOR_PS, VECTOR_EPS };

/* The fixed date written where a document wants one (ISO 8601; the Unix epoch). */
#define VECTOR_FIXED_DATE "1970-01-01T00:00:00Z"

/* Writes dl to out as kind. 0, or -1 with err set (a write error leaves errno set and err
 * naming cairo's status). */
int vector_write(const struct display_list *dl, enum vector_kind kind, FILE *out,
                 struct ev_error *err);

#endif
