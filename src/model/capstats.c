/* capstats.c: each capability's running, collecting and idle time (see capstats.h). */
#include "model/capstats.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"
#include "model/nonmoving.h"

enum cap_state { CAP_IDLE, CAP_RUNNING, CAP_GC };

struct cap_track {
    bool scheduled;                /* a RUN_THREAD or STOP_THREAD seen: listed */
    enum cap_state state;
    uint64_t since;                /* the time of its last change (0, the run's start,
                                    * before its first event: it was idle until then) */
    uint64_t ns[3];                /* by enum cap_state */
    uint64_t *slots;               /* the timeline: per slot running then collecting ns;
                                    * NULL until the capability runs or collects */
    uint64_t slot;                 /* the slot its last time on the timeline ended in:
                                    * where its next most likely lies (checked) */
};

/* The nonmoving collector's phase: a synchronisation over the marks it finishes, a mark
 * over a sweep (they do not overlap in GHC's order; the first wins if they did). */
struct nonmoving_track {
    unsigned depth[NM_PHASES];     /* BEGINs not yet closed, by enum nm_phase */
    uint64_t since;                /* its last event */
    uint64_t ns[NM_PHASES];
    uint64_t *slots;               /* per slot each phase's ns; NULL until one is timed */
};

struct cap_stats {
    struct cap_track *caps;
    size_t count, alloc;
    uint64_t dropped;
    uint64_t width_ns;             /* every capability's slots, and the nonmoving
                                    * collector's, are this wide */
    struct nonmoving_track nm;
};

#define SLOT_VALUES (2 * CAP_TIMELINE_SLOTS)
#define NM_SLOT_VALUES (NM_PHASES * CAP_TIMELINE_SLOTS)

struct cap_stats *cap_stats_new(void)
{
    struct cap_stats *s = calloc(1, sizeof *s);
    if (s)
        s->width_ns = CAP_TIMELINE_FIRST_WIDTH_NS;
    return s;
}

struct cap_stats *cap_stats_copy(const struct cap_stats *s)
{
    struct cap_stats *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *s;
    if (!(c->caps = copy_array(s->caps, s->count, sizeof *s->caps))) {
        free(c);
        return NULL;
    }
    c->alloc = s->count;
    for (size_t i = 0; i < s->count; i++)
        c->caps[i].slots = NULL;   /* s's until copied */
    for (size_t i = 0; i < s->count; i++) {
        const uint64_t *slots = s->caps[i].slots;
        if (slots && !(c->caps[i].slots = copy_array(slots, SLOT_VALUES, sizeof *slots))) {
            cap_stats_free(c);
            return NULL;
        }
    }
    c->nm.slots = NULL;
    if (s->nm.slots &&
        !(c->nm.slots = copy_array(s->nm.slots, NM_SLOT_VALUES, sizeof *s->nm.slots))) {
        cap_stats_free(c);
        return NULL;
    }
    return c;
}

void cap_stats_free(struct cap_stats *s)
{
    if (s) {
        for (size_t i = 0; i < s->count; i++)
            free(s->caps[i].slots);
        free(s->caps);
        free(s->nm.slots);
    }
    free(s);
}

/* Slots of columns values each twice as wide: each pair of neighbours summed into one. */
static void merge_pairs(uint64_t *slots, size_t columns)
{
    for (size_t i = 0; i < CAP_TIMELINE_SLOTS / 2; i++)
        for (size_t c = 0; c < columns; c++)
            slots[columns * i + c] = slots[columns * 2 * i + c] +
                                     slots[columns * (2 * i + 1) + c];
    memset(slots + columns * CAP_TIMELINE_SLOTS / 2, 0,
           columns * CAP_TIMELINE_SLOTS / 2 * sizeof *slots);
}

/* Whether slots of width reach end (an interval ending there fits); a width past which
 * doubling would overflow reaches every time. */
static bool slots_reach(uint64_t width, uint64_t end)
{
    return width > UINT64_MAX / CAP_TIMELINE_SLOTS / 2 || end <= width * CAP_TIMELINE_SLOTS;
}

/* Time [from, to) added to column of slots of width, columns values each. */
static void slots_add(uint64_t *slots, size_t columns, size_t column, uint64_t width,
                      uint64_t from, uint64_t to)
{
    for (uint64_t k = from / width; k < CAP_TIMELINE_SLOTS && k * width < to; k++) {
        uint64_t lo = from > k * width ? from : k * width;
        uint64_t hi = to < (k + 1) * width ? to : (k + 1) * width;
        slots[columns * k + column] += hi - lo;
    }
}

/* The column of a capability's state (running or collecting). */
static size_t cap_column(enum cap_state state)
{
    return state == CAP_RUNNING ? 0 : 1;
}

/* Every timeline's slots widened (alike) until they reach to. */
static void widen(struct cap_stats *s, uint64_t to)
{
    while (!slots_reach(s->width_ns, to)) {
        for (size_t i = 0; i < s->count; i++)
            if (s->caps[i].slots)
                merge_pairs(s->caps[i].slots, 2);
        if (s->nm.slots)
            merge_pairs(s->nm.slots, NM_PHASES);
        s->width_ns *= 2;
    }
}

/* The capability's time [from, to) in state on the timeline: the slots widened first
 * (every capability's alike) until they reach to. 0, or -1 when out of memory. */
static int timeline_add(struct cap_stats *s, struct cap_track *t, enum cap_state state,
                        uint64_t from, uint64_t to)
{
    if (state == CAP_IDLE)
        return 0;
    if (!t->slots && !(t->slots = calloc(SLOT_VALUES, sizeof *t->slots)))
        return -1;
    widen(s, to);
    /* A capability's events come in time order, thousands to a slot in a busy run: most
     * intervals lie in the slot the one before ended in, and are added to it as
     * slots_add would, without its division (a quarter of this function's time). */
    uint64_t lo = t->slot * s->width_ns;
    if (t->slot < CAP_TIMELINE_SLOTS && from >= lo && to <= lo + s->width_ns) {
        t->slots[2 * t->slot + cap_column(state)] += to - from;
        return 0;
    }
    slots_add(t->slots, 2, cap_column(state), s->width_ns, from, to);
    t->slot = to / s->width_ns;
    return 0;
}

/* The phase the nonmoving collector is in: -1 when none. */
static int nm_phase(const struct nonmoving_track *t)
{
    for (int p = 0; p < NM_PHASES; p++)
        if (t->depth[p])
            return p;
    return -1;
}

/* A nonmoving collector's event: the time since its last one to the phase it was in, then
 * its BEGIN or END counted (an END without its BEGIN, as model/nonmoving.c, changes
 * nothing). 0, or -1 when out of memory. */
static int nonmoving_track_event(struct cap_stats *s, const struct gc_event *e)
{
    struct nonmoving_track *t = &s->nm;
    int phase = nm_phase(t);
    if (phase >= 0 && e->time_ns > t->since) {
        if (!t->slots && !(t->slots = calloc(NM_SLOT_VALUES, sizeof *t->slots)))
            return -1;
        widen(s, e->time_ns);
        t->ns[phase] += e->time_ns - t->since;
        slots_add(t->slots, NM_PHASES, (size_t)phase, s->width_ns, t->since, e->time_ns);
    }
    if (e->time_ns > t->since)
        t->since = e->time_ns;
    switch (e->kind) {
    case GC_EVENT_CONC_SYNC_BEGIN: t->depth[NM_SYNC]++; break;
    case GC_EVENT_CONC_MARK_BEGIN: t->depth[NM_MARK]++; break;
    case GC_EVENT_CONC_SWEEP_BEGIN: t->depth[NM_SWEEP]++; break;
    case GC_EVENT_CONC_SYNC_END: t->depth[NM_SYNC] -= t->depth[NM_SYNC] > 0; break;
    case GC_EVENT_CONC_MARK_END: t->depth[NM_MARK] -= t->depth[NM_MARK] > 0; break;
    case GC_EVENT_CONC_SWEEP_END: t->depth[NM_SWEEP] -= t->depth[NM_SWEEP] > 0; break;
    default: break;
    }
    return 0;
}

int cap_stats_event(struct cap_stats *s, const struct gc_event *e)
{
    if (nonmoving_event_kind(e->kind))   /* the collector thread's: no capability */
        return nonmoving_track_event(s, e);
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
    /* before its first event the capability was idle, from the run's start (since 0);
     * a time gone back (damage) adds nothing, and since stays the latest time */
    if (e->time_ns > t->since) {
        t->ns[t->state] += e->time_ns - t->since;
        if (timeline_add(s, t, t->state, t->since, e->time_ns) != 0)
            return -1;
        t->since = e->time_ns;
    }
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

/* The slots used up to end_ns, slots of width. */
static size_t slots_used(uint64_t width, uint64_t end_ns)
{
    size_t n = end_ns ? (size_t)((end_ns - 1) / width) + 1 : 0;
    return n < CAP_TIMELINE_SLOTS ? n : CAP_TIMELINE_SLOTS;
}

bool cap_stats_timeline(const struct cap_stats *s, size_t index, uint64_t end_ns,
                        struct cap_timeline *out)
{
    const struct cap_track *t = NULL;
    for (size_t i = 0, n = 0; i < s->count && !t; i++)
        if (s->caps[i].scheduled && n++ == index) {
            t = &s->caps[i];
            out->cap = (unsigned)i;
        }
    if (!t)
        return false;
    uint64_t slots[SLOT_VALUES] = { 0 };
    if (t->slots)
        memcpy(slots, t->slots, SLOT_VALUES * sizeof *slots);
    uint64_t width = s->width_ns;
    /* the state left at the last event, to the run's end, as cap_stats_shares counts it */
    while (!slots_reach(width, end_ns)) {
        merge_pairs(slots, 2);
        width *= 2;
    }
    if (end_ns > t->since && t->state != CAP_IDLE)
        slots_add(slots, 2, cap_column(t->state), width, t->since, end_ns);
    out->width_ns = width;
    out->slots = slots_used(width, end_ns);
    for (size_t k = 0; k < CAP_TIMELINE_SLOTS; k++) {
        out->running_ns[k] = slots[2 * k];
        out->gc_ns[k] = slots[2 * k + 1];
    }
    return true;
}

bool cap_stats_has_nonmoving(const struct cap_stats *s)
{
    return s && s->nm.slots;
}

bool cap_stats_nonmoving(const struct cap_stats *s, uint64_t end_ns,
                         struct nonmoving_timeline *out)
{
    if (!cap_stats_has_nonmoving(s))
        return false;
    uint64_t slots[NM_SLOT_VALUES];
    memcpy(slots, s->nm.slots, sizeof slots);
    uint64_t width = s->width_ns;
    while (!slots_reach(width, end_ns)) {
        merge_pairs(slots, NM_PHASES);
        width *= 2;
    }
    out->width_ns = width;
    out->slots = slots_used(width, end_ns);
    for (size_t p = 0; p < NM_PHASES; p++) {
        out->total_ns[p] = s->nm.ns[p];
        for (size_t k = 0; k < CAP_TIMELINE_SLOTS; k++)
            out->ns[p][k] = slots[NM_PHASES * k + p];
    }
    return true;
}

size_t cap_stats_strips(const struct cap_stats *s, const struct run_info *info)
{
    size_t n = s ? cap_stats_shares(s, 0, NULL, 0) : 0;
    bool threaded = info && info->rts_version && strstr(info->rts_version, "rts_thr");
    return n > 1 || (n == 1 && threaded) ? n : 0;
}

uint64_t cap_stats_dropped(const struct cap_stats *s)
{
    return s->dropped;
}
