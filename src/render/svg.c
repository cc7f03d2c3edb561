/* svg.c: the SVG back-end (see svg.h): draws a display list, deciding nothing. */
#include "render/svg.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/grow.h"
#include "render/xmlout.h"

struct strbuf {
    char *data;
    size_t len, cap;
};

static int sb_reserve(struct strbuf *b, size_t more)
{
    if (more > SIZE_MAX - b->len - 1)
        return -1;
    return GROW_ARRAY(b->data, &b->cap, b->len + more + 1);
}

static void sb_putc(struct strbuf *b, char c)
{
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

/* Appends v with at most one decimal, without a trailing ".0": "12.5", "-3", "100". */
static void sb_number(struct strbuf *b, double v)
{
    char tmp[FORMAT_TENTHS_MAX];
    size_t n = format_tenths(v, tmp);
    for (size_t i = 0; i < n; i++)
        sb_putc(b, tmp[i]);
}

struct svg_writer {
    struct xml_out x;
    struct strbuf scratch;
};

static void attr_number(struct svg_writer *sw, const char *name, double v)
{
    struct strbuf *b = &sw->scratch;
    b->len = 0;
    if (sb_reserve(b, 32) != 0) {
        sw->x.rc = -1;
        return;
    }
    sb_number(b, v);
    xml_out_attr(&sw->x, name, b->data);
}

static void attr_color(struct svg_writer *sw, const char *name, struct dl_color c)
{
    char hex[8];
    if (c.a == 0) {
        xml_out_attr(&sw->x, name, "none");
        return;
    }
    dl_color_hex(c, hex);
    xml_out_attr(&sw->x, name, hex);
    if (c.a != 255) {
        char opacity[32];
        snprintf(opacity, sizeof opacity, "%s-opacity", name);
        char value[16];
        format_snprintf(value, sizeof value, "%.3g", c.a / 255.0);
        xml_out_attr(&sw->x, opacity, value);
    }
}

static void title_child(struct svg_writer *sw, const char *title)
{
    if (!title)
        return;
    xml_out_start(&sw->x, "title");
    xml_out_string(&sw->x, title);
    xml_out_end(&sw->x);
}

static void stroke_attrs(struct svg_writer *sw, const struct dl_item *it)
{
    if (it->stroke.a == 0)
        return;
    attr_color(sw, "stroke", it->stroke);
    attr_number(sw, "stroke-width", it->stroke_width);
    if (it->dashed)
        xml_out_attr(&sw->x, "stroke-dasharray", "6 4");
}

static void path_item(struct svg_writer *sw, const struct dl_item *it)
{
    struct strbuf *b = &sw->scratch;
    b->len = 0;
    if (sb_reserve(b, it->point_count * 28 + 4) != 0) {
        sw->x.rc = -1;
        return;
    }
    for (size_t i = 0; i < it->point_count; i++) {
        sb_putc(b, i == 0 ? 'M' : (i == 1 ? 'L' : ' '));
        sb_number(b, it->points[i].x);
        sb_putc(b, ' ');
        sb_number(b, it->points[i].y);
    }
    if (it->kind == DL_POLYGON)
        sb_putc(b, 'Z');
    xml_out_start(&sw->x, "path");
    xml_out_attr(&sw->x, "class", it->role ? it->role : "shape");
    xml_out_attr(&sw->x, "d", b->data);
    attr_color(sw, "fill", it->kind == DL_POLYGON ? it->fill : (struct dl_color){ 0 });
    stroke_attrs(sw, it);
    if (it->kind == DL_POLYLINE)
        xml_out_attr(&sw->x, "stroke-linejoin", "round");
}

static void rect_item(struct svg_writer *sw, const struct dl_item *it)
{
    xml_out_start(&sw->x, "rect");
    xml_out_attr(&sw->x, "class", it->role ? it->role : "shape");
    attr_number(sw, "x", it->x);
    attr_number(sw, "y", it->y);
    attr_number(sw, "width", it->w);
    attr_number(sw, "height", it->h);
    attr_color(sw, "fill", it->fill);
    stroke_attrs(sw, it);
}

static void text_item(struct svg_writer *sw, const struct dl_item *it)
{
    static const char *const anchors[] = { "start", "middle", "end" };
    xml_out_start(&sw->x, "text");
    xml_out_attr(&sw->x, "class", it->role ? it->role : "text");
    /* Browsers ignore xml:space on the root: keep runs of spaces (the subtitle's
     * separators) as the layout measured them. */
    if (strstr(it->text, "  "))
        xml_out_attr(&sw->x, "style", "white-space:pre");
    attr_number(sw, "x", it->x);
    attr_number(sw, "y", it->y);
    attr_number(sw, "font-size", it->font_size);
    attr_color(sw, "fill", it->fill);
    if (it->anchor != DL_ANCHOR_START)
        xml_out_attr(&sw->x, "text-anchor", anchors[it->anchor]);
    if (it->bold)
        xml_out_attr(&sw->x, "font-weight", "bold");
    if (it->rotate != 0) {
        char transform[96];
        format_snprintf(transform, sizeof transform, "rotate(%.1f %.1f %.1f)", it->rotate, it->x, it->y);
        xml_out_attr(&sw->x, "transform", transform);
    }
}

static void item(struct svg_writer *sw, const struct dl_item *it)
{
    switch (it->kind) {
    case DL_POLYGON:
    case DL_POLYLINE:
        path_item(sw, it);
        break;
    case DL_RECT:
        rect_item(sw, it);
        break;
    case DL_TEXT:
        text_item(sw, it);
        break;
    }
    title_child(sw, it->title);
    if (it->kind == DL_TEXT)
        xml_out_string(&sw->x, it->text);
    xml_out_end(&sw->x);
}

static void document(struct svg_writer *sw, const struct display_list *dl)
{
    xml_out_start(&sw->x, "svg");
    xml_out_attr(&sw->x, "xmlns", "http://www.w3.org/2000/svg");
    char box[96];
    format_snprintf(box, sizeof box, "0 0 %g %g", dl->width, dl->height);
    xml_out_attr(&sw->x, "viewBox", box);
    attr_number(sw, "width", dl->width);
    attr_number(sw, "height", dl->height);
    /* DejaVu Sans first, as the layout was measured with it; then the CJK faces fontconfig
     * falls back to in the PNG (Debian's fonts-noto-cjk, fonts-droid-fallback). */
    xml_out_attr(&sw->x, "font-family",
                 "'DejaVu Sans', 'Noto Sans CJK SC', 'Droid Sans Fallback', "
                 "Verdana, Arial, sans-serif");
    xml_out_attr(&sw->x, "xml:space", "preserve");
    title_child(sw, dl->title ? dl->title : "heap profile");
    xml_out_start(&sw->x, "desc");
    xml_out_string(&sw->x, "Heap profile chart drawn by ev2hp");
    xml_out_end(&sw->x);
    xml_out_start(&sw->x, "rect");
    xml_out_attr(&sw->x, "class", "background");
    xml_out_attr(&sw->x, "width", "100%");
    xml_out_attr(&sw->x, "height", "100%");
    attr_color(sw, "fill", dl->background);
    xml_out_end(&sw->x);
    for (size_t i = 0; i < dl->count && sw->x.rc >= 0; i++)
        item(sw, &dl->items[i]);
}

int svg_write(FILE *out, const struct display_list *dl)
{
    struct svg_writer sw = { .scratch = { 0 } };
    if (xml_out_open(&sw.x, out, false) != 0)
        return -1;
    document(&sw, dl);
    free(sw.scratch.data);
    return xml_out_close(&sw.x, out);
}
