/* png_render.c: drawing a display list with cairo (see png_render.h).
 *
 * One cairo context on an RGB24 image surface, scaled once by the --scale factor so that
 * every item is drawn in the layout's own user units. Each item kind has a small function
 * that mirrors what an SVG renderer does with the element the SVG back-end writes for it.
 * Items with coordinates that are not finite numbers are skipped rather than handed to
 * cairo, and text that is not valid UTF-8 has its bad bytes replaced (cairo would
 * otherwise put the whole context into an error state and draw nothing more): labels
 * come from eventlogs, which are not to be trusted.
 */
#include "render/png_render.h"

#include "base/utf8.h"
#include "chart/textmeasure.h"

#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Dashes for heap-total lines, in user units: what the SVG back-end writes as
 * stroke-dasharray, so both pictures show the same rhythm. */
static const double dash_pattern[] = { 6.0, 4.0 };
/* SVG's default stroke-miterlimit (cairo's own default is 10). */
#define SVG_MITER_LIMIT 4.0

int png_font_check(struct ev_error *err)
{
    FcPattern *pattern = FcNameParse((const FcChar8 *)PNG_FONT_FACE);
    if (!pattern) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    FcPattern *match = FcFontMatch(NULL, pattern, &result);
    FcPatternDestroy(pattern);
    /* fontconfig substitutes any face it has for a missing one, which is fine (the
     * picture stays readable); only a match without a readable font file means cairo
     * would draw boxes or nothing. */
    FcChar8 *file = NULL;
    bool usable = match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
                  file && file[0] && access((const char *)file, R_OK) == 0;
    if (match)
        FcPatternDestroy(match);
    if (!usable) {
        ev_error_set(err, "no usable font: install fonts-dejavu-core (fontconfig finds no "
                     "font for \"%s\" nor any substitute)", PNG_FONT_FACE);
        return -1;
    }
    return 0;
}

/* png_pixel_size for dl's page. */
static int png_image_size(const struct display_list *dl, double scale, int *width,
                          int *height, struct ev_error *err)
{
    return png_pixel_size(dl->width, dl->height, scale, width, height, err);
}

static void set_color(cairo_t *cr, struct dl_color c)
{
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0);
}

static bool has_stroke(const struct dl_item *it)
{
    return it->stroke.a > 0 && it->stroke_width > 0 && isfinite(it->stroke_width);
}

/* Fills and strokes the current path as SVG paints a shape: fill first, stroke on top. */
static void paint_path(cairo_t *cr, const struct dl_item *it, bool fill)
{
    if (fill && it->fill.a > 0) {
        set_color(cr, it->fill);
        cairo_fill_preserve(cr);
    }
    if (has_stroke(it)) {
        set_color(cr, it->stroke);
        cairo_set_line_width(cr, it->stroke_width);
        if (it->dashed)
            cairo_set_dash(cr, dash_pattern, 2, 0);
        cairo_stroke_preserve(cr);
        if (it->dashed)
            cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_new_path(cr);
}

static bool points_finite(const struct dl_item *it)
{
    for (size_t i = 0; i < it->point_count; i++)
        if (!isfinite(it->points[i].x) || !isfinite(it->points[i].y))
            return false;
    return true;
}

/* DL_POLYGON and DL_POLYLINE: an SVG <path d="M.. L.. Z"> and one without Z nor fill. */
static void draw_points(cairo_t *cr, const struct dl_item *it, bool closed)
{
    if (it->point_count < 2 || !points_finite(it))
        return;
    cairo_move_to(cr, it->points[0].x, it->points[0].y);
    for (size_t i = 1; i < it->point_count; i++)
        cairo_line_to(cr, it->points[i].x, it->points[i].y);
    if (closed)
        cairo_close_path(cr);
    /* The SVG back-end gives open lines round joins (sharp corners of a heap-total line
     * would spike) and leaves shapes with SVG's default miter joins. */
    cairo_set_line_join(cr, closed ? CAIRO_LINE_JOIN_MITER : CAIRO_LINE_JOIN_ROUND);
    paint_path(cr, it, closed);
}

/* DL_RECT: an SVG <rect>, which is not drawn at all when its width or height is not
 * positive. */
static void draw_rect(cairo_t *cr, const struct dl_item *it)
{
    if (!isfinite(it->x) || !isfinite(it->y) || !(it->w > 0 && it->h > 0) ||
        !isfinite(it->w) || !isfinite(it->h))
        return;
    cairo_rectangle(cr, it->x, it->y, it->w, it->h);
    paint_path(cr, it, true);
}

/* How much of its advance the text extends left of the anchor: SVG's text-anchor. */
static double anchor_fraction(enum dl_anchor anchor)
{
    switch (anchor) {
    case DL_ANCHOR_MIDDLE:
        return 0.5;
    case DL_ANCHOR_END:
        return 1;
    default:
        return 0;
    }
}

/* DL_TEXT: an SVG <text x y font-size text-anchor transform="rotate(r x y)">, laid out
 * by Pango with the measurer's settings (textmeasure.h), so fallback fonts draw what
 * DejaVu Sans lacks and the advance is the one the layout was planned with. */
static int draw_text(cairo_t *cr, const struct dl_item *it)
{
    if (!it->text || !it->text[0] || it->fill.a == 0 || !(it->font_size > 0) ||
        !isfinite(it->font_size) || !isfinite(it->x) || !isfinite(it->y) ||
        !isfinite(it->rotate))
        return 0;
    char *copy;
    const char *text = utf8_valid(it->text, &copy);
    if (!text)
        return -1;
    cairo_save(cr);
    cairo_translate(cr, it->x, it->y);
    /* Degrees clockwise on a y-down page: cairo's positive angle is the same turn. */
    if (it->rotate != 0)
        cairo_rotate(cr, it->rotate * M_PI / 180.0);
    cairo_move_to(cr, 0, 0);
    set_color(cr, it->fill);
    int rc = text_cairo_show(cr, text, it->font_size, it->bold, anchor_fraction(it->anchor));
    cairo_restore(cr);
    free(copy);
    return rc;
}

/* Grey anti-aliasing (no colour fringes: the image is viewed on any screen) and no
 * hinting, so glyph advances are the font's own and scale exactly with --scale. */
static int set_text_options(cairo_t *cr)
{
    cairo_font_options_t *fo = cairo_font_options_create();
    if (cairo_font_options_status(fo) != CAIRO_STATUS_SUCCESS) {
        cairo_font_options_destroy(fo);
        return -1;
    }
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
    return 0;
}

static int draw_items(cairo_t *cr, const struct display_list *dl)
{
    for (size_t i = 0; i < dl->count; i++) {
        const struct dl_item *it = &dl->items[i];
        switch (it->kind) {
        case DL_POLYGON:
            draw_points(cr, it, true);
            break;
        case DL_POLYLINE:
            draw_points(cr, it, false);
            break;
        case DL_RECT:
            draw_rect(cr, it);
            break;
        case DL_TEXT:
            if (draw_text(cr, it) != 0)
                return -1;
            break;
        }
    }
    return 0;
}

/* The background is opaque whatever its alpha says: the PNG has no alpha channel. */
static void paint_background(cairo_t *cr, struct dl_color bg)
{
    cairo_set_source_rgb(cr, bg.r / 255.0, bg.g / 255.0, bg.b / 255.0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
}

/* The background, then the user-unit scale and SVG's default stroke and fill rules. */
static void prepare(cairo_t *cr, const struct display_list *dl, double sx, double sy)
{
    paint_background(cr, dl->background);
    cairo_scale(cr, sx, sy);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_miter_limit(cr, SVG_MITER_LIMIT);
}

int png_render(const struct display_list *dl, double scale, cairo_surface_t **out,
               struct ev_error *err)
{
    int width, height;
    *out = NULL;
    if (png_image_size(dl, scale, &width, &height, err) != 0)
        return -1;
    if (png_font_check(err) != 0)
        return -1;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        ev_error_set(err, "cannot make a %d x %d image: %s", width, height,
                     cairo_status_to_string(cairo_surface_status(surface)));
        goto fail_surface;
    }
    cairo_t *cr = cairo_create(surface);
    int drawn = -1;
    if (cairo_status(cr) == CAIRO_STATUS_SUCCESS && set_text_options(cr) == 0) {
        /* exactly width x height pixels for the layout's whole page, even when rounding
         * made the ratio differ slightly from scale */
        prepare(cr, dl, width / dl->width, height / dl->height);
        drawn = draw_items(cr, dl);
    }
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (drawn != 0 || st != CAIRO_STATUS_SUCCESS) {
        ev_error_set(err, "cannot draw the chart: %s",
                     st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : "out of memory");
        goto fail_surface;
    }
    cairo_surface_flush(surface);
    *out = surface;
    return 0;

fail_surface:
    cairo_surface_destroy(surface);
    return -1;
}

int png_render_on(cairo_t *cr, const struct display_list *dl, double sx, double sy)
{
    if (set_text_options(cr) != 0)
        return -1;
    prepare(cr, dl, sx, sy);
    return draw_items(cr, dl);
}
