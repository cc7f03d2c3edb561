/* png_encode.h: a drawn image surface written as a PNG file with libpng.
 *
 * The PNG back-end's encoding half: 8-bit RGB without alpha (the chart has an opaque
 * background), zlib level 6 with libpng's adaptive filters (charts are flat colour and
 * shrink a lot), an sRGB chunk (the layout's colours are CSS sRGB colours, as in the SVG),
 * a pHYs chunk saying how dense the pixels are (96 per inch times --scale), and text
 * chunks Title, Software and Source. Nothing comes from the clock (no tIME chunk), so the
 * same surface and metadata always give the same bytes.
 *
 * Text chunks are tEXt when their text is plain ASCII and iTXt (UTF-8) otherwise, since
 * tEXt is Latin-1 by definition and titles are UTF-8 program arguments.
 */
#ifndef EV2HP_PNG_ENCODE_H
#define EV2HP_PNG_ENCODE_H

#include <cairo.h>
#include <stdio.h>

#include "base/limits.h"
#include "base/error.h"


struct png_metadata {
    const char *title;    /* the Title chunk (the JOB line or --title); NULL: none */
    const char *source;   /* the Source chunk (the input's file name); NULL: none */
    double scale;         /* pixels per user unit, for pHYs; 0 means 1 */
};

/* Writes surface (CAIRO_FORMAT_RGB24 or ARGB32, whose alpha is dropped) to out as a PNG.
 * The Software chunk is "ev2hp VERSION". out is not closed nor flushed beyond what libpng
 * asks. 0, or -1 with err set (errno tells why a write failed). */
int png_encode(cairo_surface_t *surface, const struct png_metadata *meta, FILE *out,
               struct ev_error *err);

#endif
