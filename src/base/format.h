/* format.h: numbers as every writer prints them, whatever the locale.
 *
 * Every number ev2hp writes (a .hp, CSV, JSON, an SVG attribute, a chart label, the
 * summary, a message) is read by a program or compared with the runtime's output, so it
 * must not depend on the locale: printf's "%.2f" writes "1,50" under LC_NUMERIC=de_DE,
 * which is a different JSON value, a broken CSV row and a wrong SVG number. ev2hp does
 * not call setlocale itself, but a library or an embedding program may; so every writer
 * formats floating-point numbers through this module, which formats in the C locale for
 * the calling thread only (uselocale), and writes byte sizes in binary units and seconds
 * the same way everywhere. Integers (PRIu64) are locale-independent and need not come
 * here.
 */
#ifndef EV2HP_FORMAT_H
#define EV2HP_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Checks printf-style arguments where the compiler can (here and in base/error.h). */
#if defined(__GNUC__)
#define EV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define EV_PRINTF(a, b)
#endif

/* snprintf, vsnprintf and fprintf with the C locale's numbers ('.' as decimal point, no
 * grouping), for this call and this thread; the same return values. */
int format_snprintf(char *out, size_t size, const char *fmt, ...) EV_PRINTF(3, 4);
int format_vsnprintf(char *out, size_t size, const char *fmt, va_list ap) EV_PRINTF(3, 0);
int format_fprintf(FILE *out, const char *fmt, ...) EV_PRINTF(2, 3);
/* strtod reading the C locale's numbers, whatever the thread's locale (the JSON writer
 * reads back what it formatted). */
double format_strtod(const char *s, char **end);

/* The binary units of byte sizes, B to TiB: FORMAT_UNITS of them, each 1024 times the
 * one before. */
#define FORMAT_UNITS 5
const char *format_unit_name(unsigned unit);

/* A byte size in the largest binary unit that keeps it >= 1, with three significant
 * digits: "512 B", "1.50 KiB", "12.3 MiB", "412 GiB". */
void format_bytes(double bytes, char *out, size_t size);

/* A signed rate in bytes per second, as the summaries and the detail view print growth:
 * "+1.25 MiB/s", "-300 B/s", "0 B/s". */
void format_rate(double bytes_per_s, char *out, size_t size);

/* one when n is 1, else many: "1 census", "2 censuses", "0 censuses". */
const char *format_plural(uint64_t n, const char *one, const char *many);

/* A time in seconds with decimals digits after the point, without the unit: "1.25". */
void format_seconds(uint64_t ns, int decimals, char *out, size_t size);

/* v rounded to one decimal, the decimal left out when it is 0 ("12", "-3.5"): the SVG
 * back-end's coordinates. Writes at most FORMAT_TENTHS_MAX bytes and a NUL; returns the
 * length. Integer arithmetic: fast on long paths, and no locale at all. */
#define FORMAT_TENTHS_MAX 24
size_t format_tenths(double v, char *out);

#endif
