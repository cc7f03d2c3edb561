/* textmeasure.c: text metrics and drawing through Pango (see textmeasure.h).
 *
 * One PangoContext on pangocairo's font map, with unhinted metrics and unrounded glyph
 * positions: widths are the fonts' own advances, which scale linearly, so the layout in
 * user units holds at every --scale and matches a browser's unhinted layout of the SVG.
 * Font sizes are absolute (user units), independent of any resolution setting.
 */
#include "chart/textmeasure.h"

#include "base/utf8.h"

#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>

struct textmeasure {
    PangoContext *ctx;
    PangoLayout *layout;
};

/* The settings every measured or drawn layout gets. */
static void configure_context(PangoContext *ctx)
{
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(ctx, fo);
    cairo_font_options_destroy(fo);
    pango_context_set_round_glyph_positions(ctx, FALSE);
}

static void configure_layout(PangoLayout *layout, const char *text, double font_size, bool bold)
{
    PangoFontDescription *desc = pango_font_description_new();
    pango_font_description_set_family_static(desc, TEXT_FONT_FAMILY);
    pango_font_description_set_weight(desc, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_absolute_size(desc, font_size * PANGO_SCALE);
    pango_layout_set_font_description(layout, desc);
    pango_font_description_free(desc);
    /* a label with a newline in it stays one line (the newline shown as a glyph) */
    pango_layout_set_single_paragraph_mode(layout, TRUE);
    pango_layout_set_width(layout, -1);
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE);
    pango_layout_set_text(layout, text, -1);
}

void textmeasure_free(struct textmeasure *tm)
{
    if (!tm)
        return;
    if (tm->layout)
        g_object_unref(tm->layout);
    if (tm->ctx)
        g_object_unref(tm->ctx);
    free(tm);
}

struct textmeasure *textmeasure_new(void)
{
    struct textmeasure *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;
    PangoFontMap *fm = pango_cairo_font_map_get_default();
    tm->ctx = fm ? pango_font_map_create_context(fm) : NULL;
    if (!tm->ctx) {
        free(tm);
        return NULL;
    }
    configure_context(tm->ctx);
    tm->layout = pango_layout_new(tm->ctx);
    if (!tm->layout) {
        textmeasure_free(tm);
        return NULL;
    }
    return tm;
}

static double layout_width(PangoLayout *layout)
{
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    return (double)logical.width / PANGO_SCALE;
}

double text_width(struct textmeasure *tm, const char *text, double font_size, bool bold)
{
    char *copy;
    const char *valid = utf8_valid(text, &copy);
    if (!valid)
        return 0;
    configure_layout(tm->layout, valid, font_size, bold);
    free(copy);
    return layout_width(tm->layout);
}

void text_vertical_extent(struct textmeasure *tm, const char *text, double font_size,
                          bool bold, bool logical, double *ascent, double *descent)
{
    char *copy;
    const char *valid = utf8_valid(text, &copy);
    *ascent = *descent = 0;
    if (!valid)
        return;
    configure_layout(tm->layout, valid, font_size, bold);
    free(copy);
    PangoRectangle ink, line;
    pango_layout_get_extents(tm->layout, &ink, &line);
    const PangoRectangle *r = logical ? &line : &ink;
    if (r->height <= 0)
        return;   /* spaces only: no ink */
    double baseline = (double)pango_layout_get_baseline(tm->layout) / PANGO_SCALE;
    *ascent = baseline - (double)r->y / PANGO_SCALE;
    *descent = (double)(r->y + r->height) / PANGO_SCALE - baseline;
}

/* Copies the first at most n bytes of text that end on a character boundary. */
static void copy_whole(const char *text, size_t n, char *out, size_t out_size)
{
    if (n >= out_size)
        n = out_size - 1;
    n = utf8_boundary(text, n);
    memcpy(out, text, n);
    out[n] = '\0';
}

#define ELLIPSIS "\xe2\x80\xa6"

/* Appends s (n bytes) to out; false when it does not fit. */
static bool append(char *out, size_t out_size, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > out_size)
        return false;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = '\0';
    return true;
}

/* Reads back the text Pango laid out on the (single) line: the kept runs' text, and "…"
 * for the run that stands for what was elided, in logical order. */
static bool read_elided(PangoLayout *layout, const char *text, char *out, size_t out_size)
{
    PangoLayoutLine *line = pango_layout_get_line_readonly(layout, 0);
    if (!line)
        return false;
    /* runs are in visual order: gather them and put them back in logical order */
    size_t n = 0;
    for (GSList *r = line->runs; r; r = r->next)
        n++;
    PangoGlyphItem **runs = malloc((n ? n : 1) * sizeof *runs);
    if (!runs)
        return false;
    n = 0;
    for (GSList *r = line->runs; r; r = r->next)
        runs[n++] = r->data;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && runs[j]->item->offset < runs[j - 1]->item->offset; j--) {
            PangoGlyphItem *t = runs[j];
            runs[j] = runs[j - 1];
            runs[j - 1] = t;
        }
    size_t len = 0;
    bool ok = true;
    out[0] = '\0';
    for (size_t i = 0; i < n && ok; i++) {
        const PangoItem *item = runs[i]->item;
        if (item->analysis.flags & PANGO_ANALYSIS_FLAG_IS_ELLIPSIS)
            ok = append(out, out_size, &len, ELLIPSIS, 3);
        else
            ok = append(out, out_size, &len, text + item->offset, (size_t)item->length);
    }
    free(runs);
    return ok;
}

static bool elide(struct textmeasure *tm, const char *text, double font_size, bool bold,
                  double max_width, char *out, size_t out_size, PangoEllipsizeMode mode)
{
    if (out_size == 0)
        return true;
    char *copy;
    const char *valid = utf8_valid(text, &copy);
    if (!valid) {
        copy_whole(text, strlen(text), out, out_size);
        return false;
    }
    configure_layout(tm->layout, valid, font_size, bold);
    size_t len = strlen(valid);
    bool cut = true;
    if (layout_width(tm->layout) <= max_width && len < out_size) {
        memcpy(out, valid, len + 1);
        cut = false;
    } else {
        pango_layout_set_width(tm->layout, (int)(max_width > 0 ? max_width * PANGO_SCALE : 0));
        pango_layout_set_ellipsize(tm->layout, mode);
        if (!pango_layout_is_ellipsized(tm->layout) ||
            !read_elided(tm->layout, valid, out, out_size)) {
            /* too long for out even elided (or nothing to elide): keep what fits */
            if (len < out_size && !pango_layout_is_ellipsized(tm->layout)) {
                memcpy(out, valid, len + 1);
                cut = false;
            } else {
                copy_whole(ELLIPSIS, 3, out, out_size);
            }
        }
    }
    free(copy);
    return cut;
}

bool text_elide_middle(struct textmeasure *tm, const char *text, double font_size, bool bold,
                       double max_width, char *out, size_t out_size)
{
    return elide(tm, text, font_size, bold, max_width, out, out_size, PANGO_ELLIPSIZE_MIDDLE);
}

bool text_elide_end(struct textmeasure *tm, const char *text, double font_size, bool bold,
                    double max_width, char *out, size_t out_size)
{
    return elide(tm, text, font_size, bold, max_width, out, out_size, PANGO_ELLIPSIZE_END);
}

int text_cairo_show(cairo_t *cr, const char *text, double font_size, bool bold,
                    double anchor_fraction)
{
    PangoLayout *layout = pango_cairo_create_layout(cr);
    if (!layout)
        return -1;
    configure_context(pango_layout_get_context(layout));
    pango_layout_context_changed(layout);
    configure_layout(layout, text, font_size, bold);
    double baseline = (double)pango_layout_get_baseline(layout) / PANGO_SCALE;
    double x, y;
    cairo_get_current_point(cr, &x, &y);
    cairo_move_to(cr, x - anchor_fraction * layout_width(layout), y - baseline);
    pango_cairo_show_layout(cr, layout);
    cairo_new_path(cr);
    g_object_unref(layout);
    return 0;
}
