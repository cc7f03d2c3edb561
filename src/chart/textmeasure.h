/* textmeasure.h: text laid out with Pango, shared by every picture format.
 *
 * The chart layout decides where every string goes and whether it must be elided, so it
 * needs the width a string will have once drawn. Text is laid out with Pango (through
 * pangocairo and fontconfig): "DejaVu Sans" first, and for any character that face lacks
 * (CJK, for one) the font fontconfig falls back to, so no script turns into boxes. The
 * SVG layout is measured here and the PNG back-end draws through text_cairo_layout, which
 * configures its layout exactly as the measurer does (same face, unhinted metrics,
 * unrounded glyph positions): the SVG and the PNG of one profile are laid out with the
 * same metrics and nothing overlaps in either.
 *
 * Elision is Pango's own (PANGO_ELLIPSIZE_MIDDLE / END): it cuts between grapheme
 * clusters, never inside a UTF-8 character, and the elided string is read back from the
 * laid-out runs so the SVG shows exactly what the PNG draws.
 *
 * A measurer is not thread-safe. Strings are UTF-8; invalid bytes are measured and drawn
 * as U+FFFD.
 */
#ifndef EV2HP_TEXTMEASURE_H
#define EV2HP_TEXTMEASURE_H

#include <stdbool.h>
#include <stddef.h>

/* cairo's context, declared as cairo.h does (C11 allows the repeated typedef), so that
 * users of the layout need not see cairo's headers. */
typedef struct _cairo cairo_t;

#define TEXT_FONT_FAMILY "DejaVu Sans"

struct textmeasure;

/* NULL when out of memory. */
struct textmeasure *textmeasure_new(void);
void textmeasure_free(struct textmeasure *tm);

/* The advance width of text at font_size user units. */
double text_width(struct textmeasure *tm, const char *text, double font_size, bool bold);

/* How far text drawn at font_size reaches above (*ascent) and below (*descent) its
 * baseline: with logical, the line box the font reserves (what a layout leaves room
 * for: the same for every string of one face and size, unless a fallback font is
 * taller); without, the glyphs' ink (what the eye sees: "ace" has no descent). */
void text_vertical_extent(struct textmeasure *tm, const char *text, double font_size,
                          bool bold, bool logical, double *ascent, double *descent);

/* Copies text into out (out_size bytes), elided in the middle with "…" so that it is at
 * most max_width wide; whole when it fits. Cuts only between characters. Returns
 * true when text had to be elided. */
bool text_elide_middle(struct textmeasure *tm, const char *text, double font_size, bool bold,
                       double max_width, char *out, size_t out_size);

/* The same, keeping the start and eliding at the end. */
bool text_elide_end(struct textmeasure *tm, const char *text, double font_size, bool bold,
                    double max_width, char *out, size_t out_size);

/* For the PNG back-end: draws valid UTF-8 text on cr with its baseline at the current
 * point's y and its start at x - the anchor offset (0, half or all of its advance, as
 * SVG's text-anchor does), with the measurer's settings. 0, or -1 when out of memory. */
int text_cairo_show(cairo_t *cr, const char *text, double font_size, bool bold,
                    double anchor_fraction);

#endif
