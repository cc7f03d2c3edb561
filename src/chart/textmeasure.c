/* textmeasure.c: text widths with cairo's metrics of DejaVu Sans (see textmeasure.h).
 *
 * cairo_text_extents on a 1x1 image surface gives the advance the PNG back-end will draw
 * with; browsers rendering the SVG with the same face agree to within hinting. Elision
 * searches by halving over character counts, so a long label costs a handful of
 * measurements, not one per character.
 */
#include "chart/textmeasure.h"

#include "base/utf8.h"

#include <cairo.h>
#include <stdlib.h>
#include <string.h>

struct textmeasure {
    cairo_surface_t *surface;
    cairo_t *cr;
    int bold;          /* the face currently selected: -1 none yet */
};

struct textmeasure *textmeasure_new(void)
{
    struct textmeasure *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;
    tm->surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    tm->cr = cairo_create(tm->surface);
    if (cairo_status(tm->cr) != CAIRO_STATUS_SUCCESS) {
        textmeasure_free(tm);
        return NULL;
    }
    /* Metrics unhinted, as a browser scales them: layouts must not depend on pixel grid. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(tm->cr, fo);
    cairo_font_options_destroy(fo);
    tm->bold = -1;
    return tm;
}

void textmeasure_free(struct textmeasure *tm)
{
    if (!tm)
        return;
    if (tm->cr)
        cairo_destroy(tm->cr);
    if (tm->surface)
        cairo_surface_destroy(tm->surface);
    free(tm);
}

static void select_face(struct textmeasure *tm, bool bold)
{
    if (tm->bold == (int)bold)
        return;
    cairo_select_font_face(tm->cr, TEXT_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    tm->bold = bold;
}

double text_width(struct textmeasure *tm, const char *text, double font_size, bool bold)
{
    /* Invalid UTF-8 would put the context in an error state: every later width 0. The
     * back-ends draw such text with U+FFFD, so measure that. */
    char *copy;
    const char *valid = utf8_valid(text, &copy);
    if (!valid)
        return 0;
    cairo_text_extents_t ext;
    select_face(tm, bold);
    cairo_set_font_size(tm->cr, font_size);
    cairo_text_extents(tm->cr, valid, &ext);
    free(copy);
    return ext.x_advance;
}

/* Byte offsets of the UTF-8 character starts of s, and the count; the caller frees. */
static size_t *char_starts(const char *s, size_t len, size_t *count)
{
    size_t *starts = malloc((len + 1) * sizeof *starts);
    if (!starts)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            starts[n++] = i;
    starts[n] = len;
    *count = n;
    return starts;
}

static void copy_whole(const char *text, char *out, size_t out_size)
{
    size_t len = strlen(text);
    if (len >= out_size)
        len = out_size - 1;
    /* never end inside a UTF-8 sequence */
    while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
        len--;
    memcpy(out, text, len);
    out[len] = '\0';
}

#define ELLIPSIS "\xe2\x80\xa6"

/* Builds head characters + "…" + tail characters of text into out; false if too big. */
static bool compose(const char *text, const size_t *starts, size_t count, size_t head,
                    size_t tail, char *out, size_t out_size)
{
    size_t len = starts[count];
    size_t head_bytes = starts[head];
    size_t tail_from = starts[count - tail];
    size_t need = head_bytes + 3 + (len - tail_from) + 1;
    if (need > out_size)
        return false;
    memcpy(out, text, head_bytes);
    memcpy(out + head_bytes, ELLIPSIS, 3);
    memcpy(out + head_bytes + 3, text + tail_from, len - tail_from);
    out[need - 1] = '\0';
    return true;
}

static bool elide(struct textmeasure *tm, const char *text, double font_size, bool bold,
                  double max_width, char *out, size_t out_size, bool middle)
{
    if (out_size == 0)
        return true;
    size_t len = strlen(text);
    if (len < out_size && text_width(tm, text, font_size, bold) <= max_width) {
        memcpy(out, text, len + 1);
        return false;
    }
    size_t count;
    size_t *starts = char_starts(text, len, &count);
    if (!starts) {
        copy_whole(text, out, out_size);
        return false;
    }
    /* The largest number of kept characters that fits, found by halving. */
    size_t lo = 0, hi = count ? count - 1 : 0;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        size_t head = middle ? (mid + 1) / 2 : mid;
        if (compose(text, starts, count, head, mid - head, out, out_size) &&
            text_width(tm, out, font_size, bold) <= max_width)
            lo = mid;
        else
            hi = mid - 1;
    }
    size_t head = middle ? (lo + 1) / 2 : lo;
    if (!compose(text, starts, count, head, lo - head, out, out_size))
        copy_whole(ELLIPSIS, out, out_size);
    free(starts);
    return true;
}

bool text_elide_middle(struct textmeasure *tm, const char *text, double font_size, bool bold,
                       double max_width, char *out, size_t out_size)
{
    return elide(tm, text, font_size, bold, max_width, out, out_size, true);
}

bool text_elide_end(struct textmeasure *tm, const char *text, double font_size, bool bold,
                    double max_width, char *out, size_t out_size)
{
    return elide(tm, text, font_size, bold, max_width, out, out_size, false);
}
