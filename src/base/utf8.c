/* utf8.c: UTF-8 validation and repair (see utf8.h). */
#include "base/utf8.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_sequence(const unsigned char *s, size_t len)
{
    unsigned c = s[0];
    size_t n;
    uint32_t min, cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, min = 0x80, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, min = 0x800, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

const char *utf8_valid(const char *text, char **copy)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text), i = 0, n;
    *copy = NULL;
    while (i < len && (n = utf8_sequence(s + i, len - i)) != 0)
        i += n;
    if (i == len)
        return text;
    char *out = malloc(len * 3 + 1);
    if (!out)
        return NULL;
    char *p = out;
    for (i = 0; i < len; i += n ? n : 1) {
        n = utf8_sequence(s + i, len - i);
        if (n) {
            memcpy(p, s + i, n);
            p += n;
        } else {
            memcpy(p, "\xef\xbf\xbd", 3);
            p += 3;
        }
    }
    *p = '\0';
    *copy = out;
    return out;
}

size_t utf8_xml_text(const char *text, char *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text);
    char *p = out;
    for (size_t i = 0, n; i < len; i += n ? n : 1) {
        n = utf8_sequence(s + i, len - i);
        bool control = n == 1 && s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r';
        bool nonchar = n == 3 && s[i] == 0xef && s[i + 1] == 0xbf && s[i + 2] >= 0xbe;
        if (n == 0 || control || nonchar) {   /* a byte, or a character, marked once */
            memcpy(p, "\xef\xbf\xbd", 3);
            p += 3;
        } else {
            memcpy(p, s + i, n);
            p += n;
        }
    }
    *p = '\0';
    return (size_t)(p - out);
}

size_t utf8_boundary(const char *text, size_t n)
{
    /* back over continuation bytes to the start of the character n falls in */
    while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
        n--;
    return n;
}

void utf8_end_printed(char *out, size_t size, int n)
{
    if (n < 0 || (size_t)n < size || size == 0)
        return;
    size_t len = size - 1, lead = len;
    /* back over the continuation bytes at the end (a character has at most three) */
    while (lead > 0 && len - lead < 3 && ((unsigned char)out[lead - 1] & 0xc0) == 0x80)
        lead--;
    if (lead == 0)
        return;
    unsigned char c = (unsigned char)out[lead - 1];
    size_t want = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (lead - 1 + want > len)
        out[lead - 1] = '\0';   /* its bytes run past the cut */
}
