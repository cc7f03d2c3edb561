/* sse.c: bounded per-client queues of Server-Sent Events (see sse.h). */
#include "serve/sse.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/grow.h"
#include "serve/clock.h"

struct sse_client {
    char *buf;                     /* queued bytes: buf[head, len) */
    size_t head, len, cap;
    size_t largest;                /* the largest message queued since it was empty */
    bool dropped;
    double joined;                 /* when it connected (monotonic seconds) */
    double taken_at;               /* when its connection last asked for bytes */
    struct sse_client *next;
};

struct sse_hub {
    pthread_mutex_t lock;
    pthread_cond_t ready;          /* broadcast, or closing */
    struct sse_client *clients;
    size_t count;
    bool closing;
    unsigned long dropped;
};

struct sse_hub *sse_hub_new(void)
{
    struct sse_hub *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    pthread_mutex_init(&h->lock, NULL);
    clock_cond_init(&h->ready);
    return h;
}

static void free_client(struct sse_client *c)
{
    free(c->buf);
    free(c);
}

void sse_hub_free(struct sse_hub *h)
{
    if (!h)
        return;
    while (h->clients) {
        struct sse_client *c = h->clients;
        h->clients = c->next;
        free_client(c);
    }
    pthread_cond_destroy(&h->ready);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

/* Drops c (the hub's lock held): its queue is let go, its next take ends its connection. */
static void drop(struct sse_hub *h, struct sse_client *c)
{
    if (c->dropped)
        return;
    c->dropped = true;
    c->head = c->len = 0;
    free(c->buf);
    c->buf = NULL;
    c->cap = 0;
    h->dropped++;
}

/* Appends to one queue (the hub's lock held); false when more bytes still wait than
 * SSE_CLIENT_QUEUE beside the largest message among them: any message, however large,
 * goes behind up to that much, and a reader that is taking a message larger than the
 * queue is not dropped for the next one. */
static bool enqueue(struct sse_client *c, const char *msg, size_t len)
{
    if (c->head) {   /* what was sent makes room first */
        memmove(c->buf, c->buf + c->head, c->len - c->head);
        c->len -= c->head;
        c->head = 0;
    }
    if (c->len == 0)
        c->largest = 0;
    if (c->len > SSE_CLIENT_QUEUE + c->largest)
        return false;
    if (len > c->largest)
        c->largest = len;
    if (GROW_ARRAY(c->buf, &c->cap, c->len + len) != 0)
        return false;
    memcpy(c->buf + c->len, msg, len);
    c->len += len;
    return true;
}

/* The client a new one replaces when the hub is full (the lock held): a stalled one
 * first, else the one connected longest; never one already dropped, whose place is no
 * longer counted (replacing it would add the new client over the cap: 200 clients
 * arriving together kept 121 streams). */
static struct sse_client *to_replace(const struct sse_hub *h, double now)
{
    struct sse_client *oldest = NULL;
    for (struct sse_client *c = h->clients; c; c = c->next) {
        if (c->dropped)
            continue;
        if (c->len > c->head && now - c->taken_at > 1)
            return c;
        if (!oldest || c->joined < oldest->joined)
            oldest = c;
    }
    return oldest;
}

struct sse_client *sse_join(struct sse_hub *h, const char *first, size_t len)
{
    struct sse_client *c = calloc(1, sizeof *c);
    if (!c || !enqueue(c, first, len)) {
        if (c)
            free(c->buf);
        free(c);
        return NULL;
    }
    c->joined = c->taken_at = clock_seconds();
    pthread_mutex_lock(&h->lock);
    bool open = !h->closing;
    if (open) {
        size_t live = 0;
        for (struct sse_client *o = h->clients; o; o = o->next)
            live += !o->dropped;
        if (live >= SSE_MAX_CLIENTS) {
            drop(h, to_replace(h, c->joined));
            pthread_cond_broadcast(&h->ready);   /* its thread ends its connection */
        }
        c->next = h->clients;
        h->clients = c;
        h->count++;
    }
    pthread_mutex_unlock(&h->lock);
    if (!open) {
        free_client(c);
        return NULL;
    }
    return c;
}

void sse_leave(struct sse_hub *h, struct sse_client *c)
{
    pthread_mutex_lock(&h->lock);
    for (struct sse_client **p = &h->clients; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            h->count--;
            break;
        }
    pthread_mutex_unlock(&h->lock);
    free_client(c);
}

void sse_broadcast(struct sse_hub *h, const char *msg, size_t len)
{
    pthread_mutex_lock(&h->lock);
    for (struct sse_client *c = h->clients; c; c = c->next)
        if (!c->dropped && !enqueue(c, msg, len))
            drop(h, c);   /* too slow: its connection ends at the next take */
    pthread_cond_broadcast(&h->ready);
    pthread_mutex_unlock(&h->lock);
}

ssize_t sse_take(struct sse_hub *h, struct sse_client *c, char *buf, size_t max)
{
    struct timespec until = clock_after_ms(SSE_KEEPALIVE_MS);
    pthread_mutex_lock(&h->lock);
    c->taken_at = clock_seconds();
    int rc = 0;
    while (!c->dropped && !h->closing && c->head == c->len && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&h->ready, &h->lock, &until);
    ssize_t n;
    if (c->dropped || h->closing) {
        n = -1;
    } else {
        size_t avail = c->len - c->head;
        n = (ssize_t)(avail < max ? avail : max);
        memcpy(buf, c->buf + c->head, (size_t)n);
        c->head += (size_t)n;
        c->taken_at = clock_seconds();
    }
    pthread_mutex_unlock(&h->lock);
    return n;
}

bool sse_stalled(struct sse_hub *h, struct sse_client *c)
{
    pthread_mutex_lock(&h->lock);
    if (!c->dropped && c->len > c->head && clock_seconds() - c->taken_at > SSE_STALL_SECONDS)
        drop(h, c);
    bool stalled = c->dropped;
    pthread_mutex_unlock(&h->lock);
    return stalled;
}

void sse_close(struct sse_hub *h)
{
    pthread_mutex_lock(&h->lock);
    h->closing = true;
    pthread_cond_broadcast(&h->ready);
    pthread_mutex_unlock(&h->lock);
}

unsigned long sse_dropped(struct sse_hub *h)
{
    pthread_mutex_lock(&h->lock);
    unsigned long n = h->dropped;
    pthread_mutex_unlock(&h->lock);
    return n;
}
