/* display.c: building display lists (see display.h). */
#include "chart/display.h"
#include "base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void display_init(struct display_list *dl, double width, double height,
                  struct dl_color background)
{
    memset(dl, 0, sizeof *dl);
    dl->width = width;
    dl->height = height;
    dl->background = background;
}

void display_free(struct display_list *dl)
{
    for (size_t i = 0; i < dl->count; i++) {
        free(dl->items[i].points);
        free(dl->items[i].text);
        free(dl->items[i].title);
    }
    free(dl->items);
    free(dl->title);
    memset(dl, 0, sizeof *dl);
}

/* Appends a copy of item (a compound literal naming the kind, the role and the fields its
 * kind uses; every field it does not name is zero): the new item, or NULL when the list
 * cannot grow. */
static struct dl_item *append(struct display_list *dl, const struct dl_item *item)
{
    if (GROW_ARRAY(dl->items, &dl->cap, dl->count + 1) != 0)
        return NULL;
    struct dl_item *it = &dl->items[dl->count++];
    *it = *item;
    return it;
}

/* append for an item that is to own copy (its points or text, already set in item): NULL,
 * with copy freed, when copy is NULL or the list cannot grow. */
static struct dl_item *append_owning(struct display_list *dl, const struct dl_item *item,
                                     void *copy)
{
    struct dl_item *it = copy ? append(dl, item) : NULL;
    if (!it)
        free(copy);
    return it;
}

/* append for a polygon or polyline: item with a copy of pts[0..n) as its points. */
static struct dl_item *with_points(struct display_list *dl, struct dl_item item,
                                   const struct dl_point *pts, size_t n)
{
    struct dl_point *copy = copy_array(pts, n, sizeof *copy);
    item.points = copy;
    item.point_count = n;
    return append_owning(dl, &item, copy);
}

struct dl_item *display_polygon(struct display_list *dl, const struct dl_point *pts, size_t n,
                                struct dl_color fill, struct dl_color stroke, double stroke_width,
                                const char *role)
{
    return with_points(dl, (struct dl_item){ .kind = DL_POLYGON, .fill = fill, .stroke = stroke,
                                             .stroke_width = stroke_width, .role = role },
                       pts, n);
}

struct dl_item *display_polyline(struct display_list *dl, const struct dl_point *pts, size_t n,
                                 struct dl_color stroke, double stroke_width, bool dashed,
                                 const char *role)
{
    return with_points(dl, (struct dl_item){ .kind = DL_POLYLINE, .stroke = stroke,
                                             .stroke_width = stroke_width, .dashed = dashed,
                                             .role = role },
                       pts, n);
}

struct dl_item *display_rect(struct display_list *dl, double x, double y, double w, double h,
                             struct dl_color fill, struct dl_color stroke, double stroke_width,
                             const char *role)
{
    return append(dl, &(struct dl_item){ .kind = DL_RECT, .x = x, .y = y, .w = w, .h = h,
                                         .fill = fill, .stroke = stroke,
                                         .stroke_width = stroke_width, .role = role });
}

struct dl_item *display_text(struct display_list *dl, double x, double y, const char *text,
                             double font_size, struct dl_color color, enum dl_anchor anchor,
                             bool bold, double rotate, const char *role)
{
    char *copy = strdup(text);
    return append_owning(dl, &(struct dl_item){ .kind = DL_TEXT, .x = x, .y = y, .text = copy,
                                                .font_size = font_size, .fill = color,
                                                .anchor = anchor, .bold = bold,
                                                .rotate = rotate, .role = role },
                         copy);
}

/* *slot replaced by a copy of s: 0, or -1 when out of memory (*slot kept). */
static int replace_copy(char **slot, const char *s)
{
    char *copy = strdup(s);
    if (!copy)
        return -1;
    free(*slot);
    *slot = copy;
    return 0;
}

int display_set_title(struct dl_item *item, const char *title)
{
    return replace_copy(&item->title, title);
}

int display_set_document_title(struct display_list *dl, const char *title)
{
    return replace_copy(&dl->title, title);
}

void dl_color_hex(struct dl_color c, char hex[8])
{
    snprintf(hex, 8, "#%02x%02x%02x", c.r, c.g, c.b);
}
