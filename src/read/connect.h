/* connect.h: reaching a program that streams its eventlog over a socket.
 *
 * A program built with Well-Typed's eventlog-socket (or any writer that does the same)
 * listens on a Unix socket, or on TCP, and sends the plain eventlog byte stream to the
 * client that connects, starting with the header and the initialisation events. An input
 * named `unix:PATH` or `tcp:HOST:PORT` (`tcp:[ADDR]:PORT` for an IPv6 address) is such a
 * program. The program may not listen yet when ev2hp starts, and may close a connection
 * and listen again: connect_wait retries while nobody listens, for a bounded time, and
 * says once that it is waiting. Nothing is printed here.
 */
#ifndef EV2HP_CONNECT_H
#define EV2HP_CONNECT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/un.h>

#include "base/error.h"

enum connect_kind { CONNECT_NONE, CONNECT_UNIX, CONNECT_TCP };

struct connect_address {
    enum connect_kind kind;
    char path[sizeof ((struct sockaddr_un *)0)->sun_path]; /* unix: */
    char host[256];                                      /* tcp: name or address */
    char port[8];                                        /* tcp: 1 to 65535 */
};

/* Tells a socket address from a file name: CONNECT_NONE for a file (kind set, 0
 * returned), else the address filled in; -1 with err set when name starts like an
 * address but is not a valid one. */
int connect_parse(const char *name, struct connect_address *a, struct ev_error *err);

/* Called once when connect_wait starts waiting, with why the first attempt failed. */
typedef void (*connect_waiting_fn)(void *ctx, const char *why);

/* Connects, retrying every CONNECT_RETRY_MS while nobody listens (the socket file is
 * missing, the connection is refused, or the program closes the connection before its
 * first byte), until wait_seconds have passed (0: one attempt; infinity: no limit) or
 * *stop is set. Returns the connected descriptor (blocking, close-on-exec) once its first
 * byte is there, or -1 with err set: what the last attempt met, how long it waited. */
#define CONNECT_RETRY_MS 100
int connect_wait(const struct connect_address *a, double wait_seconds,
                 const volatile sig_atomic_t *stop, connect_waiting_fn waiting, void *ctx,
                 struct ev_error *err);

#endif
