/* srcloc.c: a GHC source span's file and first line (see srcloc.h). */
#include "census/srcloc.h"

#include <stdbool.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

void srcloc_split(const char *text, size_t len, size_t *file_len, long *line)
{
    *file_len = 0;
    *line = 0;
    if (len == 0 || text[0] == '<')
        return;
    /* the span starts at the first ':' followed by a line ("12:") or a pair ("(12,") */
    for (size_t i = 0; i < len; i++) {
        if (text[i] != ':')
            continue;
        size_t at = i + 1;
        if (at < len && text[at] == '(')
            at++;
        if (at >= len || !is_digit(text[at]))
            continue;
        long n = 0;
        while (at < len && is_digit(text[at]) && n < 100000000)
            n = n * 10 + (text[at++] - '0');
        *file_len = i;
        *line = n;
        return;
    }
    /* no span: the file alone ("Main.hs", or "Main.hs:" with an empty span) */
    *file_len = text[len - 1] == ':' ? len - 1 : len;
}
