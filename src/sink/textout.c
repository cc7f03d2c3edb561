/* textout.c: JSON and CSV quoting, band names, times (see textout.h). */
#include "sink/textout.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "base/utf8.h"
#include "read/evdecode.h"

/* html: '<', '>' and '&' written as \u escapes too, so "</script>" cannot occur. */
static void json_string(FILE *out, const char *s, size_t len, bool html)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        if (html && (c == '<' || c == '>' || c == '&')) {
            fprintf(out, "\\u%04x", c);
            i++;
        } else if (c == '"' || c == '\\') {
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

void textout_json_string(FILE *out, const char *s, size_t len)
{
    json_string(out, s, len, false);
}

void textout_json_string_html(FILE *out, const char *s, size_t len)
{
    json_string(out, s, len, true);
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

void textout_markdown(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        const char *entity = c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;"
                             : c == '"' ? "&quot;" : NULL;
        if (entity) {
            fputs(entity, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fputc(' ', out);
            i++;
        } else if (c < 0x80 && strchr("\\`*_[]|~!#@$:", c)) {
            fputc('\\', out);
            fputc(c, out);
            i++;
        } else {
            size_t n = utf8_sequence(p + i, len - i);
            if (n == 0) {
                fputs("\xef\xbf\xbd", out);   /* U+FFFD */
                i++;
            } else {
                fwrite(p + i, 1, n, out);
                i += n;
            }
        }
    }
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

/* The length of the bytes before a runtime-cut label's "..." that are the start of a
 * character the cut split (ccslabel.c cuts by bytes, as the runtime does), or 0. */
static size_t split_character(const char *label, size_t len)
{
    if (len < 4 || memcmp(label + len - 3, "...", 3) != 0)
        return 0;
    size_t end = len - 3, start = end;
    while (start > 0 && end - start < 3 && ((unsigned char)label[start - 1] & 0xc0) == 0x80)
        start--;
    if (start == 0 || (unsigned char)label[start - 1] < 0xc0)
        return 0;
    start--;   /* the lead byte */
    return utf8_sequence((const unsigned char *)label + start, end - start) == 0 ? end - start
                                                                                : 0;
}

void textout_json_band_names(FILE *out, const struct bands *b, const struct costcentres *ccs,
                             uint32_t band)
{
    size_t len;
    const char *label = bands_label(b, band, &len);
    size_t ids_len;
    const unsigned char *ids = bands_stack_ids(b, band, &ids_len);
    fputs(", \"hp_label\": ", out);
    size_t split = ids ? split_character(label, len) : 0;
    if (split) {
        /* JSON holds whole characters: the split one's bytes are left out */
        char cut[CCS_LENGTH_MAX + 1];
        size_t body = len - 3 - split;
        memcpy(cut, label, body);
        memcpy(cut + body, "...", 3);
        textout_json_string(out, cut, body + 3);
    } else {
        textout_json_string(out, label, len);
    }
    if (!ids || !ccs)
        return;
    struct ev_ccs stack = { (unsigned)(ids_len / 4), ids };
    fputs(", \"stack\": [", out);
    for (unsigned i = 0; i < stack.depth; i++) {
        uint32_t number = ev_ccs_id(&stack, i);
        struct ccs_name name;
        fputs(i ? ", {\"label\": " : "{\"label\": ", out);
        if (!costcentres_lookup(ccs, number, &name)) {
            /* named as the census names it in the band's label */
            fprintf(out, "\"#%" PRIu32 "\", \"module\": null, \"srcloc\": null}", number);
            continue;
        }
        textout_json_string(out, name.label, name.label_len);
        fputs(", \"module\": ", out);
        textout_json_string(out, name.module, name.module_len);
        const char *src = costcentres_srcloc(ccs, number);
        fputs(", \"srcloc\": ", out);
        if (src)
            textout_json_string(out, src, strlen(src));
        else
            fputs("null", out);
        fputc('}', out);
    }
    fputc(']', out);
}

void textout_seconds(FILE *out, uint64_t ns)
{
    uint64_t us = ns / 1000 + (ns % 1000 >= 500);
    fprintf(out, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}
