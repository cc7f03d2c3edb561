/* vector.c: PDF, PostScript and EPS through cairo (see vector.h). */
#include "render/vector.h"

#include <cairo-pdf.h>
#include <cairo-ps.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/png_render.h"

#define PT_PER_PX 0.75

/* cairo's output goes through here: to the file, with PostScript's date comment replaced
 * by the date given, or dropped, on the way. cairo writes "%%CreationDate: <the clock>" in the header, in several
 * small writes (its printf writes between conversions), so the header is held until the
 * whole comment line is in, patched and let go; after that bytes pass straight on. */
#define HEADER_MAX 65536

struct writer {
    FILE *out;
    bool holding;                /* PostScript before its date line is complete */
    char header[HEADER_MAX];
    size_t held;
    int error;                   /* errno of the first failed write */
    char date[32];               /* the document's date (ISO 8601), or "" for none */
};

static const char DATE_KEY[] = "%%CreationDate: ";

static int put(struct writer *w, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, w->out) != n) {
        w->error = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

/* Lets the held header go, its date line replaced when it is there. */
static int release(struct writer *w)
{
    w->holding = false;
    char *at = memmem(w->header, w->held, DATE_KEY, sizeof DATE_KEY - 1);
    char *eol = at ? memchr(at, '\n', w->held - (size_t)(at - w->header)) : NULL;
    if (!eol)
        return put(w, w->header, w->held);
    size_t head = (size_t)(at - w->header);
    if (put(w, w->header, head) != 0)
        return -1;
    if (!w->date[0])        /* the comment is optional: no date, no line */
        return put(w, eol + 1, w->held - (size_t)(eol + 1 - w->header));
    char line[64];
    int n = snprintf(line, sizeof line, "%s%s", DATE_KEY, w->date);
    if (put(w, line, (size_t)n) != 0)
        return -1;
    return put(w, eol, w->held - (size_t)(eol - w->header));
}

static cairo_status_t write_bytes(void *closure, const unsigned char *data, unsigned int length)
{
    struct writer *w = closure;
    if (w->error)
        return CAIRO_STATUS_WRITE_ERROR;
    if (!w->holding)
        return put(w, data, length) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
    if (length > HEADER_MAX - w->held) {
        /* no date line in the header cairo wrote: nothing to fix */
        if (release(w) != 0 || put(w, data, length) != 0)
            return CAIRO_STATUS_WRITE_ERROR;
        return CAIRO_STATUS_SUCCESS;
    }
    memcpy(w->header + w->held, data, length);
    w->held += length;
    char *at = memmem(w->header, w->held, DATE_KEY, sizeof DATE_KEY - 1);
    if (at && memchr(at, '\n', w->held - (size_t)(at - w->header)) && release(w) != 0)
        return CAIRO_STATUS_WRITE_ERROR;
    return CAIRO_STATUS_SUCCESS;
}

/* date (Unix seconds) in ISO 8601, UTC, into out; "" when there is none. */
static void iso_date(const int64_t *date, char *out, size_t size)
{
    struct tm tm;
    time_t t = date ? (time_t)*date : 0;
    if (!date || !gmtime_r(&t, &tm) ||
        strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        out[0] = '\0';
}

int vector_write(const struct display_list *dl, enum vector_kind kind, const int64_t *date,
                 FILE *out, struct ev_error *err)
{
    if (png_font_check(err) != 0)
        return -1;
    struct writer *w = malloc(sizeof *w);
    if (!w) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    w->out = out;
    w->holding = kind != VECTOR_PDF;
    w->held = 0;
    w->error = 0;
    iso_date(date, w->date, sizeof w->date);
    double width = dl->width * PT_PER_PX, height = dl->height * PT_PER_PX;
    cairo_surface_t *surface;
    if (kind == VECTOR_PDF) {
        surface = cairo_pdf_surface_create_for_stream(write_bytes, w, width, height);
        if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE,
                                           dl->title ? dl->title : "heap profile");
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR,
                                           "ev2hp " PACKAGE_VERSION);
            /* instead of the clock's date: the date given, or none (cairo leaves out a
             * date it cannot read, and "" is one) */
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, w->date);
        }
    } else {
        surface = cairo_ps_surface_create_for_stream(write_bytes, w, width, height);
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
    if (w->holding && !w->error)
        release(w);
    int error = w->error;
    free(w);
    if (error) {
        errno = error;
        ev_error_set(err, "%s", strerror(error));
        return -1;
    }
    if (drawn != 0 || st != CAIRO_STATUS_SUCCESS) {
        ev_error_set(err, "cannot draw the chart: %s",
                     st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : "out of memory");
        return -1;
    }
    return 0;
}
