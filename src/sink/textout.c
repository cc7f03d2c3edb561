/* textout.c: JSON and CSV quoting, band names, times (see textout.h). */
#include "sink/textout.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "base/utf8.h"

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
    const char *label = bands_display_label(b, band, &len);
    uint32_t number = bands_stack_number(b, band);
    int n = number ? snprintf(buf, cap, "(%" PRIu32 ")", number) : 0;
    size_t used = n > 0 ? (size_t)n : 0;
    if (used >= cap)
        used = cap - 1;
    if (len > cap - 1 - used)
        len = utf8_boundary(label, cap - 1 - used);   /* never inside a character */
    memcpy(buf + used, label, len);
    buf[used + len] = '\0';
    return used + len;
}

void textout_seconds(FILE *out, uint64_t ns)
{
    uint64_t us = ns / 1000 + (ns % 1000 >= 500);
    fprintf(out, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}
