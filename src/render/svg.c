/* svg.c: the SVG back-end (see svg.h): draws a display list, deciding nothing. */
#include "render/svg.h"

#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/utf8.h"
#include "base/grow.h"
#include "render/xmlquiet.h"

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

/* Text XML 1.0 can carry (utf8_xml_text), in b. */
static const char *clean_text(struct strbuf *b, const char *text)
{
    b->len = 0;
    if (sb_reserve(b, strlen(text) * 3) != 0)
        return NULL;
    b->len = utf8_xml_text(text, b->data);
    return b->data;
}

struct svg_writer {
    xmlTextWriterPtr w;
    struct strbuf scratch;
    struct strbuf text;
    int rc;
};

static void attr(struct svg_writer *sw, const char *name, const char *value)
{
    if (sw->rc >= 0)
        sw->rc = xmlTextWriterWriteAttribute(sw->w, BAD_CAST name, BAD_CAST value);
}

static void attr_number(struct svg_writer *sw, const char *name, double v)
{
    struct strbuf *b = &sw->scratch;
    b->len = 0;
    if (sb_reserve(b, 32) != 0) {
        sw->rc = -1;
        return;
    }
    sb_number(b, v);
    attr(sw, name, b->data);
}

static void attr_color(struct svg_writer *sw, const char *name, struct dl_color c)
{
    char hex[8];
    if (c.a == 0) {
        attr(sw, name, "none");
        return;
    }
    dl_color_hex(c, hex);
    attr(sw, name, hex);
    if (c.a != 255) {
        char opacity[32];
        snprintf(opacity, sizeof opacity, "%s-opacity", name);
        char value[16];
        format_snprintf(value, sizeof value, "%.3g", c.a / 255.0);
        attr(sw, opacity, value);
    }
}

static void start(struct svg_writer *sw, const char *element)
{
    if (sw->rc >= 0)
        sw->rc = xmlTextWriterStartElement(sw->w, BAD_CAST element);
}

static void end(struct svg_writer *sw)
{
    if (sw->rc >= 0)
        sw->rc = xmlTextWriterEndElement(sw->w);
}

static void string(struct svg_writer *sw, const char *text)
{
    const char *clean = clean_text(&sw->text, text);
    if (!clean)
        sw->rc = -1;
    else if (sw->rc >= 0)
        sw->rc = xmlTextWriterWriteString(sw->w, BAD_CAST clean);
}

static void title_child(struct svg_writer *sw, const char *title)
{
    if (!title)
        return;
    start(sw, "title");
    string(sw, title);
    end(sw);
}

static void stroke_attrs(struct svg_writer *sw, const struct dl_item *it)
{
    if (it->stroke.a == 0)
        return;
    attr_color(sw, "stroke", it->stroke);
    attr_number(sw, "stroke-width", it->stroke_width);
    if (it->dashed)
        attr(sw, "stroke-dasharray", "6 4");
}

static void path_item(struct svg_writer *sw, const struct dl_item *it)
{
    struct strbuf *b = &sw->scratch;
    b->len = 0;
    if (sb_reserve(b, it->point_count * 28 + 4) != 0) {
        sw->rc = -1;
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
    start(sw, "path");
    attr(sw, "class", it->role ? it->role : "shape");
    attr(sw, "d", b->data);
    attr_color(sw, "fill", it->kind == DL_POLYGON ? it->fill : (struct dl_color){ 0 });
    stroke_attrs(sw, it);
    if (it->kind == DL_POLYLINE)
        attr(sw, "stroke-linejoin", "round");
}

static void rect_item(struct svg_writer *sw, const struct dl_item *it)
{
    start(sw, "rect");
    attr(sw, "class", it->role ? it->role : "shape");
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
    start(sw, "text");
    attr(sw, "class", it->role ? it->role : "text");
    /* Browsers ignore xml:space on the root: keep runs of spaces (the subtitle's
     * separators) as the layout measured them. */
    if (strstr(it->text, "  "))
        attr(sw, "style", "white-space:pre");
    attr_number(sw, "x", it->x);
    attr_number(sw, "y", it->y);
    attr_number(sw, "font-size", it->font_size);
    attr_color(sw, "fill", it->fill);
    if (it->anchor != DL_ANCHOR_START)
        attr(sw, "text-anchor", anchors[it->anchor]);
    if (it->bold)
        attr(sw, "font-weight", "bold");
    if (it->rotate != 0) {
        char transform[96];
        format_snprintf(transform, sizeof transform, "rotate(%.1f %.1f %.1f)", it->rotate, it->x, it->y);
        attr(sw, "transform", transform);
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
        string(sw, it->text);
    end(sw);
}

static void document(struct svg_writer *sw, const struct display_list *dl)
{
    if (sw->rc >= 0)
        sw->rc = xmlTextWriterStartDocument(sw->w, "1.0", "UTF-8", NULL);
    start(sw, "svg");
    attr(sw, "xmlns", "http://www.w3.org/2000/svg");
    char box[96];
    format_snprintf(box, sizeof box, "0 0 %g %g", dl->width, dl->height);
    attr(sw, "viewBox", box);
    attr_number(sw, "width", dl->width);
    attr_number(sw, "height", dl->height);
    /* DejaVu Sans first, as the layout was measured with it; then the CJK faces fontconfig
     * falls back to in the PNG (Debian's fonts-noto-cjk, fonts-droid-fallback). */
    attr(sw, "font-family", "'DejaVu Sans', 'Noto Sans CJK SC', 'Droid Sans Fallback', "
                            "Verdana, Arial, sans-serif");
    attr(sw, "xml:space", "preserve");
    title_child(sw, dl->title ? dl->title : "heap profile");
    start(sw, "desc");
    string(sw, "Heap profile chart drawn by ev2hp");
    end(sw);
    start(sw, "rect");
    attr(sw, "class", "background");
    attr(sw, "width", "100%");
    attr(sw, "height", "100%");
    attr_color(sw, "fill", dl->background);
    end(sw);
    for (size_t i = 0; i < dl->count && sw->rc >= 0; i++)
        item(sw, &dl->items[i]);
    if (sw->rc >= 0)
        sw->rc = xmlTextWriterEndDocument(sw->w);
}

int svg_write(FILE *out, const struct display_list *dl)
{
    xml_quiet();   /* a failed write is reported once, by the caller, with the file */
    xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
    if (!buf)
        return -1;
    struct svg_writer sw = { .w = xmlNewTextWriter(buf) };
    if (!sw.w) {
        xmlOutputBufferClose(buf);
        return -1;
    }
    document(&sw, dl);
    if (sw.rc >= 0)
        sw.rc = xmlTextWriterFlush(sw.w);
    xmlFreeTextWriter(sw.w);   /* closes buf; the FILE stays open (outfile commits it) */
    free(sw.scratch.data);
    free(sw.text.data);
    if (sw.rc < 0 || fflush(out) != 0 || ferror(out)) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}
