/* sse.c: bounded per-client queues of Server-Sent Events (see sse.h). */
#include "serve/sse.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sse_client {
    char *buf;                     /* queued bytes: buf[head, len) */
    size_t head, len;
    bool dropped;
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
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->ready, &attr);
    pthread_condattr_destroy(&attr);
    return h;
}

void sse_hub_free(struct sse_hub *h)
{
    if (!h)
        return;
    while (h->clients) {
        struct sse_client *c = h->clients;
        h->clients = c->next;
        free(c->buf);
        free(c);
    }
    pthread_cond_destroy(&h->ready);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

/* Appends to one queue (the hub's lock held); false when it does not fit. */
static bool enqueue(struct sse_client *c, const char *msg, size_t len)
{
    if (c->head) {   /* what was sent makes room first */
        memmove(c->buf, c->buf + c->head, c->len - c->head);
        c->len -= c->head;
        c->head = 0;
    }
    if (len > SSE_CLIENT_QUEUE - c->len)
        return false;
    memcpy(c->buf + c->len, msg, len);
    c->len += len;
    return true;
}

struct sse_client *sse_join(struct sse_hub *h, const char *first, size_t len)
{
    struct sse_client *c = calloc(1, sizeof *c);
    if (!c || !(c->buf = malloc(SSE_CLIENT_QUEUE)) || !enqueue(c, first, len)) {
        if (c)
            free(c->buf);
        free(c);
        return NULL;
    }
    pthread_mutex_lock(&h->lock);
    bool room = h->count < SSE_MAX_CLIENTS && !h->closing;
    if (room) {
        c->next = h->clients;
        h->clients = c;
        h->count++;
    }
    pthread_mutex_unlock(&h->lock);
    if (!room) {
        free(c->buf);
        free(c);
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
    free(c->buf);
    free(c);
}

void sse_broadcast(struct sse_hub *h, const char *msg, size_t len)
{
    pthread_mutex_lock(&h->lock);
    for (struct sse_client *c = h->clients; c; c = c->next)
        if (!c->dropped && !enqueue(c, msg, len)) {
            c->dropped = true;     /* too slow: its connection ends at the next take */
            c->head = c->len = 0;
            h->dropped++;
        }
    pthread_cond_broadcast(&h->ready);
    pthread_mutex_unlock(&h->lock);
}

ssize_t sse_take(struct sse_hub *h, struct sse_client *c, char *buf, size_t max)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += SSE_KEEPALIVE_MS / 1000;
    until.tv_nsec += (long)(SSE_KEEPALIVE_MS % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&h->lock);
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
    }
    pthread_mutex_unlock(&h->lock);
    return n;
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
