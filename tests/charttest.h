/* charttest.h: helpers shared by the chart tests: paths in testkit's temporary directory,
 * building small eventlogs with evwriter, running a conversion, reading an SVG back with
 * libxml2.
 * Header-only (static functions) so each test stays one program.
 */
#ifndef EV2HP_CHARTTEST_H
#define EV2HP_CHARTTEST_H

#include <math.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/chart.h"
#include "chart/textmeasure.h"
#include "convert.h"
#include "evwriter.h"
#include "testkit.h"

/* testkit_dir()/name in the caller's buffer (testkit_path's buffers serve four names at a
 * time; a chart test may hold more). The directory is testkit's: the test programs run
 * their groups with testkit_setup_dir and testkit_teardown_dir. */
static inline const char *temp_path(char *buf, size_t size, const char *name)
{
    if ((size_t)snprintf(buf, size, "%s/%s", testkit_dir(), name) >= size)
        abort();   /* a test's buffer too small for its path: fix the test */
    return buf;
}

/* An eventlog with censuses of string bands: bytes[c * nbands + b] at census c. */
static inline void make_eventlog(const char *path, const char *const *labels, size_t nbands,
                                 const uint64_t *bytes, size_t ncensuses)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    const char *argv[] = { "prog", "+RTS", "-hT", "-l" };
    evw_program_args(w, 0, argv, 4);
    evw_prof_begin(w, 0, 7, 100000000);
    for (size_t c = 0; c < ncensuses; c++) {
        uint64_t t = (c + 1) * 100000000ull;
        evw_sample_begin(w, t, 0);
        for (size_t b = 0; b < nbands; b++)
            if (bytes[c * nbands + b])
                evw_sample_string(w, t, labels[b], bytes[c * nbands + b]);
        evw_sample_end(w, t, 0);
    }
    testkit_finish(w, path);
}

/* Runs ev2hp's conversion from input to one output; returns the exit status. */
static inline int convert_to(const char *input, const char *output, enum output_format format,
                             const struct chart_options *chart)
{
    return testkit_convert(input, output, format, (struct convert_options){ .chart = chart },
                           NULL);
}

static inline bool has_class(xmlNodePtr n, const char *cls)
{
    xmlChar *c = xmlGetProp(n, BAD_CAST "class");
    bool yes = c && strcmp((const char *)c, cls) == 0;
    xmlFree(c);
    return yes;
}

/* The text of n's <title> child, or NULL (caller xmlFrees). */
static inline xmlChar *title_of(xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "title") == 0)
            return xmlNodeGetContent(c);
    return NULL;
}

/* --- text boxes ---------------------------------------------------------------------- */

/* Where a text item's ink lies on the picture: x0 <= x1, y0 <= y1. Horizontally the
 * measured advance placed by the anchor, vertically the glyphs' ink above and below the
 * baseline, both turned with the item (rotations of 0 and -90 degrees, the two the
 * layout uses). */
struct text_box {
    double x0, y0, x1, y1;
    const char *text;
    const char *role;
};

static inline struct text_box text_box_of(struct textmeasure *tm, const struct dl_item *it)
{
    double w = text_width(tm, it->text, it->font_size, it->bold), asc, desc;
    text_vertical_extent(tm, it->text, it->font_size, it->bold, false, &asc, &desc);
    double start = it->anchor == DL_ANCHOR_START ? 0
                 : it->anchor == DL_ANCHOR_MIDDLE ? -w / 2 : -w;
    struct text_box b = { it->x + start, it->y - asc, it->x + start + w, it->y + desc,
                          it->text, it->role };
    if (fabs(it->rotate + 90) < 1e-9) {
        /* rotate(-90) about (x, y): (dx, dy) -> (dy, -dx) */
        b = (struct text_box){ it->x - asc, it->y - (start + w), it->x + desc, it->y - start,
                               it->text, it->role };
    } else if (it->rotate != 0) {
        fail_msg("a text turned by %g degrees: the test knows 0 and -90", it->rotate);
    }
    return b;
}

/* Whether two boxes share more than a sliver (tol user units each way). */
static inline bool text_boxes_overlap(const struct text_box *a, const struct text_box *b,
                                      double tol)
{
    return a->x0 + tol < b->x1 && b->x0 + tol < a->x1 && a->y0 + tol < b->y1 &&
           b->y0 + tol < a->y1;
}

/* Fails, naming both, when two of the n boxes overlap. */
static inline void assert_no_text_overlap(const struct text_box *boxes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (text_boxes_overlap(&boxes[i], &boxes[j], 0.25))
                fail_msg("text overlaps: %s '%s' [%.1f %.1f %.1f %.1f] and %s '%s' "
                         "[%.1f %.1f %.1f %.1f]", boxes[i].role, boxes[i].text, boxes[i].x0,
                         boxes[i].y0, boxes[i].x1, boxes[i].y1, boxes[j].role, boxes[j].text,
                         boxes[j].x0, boxes[j].y0, boxes[j].x1, boxes[j].y1);
}

#endif
