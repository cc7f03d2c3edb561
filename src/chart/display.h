/* display.h: the display list, the only thing the picture back-ends draw.
 *
 * The chart layout (chart.c) turns a profile into a display list: filled shapes, lines,
 * rectangles and text, in drawing order, in user units where 1 unit is 1 CSS pixel
 * (the PNG back-end multiplies by --scale). Every coordinate, colour and font size is
 * decided here once, so the SVG and the PNG of one profile show the same picture; the
 * back-ends translate items one to one and decide nothing.
 *
 * Ownership: the list owns its items and copies every string and point array given to
 * it (display_* functions), so a layout can build from temporary buffers. Text is UTF-8.
 */
#ifndef EV2HP_DISPLAY_H
#define EV2HP_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dl_color {
    uint8_t r, g, b, a;           /* a = 255 is opaque */
};

/* The colour as "#rrggbb" (its alpha left out), for SVG and the report's data. */
void dl_color_hex(struct dl_color c, char hex[8]);

struct dl_point {
    double x, y;
};

enum dl_kind {
    DL_POLYGON,                   /* a closed filled shape, optionally outlined */
    DL_POLYLINE,                  /* an open stroked line */
    DL_RECT,                      /* an axis-aligned rectangle, filled and/or outlined */
    DL_TEXT,                      /* one line of text */
};

enum dl_anchor { DL_ANCHOR_START, DL_ANCHOR_MIDDLE, DL_ANCHOR_END };

struct dl_item {
    enum dl_kind kind;
    struct dl_color fill;         /* a = 0: not filled */
    struct dl_color stroke;       /* a = 0: not stroked */
    double stroke_width;
    bool dashed;                  /* strokes: dashed (heap totals) */
    /* DL_POLYGON, DL_POLYLINE */
    struct dl_point *points;
    size_t point_count;
    /* DL_RECT: x, y, w, h; DL_TEXT: x, y is the anchor on the baseline */
    double x, y, w, h;
    /* DL_TEXT */
    char *text;
    double font_size;             /* in user units */
    bool bold;
    enum dl_anchor anchor;
    double rotate;                /* degrees, clockwise, about (x, y): -90 for y labels */
    /* Any item: a tooltip (SVG <title>), e.g. a band's full label; NULL if none. */
    char *title;
    /* Any item: what it is, for SVG classes and tests: "band", "axis", "legend", ... */
    const char *role;             /* a static string, not copied */
};

struct display_list {
    double width, height;         /* user units */
    struct dl_color background;
    char *title;                  /* the document title (SVG <title>, PNG Title chunk) */
    struct dl_item *items;
    size_t count;
    size_t cap;
};

void display_init(struct display_list *dl, double width, double height,
                  struct dl_color background);
void display_free(struct display_list *dl);

/* Each returns the new item (for extra settings such as title, via display_set_title),
 * or NULL when out of memory. */
struct dl_item *display_polygon(struct display_list *dl, const struct dl_point *pts, size_t n,
                                struct dl_color fill, struct dl_color stroke, double stroke_width,
                                const char *role);
struct dl_item *display_polyline(struct display_list *dl, const struct dl_point *pts, size_t n,
                                 struct dl_color stroke, double stroke_width, bool dashed,
                                 const char *role);
struct dl_item *display_rect(struct display_list *dl, double x, double y, double w, double h,
                             struct dl_color fill, struct dl_color stroke, double stroke_width,
                             const char *role);
struct dl_item *display_text(struct display_list *dl, double x, double y, const char *text,
                             double font_size, struct dl_color color, enum dl_anchor anchor,
                             bool bold, double rotate, const char *role);

/* Copies title into the item (tooltips) or the list (document title). 0 or -1. */
int display_set_title(struct dl_item *item, const char *title);
int display_set_document_title(struct display_list *dl, const char *title);

#endif
