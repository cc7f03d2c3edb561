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

static struct dl_item *append(struct display_list *dl, enum dl_kind kind, const char *role)
{
    if (GROW_ARRAY(dl->items, &dl->cap, dl->count + 1) != 0)
        return NULL;
    struct dl_item *it = &dl->items[dl->count++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->role = role;
    return it;
}

/* append for an item that is to own copy (points or text): NULL, with copy freed, when
 * copy is NULL or the list cannot grow. */
static struct dl_item *append_owning(struct display_list *dl, enum dl_kind kind,
                                     const char *role, void *copy)
{
    struct dl_item *it = copy ? append(dl, kind, role) : NULL;
    if (!it)
        free(copy);
    return it;
}

static struct dl_item *with_points(struct display_list *dl, enum dl_kind kind,
                                   const struct dl_point *pts, size_t n, const char *role)
{
    struct dl_point *copy = malloc((n ? n : 1) * sizeof *copy);
    if (copy)
        memcpy(copy, pts, n * sizeof *copy);
    struct dl_item *it = append_owning(dl, kind, role, copy);
    if (it) {
        it->points = copy;
        it->point_count = n;
    }
    return it;
}

struct dl_item *display_polygon(struct display_list *dl, const struct dl_point *pts, size_t n,
                                struct dl_color fill, struct dl_color stroke, double stroke_width,
                                const char *role)
{
    struct dl_item *it = with_points(dl, DL_POLYGON, pts, n, role);
    if (it) {
        it->fill = fill;
        it->stroke = stroke;
        it->stroke_width = stroke_width;
    }
    return it;
}

struct dl_item *display_polyline(struct display_list *dl, const struct dl_point *pts, size_t n,
                                 struct dl_color stroke, double stroke_width, bool dashed,
                                 const char *role)
{
    struct dl_item *it = with_points(dl, DL_POLYLINE, pts, n, role);
    if (it) {
        it->stroke = stroke;
        it->stroke_width = stroke_width;
        it->dashed = dashed;
    }
    return it;
}

struct dl_item *display_rect(struct display_list *dl, double x, double y, double w, double h,
                             struct dl_color fill, struct dl_color stroke, double stroke_width,
                             const char *role)
{
    struct dl_item *it = append(dl, DL_RECT, role);
    if (it) {
        it->x = x;
        it->y = y;
        it->w = w;
        it->h = h;
        it->fill = fill;
        it->stroke = stroke;
        it->stroke_width = stroke_width;
    }
    return it;
}

struct dl_item *display_text(struct display_list *dl, double x, double y, const char *text,
                             double font_size, struct dl_color color, enum dl_anchor anchor,
                             bool bold, double rotate, const char *role)
{
    char *copy = strdup(text);
    struct dl_item *it = append_owning(dl, DL_TEXT, role, copy);
    if (it) {
        it->x = x;
        it->y = y;
        it->text = copy;
        it->font_size = font_size;
        it->fill = color;
        it->anchor = anchor;
        it->bold = bold;
        it->rotate = rotate;
    }
    return it;
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
