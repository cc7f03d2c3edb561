/* http.h: the HTTP side of --serve, on GNU libmicrohttpd.
 *
 * No HTTP is parsed here: libmicrohttpd does that, one thread per connection (an
 * /events client waits for its next census in its own thread, never in the main one).
 * Bound to 127.0.0.1 unless a host is given (port 0: a free port, told back by
 * http_url). Routes (anything else is 404; GET and HEAD only, POST on /control/...):
 *
 *   /               the report, live (share/report/live.js reloads its data on /events)
 *   /report.json    the report's data, as the page holds it (what live.js reloads)
 *   /events         Server-Sent Events: init, one census event per census, end
 *   /metrics        Prometheus text format (metrics.h)
 *   /profile.hp, /summary.json, /chart.svg, /chart.png
 *                   what -o of that name would hold for the input read so far
 *   /debug/pprof/heap[?at=SECONDS]
 *                   the last census (or the last at or before SECONDS of those the live
 *                   view keeps whole) as a pprof heap profile, gzipped; 404 without one
 *   /debug/pprof/profile[?seconds=N]
 *                   the time-profile samples read in the next N seconds (1 to 300,
 *                   default 30) as a pprof time profile; 404 without a time profile;
 *                   HTTP_MAX_PROFILE_WINDOWS at once (503 past them)
 *   POST /control/census, /control/heap-profiling/start, /control/heap-profiling/stop
 *                   an eventlog-socket command to the program; only with the header
 *                   "X-Requested-By: ev2hp" (a cross-site form cannot send it: 403
 *                   without), 409 when the input is not a socket
 *
 * Limits (doc/DESIGN.md, "The live server's limits"): HTTP_MAX_CONNECTIONS at once,
 * HTTP_MAX_REQUEST bytes of request headers and body, a body of HTTP_MAX_BODY bytes
 * (refused on its declared length, 413), one Content-Length at most and none beside
 * chunked encoding (400), only the Host names of hosts.h (421: DNS rebinding), a request
 * received whole within GUARD_REQUEST_SECONDS and the other connection limits of
 * guard.h, connections silent for HTTP_IDLE_SECONDS closed. Every document but
 * /metrics is streamed from a file (live.h), never copied per client, and a client that
 * takes nothing of it for HTTP_STALL_SECONDS is closed.
 */
#ifndef EV2HP_HTTP_H
#define EV2HP_HTTP_H

#include "base/error.h"

#define HTTP_MAX_CONNECTIONS 128
#define HTTP_MAX_REQUEST (32u << 10)
#define HTTP_MAX_BODY 1024
#define HTTP_IDLE_SECONDS 60
#define HTTP_STREAM_BLOCK (32u << 10) /* a streamed answer's buffer, per client */
#define HTTP_STALL_SECONDS 30       /* a streamed answer's client taking nothing this long:
                                     * closed (every document but /metrics and /events) */
#define HTTP_MAX_PROFILE_SECONDS 300u   /* /debug/pprof/profile?seconds= */
#define HTTP_MAX_PROFILE_WINDOWS 4u     /* such windows open at once */

struct live;
struct http_server;
struct serve_options;

/* Listens on o's host (NULL: 127.0.0.1) and port (0: any free one) and serves l from the
 * library's threads, answering the Host names of o. NULL with err set (the address cannot
 * be bound). */
struct http_server *http_start(const struct serve_options *o, struct live *l,
                               struct ev_error *err);
/* "http://HOST:PORT/" as bound (the port chosen for 0), for the message main prints. */
const char *http_url(const struct http_server *s);
/* Closes the listening socket and every connection, and waits for their threads. */
void http_stop(struct http_server *s);

#endif
