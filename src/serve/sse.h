/* sse.h: Server-Sent Events to many clients, none of which can hold the sender up.
 *
 * The main thread broadcasts one message per census; each client has its own bounded
 * queue of bytes (SSE_CLIENT_QUEUE). Broadcasting only appends to the queues under the
 * hub's lock: it never waits on a socket. A client whose queue would overflow (it reads
 * more slowly than censuses come) is dropped: its connection ends, and EventSource in a
 * browser reconnects and starts again from the current state. Each client is served by
 * its own connection thread (http.c), which waits here for bytes to send.
 */
#ifndef EV2HP_SSE_H
#define EV2HP_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SSE_CLIENT_QUEUE (1u << 20)  /* bytes waiting for one client before it is dropped */
#define SSE_MAX_CLIENTS 32           /* clients at once; more are refused (503) */
#define SSE_KEEPALIVE_MS 1000        /* a comment line this often keeps proxies open */

struct sse_hub;
struct sse_client;

/* NULL when out of memory. */
struct sse_hub *sse_hub_new(void);
/* Frees the hub; every client has left (http.c stops its server first). */
void sse_hub_free(struct sse_hub *h);

/* A new client whose queue starts with first (len bytes, e.g. the current state), or
 * NULL when SSE_MAX_CLIENTS are connected or out of memory. */
struct sse_client *sse_join(struct sse_hub *h, const char *first, size_t len);
void sse_leave(struct sse_hub *h, struct sse_client *c);

/* Appends msg to every client's queue; a client it does not fit is dropped. */
void sse_broadcast(struct sse_hub *h, const char *msg, size_t len);

/* Up to max bytes of c's queue into buf, waiting up to SSE_KEEPALIVE_MS for some: the
 * count, 0 when none came (send a keep-alive), or -1 when c was dropped or the hub is
 * closing. */
ssize_t sse_take(struct sse_hub *h, struct sse_client *c, char *buf, size_t max);

/* Wakes every waiting client with -1: the server is stopping. */
void sse_close(struct sse_hub *h);

/* How many clients were dropped for reading too slowly (for tests and metrics). */
unsigned long sse_dropped(struct sse_hub *h);

#endif
