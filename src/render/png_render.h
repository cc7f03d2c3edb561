/* png_render.h: a display list drawn with cairo onto an image surface.
 *
 * The PNG back-end's drawing half. It translates display-list items one to one into
 * cairo calls with the meaning an SVG renderer gives the same item (fill then stroke,
 * nonzero fill, miter joins with SVG's miter limit, text-anchor measured on the advance
 * width, rotation clockwise about the anchor), so the PNG looks like the SVG of the same
 * layout. It decides nothing about the layout itself.
 *
 * Text goes through Pango (textmeasure.h): "DejaVu Sans" with fontconfig's fallback for
 * the characters it lacks (CJK among them), unhinted metrics so that advances scale
 * linearly with --scale and agree with the layout's measurements. A system without any
 * font would draw empty boxes; png_render refuses instead.
 *
 * Ownership: png_render returns a new surface the caller destroys with
 * cairo_surface_destroy. Nothing here prints.
 */
#ifndef EV2HP_PNG_RENDER_H
#define EV2HP_PNG_RENDER_H

#include <cairo.h>
#include <stddef.h>

#include "base/limits.h"
#include "chart/display.h"
#include "base/error.h"

/* The face both back-ends lay text out with (Debian: fonts-dejavu-core). */
#define PNG_FONT_FACE "DejaVu Sans"

/* Whether fontconfig resolves a real font file for PNG_FONT_FACE (or, failing that, any
 * face it substitutes). 0, or -1 with err set to "no usable font: ...". */
int png_font_check(struct ev_error *err);

/* Draws dl at scale (PNG_SCALE_MIN..PNG_SCALE_MAX: more pixels, the same layout) on a
 * new CAIRO_FORMAT_RGB24 surface painted with dl->background. 0 and *out, or -1 with err
 * set (no usable font, too big, out of memory, a cairo failure). */
int png_render(const struct display_list *dl, double scale, cairo_surface_t **out,
               struct ev_error *err);

/* The drawing itself, for every cairo back-end (vector.h draws PDF and PostScript with
 * it): paints dl's background and items on cr, user units scaled by sx and sy. 0, or -1
 * when out of memory (cairo's own errors are in cairo_status(cr)). */
int png_render_on(cairo_t *cr, const struct display_list *dl, double sx, double sy);

#endif
