/* guard.c: the live server's connection table, deadlines and evictions (see guard.h). */
#include "serve/guard.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

#include "serve/clock.h"

struct guarded {
    struct MHD_Connection *conn;   /* identity only: never read through here */
    int fd;
    struct sockaddr_storage addr;  /* the client's address (its port ignored) */
    double since;                  /* waiting for a request since (monotonic seconds) */
    bool answering;                /* a request is being answered */
    bool closing;                  /* shut down: its thread is ending */
    bool (*stalled)(void *ctx);    /* a streamed response's check, or NULL */
    void *ctx;
    struct guarded *next;
};

struct guard {
    pthread_mutex_t lock;
    pthread_cond_t wake;           /* stop */
    struct guarded *list;
    bool stop;
    pthread_t watchdog;
};

/* Ends a connection (the lock held): its thread sees the client gone. */
static void shut(struct guarded *e)
{
    if (e->closing)
        return;
    e->closing = true;
    shutdown(e->fd, SHUT_RDWR);
}

static bool same_client(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family)
        return false;
    if (a->ss_family == AF_INET)
        return memcmp(&((const struct sockaddr_in *)a)->sin_addr,
                      &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr)) == 0;
    if (a->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    return true;
}

static bool waiting(const struct guarded *e)
{
    return !e->answering && !e->closing;
}

/* Whether bytes the client sent wait in the socket, unread: its thread has not run yet
 * since they came (a real client's request, just sent). */
static bool unread(const struct guarded *e)
{
    int n = 0;
    return ioctl(e->fd, FIONREAD, &n) == 0 && n > 0;
}

/* When more than limit connections (of the client of fresh, or of all when mine is
 * false) wait for a request, the one waiting longest is closed, passing over those whose
 * bytes wait unread: a real client sends its request as it connects, and keeps its
 * connection however many others come before its thread reads the request. */
static void evict(struct guard *g, struct guarded *fresh, bool mine, unsigned limit)
{
    unsigned n = 0;
    struct guarded *oldest = NULL, *oldest_idle = NULL;
    for (struct guarded *e = g->list; e; e = e->next)
        if (waiting(e) && (!mine || same_client(&e->addr, &fresh->addr))) {
            n++;
            if (e == fresh)
                continue;
            if (!oldest || e->since < oldest->since)
                oldest = e;
            if ((!oldest_idle || e->since < oldest_idle->since) && !unread(e))
                oldest_idle = e;
        }
    if (n > limit && (oldest_idle || oldest))
        shut(oldest_idle ? oldest_idle : oldest);
}

static void *watch(void *arg)
{
    struct guard *g = arg;
    pthread_mutex_lock(&g->lock);
    while (!g->stop) {
        struct timespec until = clock_after_ms(GUARD_TICK_MS);
        pthread_cond_timedwait(&g->wake, &g->lock, &until);
        double now = clock_seconds();
        for (struct guarded *e = g->list; e; e = e->next)
            if ((waiting(e) && now - e->since > GUARD_REQUEST_SECONDS) ||
                (e->answering && e->stalled && e->stalled(e->ctx)))
                shut(e);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

struct guard *guard_new(void)
{
    struct guard *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    clock_cond_init(&g->wake);
    if (pthread_create(&g->watchdog, NULL, watch, g) != 0) {
        pthread_cond_destroy(&g->wake);
        pthread_mutex_destroy(&g->lock);
        free(g);
        return NULL;
    }
    return g;
}

void guard_free(struct guard *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    g->stop = true;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->watchdog, NULL);
    while (g->list) {   /* none: the server stopped first */
        struct guarded *e = g->list;
        g->list = e->next;
        free(e);
    }
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

static void started(struct guard *g, struct MHD_Connection *c, void **socket_context)
{
    const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *addr =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    struct guarded *e = calloc(1, sizeof *e);
    if (!e || !fd) {   /* out of memory: this connection goes unguarded */
        free(e);
        return;
    }
    e->conn = c;
    e->fd = fd->connect_fd;
    if (addr && addr->client_addr) {
        size_t n = addr->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                            : sizeof(struct sockaddr_in);
        memcpy(&e->addr, addr->client_addr, n);
    }
    e->since = clock_seconds();
    pthread_mutex_lock(&g->lock);
    e->next = g->list;
    g->list = e;
    evict(g, e, true, GUARD_WAITING_PER_CLIENT);
    evict(g, e, false, GUARD_WAITING);
    pthread_mutex_unlock(&g->lock);
    *socket_context = e;
}

static void closed(struct guard *g, void **socket_context)
{
    struct guarded *e = *socket_context;
    if (!e)
        return;
    pthread_mutex_lock(&g->lock);
    for (struct guarded **p = &g->list; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    pthread_mutex_unlock(&g->lock);
    free(e);
    *socket_context = NULL;
}

void guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                  enum MHD_ConnectionNotificationCode code)
{
    if (code == MHD_CONNECTION_NOTIFY_STARTED)
        started(cls, c, socket_context);
    else
        closed(cls, socket_context);
}

/* c's entry (the lock held), or NULL once it has ended. */
static struct guarded *find(struct guard *g, struct MHD_Connection *c)
{
    for (struct guarded *e = g->list; e; e = e->next)
        if (e->conn == c)
            return e;
    return NULL;
}

void guard_answering(struct guard *g, struct MHD_Connection *c)
{
    pthread_mutex_lock(&g->lock);
    struct guarded *e = find(g, c);
    if (e)
        e->answering = true;
    pthread_mutex_unlock(&g->lock);
}

void guard_answered(struct guard *g, struct MHD_Connection *c)
{
    pthread_mutex_lock(&g->lock);
    struct guarded *e = find(g, c);
    if (e) {
        e->answering = false;
        e->stalled = NULL;
        e->since = clock_seconds();
    }
    pthread_mutex_unlock(&g->lock);
}

void guard_watch(struct guard *g, struct MHD_Connection *c, bool (*stalled)(void *ctx),
                 void *ctx)
{
    pthread_mutex_lock(&g->lock);
    struct guarded *e = find(g, c);
    if (e) {
        e->stalled = stalled;
        e->ctx = ctx;
    }
    pthread_mutex_unlock(&g->lock);
}

/* Watching with no check: the watchdog leaves c alone, and no pointer to the freed ctx
 * stays behind. */
void guard_unwatch(struct guard *g, struct MHD_Connection *c)
{
    guard_watch(g, c, NULL, NULL);
}
