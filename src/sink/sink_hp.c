/* sink_hp.c: the .hp sink, census for census what the GHC runtime writes.
 *
 * The header (JOB, DATE, SAMPLE_UNIT, VALUE_UNIT) and the runtime's empty sample at 0.0
 * go out before the first census; each census is written whole when it is complete (and
 * flushed when the output is live, so `ev2hp` on a FIFO shows censuses as they happen);
 * finish adds the runtime's empty sample at the end of the run. Memory is constant.
 * On a terminal, labels and header strings are written as plain text (put_text).
 *
 * Census lines are built in the sink's own 64 KiB buffer with hand-written number
 * formatting and handed to stdio one buffer at a time: on big eventlogs this loop is a
 * large part of the run time, and three fwrite calls per line (each taking the FILE lock
 * and walking stdio's checks) cost more than formatting the line itself.
 */
#include "sink/sinks.h"
#include "model/bands.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sink/textout.h"

#define LINE_BUFFER (64u << 10)
/* The most a census line holds besides its label: "(" stack number ")" "\t" bytes "\n". */
#define LINE_EXTRA 48

/* Markers before the first census wait for the header, which needs the program's
 * arguments (an eventlog may give them after the first marker). */
#define HELD_MARKERS 4096

struct hp_sink {
    struct sink base;
    bool terminal;               /* written to a terminal: text that does nothing */
    bool header_written;
    size_t held;                 /* markers waiting for the header */
    uint64_t held_ns[HELD_MARKERS];
    uint64_t last_time_ns;
    size_t len;                  /* bytes waiting in buf */
    char buf[LINE_BUFFER];
};

/* The number of decimal digits of v, without a loop or a branch to mispredict: t, its bit
 * length times log10(2) (1233 / 4096) rounded down, is its digits or one fewer, and v has
 * t + 1 digits when it reaches 10^t (Bit Twiddling Hacks, "integer log base 10"). */
static int decimal_digits(uint64_t v)
{
    static const uint64_t pow10[20] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
    };
    v |= 1;   /* 0 has a digit; no power of ten above 1 is odd */
    int t = (64 - __builtin_clzll(v)) * 1233 >> 12;
    return t + 1 - (v < pow10[t]);
}

/* Writes v in decimal at p; returns the end. Written in place from the end, four digits
 * per division of v (one long division chain, not four) and those as two pairs in 32-bit
 * arithmetic: byte counts have six to nine digits, and this runs for every line of every
 * census. */
static inline __attribute__((always_inline)) char *put_u64(char *p, uint64_t v)
{
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char *end = p + decimal_digits(v), *q = end;
    while (v >= 10000) {
        uint32_t four = (uint32_t)(v % 10000);
        v /= 10000;
        q -= 4;
        memcpy(q, pairs + 2 * (four / 100), 2);
        memcpy(q + 2, pairs + 2 * (four % 100), 2);
    }
    uint32_t w = (uint32_t)v;   /* below 10000 */
    if (w >= 100) {
        q -= 2;
        memcpy(q, pairs + 2 * (w % 100), 2);
        w /= 100;
    }
    if (w >= 10) {
        q -= 2;
        memcpy(q, pairs + 2 * w, 2);
    } else {
        *--q = (char)('0' + w);
    }
    return end;
}

/* Hands the buffered lines to stdio. */
static int flush_lines(struct hp_sink *h)
{
    size_t n = h->len;
    h->len = 0;
    return fwrite(h->buf, 1, n, h->base.out) == n ? 0 : -1;
}

/* A line feed or a carriage return in a label or in the program's arguments would end
 * the .hp's line (the runtime writes them raw, and its .hp then cannot be read): they
 * are written as the two characters \n and \r. Nothing else is escaped, so every label
 * the runtime can write goes out as it writes it, and a .hp ev2hp wrote reads back to the
 * same bytes (the label read holds the two characters, and is written as it was). The
 * band table knows which labels hold one (bands_line). */
static void put_escaped(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n' || s[i] == '\r') {
            fputc('\\', out);
            fputc(s[i] == '\n' ? 'n' : 'r', out);
        } else {
            fputc(s[i], out);
        }
    }
}

/* Text of the input as the .hp has it (put_escaped), or on a terminal as plain text
 * (textout_plain: control characters as \xHH, bytes that are not UTF-8 as U+FFFD): a
 * label's escape sequence must not drive the terminal that `ev2hp prog.eventlog` prints
 * to. A file or a pipe gets the runtime's bytes. */
static void put_text(struct hp_sink *h, const char *s, size_t len)
{
    if (h->terminal)
        textout_plain(h->base.out, s, len);
    else
        put_escaped(h->base.out, s, len);
}

/* One census line: "(n)label\tbytes\n", where (n) is there for numbered stack bands. */
static int put_census_line(struct hp_sink *h, const struct band_line *band, uint64_t bytes)
{
    if (LINE_BUFFER - h->len < band->len + LINE_EXTRA && flush_lines(h) != 0)
        return -1;
    char *p = h->buf + h->len;
    if (band->stack_number) {
        *p++ = '(';
        p = put_u64(p, band->stack_number);
        *p++ = ')';
    }
    if (band->len <= LINE_BUFFER - LINE_EXTRA && !band->line_break && !h->terminal) {
        memcpy(p, band->label, band->len);
        p += band->len;
    } else {
        /* A label longer than the buffer (a 64 KiB event string), or with a line break,
         * or any label on a terminal, goes out directly. */
        h->len = (size_t)(p - h->buf);
        if (flush_lines(h) != 0)
            return -1;
        put_text(h, band->label, band->len);
        if (ferror(h->base.out))
            return -1;
        p = h->buf;
    }
    *p++ = '\t';
    p = put_u64(p, bytes);
    *p++ = '\n';
    h->len = (size_t)(p - h->buf);
    return 0;
}

/* Nanoseconds as seconds with six decimals, like the runtime's "%f". */
static char *put_seconds(char *p, uint64_t ns)
{
    uint64_t us = ns / 1000 + (ns % 1000 >= 500);
    p = put_u64(p, us / 1000000);
    *p++ = '.';
    uint64_t frac = us % 1000000;
    for (uint64_t d = 100000; d; d /= 10)
        *p++ = (char)('0' + frac / d % 10);
    return p;
}

static int put_sample_line(FILE *out, const char *word, uint64_t ns)
{
    char line[64];
    size_t n = strlen(word);
    memcpy(line, word, n);
    char *p = put_seconds(line + n, ns);
    *p++ = '\n';
    return fwrite(line, 1, (size_t)(p - line), out) == (size_t)(p - line) ? 0 : -1;
}

static int put_empty_sample(FILE *out, uint64_t ns)
{
    if (put_sample_line(out, "BEGIN_SAMPLE ", ns) != 0)
        return -1;
    return put_sample_line(out, "END_SAMPLE ", ns);
}

/* A header string in quotes; a quote inside is doubled, as the .hp grammar reads it, and
 * the text between quotes written as a label's (put_text). */
static void put_quoted(struct hp_sink *h, const char *s)
{
    FILE *out = h->base.out;
    fputc('"', out);
    for (;;) {
        size_t n = strcspn(s, "\"");
        put_text(h, s, n);
        if (!s[n])
            break;
        fputs("\"\"", out);
        s += n + 1;
    }
    fputc('"', out);
}

static int write_header(struct hp_sink *h)
{
    FILE *out = h->base.out;
    const struct run_info *info = h->base.ctx.info;
    char date[64] = "";
    if (info->has_start_time) {
        /* The runtime's ctime() without the seconds: "Sun Nov 22 03:30 2026". */
        time_t t = (time_t)info->start_time;
        struct tm tm;
        if (localtime_r(&t, &tm))
            strftime(date, sizeof date, "%a %b %e %H:%M %Y", &tm);
    }
    fputs("JOB ", out);
    put_quoted(h, info->program ? info->program : "");
    fputs("\nDATE ", out);
    put_quoted(h, date);
    fputs("\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n", out);
    h->header_written = true;
    if (put_empty_sample(out, 0) != 0)
        return -1;
    for (size_t i = 0; i < h->held; i++)
        if (put_sample_line(out, "MARK ", h->held_ns[i]) != 0)
            return -1;
    h->held = 0;
    return 0;
}

static int hp_frame(struct sink *s, const struct census_frame *frame)
{
    struct hp_sink *h = (struct hp_sink *)s;
    FILE *out = s->out;
    if (!h->header_written && write_header(h) != 0)
        return -1;
    if (put_sample_line(out, "BEGIN_SAMPLE ", frame->time_ns) != 0)
        return -1;
    for (size_t i = 0; i < frame->count; i++) {
        const struct census_entry *e = &frame->entries[i];
        struct band_line band;
        bands_line(s->ctx.bands, e->band, &band);
        if (put_census_line(h, &band, e->bytes) != 0)
            return -1;
    }
    if (flush_lines(h) != 0 || put_sample_line(out, "END_SAMPLE ", frame->time_ns) != 0)
        return -1;
    h->last_time_ns = frame->time_ns;
    if (s->ctx.live && fflush(out) != 0)
        return -1;
    return ferror(out) ? -1 : 0;
}

/* A marker as the .hp grammar has it, "MARK t" between censuses (hp2ps draws it as a
 * tick on the time axis; its text has no place in a .hp). So MARK lines of a .hp input
 * come back, and traceMarker markers of an eventlog show in hp2ps. */
static int hp_marker(struct sink *s, uint64_t time_ns, const char *text, size_t len)
{
    struct hp_sink *h = (struct hp_sink *)s;
    (void)text;
    (void)len;
    if (!h->header_written && h->held < HELD_MARKERS) {
        h->held_ns[h->held++] = time_ns;
        return 0;
    }
    if (!h->header_written && write_header(h) != 0)
        return -1;
    if (put_sample_line(s->out, "MARK ", time_ns) != 0)
        return -1;
    if (s->ctx.live && fflush(s->out) != 0)
        return -1;
    return ferror(s->out) ? -1 : 0;
}

static int hp_finish(struct sink *s)
{
    struct hp_sink *h = (struct hp_sink *)s;
    if (!h->header_written && write_header(h) != 0)
        return -1;
    uint64_t end = s->ctx.info->end_time_ns;
    if (end < h->last_time_ns)
        end = h->last_time_ns;
    if (put_empty_sample(s->out, end) != 0)
        return -1;
    return ferror(s->out) ? -1 : 0;
}

int sink_hp_end(FILE *out, uint64_t end_ns)
{
    return put_empty_sample(out, end_ns) != 0 || ferror(out) ? -1 : 0;
}

static const struct sink_ops hp_ops = {
    .frame = hp_frame,
    .marker = hp_marker,
    .finish = hp_finish,
    .destroy = sink_free,
};

struct sink *sink_hp_new(FILE *out, const struct sink_context *ctx)
{
    struct hp_sink *h = sink_alloc(sizeof(struct hp_sink), &hp_ops, ctx, out);
    if (h) {
        int fd = fileno(out);
        h->terminal = fd >= 0 && isatty(fd);
    }
    return h ? &h->base : NULL;
}
