/* guard.h: limits on the live server's connections, against clients that hold them.
 *
 * libmicrohttpd serves each connection in a thread of its own, up to a fixed number of
 * connections, and times one out only after a stretch of silence: idle connections, or
 * connections sending a header byte a second ("slowloris"), would hold every slot and
 * lock everyone out. The guard keeps a table of the connections (libmicrohttpd's
 * connection notifications) and closes those that hold a slot without using it:
 *
 *   - a connection waits for a request from when it opens, and again from when its last
 *     response ended (keep-alive); the request, headers and body, must arrive whole
 *     within GUARD_REQUEST_SECONDS, however slowly its bytes trickle in;
 *   - when one client address has more than GUARD_WAITING_PER_CLIENT connections waiting
 *     for a request, or all clients more than GUARD_WAITING, the one waiting longest is
 *     closed, passing over those whose request bytes wait unread in the socket (their
 *     thread has not run yet): a new connection always finds a slot, and however many
 *     connections a client opens, another client's request is read as it comes;
 *   - a streamed response (/events) may name a check, polled a few times a second: when it
 *     says the client stalled (it stopped reading), the connection is closed. Its thread
 *     may be blocked sending to the client: only closing the socket frees it at once.
 *
 * Closing is shutdown(2) of the socket, from the guard's watchdog thread or from the
 * notification of a new connection: the connection's own thread then sees the client gone
 * and ends as for any client that went away. libmicrohttpd notifies a connection's end
 * before it closes the socket, and the end removes it from the table under the guard's
 * lock, so a socket number is never shut down after it was closed and reused.
 */
#ifndef EV2HP_GUARD_H
#define EV2HP_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>

#define GUARD_REQUEST_SECONDS 10    /* a whole request must arrive within this */
#define GUARD_WAITING 64            /* connections waiting for a request, all clients */
#define GUARD_WAITING_PER_CLIENT 32 /* ... and from one client address */
#define GUARD_TICK_MS 200           /* how often the deadlines and checks are looked at */

struct guard;

/* NULL when out of memory or no thread can be started. */
struct guard *guard_new(void);
/* Stops the watchdog; the server is stopped first (no connection is left). */
void guard_free(struct guard *g);

/* For MHD_OPTION_NOTIFY_CONNECTION, with the guard as its closure. */
void guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                  enum MHD_ConnectionNotificationCode code);

/* The request of c arrived whole and is answered: no deadline while it is. */
void guard_answering(struct guard *g, struct MHD_Connection *c);
/* Its response ended: c waits for its next request from now. */
void guard_answered(struct guard *g, struct MHD_Connection *c);

/* While c streams its response: stalled(ctx) is asked (under the guard's lock) a few times
 * a second, and c is closed once it says true. guard_unwatch before ctx is freed. */
void guard_watch(struct guard *g, struct MHD_Connection *c, bool (*stalled)(void *ctx),
                 void *ctx);
void guard_unwatch(struct guard *g, struct MHD_Connection *c);

#endif
