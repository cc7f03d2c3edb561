/* hosts.c: the Host names the live server answers (see hosts.h). */
#include "serve/hosts.h"

#include <arpa/inet.h>
#include <string.h>
#include <strings.h>

void hosts_init(struct hosts *h, const char *bound, const char *serve_host,
                const char *const *allowed, size_t allowed_count)
{
    memset(h, 0, sizeof *h);
    h->names[h->count++] = "localhost";
    if (serve_host)
        h->names[h->count++] = serve_host;
    for (size_t i = 0; i < allowed_count && i < HOSTS_MAX; i++)
        h->names[h->count++] = allowed[i];
    size_t n = strlen(bound);
    if (n >= sizeof h->bound)
        n = sizeof h->bound - 1;
    memcpy(h->bound, bound, n);
    h->any_address = strcmp(h->bound, "0.0.0.0") == 0 || strcmp(h->bound, "::") == 0;
}

/* An address literal, as a Host header writes one (an IPv6 one without its brackets). */
static bool is_address(const char *name)
{
    unsigned char a[16];
    return inet_pton(AF_INET, name, a) == 1 || inet_pton(AF_INET6, name, a) == 1;
}

/* The same address, however it is written ("::1" and "0:0::1"). */
static bool same_address(const char *a, const char *b)
{
    unsigned char x[16], y[16];
    if (inet_pton(AF_INET, a, x) == 1)
        return inet_pton(AF_INET, b, y) == 1 && memcmp(x, y, 4) == 0;
    return inet_pton(AF_INET6, a, x) == 1 && inet_pton(AF_INET6, b, y) == 1 &&
           memcmp(x, y, 16) == 0;
}

bool hosts_accept(const struct hosts *h, const char *host)
{
    if (!host)
        return true;   /* no browser sends a request without one */
    char name[256];
    size_t len;
    bool bracketed = host[0] == '[';
    if (bracketed) {   /* [v6] or [v6]:port */
        const char *close = strchr(host, ']');
        if (!close || (close[1] && close[1] != ':'))
            return false;
        host++;
        len = (size_t)(close - host);
    } else {
        const char *colon = strchr(host, ':');
        len = colon ? (size_t)(colon - host) : strlen(host);
    }
    if (len == 0 || len >= sizeof name)
        return false;
    memcpy(name, host, len);
    name[len] = '\0';
    if (len > 1 && name[len - 1] == '.')   /* "localhost." is localhost */
        name[--len] = '\0';
    unsigned char v6[16];
    if (bracketed && inet_pton(AF_INET6, name, v6) != 1)
        return false;   /* brackets hold an IPv6 address, nothing else */
    if (is_address(name))
        return h->any_address || same_address(name, h->bound);
    for (size_t i = 0; i < h->count; i++)
        if (strcasecmp(name, h->names[i]) == 0)
            return true;
    return false;
}

bool hosts_valid_name(const char *text)
{
    size_t n = strlen(text);
    if (n == 0 || n > 253)
        return false;
    for (const char *p = text; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '-' || *p == '.'))
            return false;
    return true;
}
