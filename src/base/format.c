/* format.c: locale-independent number formatting (see format.h). */
#include "base/format.h"

#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The C locale object; glibc returns its static C locale for "C", so this does not
 * allocate. NULL only if newlocale failed, and then the caller's locale stays. */
static locale_t c_locale(void)
{
    static locale_t loc;
    static int tried;
    if (!tried) {
        tried = 1;
        loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    }
    return loc;
}

int format_vsnprintf(char *out, size_t size, const char *fmt, va_list ap)
{
    locale_t c = c_locale();
    locale_t old = c ? uselocale(c) : (locale_t)0;
    int n = vsnprintf(out, size, fmt, ap);
    if (c)
        uselocale(old);
    return n;
}

int format_snprintf(char *out, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = format_vsnprintf(out, size, fmt, ap);
    va_end(ap);
    return n;
}

int format_fprintf(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    locale_t c = c_locale();
    locale_t old = c ? uselocale(c) : (locale_t)0;
    int n = vfprintf(out, fmt, ap);
    if (c)
        uselocale(old);
    va_end(ap);
    return n;
}

double format_strtod(const char *s, char **end)
{
    locale_t c = c_locale();
    return c ? strtod_l(s, end, c) : strtod(s, end);
}

static const char *const unit_names[FORMAT_UNITS] = { "B", "KiB", "MiB", "GiB", "TiB" };

const char *format_unit_name(unsigned unit)
{
    return unit < FORMAT_UNITS ? unit_names[unit] : "?";
}

void format_bytes(double bytes, char *out, size_t size)
{
    unsigned u = 0;
    double v = bytes;
    while (u < FORMAT_UNITS - 1 && v >= 1024) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        format_snprintf(out, size, "%.0f B", v);
    else
        format_snprintf(out, size, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, unit_names[u]);
}

void format_rate(double bytes_per_s, char *out, size_t size)
{
    char mag[32];
    format_bytes(fabs(bytes_per_s), mag, sizeof mag);
    /* no sign on what prints as 0 ("-0 B/s" would say a band shrank) */
    bool zero = strcmp(mag, "0 B") == 0;
    snprintf(out, size, "%s%s/s", zero ? "" : bytes_per_s > 0 ? "+" : bytes_per_s < 0 ? "-" : "",
             mag);
}

const char *format_plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void format_seconds(uint64_t ns, int decimals, char *out, size_t size)
{
    format_snprintf(out, size, "%.*f", decimals, (double)ns / 1e9);
}

size_t format_tenths(double v, char *out)
{
    long tenths = lround(v * 10);
    size_t n = 0;
    if (tenths < 0) {
        out[n++] = '-';
        tenths = -tenths;
    }
    char tmp[FORMAT_TENTHS_MAX];
    int k = 0;
    long whole = tenths / 10;
    do {
        tmp[k++] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole);
    while (k)
        out[n++] = tmp[--k];
    if (tenths % 10) {
        out[n++] = '.';
        out[n++] = (char)('0' + tenths % 10);
    }
    out[n] = '\0';
    return n;
}
