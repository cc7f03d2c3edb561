/* test_png.c: the PNG back-end, drawing and encoding display lists built by hand.
 *
 * Every test renders a display list with png_render, encodes it with png_encode into
 * memory, and decodes the bytes again with libpng's read API here, so what is checked is
 * the file a user gets: its size, its pixels, its text chunks, its exact bytes. The
 * display lists imitate the chart layout (a plot with a band, a legend with text) without
 * depending on it.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <fontconfig/fontconfig.h>
#include <png.h>

#include "charttest.h"
#include "cli.h"
#include "chart/display.h"
#include "render/png_encode.h"
#include "render/png_render.h"
#include "testkit.h"

static const struct dl_color white = { 255, 255, 255, 255 };
static const struct dl_color bg = { 250, 248, 240, 255 };
static const struct dl_color band = { 31, 119, 180, 255 };
static const struct dl_color ink = { 20, 20, 20, 255 };
static const struct dl_color none = { 0, 0, 0, 0 };

/* --- decoding, with libpng's read API ------------------------------------------------ */

struct decoded {
    unsigned width, height;
    int color_type, bit_depth;
    unsigned char *rgb;           /* width * height * 3 */
    int text_count;
    char keys[8][80];
    char texts[8][PNG_TEXT_MAX + 1];
    int compression[8];           /* PNG_TEXT_COMPRESSION_NONE (tEXt) or PNG_ITXT_... */
};

struct mem_source {
    const unsigned char *data;
    size_t size, pos;
};

static void read_mem(png_structp png, png_bytep out, size_t n)
{
    struct mem_source *m = png_get_io_ptr(png);
    if (n > m->size - m->pos)
        png_error(png, "read past the end");
    memcpy(out, m->data + m->pos, n);
    m->pos += n;
}

static void keep_texts(png_structp png, png_infop info, struct decoded *d)
{
    png_textp t;
    int n = 0;
    png_get_text(png, info, &t, &n);
    for (int i = 0; i < n && d->text_count < 8; i++, d->text_count++) {
        snprintf(d->keys[d->text_count], sizeof d->keys[0], "%s", t[i].key);
        snprintf(d->texts[d->text_count], sizeof d->texts[0], "%s", t[i].text);
        d->compression[d->text_count] = t[i].compression;
    }
}

/* Decodes a whole PNG; 0, or -1 when libpng refuses it. */
static int decode(const unsigned char *data, size_t size, struct decoded *d)
{
    memset(d, 0, sizeof *d);
    struct mem_source m = { data, size, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_infop end = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, &end);
        return -1;
    }
    png_set_read_fn(png, &m, read_mem);
    png_read_info(png, info);
    d->width = png_get_image_width(png, info);
    d->height = png_get_image_height(png, info);
    d->color_type = png_get_color_type(png, info);
    d->bit_depth = png_get_bit_depth(png, info);
    keep_texts(png, info, d);
    d->rgb = malloc((size_t)d->width * d->height * 3);
    for (unsigned y = 0; y < d->height; y++)
        png_read_row(png, d->rgb + (size_t)y * d->width * 3, NULL);
    png_read_end(png, end);
    keep_texts(png, end, d);
    png_destroy_read_struct(&png, &info, &end);
    return 0;
}

static void decoded_free(struct decoded *d)
{
    free(d->rgb);
}

static const unsigned char *pixel(const struct decoded *d, unsigned x, unsigned y)
{
    assert_true(x < d->width && y < d->height);
    return d->rgb + ((size_t)y * d->width + x) * 3;
}

static void assert_pixel(const struct decoded *d, unsigned x, unsigned y, struct dl_color c)
{
    const unsigned char *p = pixel(d, x, y);
    if (p[0] != c.r || p[1] != c.g || p[2] != c.b)
        fail_msg("pixel (%u, %u) is %u,%u,%u, not %u,%u,%u", x, y, p[0], p[1], p[2], c.r, c.g,
                 c.b);
}

/* Pixels darker than mid grey in [x0, x1) x [y0, y1): glyph strokes on a light page. */
static unsigned dark_pixels(const struct decoded *d, unsigned x0, unsigned y0, unsigned x1,
                            unsigned y1)
{
    unsigned n = 0;
    for (unsigned y = y0; y < y1 && y < d->height; y++)
        for (unsigned x = x0; x < x1 && x < d->width; x++) {
            const unsigned char *p = pixel(d, x, y);
            if (p[0] + p[1] + p[2] < 3 * 128)
                n++;
        }
    return n;
}

/* The bounding box of dark pixels in the whole image. */
static void dark_box(const struct decoded *d, unsigned box[4])
{
    box[0] = d->width, box[1] = d->height, box[2] = 0, box[3] = 0;
    for (unsigned y = 0; y < d->height; y++)
        for (unsigned x = 0; x < d->width; x++) {
            const unsigned char *p = pixel(d, x, y);
            if (p[0] + p[1] + p[2] >= 3 * 128)
                continue;
            box[0] = x < box[0] ? x : box[0];
            box[1] = y < box[1] ? y : box[1];
            box[2] = x > box[2] ? x : box[2];
            box[3] = y > box[3] ? y : box[3];
        }
}

static const char *text_chunk(const struct decoded *d, const char *key, int *compression)
{
    for (int i = 0; i < d->text_count; i++)
        if (strcmp(d->keys[i], key) == 0) {
            if (compression)
                *compression = d->compression[i];
            return d->texts[i];
        }
    return NULL;
}

/* --- rendering into memory -------------------------------------------------------- */

struct png_bytes {
    char *data;
    size_t size;
};

static void bytes_free(struct png_bytes *b)
{
    free(b->data);
}

/* Renders and encodes dl; returns png_render's or png_encode's status and fills *b. */
static int render_to_memory(const struct display_list *dl, double scale,
                            const struct png_metadata *meta, struct png_bytes *b,
                            struct ev_error *err)
{
    cairo_surface_t *surface;
    memset(b, 0, sizeof *b);
    if (png_render(dl, scale, &surface, err) != 0)
        return -1;
    struct testkit_memout out;
    struct png_metadata m = meta ? *meta : (struct png_metadata){ NULL, NULL, scale };
    int rc = png_encode(surface, &m, testkit_memout_open(&out), err);
    b->data = testkit_memout_text(&out);
    b->size = out.len;
    cairo_surface_destroy(surface);
    return rc;
}

static void render_decode(const struct display_list *dl, double scale, struct decoded *d)
{
    struct png_bytes b;
    struct ev_error err = { 0 };
    if (render_to_memory(dl, scale, NULL, &b, &err) != 0)
        fail_msg("render: %s", err.what);
    assert_int_equal(decode((unsigned char *)b.data, b.size, d), 0);
    bytes_free(&b);
}


/* --- display lists like a chart's --------------------------------------------------- */

#define PAGE_W 400
#define PAGE_H 300

/* A plot with one band (a polygon from x 50 to 300, y 100 down to the axis at 250) and
 * a legend on the right with a swatch and its label. */
static void chart_like(struct display_list *dl, bool with_text)
{
    display_init(dl, PAGE_W, PAGE_H, bg);
    assert_int_equal(display_set_document_title(dl, "leak +RTS -hc -l"), 0);
    struct dl_point pts[] = { { 50, 250 }, { 50, 120 }, { 150, 100 }, { 300, 110 },
                              { 300, 250 } };
    assert_non_null(display_polygon(dl, pts, 5, band, white, 0.5, "band"));
    struct dl_point axis[] = { { 50, 50 }, { 50, 250 }, { 300, 250 } };
    assert_non_null(display_polyline(dl, axis, 3, ink, 1, false, "axis"));
    assert_non_null(display_rect(dl, 310, 60, 10, 10, band, none, 0, "legend"));
    if (with_text)
        assert_non_null(display_text(dl, 325, 70, "Main.leak", 12, ink, DL_ANCHOR_START,
                                     false, 0, "legend"));
}

/* --- tests -------------------------------------------------------------------------- */

/* The display list a case draws and the picture drawn last: each kept until the next is
 * made, or the end of the program (free_drawn). */
static struct display_list drawing;
static struct decoded drawn;

static int free_drawn(void **state)
{
    (void)state;
    decoded_free(&drawn);
    drawn.rgb = NULL;
    return 0;
}

/* Group teardown: the drawings, then testkit's directory. */
static int free_drawing(void **state)
{
    display_free(&drawing);
    int rc = free_drawn(state);
    return testkit_teardown_dir(state) != 0 ? -1 : rc;
}

/* chart_like's display list (with_text as given), to draw. */
static struct display_list *chart(bool with_text)
{
    display_free(&drawing);
    chart_like(&drawing, with_text);
    return &drawing;
}

/* An empty display list of width x height on background bg, to draw on. */
static struct display_list *blank(double width, double height, struct dl_color bg_color)
{
    display_free(&drawing);
    display_init(&drawing, width, height, bg_color);
    return &drawing;
}

/* dl rendered at scale and decoded. */
static const struct decoded *draw(const struct display_list *dl, double scale)
{
    free_drawn(NULL);
    render_decode(dl, scale, &drawn);
    return &drawn;
}

static void test_size_and_scale(void **state)
{
    struct display_list *dl = chart(true);
    const struct decoded *d;
    const double scales[] = { 1, 2, 1.5, 3 };
    for (size_t i = 0; i < sizeof scales / sizeof *scales; i++) {
        d = draw(dl, scales[i]);
        assert_int_equal(d->width, (unsigned)(PAGE_W * scales[i]));
        assert_int_equal(d->height, (unsigned)(PAGE_H * scales[i]));
        assert_int_equal(d->color_type, PNG_COLOR_TYPE_RGB);
        assert_int_equal(d->bit_depth, 8);
    }
}

static void test_background_at_corners(void **state)
{
    struct display_list *dl = chart(true);
    const struct decoded *d = draw(dl, 1);
    assert_pixel(d, 0, 0, bg);
    assert_pixel(d, d->width - 1, 0, bg);
    assert_pixel(d, 0, d->height - 1, bg);
    assert_pixel(d, d->width - 1, d->height - 1, bg);
}

/* The background's alpha is ignored: a PNG without alpha is opaque. */
static void test_background_is_opaque(void **state)
{
    struct display_list *dl = blank(20, 10, (struct dl_color){ 10, 200, 30, 0 });
    const struct decoded *d = draw(dl, 1);
    assert_pixel(d, 5, 5, (struct dl_color){ 10, 200, 30, 255 });
}

static void test_polygon_fills_interior(void **state)
{
    struct display_list *dl = chart(true);
    const struct decoded *d = draw(dl, 1);
    /* well inside the band, and just inside its edges */
    assert_pixel(d, 175, 180, band);
    assert_pixel(d, 55, 245, band);
    assert_pixel(d, 295, 125, band);
    /* above the band: background */
    assert_pixel(d, 175, 80, bg);
    /* the same place at scale 2 */
    d = draw(dl, 2);
    assert_pixel(d, 350, 360, band);
    assert_pixel(d, 350, 160, bg);
}

/* Edges are anti-aliased: pixels between the band's colour and the background. */
static void test_edges_antialiased(void **state)
{
    struct display_list *dl = blank(100, 100, white);
    struct dl_point tri[] = { { 10, 90 }, { 90, 90 }, { 90, 10 } };
    display_polygon(dl, tri, 3, band, none, 0, "band");
    const struct decoded *d = draw(dl, 1);
    unsigned mixed = 0;
    for (unsigned x = 10; x < 90; x++) {
        unsigned y = 99 - x; /* cut in half by the hypotenuse */
        const unsigned char *p = pixel(d, x, y);
        if (p[0] > band.r && p[0] < 255)
            mixed++;
    }
    assert_true(mixed > 40);
}

static void test_legend_text_pixels(void **state)
{
    struct display_list *dl = chart(true);
    const struct decoded *d = draw(dl, 1);
    /* the label's box: from x 325 rightwards, 12 px type sitting on y 70 */
    unsigned with = dark_pixels(d, 322, 55, 400, 75);
    dl = chart(false);
    d = draw(dl, 1);
    unsigned without = dark_pixels(d, 322, 55, 400, 75);
    assert_true(with > 40);
    assert_int_equal(without, 0);
}

/* text-anchor: start begins at x, end finishes at x, middle straddles it. */
static void anchored(enum dl_anchor anchor, double rotate, unsigned box[4])
{
    struct display_list *dl = blank(300, 300, white);
    display_text(dl, 150, 150, "Memory usage", 14, ink, anchor, false, rotate, "axis");
    const struct decoded *d = draw(dl, 1);
    dark_box(d, box);
}

static void test_text_anchors(void **state)
{
    unsigned start[4], middle[4], end[4];
    anchored(DL_ANCHOR_START, 0, start);
    anchored(DL_ANCHOR_MIDDLE, 0, middle);
    anchored(DL_ANCHOR_END, 0, end);
    assert_in_range(start[0], 149, 153);
    assert_true(start[2] > 200);
    assert_in_range(end[2], 146, 150);
    assert_true(end[0] < 100);
    assert_true(middle[0] < 150 && middle[2] > 150);
    unsigned left = 150 - middle[0], right = middle[2] - 150;
    assert_true(left > right ? left - right <= 3 : right - left <= 3);
    /* on the baseline: 14 px type has caps about 10 px tall, descenders 3 px below */
    assert_in_range(start[1], 137, 141);
    assert_in_range(start[3], 150, 154);
}

/* rotate -90 (a y-axis label): the text runs upwards from its anchor. */
static void test_text_rotation(void **state)
{
    unsigned box[4];
    anchored(DL_ANCHOR_START, -90, box);
    assert_true(box[3] - box[1] > 3 * (box[2] - box[0]));
    assert_in_range(box[3], 146, 153);
    assert_true(box[1] < 100);
    assert_true(box[2] <= 154 && box[0] > 130);
    anchored(DL_ANCHOR_MIDDLE, -90, box);
    assert_true(box[1] < 150 && box[3] > 150);
}

static void test_bold_is_heavier(void **state)
{
    struct display_list *dl;
    const struct decoded *d;
    unsigned n[2];
    for (int bold = 0; bold < 2; bold++) {
        dl = blank(300, 60, white);
        display_text(dl, 10, 40, "Heap profile", 20, ink, DL_ANCHOR_START, bold, 0, "title");
        d = draw(dl, 1);
        n[bold] = dark_pixels(d, 0, 0, 300, 60);
    }
    assert_true(n[1] > n[0] * 5 / 4);
}

/* A dashed line has gaps; a solid one does not. */
static void test_dashed_polyline(void **state)
{
    struct display_list *dl;
    const struct decoded *d;
    for (int dashed = 0; dashed < 2; dashed++) {
        dl = blank(200, 20, white);
        struct dl_point line[] = { { 10, 10 }, { 190, 10 } };
        display_polyline(dl, line, 2, ink, 2, dashed, "total");
        d = draw(dl, 1);
        unsigned inked = dark_pixels(d, 10, 9, 190, 10);
        if (dashed)
            assert_true(inked > 60 && inked < 150);
        else
            assert_int_equal(inked, 180);
    }
}

/* Fill and stroke colours with alpha blend over what is below. */
static void test_alpha_blends(void **state)
{
    struct display_list *dl = blank(40, 40, white);
    display_rect(dl, 0, 0, 40, 40, (struct dl_color){ 0, 0, 0, 255 }, none, 0, "x");
    display_rect(dl, 10, 10, 20, 20, (struct dl_color){ 255, 255, 255, 128 }, none, 0, "x");
    const struct decoded *d = draw(dl, 1);
    const unsigned char *p = pixel(d, 20, 20);
    assert_in_range(p[0], 126, 130);
    assert_pixel(d, 5, 5, (struct dl_color){ 0, 0, 0, 255 });
}

static void test_text_chunks(void **state)
{
    struct display_list *dl = chart(true);
    struct decoded d;
    struct png_bytes b;
    struct ev_error err = { 0 };
    struct png_metadata meta = { dl->title, "tests/data/leak-hc.eventlog", 1 };
    assert_int_equal(render_to_memory(dl, 1, &meta, &b, &err), 0);
    assert_int_equal(decode((unsigned char *)b.data, b.size, &d), 0);
    int compression = 0;
    assert_string_equal(text_chunk(&d, "Title", &compression), "leak +RTS -hc -l");
    assert_int_equal(compression, PNG_TEXT_COMPRESSION_NONE);
    assert_string_equal(text_chunk(&d, "Software", NULL), "ev2hp " PACKAGE_VERSION);
    assert_string_equal(text_chunk(&d, "Source", NULL), "tests/data/leak-hc.eventlog");
    /* nothing from the clock */
    assert_null(memmem(b.data, b.size, "tIME", 4));
    decoded_free(&d);
    bytes_free(&b);
}

/* UTF-8 titles go in iTXt; bad bytes and control characters are cleaned; long ones cut. */
static void test_text_chunk_cleaning(void **state)
{
    struct display_list *dl;
    struct decoded d;
    struct png_bytes b;
    struct ev_error err = { 0 };
    char long_source[PNG_TEXT_MAX + 100];
    memset(long_source, 'a', sizeof long_source - 1);
    long_source[sizeof long_source - 1] = '\0';
    dl = blank(10, 10, white);
    struct png_metadata meta = { "b\xc3\xa9zier \xff\ttab", long_source, 1 };
    assert_int_equal(render_to_memory(dl, 1, &meta, &b, &err), 0);
    assert_int_equal(decode((unsigned char *)b.data, b.size, &d), 0);
    int compression = 0;
    assert_string_equal(text_chunk(&d, "Title", &compression),
                        "b\xc3\xa9zier \xef\xbf\xbd tab");
    assert_int_equal(compression, PNG_ITXT_COMPRESSION_NONE);
    assert_int_equal(strlen(text_chunk(&d, "Source", NULL)), PNG_TEXT_MAX);
    decoded_free(&d);
    bytes_free(&b);
}

static void test_identical_bytes(void **state)
{
    struct display_list *dl = chart(true);
    struct png_bytes a, b;
    struct ev_error err = { 0 };
    struct png_metadata meta = { dl->title, "x.eventlog", 2 };
    assert_int_equal(render_to_memory(dl, 2, &meta, &a, &err), 0);
    assert_int_equal(render_to_memory(dl, 2, &meta, &b, &err), 0);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    assert_memory_equal(a.data, "\x89PNG\r\n\x1a\n", 8);
    bytes_free(&a);
    bytes_free(&b);
}

/* Text that is not UTF-8 (labels come from eventlogs) must not stop the drawing. */
static void test_bad_utf8_text(void **state)
{
    struct display_list *dl = blank(100, 40, white);
    display_text(dl, 5, 20, "bad \xc0\xaf \xed\xa0\x80 \xf8", 12, ink, DL_ANCHOR_START,
                 false, 0, "legend");
    display_rect(dl, 60, 25, 30, 10, band, none, 0, "after");
    const struct decoded *d = draw(dl, 1);
    assert_true(dark_pixels(d, 0, 5, 60, 25) > 20);
    assert_pixel(d, 75, 30, band);
}

/* Items with numbers cairo cannot use are skipped, and the rest is drawn. */
static void test_non_finite_items_skipped(void **state)
{
    struct display_list *dl = blank(50, 50, white);
    struct dl_point bad[] = { { 0, 0 }, { 0.0 / 0.0, 10 }, { 40, 40 } };
    display_polygon(dl, bad, 3, ink, ink, 1, "band");
    display_rect(dl, 1.0 / 0.0, 0, 10, 10, ink, none, 0, "x");
    display_rect(dl, 10, 10, -5, 5, ink, none, 0, "x");
    display_text(dl, 10, 10, "x", 0.0 / 0.0, ink, DL_ANCHOR_START, false, 0, "x");
    display_rect(dl, 20, 20, 10, 10, band, none, 0, "after");
    const struct decoded *d = draw(dl, 1);
    assert_pixel(d, 25, 25, band);
    assert_pixel(d, 5, 40, white);
}

static void test_refuses_bad_sizes(void **state)
{
    struct display_list dl;
    cairo_surface_t *s = NULL;
    struct ev_error err = { 0 };
    display_init(&dl, 400, 300, white);
    assert_int_equal(png_render(&dl, 0.5, &s, &err), -1);
    assert_non_null(strstr(err.what, "scale"));
    assert_int_equal(png_render(&dl, 9, &s, &err), -1);
    assert_int_equal(png_render(&dl, 0.0 / 0.0, &s, &err), -1);
    assert_null(s);
    display_free(&dl);
    display_init(&dl, 20000, 20000, white);
    assert_int_equal(png_render(&dl, 1, &s, &err), -1);
    assert_non_null(strstr(err.what, "too big"));
    display_free(&dl);
    display_init(&dl, 0, 10, white);
    assert_int_equal(png_render(&dl, 1, &s, &err), -1);
    display_free(&dl);
}

/* A full disk: the failed write is reported with its errno, not as success. */
static void test_write_failure(void **state)
{
    struct display_list dl;
    cairo_surface_t *s;
    struct ev_error err = { 0 };
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    setvbuf(full, NULL, _IONBF, 0);
    chart_like(&dl, true);
    assert_int_equal(png_render(&dl, 1, &s, &err), 0);
    struct png_metadata meta = { "t", "s", 1 };
    assert_int_equal(png_encode(s, &meta, full, &err), -1);
    assert_non_null(strstr(err.what, "cannot write"));
    cairo_surface_destroy(s);
    fclose(full);
    display_free(&dl);
}

/* --- without fonts ------------------------------------------------------------------ */

/* Runs body(arg) in a child process whose fontconfig has an empty configuration (no font
 * at all), so this process keeps its fonts. The child's exit status: body's result, or
 * 77 when fontconfig would not load the empty configuration (nothing can be told). */
static int without_fonts(int (*body)(void *), void *arg)
{
    char dir[] = "/tmp/ev2hp-nofont-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char conf[sizeof dir + 16];
    snprintf(conf, sizeof conf, "%s/fonts.conf", dir);
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f, "<?xml version=\"1.0\"?>\n<fontconfig>\n<cachedir>%s</cachedir>\n"
               "</fontconfig>\n", dir);
    assert_int_equal(fclose(f), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("FONTCONFIG_FILE", conf, 1);
        _exit(FcInitReinitialize() ? body(arg) : 77);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* 0 when png_render refuses to draw for want of a font, and says so. */
static int render_refuses(void *arg)
{
    struct display_list dl;
    cairo_surface_t *s = NULL;
    struct ev_error err = { 0 };
    display_init(&dl, 10, 10, white);
    int rc = png_render(&dl, 1, &s, &err);
    return rc == -1 && !s && strstr(err.what, "no usable font: install fonts-dejavu-core")
               ? 0 : 1;
}

/* Without any font, png_render says so instead of drawing boxes. */
static void test_no_font(void **state)
{
    int status = without_fonts(render_refuses, NULL);
    if (status == 77)
        skip();
    assert_int_equal(status, 0);
    /* and here, with the system's fonts, the check passes */
    struct ev_error err = { 0 };
    assert_int_equal(png_font_check(&err), 0);
}

/* --- through the whole pipeline: eventlog, profile, chart layout, PNG sink --------- */

static const char *const e2e_labels[] = { "BIG", "medium", "small" };

/* Ten censuses: BIG 8 MiB, medium 3 MiB, small 1 MiB, rising a little. */
static const char *e2e_eventlog(void)
{
    static char path[128];
    if (!path[0]) {
        uint64_t bytes[10 * 3];
        for (size_t c = 0; c < 10; c++) {
            bytes[c * 3] = (8u << 20) + c * 4096;
            bytes[c * 3 + 1] = 3u << 20;
            bytes[c * 3 + 2] = 1u << 20;
        }
        temp_path(path, sizeof path, "e2e.eventlog");
        make_eventlog(path, e2e_labels, 3, bytes, 10);
    }
    return path;
}

static void e2e_chart(struct chart_options *chart)
{
    chart_options_default(chart);
    chart->width = 800;
    chart->height = 450;
    chart->title = "e2e title";
}

/* Runs a conversion to one PNG or SVG at scale; the exit status. */
static int e2e_convert(const char *output, enum output_format format, double scale,
                       struct convert_result *res)
{
    struct chart_options chart;
    e2e_chart(&chart);
    return testkit_convert(e2e_eventlog(), output, format,
                           (struct convert_options){ .chart = &chart, .png_scale = scale }, res);
}

/* The fill of the SVG's band whose tooltip is label, as a colour. */
static struct dl_color svg_band_fill(const char *svg_path, const char *label)
{
    xmlDocPtr doc = xmlReadFile(svg_path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    struct dl_color c = { 0, 0, 0, 0 };
    xmlNodePtr stack[64];
    size_t depth = 0;
    stack[depth++] = xmlDocGetRootElement(doc);
    while (depth) {
        xmlNodePtr n = stack[--depth];
        for (xmlNodePtr k = n->children; k; k = k->next)
            if (k->type == XML_ELEMENT_NODE && depth < 64)
                stack[depth++] = k;
        if (!has_class(n, "band"))
            continue;
        xmlChar *t = title_of(n);
        bool match = t && strcmp((const char *)t, label) == 0;
        xmlFree(t);
        xmlChar *fill = xmlGetProp(n, BAD_CAST "fill");
        unsigned r, g, b;
        if (match && fill && sscanf((const char *)fill, "#%2x%2x%2x", &r, &g, &b) == 3)
            c = (struct dl_color){ (uint8_t)r, (uint8_t)g, (uint8_t)b, 255 };
        xmlFree(fill);
    }
    xmlFreeDoc(doc);
    assert_int_equal(c.a, 255);
    return c;
}

static unsigned pixels_of(const struct decoded *d, struct dl_color c)
{
    unsigned n = 0;
    for (size_t i = 0; i < (size_t)d->width * d->height; i++)
        n += d->rgb[3 * i] == c.r && d->rgb[3 * i + 1] == c.g && d->rgb[3 * i + 2] == c.b;
    return n;
}

static void decode_file(const char *path, struct decoded *d, char **bytes, size_t *len)
{
    *bytes = testkit_slurp(path, len);
    assert_non_null(*bytes);
    assert_int_equal(decode((unsigned char *)*bytes, *len, d), 0);
}

/* The checks on a real chart: size, background, the largest band's colour (the
 * SVG's, so both pictures agree) filling part of the plot, text in the legend, the text
 * chunks, and the same bytes from a second run. */
static void test_chart_png(void **state)
{
    char png[128], again[128], svg[128], *a, *b;
    size_t alen, blen;
    struct convert_result res;
    struct decoded d;
    temp_path(png, sizeof png, "e2e.png");
    temp_path(again, sizeof again, "e2e-again.png");
    temp_path(svg, sizeof svg, "e2e.svg");
    assert_int_equal(e2e_convert(png, FORMAT_PNG, 1, &res), 0);
    assert_int_equal(e2e_convert(again, FORMAT_PNG, 1, &res), 0);
    assert_int_equal(e2e_convert(svg, FORMAT_SVG, 1, &res), 0);
    decode_file(png, &d, &a, &alen);
    assert_int_equal(d.width, 800);
    assert_int_equal(d.height, 450);
    assert_pixel(&d, 0, 0, white);
    assert_pixel(&d, 799, 449, white);
    /* BIG is two thirds of the heap: a good part of the plot is its colour */
    struct dl_color big = svg_band_fill(svg, "BIG");
    unsigned big_pixels = pixels_of(&d, big);
    assert_true(big_pixels > 800 * 450 / 10);
    /* the legend, right of the plot, has text: dark pixels in the right quarter */
    assert_true(dark_pixels(&d, 600, 40, 800, 225) > 100);
    /* the title at the top left */
    assert_true(dark_pixels(&d, 0, 0, 400, 40) > 100);
    assert_string_equal(text_chunk(&d, "Title", NULL), "e2e title");
    assert_string_equal(text_chunk(&d, "Source", NULL), e2e_eventlog());
    assert_string_equal(text_chunk(&d, "Software", NULL), "ev2hp " PACKAGE_VERSION);
    b = testkit_slurp(again, &blen);
    assert_int_equal(alen, blen);
    assert_memory_equal(a, b, alen);
    free(a);
    free(b);
    decoded_free(&d);
}

/* --scale 2: twice the pixels each way, the same chart (BIG four times the pixels). */
static void test_chart_png_scale(void **state)
{
    char one[128], two[128], *bytes;
    size_t len;
    struct convert_result res;
    struct decoded d1, d2;
    temp_path(one, sizeof one, "scale1.png");
    temp_path(two, sizeof two, "scale2.png");
    assert_int_equal(e2e_convert(one, FORMAT_PNG, 1, &res), 0);
    assert_int_equal(e2e_convert(two, FORMAT_PNG, 2, &res), 0);
    decode_file(one, &d1, &bytes, &len);
    free(bytes);
    decode_file(two, &d2, &bytes, &len);
    free(bytes);
    assert_int_equal(d2.width, 1600);
    assert_int_equal(d2.height, 900);
    /* the same colour at the same place: the middle of the plot */
    const unsigned char *p1 = pixel(&d1, 300, 300), *p2 = pixel(&d2, 601, 601);
    assert_memory_equal(p1, p2, 3);
    /* the colour most used in the plot covers about four times the pixels */
    struct dl_color c = { p1[0], p1[1], p1[2], 255 };
    double ratio = (double)pixels_of(&d2, c) / pixels_of(&d1, c);
    assert_true(ratio > 3.8 && ratio < 4.2);
    decoded_free(&d1);
    decoded_free(&d2);
}

/* 0 when a conversion to PNG fails with status 4, says "no usable font", and leaves no
 * file behind. */
static int convert_refuses(void *arg)
{
    const char *png = arg;
    struct convert_result res;
    int status = e2e_convert(png, FORMAT_PNG, 1, &res);
    if (status != EXIT_WRITE || strcmp(res.error_file, png) != 0 ||
        !strstr(res.error.what, "no usable font"))
        return 1;
    return access(png, F_OK) == 0 ? 2 : 0;
}

static void test_chart_png_no_font(void **state)
{
    char png[128];
    temp_path(png, sizeof png, "nofont.png");
    e2e_eventlog();
    int status = without_fonts(convert_refuses, png);
    if (status == 77)
        skip();
    assert_int_equal(status, 0);
}

/* --- the command line ------------------------------------------------------------- */

static void parse(struct cli_options *o, const char *a, const char *b, const char *c)
{
    char *argv[] = { "ev2hp", (char *)a, (char *)b, (char *)c, NULL };
    int argc = 1 + (a != NULL) + (b != NULL) + (c != NULL);
    cli_parse(argc, argv, o);
}

static void test_cli_scale(void **state)
{
    struct cli_options o;
    parse(&o, "x.eventlog", NULL, NULL);
    assert_int_equal(o.action, CLI_CONVERT);
    assert_true(o.scale == 1);
    parse(&o, "--scale", "2", "x.eventlog");
    assert_int_equal(o.action, CLI_CONVERT);
    assert_true(o.scale == 2);
    parse(&o, "--scale=1.5", "x.eventlog", NULL);
    assert_true(o.scale == 1.5);
    parse(&o, "--scale=8", NULL, NULL);
    assert_true(o.scale == 8);
    const char *bad[] = { "0.5", "8.01", "0", "-2", "nan", "inf", "2x", "0x2", "", " 2" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        parse(&o, "--scale", bad[i], "x.eventlog");
        assert_int_equal(o.action, CLI_USAGE_ERROR);
        assert_non_null(strstr(o.message, "--scale wants a number from 1 to 8"));
    }
    parse(&o, "--scale", NULL, NULL);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_string_equal(o.message, "option '--scale' needs an argument");
}

/* A PNG too big to draw is refused before any input is read; an SVG of that size is not. */
static void test_cli_png_too_big(void **state)
{
    struct cli_options o;
    char *png[] = { "ev2hp", "--width", "16384", "--height", "16384", "--scale", "8",
                    "-o", "x.png", "x.eventlog", NULL };
    cli_parse(10, png, &o);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_non_null(strstr(o.message, "too big"));
    png[8] = "x.svg";
    cli_parse(10, png, &o);
    assert_int_equal(o.action, CLI_CONVERT);
    png[2] = png[4] = "4096";       /* 16384 x 16384 is too many pixels even at 1 */
    png[6] = "1";
    png[8] = "x.png";
    cli_parse(10, png, &o);
    assert_int_equal(o.action, CLI_CONVERT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_font),
        cmocka_unit_test(test_size_and_scale),
        cmocka_unit_test(test_background_at_corners),
        cmocka_unit_test(test_background_is_opaque),
        cmocka_unit_test(test_polygon_fills_interior),
        cmocka_unit_test(test_edges_antialiased),
        cmocka_unit_test(test_legend_text_pixels),
        cmocka_unit_test(test_text_anchors),
        cmocka_unit_test(test_text_rotation),
        cmocka_unit_test(test_bold_is_heavier),
        cmocka_unit_test(test_dashed_polyline),
        cmocka_unit_test(test_alpha_blends),
        cmocka_unit_test(test_text_chunks),
        cmocka_unit_test(test_text_chunk_cleaning),
        cmocka_unit_test(test_identical_bytes),
        cmocka_unit_test(test_bad_utf8_text),
        cmocka_unit_test(test_non_finite_items_skipped),
        cmocka_unit_test(test_refuses_bad_sizes),
        cmocka_unit_test(test_write_failure),
        cmocka_unit_test(test_cli_scale),
        cmocka_unit_test(test_cli_png_too_big),
        cmocka_unit_test(test_chart_png),
        cmocka_unit_test(test_chart_png_scale),
        cmocka_unit_test(test_chart_png_no_font),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, free_drawing);
}
