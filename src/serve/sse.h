/* sse.h: Server-Sent Events to many clients, none of which can hold the sender up.
 *
 * The main thread broadcasts one message per census; each client has its own bounded
 * queue of bytes. Broadcasting only appends to the queues under the hub's lock: it never
 * waits on a socket. A client is dropped (its connection ends, and EventSource in a
 * browser reconnects and starts again from the current state):
 *
 *   - by queue: when a message comes while more bytes still wait for it than
 *     SSE_CLIENT_QUEUE beside the largest message among them. Any message goes behind up
 *     to that much, however large (the band list of --bands 0 on a dense log passes a
 *     megabyte): a client that keeps up is never dropped, and a new client always gets
 *     its first message. A queue holds at most SSE_CLIENT_QUEUE bytes and two messages;
 *   - by time: when bytes have waited SSE_STALL_SECONDS without the client's connection
 *     taking any (it stopped reading: its thread is blocked on a full socket). The
 *     connection guard (guard.h) asks sse_stalled a few times a second and closes it;
 *   - by number: when SSE_MAX_CLIENTS are connected, a new client takes the place of a
 *     stalled one, or else of the one connected longest, so clients that never read
 *     cannot keep a new one out.
 *
 * Each client is served by its own connection thread (http.c), which waits here for
 * bytes to send.
 */
#ifndef EV2HP_SSE_H
#define EV2HP_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SSE_CLIENT_QUEUE (1u << 20)  /* bytes waiting for one client past which it is dropped */
#define SSE_MAX_CLIENTS 32           /* clients at once; a new one replaces one of them */
#define SSE_STALL_SECONDS 5          /* bytes waiting this long untaken: dropped */
#define SSE_KEEPALIVE_MS 1000        /* a comment line this often keeps proxies open */

struct sse_hub;
struct sse_client;

/* NULL when out of memory. */
struct sse_hub *sse_hub_new(void);
/* Frees the hub; every client has left (http.c stops its server first). */
void sse_hub_free(struct sse_hub *h);

/* A new client whose queue starts with first (len bytes, e.g. the current state), or
 * NULL when out of memory or closing. With SSE_MAX_CLIENTS connected, one is dropped. */
struct sse_client *sse_join(struct sse_hub *h, const char *first, size_t len);
void sse_leave(struct sse_hub *h, struct sse_client *c);

/* Appends msg to every client's queue; a client it does not fit is dropped. */
void sse_broadcast(struct sse_hub *h, const char *msg, size_t len);

/* Up to max bytes of c's queue into buf, waiting up to SSE_KEEPALIVE_MS for some: the
 * count, 0 when none came (send a keep-alive), or -1 when c was dropped or the hub is
 * closing. */
ssize_t sse_take(struct sse_hub *h, struct sse_client *c, char *buf, size_t max);

/* Whether c stopped reading (bytes waited SSE_STALL_SECONDS untaken) or was dropped;
 * a stalled client is dropped. */
bool sse_stalled(struct sse_hub *h, struct sse_client *c);

/* Wakes every waiting client with -1: the server is stopping. */
void sse_close(struct sse_hub *h);

/* How many clients were dropped for reading too slowly or not at all (for metrics). */
unsigned long sse_dropped(struct sse_hub *h);

#endif
