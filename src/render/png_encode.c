/* png_encode.c: writing an image surface as a PNG with libpng (see png_encode.h).
 *
 * libpng reports errors by longjmp: the error handler records libpng's message and jumps
 * back into png_encode, which frees and returns -1. Warnings are dropped, since library
 * code never prints. Output goes through our own write callback so that a short fwrite
 * (a full disk, a closed pipe) is caught where it happens and keeps its errno.
 */

#include "render/png_encode.h"

#include "base/utf8.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "render/png_render.h"

#define SOFTWARE "ev2hp " PACKAGE_VERSION
/* 96 pixels per inch, CSS's px, in the pixels per metre that pHYs counts. */
#define CSS_PX_PER_METRE (96.0 / 0.0254)

struct png_writer {
    FILE *out;
    int write_errno;                /* errno of the failed write, or 0 */
    char message[128];              /* libpng's error message */
};

/* One text chunk's contents, cleaned for PNG. */
struct png_text_field {
    char text[PNG_TEXT_MAX + 1];
    bool ascii;                     /* plain ASCII: a tEXt chunk; otherwise iTXt */
};

static void on_error(png_structp png, png_const_charp message)
{
    struct png_writer *w = png_get_error_ptr(png);
    snprintf(w->message, sizeof w->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

static void write_bytes(png_structp png, png_bytep data, size_t length)
{
    struct png_writer *w = png_get_io_ptr(png);
    if (fwrite(data, 1, length, w->out) != length) {
        w->write_errno = errno ? errno : EIO;
        png_error(png, "write failed");
    }
}

/* Nothing to do: the output is flushed when it is committed (outfile.c). */
static void flush_bytes(png_structp png)
{
    (void)png;
}

/* Valid UTF-8, at most PNG_TEXT_MAX bytes cut on a character boundary, control
 * characters but the line feed made spaces (the PNG specification allows no others). */
static int clean_text(const char *in, struct png_text_field *f)
{
    char *copy;
    const char *s = utf8_valid(in, &copy);
    if (!s)
        return -1;
    size_t len = 0, n;
    f->ascii = true;
    while (s[len] && (n = utf8_sequence((const unsigned char *)s + len, strlen(s + len))) != 0 &&
           len + n <= PNG_TEXT_MAX) {
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[len + i];
            f->text[len + i] = (c < 0x20 && c != '\n') || c == 0x7f ? ' ' : (char)c;
        }
        if (n > 1)
            f->ascii = false;
        len += n;
    }
    f->text[len] = '\0';
    free(copy);
    return 0;
}

static void set_text(png_text *t, const char *key, struct png_text_field *f)
{
    memset(t, 0, sizeof *t);
    t->key = (png_charp)key;
    t->text = f->text;
    t->text_length = strlen(f->text);
    t->compression = f->ascii ? PNG_TEXT_COMPRESSION_NONE : PNG_ITXT_COMPRESSION_NONE;
}

/* The text chunks into texts (room for 3) from fields (3 of them); their count. */
static int make_texts(const struct png_metadata *meta, struct png_text_field *fields,
                      png_text *texts, int *count)
{
    static const char *const keys[] = { "Title", "Software", "Source" };
    const char *values[] = { meta->title, SOFTWARE, meta->source };
    *count = 0;
    for (int i = 0; i < 3; i++) {
        if (!values[i])
            continue;
        if (clean_text(values[i], &fields[i]) != 0)
            return -1;
        set_text(&texts[(*count)++], keys[i], &fields[i]);
    }
    return 0;
}

/* One row of cairo's native-endian 32-bit xRGB pixels as 8-bit R, G, B. */
static void row_to_rgb(const unsigned char *src, int width, png_bytep dst)
{
    for (int x = 0; x < width; x++) {
        uint32_t p;
        memcpy(&p, src + 4 * (size_t)x, 4);
        dst[3 * x] = (png_byte)(p >> 16);
        dst[3 * x + 1] = (png_byte)(p >> 8);
        dst[3 * x + 2] = (png_byte)p;
    }
}

/* Everything libpng does, between its setjmp and png_encode's cleanup. */
static void write_png(png_structp png, png_infop info, cairo_surface_t *surface,
                      const struct png_metadata *meta, png_text *texts, int text_count,
                      png_bytep row)
{
    int width = cairo_image_surface_get_width(surface);
    int height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    double scale = meta->scale > 0 ? meta->scale : 1;
    png_uint_32 ppm = (png_uint_32)lround(CSS_PX_PER_METRE * scale);

    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* zlib level 6: level 9 took 3.5 times the CPU on a 1600 x 900 chart of the corpus
     * for a file 4 % smaller. */
    png_set_compression_level(png, 6);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
    if (text_count)
        png_set_text(png, info, texts, text_count);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        row_to_rgb(data + (size_t)y * (size_t)stride, width, row);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
}

static int check_surface(cairo_surface_t *surface, struct ev_error *err)
{
    cairo_format_t format = cairo_image_surface_get_format(surface);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS ||
        cairo_surface_get_type(surface) != CAIRO_SURFACE_TYPE_IMAGE ||
        (format != CAIRO_FORMAT_RGB24 && format != CAIRO_FORMAT_ARGB32) ||
        cairo_image_surface_get_width(surface) < 1 || cairo_image_surface_get_height(surface) < 1) {
        ev_error_set(err, "internal error: not a drawn RGB image");
        return -1;
    }
    cairo_surface_flush(surface);
    return 0;
}

int png_encode(cairo_surface_t *surface, const struct png_metadata *meta, FILE *out,
               struct ev_error *err)
{
    if (check_surface(surface, err) != 0)
        return -1;
    struct png_writer w = { out, 0, "" };
    struct png_text_field *fields = malloc(3 * sizeof *fields);
    png_bytep row = malloc(3 * (size_t)cairo_image_surface_get_width(surface));
    png_text texts[3];
    int text_count = 0;
    if (!fields || !row || make_texts(meta, fields, texts, &text_count) != 0) {
        ev_error_set(err, "out of memory");
        goto fail_alloc;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        ev_error_set(err, "out of memory");
        goto fail_png;
    }
    if (setjmp(png_jmpbuf(png))) {
        if (w.write_errno) {
            errno = w.write_errno;
            ev_error_set(err, "cannot write: %s", strerror(w.write_errno));
        } else {
            ev_error_set(err, "cannot encode the PNG: %s", w.message);
        }
        goto fail_png;
    }
    png_set_write_fn(png, &w, write_bytes, flush_bytes);
    write_png(png, info, surface, meta, texts, text_count, row);
    png_destroy_write_struct(&png, &info);
    free(row);
    free(fields);
    return 0;

fail_png:
    png_destroy_write_struct(&png, &info);
fail_alloc:
    free(row);
    free(fields);
    return -1;
}
