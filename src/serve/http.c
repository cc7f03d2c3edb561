/* http.c: the routes of --serve over libmicrohttpd (see http.h). */
#include "serve/http.h"

#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <stdatomic.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/format.h"
#include "read/control.h"
#include "serve/clock.h"
#include "serve/guard.h"
#include "serve/hosts.h"
#include "serve/live.h"
#include "serve/mhd.h"
#include "serve/serve.h"
#include "serve/sse.h"

struct http_server {
    struct MHD_Daemon *daemon;
    struct live *live;
    struct guard *guard;
    struct hosts hosts;             /* the Host names answered */
    int fd;
    char url[NI_MAXHOST + 32];       /* "http://[ADDRESS]:PORT/" */
    atomic_bool stopping;           /* http_stop: windows of /debug/pprof/profile end */
    atomic_uint windows;            /* such windows open */
};

/* What a request carries between the library's calls: its body's size so far. */
struct request {
    size_t body;
};

static int listen_on(const char *host, unsigned port, char *url, size_t url_size,
                     char *bound, size_t bound_size, bool *ipv6, struct ev_error *err)
{
    char service[8];
    snprintf(service, sizeof service, "%u", port);
    struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
                              .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
    struct addrinfo *ai;
    int rc = getaddrinfo(host ? host : "127.0.0.1", service, &hints, &ai);
    if (rc != 0) {
        ev_error_set(err, "cannot serve on %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
        ev_error_set(err, "cannot serve on %s port %u: %s", host ? host : "127.0.0.1", port,
                     strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage sa;
    socklen_t sa_len = sizeof sa;
    char name[NI_MAXHOST], serv[NI_MAXSERV];
    if (getsockname(fd, (struct sockaddr *)&sa, &sa_len) != 0 ||
        getnameinfo((struct sockaddr *)&sa, sa_len, name, sizeof name, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        ev_error_set(err, "cannot tell the address served: %s", strerror(errno));
        close(fd);
        return -1;
    }
    *ipv6 = sa.ss_family == AF_INET6;
    if ((size_t)snprintf(bound, bound_size, "%s", name) >= bound_size ||
        (size_t)snprintf(url, url_size, *ipv6 ? "http://[%s]:%s/" : "http://%s:%s/", name,
                         serv) >= url_size) {
        ev_error_set(err, "cannot tell the address served: too long");
        close(fd);
        return -1;
    }
    return fd;
}

/* What every answer says: its type, not to be stored, not to be sniffed as another; and
 * for the page, that it runs its own inline script and style only. */
static void add_common_headers(struct MHD_Response *r, const char *type)
{
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (strncmp(type, "text/html", 9) == 0)
        /* the page's own inline script and style, its own server, nothing else */
        MHD_add_response_header(r, "Content-Security-Policy",
                                "default-src 'none'; script-src 'unsafe-inline'; "
                                "style-src 'unsafe-inline'; img-src data:; "
                                "connect-src 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'none'");
}

/* r queued with status and the common headers, then released (libmicrohttpd holds its
 * own reference while it sends). */
static enum MHD_Result queue_answer(struct MHD_Connection *c, unsigned status,
                                    const char *type, struct MHD_Response *r)
{
    add_common_headers(r, type);
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result send_buffer(struct MHD_Connection *c, unsigned status, const char *type,
                                   char *buf, size_t len)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(buf);
        return MHD_NO;
    }
    return queue_answer(c, status, type, r);
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return MHD_NO;
    return send_buffer(c, status, "text/plain; charset=utf-8", copy, strlen(copy));
}

/* err's message as the answer's text, with status. */
static enum MHD_Result send_message(struct MHD_Connection *c, unsigned status,
                                    const struct ev_error *err)
{
    char text[sizeof err->what + 2];
    snprintf(text, sizeof text, "%s\n", err->what);
    return send_text(c, status, text);
}

static enum MHD_Result send_error(struct MHD_Connection *c, const struct ev_error *err)
{
    return send_message(c, MHD_HTTP_INTERNAL_SERVER_ERROR, err);
}

/* A 200 whose body read produces, HTTP_STREAM_BLOCK bytes at a time, in the connection's
 * thread (size: MHD_SIZE_UNKNOWN for a stream without end); done(cls) in any case. */
static enum MHD_Result send_stream(struct MHD_Connection *c, uint64_t size, const char *type,
                                   MHD_ContentReaderCallback read,
                                   MHD_ContentReaderFreeCallback done, void *cls)
{
    struct MHD_Response *r = MHD_create_response_from_callback(size, HTTP_STREAM_BLOCK, read,
                                                               cls, done);
    if (!r) {
        done(cls);
        return MHD_NO;
    }
    return queue_answer(c, MHD_HTTP_OK, type, r);
}

/* /events: the client's queue, read in its connection's thread. */
struct events_reader {
    struct live *live;
    struct sse_client *client;
    struct guard *guard;
    struct MHD_Connection *connection;
};

static ssize_t events_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct events_reader *r = cls;
    ssize_t n = sse_take(live_events(r->live), r->client, buf, max);
    if (n > 0)
        return n;
    if (n < 0)   /* dropped, or the server stops: the connection ends with the stream,
                  * not kept alive for another request (a dropped client's place would
                  * otherwise stay taken until the request deadline) */
        return MHD_CONTENT_READER_END_WITH_ERROR;
    static const char keepalive[] = ":\n\n";
    if (max < sizeof keepalive - 1)
        return 0;
    memcpy(buf, keepalive, sizeof keepalive - 1);
    return (ssize_t)(sizeof keepalive - 1);
}

static void events_done(void *cls)
{
    struct events_reader *r = cls;
    guard_unwatch(r->guard, r->connection);
    sse_leave(live_events(r->live), r->client);
    free(r);
}

/* The guard's check: a client that stopped reading is closed (its thread may be blocked
 * sending to it, never to come back to events_read). */
static bool events_stalled(void *cls)
{
    struct events_reader *r = cls;
    return sse_stalled(live_events(r->live), r->client);
}

static enum MHD_Result serve_events(struct http_server *s, struct MHD_Connection *c)
{
    struct live *l = s->live;
    char *hello;
    size_t len;
    struct events_reader *r = calloc(1, sizeof *r);
    if (!r || live_events_hello(l, &hello, &len) != 0) {
        free(r);
        return MHD_NO;
    }
    r->live = l;
    r->guard = s->guard;
    r->connection = c;
    r->client = sse_join(live_events(l), hello, len);
    free(hello);
    if (!r->client) {
        free(r);
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is stopping\n");
    }
    guard_watch(s->guard, c, events_stalled, r);
    return send_stream(c, MHD_SIZE_UNKNOWN, "text/event-stream", events_read, events_done, r);
}

/* A document streamed (live_stream: /profile.hp from the spool, the others from the file
 * made for their state or request), HTTP_STREAM_BLOCK bytes at a time per client: a
 * client that never reads holds its socket's buffer and a descriptor, not a copy. One
 * that takes nothing for HTTP_STALL_SECONDS is closed (the guard asks stream_stalled):
 * its thread is blocked sending, and its slot (and a file since replaced, on disk)
 * would be held until the idle timeout. */
struct stream_reader {
    struct live_stream *stream;
    struct guard *guard;
    struct MHD_Connection *connection;
    _Atomic double taken_at;        /* when the connection last asked for bytes */
};

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct stream_reader *r = cls;
    atomic_store(&r->taken_at, clock_seconds());
    ssize_t n = live_stream_read(r->stream, buf, max);
    return n > 0 ? n : n == 0 ? MHD_CONTENT_READER_END_OF_STREAM
                              : MHD_CONTENT_READER_END_WITH_ERROR;
}

static bool stream_stalled(void *cls)
{
    struct stream_reader *r = cls;
    return clock_seconds() - atomic_load(&r->taken_at) > HTTP_STALL_SECONDS;
}

static void stream_done(void *cls)
{
    struct stream_reader *r = cls;
    guard_unwatch(r->guard, r->connection);
    live_stream_close(r->stream);
    free(r);
}

static enum MHD_Result not_open_yet(struct MHD_Connection *c)
{
    return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                     "the input is not open yet: waiting for the program\n");
}

/* A streamed document's opening (live.h). */
typedef struct live_stream *(*opener)(struct live *l, uint64_t *size, struct ev_error *err);

/* A 200 of stream st (size bytes), watched by the guard; st closed in any case. */
static enum MHD_Result answer_stream(struct http_server *s, struct MHD_Connection *c,
                                     struct live_stream *st, uint64_t size, const char *type)
{
    struct stream_reader *r = calloc(1, sizeof *r);
    if (!r) {
        live_stream_close(st);
        return MHD_NO;
    }
    r->stream = st;
    r->guard = s->guard;
    r->connection = c;
    atomic_store(&r->taken_at, clock_seconds());
    guard_watch(s->guard, c, stream_stalled, r);
    return send_stream(c, size, type, stream_read, stream_done, r);
}

static enum MHD_Result serve_stream(struct http_server *s, struct MHD_Connection *c,
                                    opener open, const char *type)
{
    if (!live_attached(s->live))
        return not_open_yet(c);
    struct ev_error err = { 0 };
    uint64_t size;
    struct live_stream *st = open(s->live, &size, &err);
    if (!st)
        return send_error(c, &err);
    return answer_stream(s, c, st, size, type);
}

static struct live_stream *open_svg(struct live *l, uint64_t *size, struct ev_error *err)
{
    return live_draw_open(l, FORMAT_SVG, size, err);
}

static struct live_stream *open_png(struct live *l, uint64_t *size, struct ev_error *err)
{
    return live_draw_open(l, FORMAT_PNG, size, err);
}

static struct live_stream *open_summary(struct live *l, uint64_t *size, struct ev_error *err)
{
    return live_draw_open(l, FORMAT_SUMMARY_JSON, size, err);
}

static const struct {
    const char *path;
    opener open;
    const char *type;
} streamed[] = {
    { "/", live_page_open, "text/html; charset=utf-8" },
    { "/report.json", live_report_data_open, "application/json" },
    { "/profile.hp", live_hp_open, "text/plain; charset=utf-8" },
    { "/summary.json", open_summary, "application/json" },
    { "/chart.svg", open_svg, "image/svg+xml" },
    { "/chart.png", open_png, "image/png" },
    { "/live.json", live_series_open, "application/json" },
};

/* /metrics: made per request (the chart's bands: small); answered before the input opens
 * too. */
static enum MHD_Result serve_metrics(struct MHD_Connection *c, struct live *l)
{
    char *buf;
    size_t len;
    struct ev_error err = { 0 };
    if (live_metrics(l, &buf, &len, &err) != 0)
        return send_error(c, &err);
    return send_buffer(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", buf, len);
}

/* --- /debug/pprof: what Parca and Pyroscope scrape (pprof profiles, gzipped) ---------- */

static enum MHD_Result send_pprof(struct http_server *s, struct MHD_Connection *c, int rc,
                                  struct live_stream *st, uint64_t size,
                                  const struct ev_error *err)
{
    if (rc < 0)
        return send_error(c, err);
    if (rc > 0)
        return send_message(c, MHD_HTTP_NOT_FOUND, err);
    return answer_stream(s, c, st, size, "application/octet-stream");
}

struct parameter_count {
    const char *name;
    unsigned count;
};

static enum MHD_Result count_parameter(void *cls, enum MHD_ValueKind kind, const char *key,
                                       const char *value)
{
    (void)kind;
    (void)value;
    struct parameter_count *p = cls;
    p->count += strcmp(key, p->name) == 0;
    return MHD_YES;
}

/* The query parameter name of c as a plain decimal number (digits, and with fraction a
 * point and digits after them): 0 with *value set, 1 when it is absent, -1 when it is not
 * such a number. Nothing strtod would also take is taken (a hexadecimal "0x10" or
 * "0x1p3", a leading space, an exponent), nor a value cut at a NUL ("1%00") or a
 * parameter given twice: a client that meant something else is told so, not guessed. */
static int query_decimal(struct MHD_Connection *c, const char *name, bool fraction,
                         double *value)
{
    struct parameter_count n = { name, 0 };
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, count_parameter, &n);
    const char *text = NULL;
    size_t len = 0;
    if (n.count == 0 ||
        MHD_lookup_connection_value_n(c, MHD_GET_ARGUMENT_KIND, name, strlen(name), &text,
                                      &len) != MHD_YES || !text)
        return n.count == 0 ? 1 : -1;
    size_t digits = strspn(text, "0123456789");
    size_t end = digits;
    if (fraction && digits > 0 && text[end] == '.' && text[end + 1] >= '0' &&
        text[end + 1] <= '9')
        end += 1 + strspn(text + end + 1, "0123456789");
    if (n.count > 1 || digits == 0 || end != len || end > 16)
        return -1;
    *value = format_strtod(text, NULL);
    return 0;
}

/* GET /debug/pprof/heap[?at=SECONDS]: the last census, or the last at or before SECONDS. */
static enum MHD_Result serve_pprof_heap(struct http_server *s, struct MHD_Connection *c)
{
    struct live *l = s->live;
    double seconds = 0;
    int absent = query_decimal(c, "at", true, &seconds);
    if (absent < 0 || seconds > 1e9)
        return send_text(c, MHD_HTTP_BAD_REQUEST,
                         "bad request: at= takes seconds since the program started, as a "
                         "decimal number\n");
    bool at = absent == 0;
    if (!live_attached(l))
        return not_open_yet(c);
    struct live_stream *st = NULL;
    uint64_t size = 0;
    struct ev_error err = { 0 };
    int rc = live_pprof_heap(l, at, (uint64_t)llround(seconds * 1e9), &st, &size, &err);
    return send_pprof(s, c, rc, st, size, &err);
}

/* Whether the client of c has gone (closed or reset its connection) while its request
 * waits: a peek that reads the end of its stream, or an error. Bytes it sent meanwhile
 * (a pipelined request) are left for libmicrohttpd. */
static bool client_gone(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!info)
        return false;
    char byte;
    ssize_t n = recv(info->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* GET /debug/pprof/profile[?seconds=N]: the time-profile samples read in the next N
 * seconds (default 30, as Go's), the connection's thread waiting meanwhile; at most
 * HTTP_MAX_PROFILE_WINDOWS at once, each ended early when the server stops (503, or
 * the connection closed as the server goes: ev2hp ends within a poll, not N seconds)
 * or when its client goes (as Go's handler does: four clients that left must not hold
 * every window for N seconds). */
static enum MHD_Result serve_pprof_profile(struct http_server *s, struct MHD_Connection *c)
{
    double asked = 30;
    int given = query_decimal(c, "seconds", false, &asked);
    if (given < 0 || asked < 1 || asked > HTTP_MAX_PROFILE_SECONDS) {
        char text[80];
        snprintf(text, sizeof text, "bad request: seconds= takes a whole number from 1 to %u\n",
                 HTTP_MAX_PROFILE_SECONDS);
        return send_text(c, MHD_HTTP_BAD_REQUEST, text);
    }
    unsigned seconds = (unsigned)asked;
    if (!live_attached(s->live))
        return not_open_yet(c);
    if (atomic_fetch_add(&s->windows, 1) >= HTTP_MAX_PROFILE_WINDOWS) {
        atomic_fetch_sub(&s->windows, 1);
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                         "too many /debug/pprof/profile windows open at once\n");
    }
    uint64_t *counts = NULL;
    uint32_t count = 0;
    struct live_stream *st = NULL;
    uint64_t size = 0;
    struct ev_error err = { 0 };
    int rc = live_pprof_ticks(s->live, &counts, &count, &err);
    double start = clock_seconds();
    bool stopped = false, gone = false;
    while (rc == 0 && !(stopped = atomic_load(&s->stopping)) && !(gone = client_gone(c)) &&
           clock_seconds() - start < seconds)
        usleep(50000);
    if (gone) {   /* nobody to answer: the window's slot is free at once */
        free(counts);
        atomic_fetch_sub(&s->windows, 1);
        return MHD_NO;
    }
    if (stopped)
        ev_error_set(&err, "the server is stopping");
    else if (rc == 0)
        rc = live_pprof_window(s->live, counts, count, (uint64_t)seconds * 1000000000u, &st,
                               &size, &err);
    free(counts);
    atomic_fetch_sub(&s->windows, 1);
    if (stopped)
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is stopping\n");
    return send_pprof(s, c, rc, st, size, &err);
}

static const struct {
    const char *path;
    enum control_command command;
} controls[] = {
    { "/control/census", CONTROL_REQUEST_HEAP_CENSUS },
    { "/control/heap-profiling/start", CONTROL_START_HEAP_PROFILING },
    { "/control/heap-profiling/stop", CONTROL_STOP_HEAP_PROFILING },
};

static enum MHD_Result serve_control(struct MHD_Connection *c, struct live *l,
                                     enum control_command command)
{
    const char *by = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Requested-By");
    if (!by || strcmp(by, "ev2hp") != 0)
        return send_text(c, MHD_HTTP_FORBIDDEN,
                         "refused: send the header \"X-Requested-By: ev2hp\"\n");
    if (live_control(l, (int)command) == 0)
        return send_text(c, MHD_HTTP_ACCEPTED, "sent\n");
    if (errno == ENOTSOCK)
        return send_text(c, MHD_HTTP_CONFLICT,
                         "the input is not a socket: the program cannot be controlled\n");
    char text[160];
    snprintf(text, sizeof text, "cannot send to the program: %s\n", strerror(errno));
    return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, text);
}

static enum MHD_Result not_allowed(struct MHD_Connection *c, const char *allow)
{
    char *copy = strdup("method not allowed\n");
    if (!copy)
        return MHD_NO;
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(copy), copy,
                                                             MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(copy);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    return queue_answer(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", r);
}

/* The request's framing headers, as libmicrohttpd leaves them to us: it reads the first
 * Content-Length only, and ignores it beside Transfer-Encoding. */
struct framing {
    unsigned hosts;                 /* Host headers */
    unsigned lengths;               /* Content-Length headers */
    bool chunked;                   /* a Transfer-Encoding header */
    uint64_t length;                /* the first Content-Length, when it is digits */
};

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    (void)kind;
    struct framing *f = cls;
    if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        f->hosts++;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        f->chunked = true;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0 && f->lengths++ == 0) {
        uint64_t v = 0;
        for (const char *p = value; *p >= '0' && *p <= '9'; p++)
            v = v > UINT64_MAX / 10 ? UINT64_MAX : v * 10 + (uint64_t)(*p - '0');
        f->length = v;
    }
    return MHD_YES;
}

/* What is refused on the headers alone, before any of the body is read and before the
 * request does anything: two Host headers, another Host than the server's (DNS
 * rebinding, hosts.h), two lengths or a length beside chunked encoding (request smuggling
 * behind a proxy that reads the other one), a declared body past HTTP_MAX_BODY. libmicrohttpd answers
 * a malformed Content-Length 400 itself. MHD_YES with no response: go on. */
static enum MHD_Result refuse_early(struct http_server *s, struct MHD_Connection *c,
                                    bool *refused)
{
    *refused = true;
    struct framing f = { 0 };
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_framing, &f);
    if (f.hosts > 1)   /* RFC 9112, 3.2: which one a proxy read is unknown */
        return send_text(c, MHD_HTTP_BAD_REQUEST, "bad request: more than one Host header\n");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!hosts_accept(&s->hosts, host))
        return send_text(c, MHD_HTTP_MISDIRECTED_REQUEST,
                         "misdirected request: this server does not answer that Host "
                         "(ev2hp --allow-host names more)\n");
    if (f.lengths > 1 || (f.lengths && f.chunked))
        return send_text(c, MHD_HTTP_BAD_REQUEST,
                         "bad request: more than one body length\n");
    if (f.lengths && f.length > HTTP_MAX_BODY)
        return send_text(c, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large\n");
    *refused = false;
    return MHD_YES;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
    (void)version;
    (void)upload;
    struct http_server *s = cls;
    struct request *req = *state;
    if (!req) {   /* the headers only: say whether to go on */
        if (!(req = calloc(1, sizeof *req)))
            return MHD_NO;
        *state = req;
        bool refused;
        enum MHD_Result ok = refuse_early(s, c, &refused);
        if (refused)
            guard_answering(s->guard, c);
        return ok;
    }
    if (*upload_size) {   /* a body: counted and dropped; nothing here reads one */
        req->body += *upload_size;
        *upload_size = 0;
        /* a chunked body has no declared length: it ends the connection past the limit */
        return req->body > HTTP_MAX_BODY ? MHD_NO : MHD_YES;
    }
    guard_answering(s->guard, c);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    for (size_t i = 0; i < sizeof controls / sizeof *controls; i++)
        if (strcmp(url, controls[i].path) == 0)
            return strcmp(method, "POST") == 0 ? serve_control(c, s->live, controls[i].command)
                                               : not_allowed(c, "POST");
    if (strcmp(url, "/events") == 0)
        return get ? serve_events(s, c) : not_allowed(c, "GET, HEAD");
    if (strcmp(url, "/debug/pprof/heap") == 0)
        return get ? serve_pprof_heap(s, c) : not_allowed(c, "GET, HEAD");
    if (strcmp(url, "/debug/pprof/profile") == 0)
        return get ? serve_pprof_profile(s, c) : not_allowed(c, "GET, HEAD");
    for (size_t i = 0; i < sizeof streamed / sizeof *streamed; i++)
        if (strcmp(url, streamed[i].path) == 0)
            return get ? serve_stream(s, c, streamed[i].open, streamed[i].type)
                       : not_allowed(c, "GET, HEAD");
    if (strcmp(url, "/metrics") == 0)
        return get ? serve_metrics(c, s->live) : not_allowed(c, "GET, HEAD");
    return send_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

static void request_done(void *cls, struct MHD_Connection *c, void **state,
                         enum MHD_RequestTerminationCode why)
{
    struct http_server *s = cls;
    (void)why;
    guard_answered(s->guard, c);
    free(*state);
    *state = NULL;
}

struct http_server *http_start(const struct serve_options *o, struct live *l,
                               struct ev_error *err)
{
    if (mhd_load(err) != 0)
        return NULL;
    struct http_server *s = calloc(1, sizeof *s);
    if (!s || !(s->guard = guard_new())) {
        free(s);
        ev_error_set(err, "out of memory");
        return NULL;
    }
    s->live = l;
    bool ipv6 = false;
    char bound[NI_MAXHOST];
    if ((s->fd = listen_on(o->host, o->port, s->url, sizeof s->url, bound, sizeof bound,
                           &ipv6, err)) < 0) {
        guard_free(s->guard);
        free(s);
        return NULL;
    }
    hosts_init(&s->hosts, bound, o->host, o->allow_hosts, o->allow_host_count);
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL | (ipv6 ? MHD_USE_IPv6 : 0);
    s->daemon = MHD_start_daemon(flags, 0, NULL, NULL, answer, s,
                                 MHD_OPTION_LISTEN_SOCKET, (MHD_socket)s->fd,
                                 MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_MAX_CONNECTIONS,
                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_MAX_REQUEST,
                                 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_SECONDS,
                                 MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
                                 MHD_OPTION_NOTIFY_CONNECTION, guard_notify, s->guard,
                                 MHD_OPTION_END);
    if (!s->daemon) {
        ev_error_set(err, "cannot start the HTTP server");
        guard_free(s->guard);
        close(s->fd);
        free(s);
        return NULL;
    }
    return s;
}

const char *http_url(const struct http_server *s)
{
    return s->url;
}

void http_stop(struct http_server *s)
{
    if (!s)
        return;
    sse_close(live_events(s->live));   /* every /events thread returns */
    atomic_store(&s->stopping, true);   /* and every /debug/pprof/profile window */
    MHD_stop_daemon(s->daemon);
    guard_free(s->guard);
    close(s->fd);
    free(s);
}
