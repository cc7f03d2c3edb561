/* json.c: the streaming JSON writer (see json.h).
 *
 * Each call first checks that JSON allows it where the writer stands (before_value,
 * before_key), writes the separator it needs (',' between items, ':' after a key, a line
 * break asked for), then its own text. Strings are written in runs: the bytes between two
 * that need an escape go out in one fwrite, which keeps long labels and the report's
 * thousands of numbers cheap.
 */
#include "base/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/utf8.h"

struct json_level {
    bool object;        /* an object (keys and values), else an array */
    bool has_items;     /* a comma goes before the next item */
};

struct json_writer {
    FILE *out;
    unsigned flags;
    enum json_status status;
    int write_errno;            /* errno of the failed write, for json_writer_finish */
    bool key_pending;           /* a key was written: its value comes next */
    bool newline_pending;       /* json_newline: a line break before the next item */
    bool done;                  /* the top-level value is complete */
    unsigned depth;
    struct json_level stack[JSON_DEPTH_MAX];
};

struct json_writer *json_writer_new(FILE *out, unsigned flags)
{
    struct json_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->out = out;
    w->flags = flags;
    if (flags & ~(JSON_PRETTY | JSON_SCRIPT_SAFE))
        w->status = JSON_MISUSE;
    return w;
}

void json_writer_free(struct json_writer *w)
{
    free(w);
}

enum json_status json_writer_status(const struct json_writer *w)
{
    return w->status;
}

int json_writer_check(const struct json_writer *w)
{
    switch (w->status) {
    case JSON_OK:
        return 0;
    case JSON_WRITE_FAILED:
        errno = w->write_errno ? w->write_errno : EIO;
        return -1;
    case JSON_MISUSE:
        break;
    }
    errno = EINVAL;
    return -1;
}

int json_writer_finish(struct json_writer *w)
{
    if (w->status == JSON_OK && ferror(w->out)) {
        w->status = JSON_WRITE_FAILED;
        w->write_errno = EIO;
    }
    if (json_writer_check(w) != 0)
        return -1;
    if (!w->done) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

static bool misuse(struct json_writer *w)
{
    w->status = JSON_MISUSE;
    return false;
}

/* Output, which turns a failed write into the sticky status. The stream's lock is not
 * taken for each of the many small writes (json.h: one thread writes a writer's
 * stream); that is a fifth of the instructions of a JSON export. */
static void put(struct json_writer *w, const void *p, size_t n)
{
    if (w->status == JSON_OK && n && fwrite_unlocked(p, 1, n, w->out) != n) {
        w->write_errno = errno;
        w->status = JSON_WRITE_FAILED;
    }
}

static void put_char(struct json_writer *w, char c)
{
    if (w->status == JSON_OK && putc_unlocked(c, w->out) == EOF) {
        w->write_errno = errno;
        w->status = JSON_WRITE_FAILED;
    }
}

/* The separator before an item of the innermost container: a comma after an earlier
 * item, then the line break asked for, or a space when pretty. */
static void separate(struct json_writer *w)
{
    struct json_level *top = &w->stack[w->depth - 1];
    if (top->has_items)
        put_char(w, ',');
    if (w->newline_pending) {
        put_char(w, '\n');
        if (w->flags & JSON_PRETTY)
            for (unsigned i = 0; i < w->depth; i++)
                put_char(w, ' ');
        w->newline_pending = false;
    } else if (top->has_items && (w->flags & JSON_PRETTY)) {
        put_char(w, ' ');
    }
    top->has_items = true;
}

/* Whether a value may come now; writes its separator. */
static bool before_value(struct json_writer *w)
{
    if (w->status != JSON_OK)
        return false;
    if (w->depth == 0)
        return w->done ? misuse(w) : true;
    if (w->stack[w->depth - 1].object) {
        if (!w->key_pending)
            return misuse(w);
        w->key_pending = false;   /* the key wrote the separator */
        return true;
    }
    separate(w);
    return w->status == JSON_OK;
}

static void after_value(struct json_writer *w)
{
    if (w->depth == 0)
        w->done = true;
}

/* The escape of character c (< 0x80, or U+2028/U+2029) as \uXXXX. */
static void put_unicode_escape(struct json_writer *w, unsigned c)
{
    static const char hex[] = "0123456789abcdef";
    char e[6] = { '\\', 'u', hex[c >> 12 & 15], hex[c >> 8 & 15], hex[c >> 4 & 15],
                  hex[c & 15] };
    put(w, e, sizeof e);
}

static void put_escaped(struct json_writer *w, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    bool script = w->flags & JSON_SCRIPT_SAFE;
    size_t run = 0;   /* start of the bytes not yet written that need no escape */
    put_char(w, '"');
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        size_t n = 1;
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
            !(script && (c == '<' || c == '>' || c == '&'))) {
            i++;
            continue;
        }
        if (c >= 0x80) {
            n = utf8_sequence(p + i, len - i);
            bool separator = n == 3 && c == 0xe2 && p[i + 1] == 0x80 &&
                             (p[i + 2] == 0xa8 || p[i + 2] == 0xa9);
            if (n && !(script && separator)) {
                i += n;
                continue;
            }
        }
        put(w, p + run, i - run);
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            put(w, e, 2);
        } else if (c < 0x80) {
            put_unicode_escape(w, c);
        } else if (n == 0) {
            put_unicode_escape(w, 0xfffd);   /* a byte that starts no character */
            n = 1;
        } else {
            put_unicode_escape(w, p[i + 2] == 0xa8 ? 0x2028 : 0x2029);
        }
        i += n;
        run = i;
    }
    put(w, p + run, len - run);
    put_char(w, '"');
}

void json_key(struct json_writer *w, const char *key)
{
    if (w->status != JSON_OK)
        return;
    if (w->depth == 0 || !w->stack[w->depth - 1].object || w->key_pending) {
        misuse(w);
        return;
    }
    separate(w);
    put_escaped(w, key, strlen(key));
    put(w, ": ", w->flags & JSON_PRETTY ? 2 : 1);
    w->key_pending = true;
}

static void begin(struct json_writer *w, bool object)
{
    if (!before_value(w))
        return;
    if (w->depth == JSON_DEPTH_MAX) {
        misuse(w);
        return;
    }
    put_char(w, object ? '{' : '[');
    w->stack[w->depth++] = (struct json_level){ .object = object };
}

static void end(struct json_writer *w, bool object)
{
    if (w->status != JSON_OK)
        return;
    if (w->depth == 0 || w->stack[w->depth - 1].object != object || w->key_pending) {
        misuse(w);
        return;
    }
    w->depth--;
    w->newline_pending = false;
    put_char(w, object ? '}' : ']');
    after_value(w);
}

void json_object_begin(struct json_writer *w)
{
    begin(w, true);
}

void json_object_end(struct json_writer *w)
{
    end(w, true);
}

void json_array_begin(struct json_writer *w)
{
    begin(w, false);
}

void json_array_end(struct json_writer *w)
{
    end(w, false);
}

void json_newline(struct json_writer *w)
{
    if (w->status != JSON_OK)
        return;
    if (w->depth == 0 || w->key_pending) {
        misuse(w);
        return;
    }
    w->newline_pending = true;
}

void json_string(struct json_writer *w, const char *s, size_t len)
{
    if (!before_value(w))
        return;
    put_escaped(w, s, len);
    after_value(w);
}

void json_cstring(struct json_writer *w, const char *s)
{
    if (s)
        json_string(w, s, strlen(s));
    else
        json_null(w);
}

/* A value already formatted (a number or a literal). */
static void raw_value(struct json_writer *w, const char *text, size_t len)
{
    if (!before_value(w))
        return;
    put(w, text, len);
    after_value(w);
}

/* The decimal digits of v, ending at end (no NUL); returns where they start. */
static char *digits(uint64_t v, char *end)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

void json_uint(struct json_writer *w, uint64_t v)
{
    char buf[20];
    char *start = digits(v, buf + sizeof buf);
    raw_value(w, start, (size_t)(buf + sizeof buf - start));
}

void json_int(struct json_writer *w, int64_t v)
{
    char buf[21];
    /* the magnitude as unsigned: -INT64_MIN does not fit an int64 */
    uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *start = digits(magnitude, buf + sizeof buf);
    if (v < 0)
        *--start = '-';
    raw_value(w, start, (size_t)(buf + sizeof buf - start));
}

void json_decimal(struct json_writer *w, uint64_t units, unsigned decimals)
{
    if (w->status == JSON_OK && decimals > 19) {
        misuse(w);
        return;
    }
    /* 20 digits at most, a point and a leading "0." when units < 10^decimals */
    char buf[24];
    char *end = buf + sizeof buf, *start = digits(units, end);
    while ((unsigned)(end - start) < decimals + 1)
        *--start = '0';
    if (decimals) {
        size_t whole = (size_t)(end - start) - decimals;
        memmove(start - 1, start, whole);
        start--;
        start[whole] = '.';
    }
    raw_value(w, start, (size_t)(end - start));
}

void json_double(struct json_writer *w, double x)
{
    if (!isfinite(x)) {
        json_null(w);
        return;
    }
    char buf[32];
    int n = 0;
    for (int precision = 15; precision <= 17; precision++) {
        n = format_snprintf(buf, sizeof buf, "%.*g", precision, x);
        if (precision == 17 || format_strtod(buf, NULL) == x)
            break;
    }
    raw_value(w, buf, (size_t)n);
}

/* x as printf's conversion conv ('f' or 'g') at precision (from least to 17) writes it;
 * null when x is not finite. */
static void rounded(struct json_writer *w, double x, char conv, int precision, int least)
{
    if (w->status == JSON_OK && (precision < least || precision > 17)) {
        misuse(w);
        return;
    }
    if (!isfinite(x)) {
        json_null(w);
        return;
    }
    char buf[352];   /* %.17f of DBL_MAX: 309 digits, a sign, a point, 17 decimals */
    int n = format_snprintf(buf, sizeof buf, conv == 'f' ? "%.*f" : "%.*g", precision, x);
    raw_value(w, buf, (size_t)n);
}

void json_double_fixed(struct json_writer *w, double x, int decimals)
{
    rounded(w, x, 'f', decimals, 0);
}

void json_double_digits(struct json_writer *w, double x, int significant)
{
    rounded(w, x, 'g', significant, 1);
}

void json_bool(struct json_writer *w, bool v)
{
    raw_value(w, v ? "true" : "false", v ? 4 : 5);
}

void json_null(struct json_writer *w)
{
    raw_value(w, "null", 4);
}

void json_member_uint(struct json_writer *w, const char *key, uint64_t v)
{
    json_key(w, key);
    json_uint(w, v);
}

/* The key of a member whose value may not be known, and null when it is not: whether the
 * caller writes the value. */
static bool member_or_null(struct json_writer *w, const char *key, bool known)
{
    json_key(w, key);
    if (!known)
        json_null(w);
    return known;
}

void json_member_uint_or_null(struct json_writer *w, const char *key, bool known, uint64_t v)
{
    if (member_or_null(w, key, known))
        json_uint(w, v);
}

void json_member_double_or_null(struct json_writer *w, const char *key, bool known, double x)
{
    if (member_or_null(w, key, known))
        json_double(w, x);
}

void json_member_int(struct json_writer *w, const char *key, int64_t v)
{
    json_key(w, key);
    json_int(w, v);
}

void json_member_string(struct json_writer *w, const char *key, const char *s, size_t len)
{
    json_key(w, key);
    json_string(w, s, len);
}

void json_member_cstring(struct json_writer *w, const char *key, const char *s)
{
    json_key(w, key);
    json_cstring(w, s);
}

void json_member_double_fixed(struct json_writer *w, const char *key, double x, int decimals)
{
    json_key(w, key);
    json_double_fixed(w, x, decimals);
}

void json_member_bool(struct json_writer *w, const char *key, bool v)
{
    json_key(w, key);
    json_bool(w, v);
}
