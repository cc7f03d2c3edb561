/* svg.h: a display list written as SVG, streaming through libxml2's xmlTextWriter.
 *
 * Every item becomes one element (<path>, <rect>, <text>), with class set to its role and
 * a <title> child holding its tooltip, in drawing order; the document has a viewBox in
 * user units (CSS px) and a <title>. The writer escapes text itself, and text that is not
 * valid UTF-8 or holds characters XML 1.0 forbids is repaired first (U+FFFD), so any
 * label an eventlog carries gives a well-formed document. No DOM is built.
 */
#ifndef EV2HP_SVG_H
#define EV2HP_SVG_H

#include <stdio.h>

#include "chart/display.h"

/* 0, or -1 when writing failed (errno says why when the system does). */
int svg_write(FILE *out, const struct display_list *dl);

#endif
