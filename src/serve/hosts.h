/* hosts.h: which Host headers the live server answers (a defence against DNS rebinding).
 *
 * A web page on evil.example can make its own name resolve to 127.0.0.1 after it has
 * loaded ("DNS rebinding"); the browser then takes the page and ev2hp for one origin and
 * lets the page read every answer. What it cannot change is the Host header: the browser
 * sends the name the page was loaded from. So the server answers only the names it is
 * reached by: the address it is bound to (any address literal when bound to every one,
 * 0.0.0.0 or ::; no page can be served from an address literal it does not own),
 * `localhost`, the host named in --serve, and the names given with --allow-host. Anything
 * else is answered 421 (Misdirected Request) before the request does anything. A request
 * without a Host header comes from no browser (HTTP/1.0 tools): it is answered.
 */
#ifndef EV2HP_HOSTS_H
#define EV2HP_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#define HOSTS_MAX 16                /* --allow-host names at most */

struct hosts {
    const char *names[HOSTS_MAX + 3];  /* borrowed: localhost, --serve's host, --allow-host */
    size_t count;
    bool any_address;               /* bound to every address: any address literal */
    char bound[64];                 /* the bound address, as numbers (no brackets) */
};

/* The accepted names: the bound address (numeric, as getnameinfo wrote it), the --serve
 * host (or NULL) and the --allow-host names (borrowed, alive as long as h). */
void hosts_init(struct hosts *h, const char *bound, const char *serve_host,
                const char *const *allowed, size_t allowed_count);

/* Whether a Host header value ("name", "name:port", "[v6]:port") is one to answer. */
bool hosts_accept(const struct hosts *h, const char *host);

/* Whether text is a name --allow-host takes: letters, digits, '-', '.', at most 253. */
bool hosts_valid_name(const char *text);

#endif
