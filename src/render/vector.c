/* vector.c: PDF, PostScript and EPS through cairo (see vector.h). */
#include "render/vector.h"

#include <cairo-pdf.h>
#include <cairo-ps.h>
#include <errno.h>
#include <string.h>

#include "render/png_render.h"

#define PT_PER_PX 0.75

/* cairo's output goes through here: to the file, with PostScript's date comment made
 * fixed on the way (cairo writes "%%CreationDate: (...)" from the clock, in the header,
 * which cairo emits in one piece before any page). */
struct writer {
    FILE *out;
    bool postscript;
    bool dated;                  /* the date comment has been seen */
    int error;                   /* errno of the first failed write */
};

static const char DATE_KEY[] = "%%CreationDate: ";

static cairo_status_t write_bytes(void *closure, const unsigned char *data, unsigned int length)
{
    struct writer *w = closure;
    if (w->error)
        return CAIRO_STATUS_WRITE_ERROR;
    const unsigned char *p = data;
    size_t n = length;
    if (w->postscript && !w->dated) {
        const unsigned char *at = memmem(data, length, DATE_KEY, sizeof DATE_KEY - 1);
        const unsigned char *eol = at ? memchr(at, '\n', length - (size_t)(at - data)) : NULL;
        if (at && eol) {
            w->dated = true;
            size_t head = (size_t)(at - data);
            if ((head && fwrite(data, 1, head, w->out) != head) ||
                fprintf(w->out, "%s(%s)", DATE_KEY, VECTOR_FIXED_DATE) < 0) {
                w->error = errno ? errno : EIO;
                return CAIRO_STATUS_WRITE_ERROR;
            }
            p = eol;
            n = length - (size_t)(eol - data);
        }
    }
    if (n && fwrite(p, 1, n, w->out) != n) {
        w->error = errno ? errno : EIO;
        return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
}

int vector_write(const struct display_list *dl, enum vector_kind kind, FILE *out,
                 struct ev_error *err)
{
    if (png_font_check(err) != 0)
        return -1;
    struct writer w = { out, kind != VECTOR_PDF, false, 0 };
    double width = dl->width * PT_PER_PX, height = dl->height * PT_PER_PX;
    cairo_surface_t *surface;
    if (kind == VECTOR_PDF) {
        surface = cairo_pdf_surface_create_for_stream(write_bytes, &w, width, height);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE,
                                           dl->title ? dl->title : "heap profile");
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR,
                                           "ev2hp " PACKAGE_VERSION);
            /* instead of the clock's date: the same input, the same bytes */
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE,
                                           VECTOR_FIXED_DATE);
        }
    } else {
        surface = cairo_ps_surface_create_for_stream(write_bytes, &w, width, height);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
            cairo_ps_surface_restrict_to_level(surface, CAIRO_PS_LEVEL_3);
            cairo_ps_surface_set_eps(surface, kind == VECTOR_EPS);
            char comment[1200];
            snprintf(comment, sizeof comment, "%%%%Title: %.1000s",
                     dl->title ? dl->title : "heap profile");
            /* a DSC comment is one line: a title with a line break would end it early */
            for (char *c = comment; *c; c++)
                if (*c == '\n' || *c == '\r')
                    *c = ' ';
            cairo_ps_surface_dsc_comment(surface, comment);
        }
    }
    cairo_status_t st = cairo_surface_status(surface);
    int drawn = -1;
    if (st == CAIRO_STATUS_SUCCESS) {
        cairo_t *cr = cairo_create(surface);
        drawn = png_render_on(cr, dl, PT_PER_PX, PT_PER_PX);
        cairo_show_page(cr);
        st = cairo_status(cr);
        cairo_destroy(cr);
        cairo_surface_finish(surface);
        if (st == CAIRO_STATUS_SUCCESS)
            st = cairo_surface_status(surface);
    }
    cairo_surface_destroy(surface);
    if (w.error) {
        errno = w.error;
        ev_error_set(err, "%s", strerror(w.error));
        return -1;
    }
    if (drawn != 0 || st != CAIRO_STATUS_SUCCESS) {
        ev_error_set(err, "cannot draw the chart: %s",
                     st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : "out of memory");
        return -1;
    }
    return 0;
}
