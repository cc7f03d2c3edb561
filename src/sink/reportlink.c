/* reportlink.c: links into the HTML report (reportlink.h). */
#include "sink/reportlink.h"

#include <string.h>
#include <strings.h>

#include "base/format.h"

/* Whether url starts with a scheme (RFC 3986: a letter, then letters, digits, "+-.",
 * then ':'); *len its length. */
static bool has_scheme(const char *url, size_t *len)
{
    size_t i = 0;
    if (!((url[0] | 0x20) >= 'a' && (url[0] | 0x20) <= 'z'))
        return false;
    while (url[i] && url[i] != ':') {
        char c = url[i];
        bool ok = ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') ||
                  c == '+' || c == '-' || c == '.';
        if (!ok)
            return false;
        i++;
    }
    *len = i;
    return url[i] == ':';
}

const char *reportlink_refused(const char *url)
{
    if (!*url)
        return "is empty";
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= ' ' || *p == 0x7f)
            return "holds a space or a control character (write a space as %20)";
    if (strchr(url, '#'))
        return "has a fragment (#...): the links write their own";
    size_t len;
    if (!has_scheme(url, &len))
        return NULL;   /* relative: the report beside the summary, or on the same site */
    if (!((len == 4 && strncasecmp(url, "http", 4) == 0) ||
          (len == 5 && strncasecmp(url, "https", 5) == 0)))
        return "is neither http://, https:// nor a relative address";
    if (strncmp(url + len, "://", 3) != 0 || !url[len + 3] || url[len + 3] == '/')
        return "names no host after ://";
    return NULL;
}

/* Letters and digits. */
static bool alnum(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The URL as given, but for what a Markdown link destination or an address cannot hold
 * as it is: percent-encoded (parentheses, angle brackets, backslash, quotes, bytes past
 * ASCII...), ';' too, so that "&copy;" in a query is not read as an entity (cmark-gfm
 * decodes one in a destination even after a backslash). */
static void write_url(FILE *out, const char *url)
{
    static const char keep[] = "-._~:/?[]@!$&'*+,=%";
    for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
        if (alnum(*p) || strchr(keep, *p))
            fputc(*p, out);
        else
            format_fprintf(out, "%%%02X", *p);
    }
}

/* A value in the form encoding (application/x-www-form-urlencoded, as URLSearchParams
 * writes and reads it). */
static void write_form(FILE *out, const char *s, size_t len)
{
    for (const unsigned char *p = (const unsigned char *)s; p < (const unsigned char *)s + len;
         p++) {
        if (alnum(*p) || strchr("*-._", *p))
            fputc(*p, out);
        else if (*p == ' ')
            fputc('+', out);
        else
            format_fprintf(out, "%%%02X", *p);
    }
}

/* Seconds as the report's data writes times: to the microsecond, plain decimals (what the
 * page reads, link.js), no trailing zeros. */
static void write_seconds(FILE *out, double s)
{
    char text[64];
    format_snprintf(text, sizeof text, "%.6f", s);
    char *end = text + strlen(text);
    while (end > text && end[-1] == '0')
        *--end = '\0';
    if (end > text && end[-1] == '.')
        *--end = '\0';
    fputs(text, out);
}

void reportlink_destination(FILE *out, const char *url, const struct reportlink_view *view)
{
    write_url(out, url);
    const char *sep = "#";
    if (view->band) {
        fputs("#band=", out);
        write_form(out, view->band, view->band_len);
        sep = "&";
    }
    if (view->has_window) {
        fprintf(out, "%swindow=", sep);
        write_seconds(out, view->from_s);
        fputs("%2C", out);
        write_seconds(out, view->to_s);
    }
}
