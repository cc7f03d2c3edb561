/* capstats.c: each capability's running, collecting and idle time (see capstats.h). */
#include "model/capstats.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"

enum cap_state { CAP_IDLE, CAP_RUNNING, CAP_GC };

struct cap_track {
    bool scheduled;                /* a RUN_THREAD or STOP_THREAD seen: listed */
    bool seen;                     /* any event seen: since holds its time */
    enum cap_state state;
    uint64_t since;                /* the time of its last change */
    uint64_t ns[3];                /* by enum cap_state */
};

struct cap_stats {
    struct cap_track *caps;
    size_t count, alloc;
    uint64_t dropped;
};

struct cap_stats *cap_stats_new(void)
{
    return calloc(1, sizeof(struct cap_stats));
}

struct cap_stats *cap_stats_copy(const struct cap_stats *s)
{
    struct cap_stats *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *s;
    c->caps = NULL;
    c->alloc = 0;
    if (s->count) {
        if (!(c->caps = malloc(s->count * sizeof *s->caps))) {
            free(c);
            return NULL;
        }
        memcpy(c->caps, s->caps, s->count * sizeof *s->caps);
        c->alloc = s->count;
    }
    return c;
}

void cap_stats_free(struct cap_stats *s)
{
    if (s)
        free(s->caps);
    free(s);
}

int cap_stats_event(struct cap_stats *s, const struct gc_event *e)
{
    enum cap_state to;
    switch (e->kind) {
    case GC_EVENT_RUN: to = CAP_RUNNING; break;
    case GC_EVENT_STOP: to = CAP_IDLE; break;
    case GC_EVENT_START: to = CAP_GC; break;
    case GC_EVENT_END: to = CAP_IDLE; break;
    default: return 0;
    }
    if (e->cap == GC_CAP_NONE || e->cap >= GC_STATS_MAX_CAPS) {
        s->dropped++;
        return 0;
    }
    if (e->cap >= s->count) {
        if (GROW_ARRAY_ZEROED(s->caps, &s->alloc, (size_t)e->cap + 1) != 0)
            return -1;
        s->count = (size_t)e->cap + 1;
    }
    struct cap_track *t = &s->caps[e->cap];
    /* before its first event the capability was idle, from the run's start */
    uint64_t since = t->seen ? t->since : 0;
    if (e->time_ns > since)
        t->ns[t->state] += e->time_ns - since;
    if (e->time_ns > since || !t->seen)
        t->since = e->time_ns;
    t->seen = true;
    t->state = to;
    t->scheduled |= e->kind == GC_EVENT_RUN || e->kind == GC_EVENT_STOP;
    return 0;
}

size_t cap_stats_shares(const struct cap_stats *s, uint64_t end_ns, struct cap_share *out,
                        size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const struct cap_track *t = &s->caps[i];
        if (!t->scheduled)
            continue;
        if (out && n < cap) {
            uint64_t ns[3] = { t->ns[0], t->ns[1], t->ns[2] };
            if (end_ns > t->since)
                ns[t->state] += end_ns - t->since;
            uint64_t all = ns[CAP_IDLE] + ns[CAP_RUNNING] + ns[CAP_GC];
            struct cap_share *c = &out[n];
            *c = (struct cap_share){ (unsigned)i, ns[CAP_RUNNING], ns[CAP_GC], ns[CAP_IDLE],
                                     0, 0, 0 };
            if (all) {
                c->running = (double)ns[CAP_RUNNING] / (double)all;
                c->gc = (double)ns[CAP_GC] / (double)all;
                c->idle = 1 - c->running - c->gc;
            }
        }
        n++;
    }
    return n;
}

uint64_t cap_stats_dropped(const struct cap_stats *s)
{
    return s->dropped;
}
