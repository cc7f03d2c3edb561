/* error.c: filling in error records. */
#include "base/error.h"

#include "base/format.h"

#include <stdarg.h>
#include <stdio.h>

void ev_error_at(struct ev_error *err, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
    err->has_offset = true;
    err->offset = offset;
    err->note = false;
}

void ev_error_set(struct ev_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
    err->has_offset = false;
    err->offset = 0;
    err->note = false;
}

void ev_error_note(struct ev_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
    err->has_offset = false;
    err->offset = 0;
    err->note = true;
}
