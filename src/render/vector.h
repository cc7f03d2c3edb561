/* vector.h: a display list written as PDF, PostScript or EPS by cairo.
 *
 * The picture back-end for print: the same display list as the SVG and the PNG, drawn
 * with png_render's cairo drawing (png_render_on) onto a cairo PDF or PostScript surface,
 * so shapes stay vector shapes and text stays text (the DejaVu Sans glyphs used are
 * embedded). One CSS pixel of the layout is 0.75 pt, as CSS defines it, so a 1280 x 720
 * chart is a 960 x 540 pt page.
 *
 * Nothing is taken from the clock: a document carries the creation date it is given
 * (SOURCE_DATE_EPOCH, for reproducible builds) or none, never cairo's "now" nor a made-up
 * one. In PDF the date given replaces cairo's (an empty one makes cairo leave it out); in
 * PostScript the date comment cairo writes at the top is replaced, or dropped, as the
 * bytes go out. So the same display list and date give the same bytes. The document title (display_list.title) is the PDF's Title and the PostScript
 * %%Title.
 */
#ifndef EV2HP_VECTOR_H
#define EV2HP_VECTOR_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "chart/display.h"

enum vector_kind { VECTOR_PDF, VECTOR_PS, VECTOR_EPS };

/* Writes dl to out as kind, created at *date (Unix seconds; NULL: no date). 0, or -1 with
 * err set (a write error leaves errno set and err naming cairo's status). */
int vector_write(const struct display_list *dl, enum vector_kind kind, const int64_t *date,
                 FILE *out, struct ev_error *err);

#endif
