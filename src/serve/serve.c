/* serve.c: signals and periodic work of a live run (see serve.h). */
#include "serve/serve.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve/clock.h"
#include "serve/live.h"

bool serve_parse_address(const char *text, char *buf, size_t buf_size, const char **host,
                         unsigned *port)
{
    size_t len = strlen(text);
    if (len == 0 || len >= buf_size)
        return false;
    memcpy(buf, text, len + 1);
    char *colon = strrchr(buf, ':');
    const char *digits = buf;
    *host = NULL;
    if (colon) {
        *colon = '\0';
        digits = colon + 1;
        char *h = buf;
        size_t hlen = strlen(h);
        if (hlen >= 2 && h[0] == '[' && h[hlen - 1] == ']') {   /* [::1] */
            h[hlen - 1] = '\0';
            h++;
        } else if (strchr(h, ':')) {
            return false;   /* an IPv6 address wants brackets */
        }
        if (!*h)
            return false;
        *host = h;
    }
    if (!*digits || strlen(digits) > 5)
        return false;
    unsigned long v = 0;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (unsigned long)(*p - '0');
    }
    if (v > 65535)
        return false;
    *port = (unsigned)v;
    return true;
}

struct serve_worker {
    pthread_t thread;
    struct live *live;
    struct serve_hooks hooks;
    double every_seconds;
    sigset_t signals;
    pthread_mutex_t lock;
    bool waiting;                   /* the owner waits: a signal ends the wait */
    bool signalled;
    bool stop;                      /* the owner needs no signal: end now */
    pthread_cond_t done;
};

static void *work(void *arg)
{
    struct serve_worker *w = arg;
    double next_every = w->every_seconds > 0 ? clock_seconds() + w->every_seconds : 0;
    double next_refresh = 0;
    for (;;) {
        struct timespec tick = { 0, 250 * 1000000L };
        int sig = sigtimedwait(&w->signals, NULL, &tick);
        pthread_mutex_lock(&w->lock);
        bool stop = w->stop;
        pthread_mutex_unlock(&w->lock);
        if (stop)
            return NULL;
        if (sig == SIGINT || sig == SIGTERM) {
            pthread_mutex_lock(&w->lock);
            bool waiting = w->waiting;
            w->signalled = true;
            pthread_cond_signal(&w->done);
            pthread_mutex_unlock(&w->lock);
            if (waiting)
                return NULL;          /* the owner ends the run */
            w->hooks.interrupted(w->hooks.ctx);   /* the input goes on: end it here */
            return NULL;
        }
        struct ev_error err = { 0 };
        if (clock_seconds() >= next_refresh) {   /* the shown bands: fresh within a second */
            (void)live_refresh(w->live, &err);   /* out of memory: /metrics will say */
            next_refresh = clock_seconds() + 1;
        }
        if (next_every && clock_seconds() >= next_every) {
            if (!live_ended(w->live))
                w->hooks.every(w->hooks.ctx);
            next_every = clock_seconds() + w->every_seconds;
        }
    }
}

struct serve_worker *serve_worker_start(struct live *l, const struct serve_hooks *hooks,
                                        double every_seconds, struct ev_error *err)
{
    struct serve_worker *w = calloc(1, sizeof *w);
    if (!w) {
        ev_error_set(err, "out of memory");
        return NULL;
    }
    w->live = l;
    w->hooks = *hooks;
    w->every_seconds = every_seconds;
    sigemptyset(&w->signals);
    sigaddset(&w->signals, SIGINT);
    sigaddset(&w->signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &w->signals, NULL);
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->done, NULL);
    int rc = pthread_create(&w->thread, NULL, work, w);
    if (rc != 0) {
        ev_error_set(err, "cannot start a thread: %s", strerror(rc));
        free(w);
        return NULL;
    }
    return w;
}

void serve_worker_wait(struct serve_worker *w, bool serving)
{
    pthread_mutex_lock(&w->lock);
    w->waiting = true;
    w->stop = !serving;
    while (serving && !w->signalled)
        pthread_cond_wait(&w->done, &w->lock);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->done);
    free(w);
}
