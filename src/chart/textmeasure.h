/* textmeasure.h: text widths from real font metrics, shared by every picture format.
 *
 * The chart layout decides where every string goes and whether it must be elided, so it
 * needs the width a string will have once drawn. Both back-ends draw with "DejaVu Sans"
 * (the SVG names it first in font-family; the PNG back-end selects it in cairo), and this
 * module measures with that same face through cairo's toy font API, so the SVG and the
 * PNG of one profile are laid out identically and nothing overlaps in either.
 *
 * A measurer holds a tiny cairo image surface; it is not thread-safe. Strings are UTF-8.
 */
#ifndef EV2HP_TEXTMEASURE_H
#define EV2HP_TEXTMEASURE_H

#include <stdbool.h>
#include <stddef.h>

#define TEXT_FONT_FAMILY "DejaVu Sans"

struct textmeasure;

/* NULL when out of memory. */
struct textmeasure *textmeasure_new(void);
void textmeasure_free(struct textmeasure *tm);

/* The advance width of text at font_size user units. */
double text_width(struct textmeasure *tm, const char *text, double font_size, bool bold);

/* Copies text into out (out_size bytes), elided in the middle with "…" so that it is at
 * most max_width wide; whole when it fits. Cuts only between UTF-8 characters. Returns
 * true when text had to be elided. */
bool text_elide_middle(struct textmeasure *tm, const char *text, double font_size, bool bold,
                       double max_width, char *out, size_t out_size);

/* The same, keeping the start and eliding at the end. */
bool text_elide_end(struct textmeasure *tm, const char *text, double font_size, bool bold,
                    double max_width, char *out, size_t out_size);

#endif
