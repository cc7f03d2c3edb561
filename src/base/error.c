/* error.c: filling in error records. */
#include "base/error.h"

#include "base/format.h"

#include <stdarg.h>
#include <stdio.h>

/* What every filler does: the message, where it applies, and whether it is a note. */
static void fill(struct ev_error *err, bool has_offset, uint64_t offset, bool note,
                 const char *fmt, va_list ap) EV_PRINTF(5, 0);
static void fill(struct ev_error *err, bool has_offset, uint64_t offset, bool note,
                 const char *fmt, va_list ap)
{
    format_vsnprintf(err->what, sizeof err->what, fmt, ap);
    err->has_offset = has_offset;
    err->offset = offset;
    err->note = note;
}

void ev_error_at(struct ev_error *err, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, true, offset, false, fmt, ap);
    va_end(ap);
}

void ev_error_set(struct ev_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, false, 0, false, fmt, ap);
    va_end(ap);
}

void ev_error_note(struct ev_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, false, 0, true, fmt, ap);
    va_end(ap);
}
