/* serve.h: the lifecycle of a live run (--serve, --every): signals, periodic work.
 *
 * A live run does not end when its input does: the server goes on serving the final
 * state until SIGINT or SIGTERM, which end it with status 0 once the outputs are
 * written. Signals are taken by a worker thread (sigtimedwait), not by a handler: the
 * main thread may be blocked reading a socket, and what ends the run (writing the
 * outputs, stopping the server) is not async-signal-safe. The worker also refreshes the
 * live state's shown bands about once a second and, with --every, rewrites the outputs.
 */
#ifndef EV2HP_SERVE_H
#define EV2HP_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

#include "serve/hosts.h"

/* --serve [HOST:]PORT, --allow-host NAME and --every SECONDS, as the command line gives
 * them. */
struct serve_options {
    bool serve;                     /* --serve given */
    const char *host;               /* NULL: 127.0.0.1 */
    unsigned port;                  /* 0: any free port */
    const char *allow_hosts[HOSTS_MAX]; /* --allow-host: more Host names answered */
    size_t allow_host_count;
    double every_seconds;           /* --every; 0: only at the end */
};

/* Parses "[HOST:]PORT" (an IPv6 host in brackets, "[::1]:8080"); false when it is not
 * one. host points into text's copy in buf (NULL for a bare port). */
bool serve_parse_address(const char *text, char *buf, size_t buf_size, const char **host,
                         unsigned *port);

struct live;

/* What the worker does for its owner (convert.c). */
struct serve_hooks {
    /* --every: rewrite the outputs from the state so far (another thread). */
    void (*every)(void *ctx);
    /* SIGINT or SIGTERM: write the outputs and end the process; does not return. */
    void (*interrupted)(void *ctx);
    void *ctx;
};

struct serve_worker;

/* Blocks SIGINT and SIGTERM in the calling thread (threads made after inherit it; call
 * this before starting the server), then starts the worker. NULL with err set. */
struct serve_worker *serve_worker_start(struct live *l, const struct serve_hooks *hooks,
                                        double every_seconds, struct ev_error *err);
/* Once the input has ended and the outputs are written: with serving, waits for SIGINT
 * or SIGTERM (the server goes on meanwhile); then stops the worker. */
void serve_worker_wait(struct serve_worker *w, bool serving);

#endif
