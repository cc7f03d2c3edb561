/* textout.c: JSON and CSV quoting, band names, times (see textout.h). */
#include "textout.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (at most len bytes), or 0 when invalid. */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void textout_json_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c);
            i++;
        } else {
            size_t n = utf8_sequence(p + i, len - i);
            if (n == 0) {
                fputs("\\ufffd", out);
                i++;
            } else {
                fwrite(p + i, 1, n, out);
                i += n;
            }
        }
    }
    fputc('"', out);
}

void textout_csv_field(FILE *out, const char *s, size_t len)
{
    bool quote = false;
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        fwrite(s, 1, len, out);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            fputc('"', out);
        fputc(s[i], out);
    }
    fputc('"', out);
}

size_t textout_band_name(const struct bands *b, uint32_t band, char *buf, size_t cap)
{
    size_t len;
    const char *label = bands_label(b, band, &len);
    uint32_t number = bands_stack_number(b, band);
    int n = number ? snprintf(buf, cap, "(%" PRIu32 ")", number) : 0;
    size_t used = n > 0 ? (size_t)n : 0;
    if (used >= cap)
        used = cap - 1;
    if (len > cap - 1 - used)
        len = cap - 1 - used;
    memcpy(buf + used, label, len);
    buf[used + len] = '\0';
    return used + len;
}

void textout_seconds(FILE *out, uint64_t ns)
{
    uint64_t us = ns / 1000 + (ns % 1000 >= 500);
    fprintf(out, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}
