/* gcstats.c: the collector's `-s` figures streamed from its events (see gcstats.h).
 *
 * Memory is bounded whatever the run's length: per capability (at most GC_STATS_MAX_CAPS
 * followed apart) the time its last collection began and its allocation so far; per
 * generation (at most GC_STATS_MAX_GENS) counters and a fixed pause histogram.
 */
#include "model/gcstats.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"

/* The pause histogram: 32 linear buckets in each octave of nanoseconds (a bucket spans
 * at most 1/32 of its lower bound, so its middle is within 1/64, 1.6 %, of any pause in
 * it); values below 32 ns have a bucket each. */
#define SUB_BITS 5
#define SUBS (1u << SUB_BITS)
#define BUCKETS (64u * SUBS)

#define LATE_PAUSES 16

struct cap_state {
    bool started, leading;         /* a GC_START seen; a GC_STATS_GHC after it */
    uint64_t start_ns;
    unsigned gen;                  /* of the collection it leads */
    bool has_allocated;
    uint64_t allocated;
};

struct gen_state {
    struct gc_generation fig;      /* the counters (percentiles filled at summary) */
    uint64_t min_pause_ns;
    uint64_t max_slop;
    uint64_t *hist;                /* BUCKETS counts, made at the first pause */
};

struct gc_stats {
    struct cap_state *caps;
    size_t cap_count, cap_alloc;
    struct gen_state gens[GC_STATS_MAX_GENS];
    unsigned generations;
    bool has_residency, has_memory, has_balance;
    uint64_t max_live, max_size;
    uint64_t par_copied, par_balanced;
    uint64_t allocated;            /* the capabilities' last counts summed */
    unsigned allocating;           /* capabilities with a count */
    struct nonmoving_stats nonmoving;
    struct mut_span span;          /* the program's own span (mutspan.h) */
    uint64_t last_alloc_ns;        /* the latest HEAP_ALLOCATED */
    uint64_t last_end_ns;          /* the latest end of a pause */
    /* The LATE_PAUSES pauses that began last, latest first: those after the program's
     * span are -s's exit collections (its MUT leaves them out, its GC keeps them). */
    struct { uint64_t start_ns, ns; } late[LATE_PAUSES];
    unsigned late_count;
};

struct gc_stats *gc_stats_new(void)
{
    return calloc(1, sizeof(struct gc_stats));
}

struct gc_stats *gc_stats_copy(const struct gc_stats *g)
{
    struct gc_stats *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *g;
    for (unsigned i = 0; i < GC_STATS_MAX_GENS; i++)
        c->gens[i].hist = NULL;   /* g's until copied */
    c->caps = copy_array(g->caps, g->cap_count, sizeof *g->caps);
    c->cap_alloc = g->cap_count;
    if (!c->caps)
        goto fail;
    for (unsigned i = 0; i < GC_STATS_MAX_GENS; i++) {
        const uint64_t *hist = g->gens[i].hist;
        if (hist && !(c->gens[i].hist = copy_array(hist, BUCKETS, sizeof *hist)))
            goto fail;
    }
    return c;
fail:
    gc_stats_free(c);
    return NULL;
}

void gc_stats_free(struct gc_stats *g)
{
    if (!g)
        return;
    for (unsigned i = 0; i < GC_STATS_MAX_GENS; i++)
        free(g->gens[i].hist);
    free(g->caps);
    free(g);
}

static unsigned bucket_of(uint64_t ns)
{
    if (ns < SUBS)
        return (unsigned)ns;
    unsigned top = 63u - (unsigned)__builtin_clzll(ns);
    unsigned sub = (unsigned)(ns >> (top - SUB_BITS)) & (SUBS - 1);
    return (top - SUB_BITS + 1) * SUBS + sub;
}

/* The middle of bucket b (the inverse of bucket_of). */
static uint64_t bucket_middle(unsigned b)
{
    if (b < SUBS)
        return b;
    unsigned top = b / SUBS + SUB_BITS - 1, sub = b % SUBS;
    uint64_t low = ((uint64_t)(SUBS + sub)) << (top - SUB_BITS);
    uint64_t width = (uint64_t)1 << (top - SUB_BITS);
    return low + width / 2;
}

/* The capability's state; one shared slot for those past the bound and for events in no
 * capability's block. NULL when out of memory. */
static struct cap_state *cap_of(struct gc_stats *g, uint16_t cap)
{
    size_t i = cap < GC_STATS_MAX_CAPS ? cap : GC_STATS_MAX_CAPS;
    if (i >= g->cap_count) {
        if (GROW_ARRAY_ZEROED(g->caps, &g->cap_alloc, i + 1) != 0)
            return NULL;
        g->cap_count = i + 1;
    }
    return &g->caps[i];
}

static struct gen_state *gen_of(struct gc_stats *g, unsigned gen)
{
    unsigned i = gen < GC_STATS_MAX_GENS ? gen : GC_STATS_MAX_GENS - 1;
    if (i >= g->generations)
        g->generations = i + 1;
    return &g->gens[i];
}

static int take_stats(struct gc_stats *g, struct cap_state *c, const struct gc_event *e)
{
    struct gen_state *s = gen_of(g, e->gen);
    s->fig.collections++;
    s->fig.copied_bytes += e->copied;
    if (e->slop > s->max_slop)
        s->max_slop = e->slop;
    if (e->threads > 1) {
        s->fig.parallel++;
        g->par_copied += e->copied;
        if (e->has_balanced) {
            g->par_balanced += e->balanced_copied;
            g->has_balance = true;
        }
    }
    /* The pause is this capability's: it led the collection. */
    c->leading = c->started;
    c->gen = e->gen;
    return 0;
}

/* A pause into the latest-begun LATE_PAUSES (by its start: the file gives them by
 * capability, not in time order). */
static void keep_late(struct gc_stats *g, uint64_t start_ns, uint64_t ns)
{
    unsigned i = g->late_count < LATE_PAUSES ? g->late_count++ : LATE_PAUSES;
    while (i > 0 && g->late[i - 1].start_ns < start_ns) {
        if (i < LATE_PAUSES)
            g->late[i] = g->late[i - 1];
        i--;
    }
    if (i < LATE_PAUSES) {
        g->late[i].start_ns = start_ns;
        g->late[i].ns = ns;
    }
}

static int take_pause(struct gc_stats *g, struct cap_state *c, uint64_t end_ns,
                      struct gc_pause *done)
{
    c->leading = c->started = false;
    if (end_ns < c->start_ns)
        end_ns = c->start_ns;   /* damage: a time gone back is no pause */
    uint64_t pause = end_ns - c->start_ns;
    struct gen_state *s = gen_of(g, c->gen);
    if (!s->hist && !(s->hist = calloc(BUCKETS, sizeof *s->hist)))
        return -1;
    s->hist[bucket_of(pause)]++;
    if (!s->fig.pauses || pause < s->min_pause_ns)
        s->min_pause_ns = pause;
    if (pause > s->fig.max_pause_ns)
        s->fig.max_pause_ns = pause;
    s->fig.pauses++;
    s->fig.elapsed_ns += pause;
    keep_late(g, c->start_ns, pause);
    if (end_ns > g->last_end_ns)
        g->last_end_ns = end_ns;
    if (done)
        *done = (struct gc_pause){ c->gen, c->start_ns, end_ns };
    return 1;
}

int gc_stats_event(struct gc_stats *g, const struct gc_event *e, struct gc_pause *done)
{
    if (nonmoving_event_kind(e->kind)) {   /* the collector thread's: no capability */
        nonmoving_event(&g->nonmoving, e);
        return 0;
    }
    if (e->kind == GC_EVENT_PID || e->kind == GC_EVENT_TASK_CREATE ||
        e->kind == GC_EVENT_TASK_DELETE) {
        mut_span_event(&g->span, e);
        return 0;
    }
    struct cap_state *c = cap_of(g, e->cap);
    if (!c)
        return -1;
    switch (e->kind) {
    case GC_EVENT_START:
        c->started = true;
        c->leading = false;
        c->start_ns = e->time_ns;
        return 0;
    case GC_EVENT_STATS:
        return take_stats(g, c, e);
    case GC_EVENT_END:
        if (c->leading)
            return take_pause(g, c, e->time_ns, done);
        c->started = false;
        return 0;
    case GC_EVENT_ALLOCATED:
        if (e->time_ns > g->last_alloc_ns)
            g->last_alloc_ns = e->time_ns;
        g->allocated += e->bytes - (c->has_allocated ? c->allocated : 0);   /* mod 2^64 */
        g->allocating += !c->has_allocated;
        c->has_allocated = true;
        c->allocated = e->bytes;
        return 0;
    case GC_EVENT_RUN: case GC_EVENT_STOP:
        return 0;   /* the scheduler's: capstats.h */
    default:
        return 0;
    }
    return 0;
}

void gc_stats_total(struct gc_stats *g, enum heap_total kind, uint64_t bytes)
{
    if (kind == HEAP_TOTAL_LIVE) {
        g->has_residency = true;
        if (bytes > g->max_live)
            g->max_live = bytes;
    } else if (kind == HEAP_TOTAL_SIZE) {
        g->has_memory = true;
        if (bytes > g->max_size)
            g->max_size = bytes;
    }
}

uint64_t gc_stats_allocated(const struct gc_stats *g)
{
    return g->allocated;
}

unsigned gc_stats_allocating(const struct gc_stats *g)
{
    return g->allocating;
}

uint64_t gc_stats_pauses_below_pow2(const struct gc_stats *g, unsigned gen, unsigned k)
{
    if (gen >= g->generations || !g->gens[gen].hist || k >= 64)
        return 0;
    unsigned edge = bucket_of((uint64_t)1 << k);   /* the first bucket at or past 2^k */
    uint64_t n = 0;
    for (unsigned b = 0; b < edge; b++)
        n += g->gens[gen].hist[b];
    return n;
}

/* The pause of nearest rank ceil(q * n) (1-based), clamped to the exact extremes. */
static uint64_t percentile(const struct gen_state *s, double q)
{
    uint64_t n = s->fig.pauses;
    if (!n)
        return 0;
    double r = q * (double)n;
    uint64_t rank = (uint64_t)r;
    if ((double)rank < r)
        rank++;
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (unsigned b = 0; b < BUCKETS; b++) {
        seen += s->hist[b];
        if (seen >= rank) {
            uint64_t v = bucket_middle(b);
            if (v < s->min_pause_ns)
                v = s->min_pause_ns;
            return v > s->fig.max_pause_ns ? s->fig.max_pause_ns : v;
        }
    }
    return s->fig.max_pause_ns;
}

/* -s's INIT, MUT and EXIT from the program's span (mutspan.h), when the events give it
 * and the collections after it (the exit's) are among the latest kept: MUT is the span
 * less the collections before its end, INIT its start, EXIT the rest less the exit's
 * collections; else out keeps MUT as the whole run less its collections. */
static void program_span(const struct gc_stats *g, uint64_t end_ns, struct gc_summary *out)
{
    uint64_t from, to;
    if (!mut_span_main(&g->span, &from, &to) || to > end_ns)
        return;
    uint64_t exit_gc = 0;
    unsigned i = 0;
    for (; i < g->late_count && g->late[i].start_ns >= to; i++)
        exit_gc += g->late[i].ns;
    if (i == LATE_PAUSES || exit_gc > out->gc_ns)
        return;   /* more exit collections than kept: not known */
    uint64_t before = out->gc_ns - exit_gc;
    if (to - from < before || end_ns - to < exit_gc)
        return;   /* the span does not hold its collections: not the program's */
    out->has_span = true;
    out->init_ns = from;
    out->mut_ns = to - from - before;
    out->exit_ns = end_ns - to - exit_gc;
}

void gc_stats_summary(const struct gc_stats *g, uint64_t end_ns, struct gc_summary *out)
{
    memset(out, 0, sizeof *out);
    out->generations = g->generations;
    for (unsigned i = 0; i < g->generations; i++) {
        const struct gen_state *s = &g->gens[i];
        out->gen[i] = s->fig;
        out->gen[i].gen = i;
        out->gen[i].p50_ns = percentile(s, 0.50);
        out->gen[i].p90_ns = percentile(s, 0.90);
        out->gen[i].p99_ns = percentile(s, 0.99);
        out->gc_ns += s->fig.elapsed_ns;
        out->any = out->any || s->fig.collections;
    }
    if (g->generations)
        out->max_slop_bytes = g->gens[g->generations - 1].max_slop;
    for (size_t i = 0; i < g->cap_count; i++)
        out->has_allocated |= g->caps[i].has_allocated;
    out->allocated_bytes = g->allocated;
    out->has_residency = g->has_residency;
    out->max_residency_bytes = g->max_live;
    out->has_memory = g->has_memory;
    out->memory_in_use_bytes = g->max_size;
    /* -s's Total is read as the runtime writes its report, when it also writes each
     * capability's last HEAP_ALLOCATED, after the exit's collection: the events after
     * them (capabilities deleted as the eventlog closes, 0.1 to 2 ms on the test runs)
     * are not in it. A run cut short has no such count after its last collection. */
    if (g->last_alloc_ns > g->last_end_ns && g->last_alloc_ns <= end_ns)
        end_ns = g->last_alloc_ns;
    out->elapsed_ns = end_ns;
    out->mut_ns = end_ns > out->gc_ns ? end_ns - out->gc_ns : 0;
    program_span(g, end_ns, out);
    out->productivity = end_ns ? (double)out->mut_ns / (double)end_ns : 0;
    out->has_balance = g->has_balance && g->par_copied;
    out->work_balance = out->has_balance ? (double)g->par_balanced / (double)g->par_copied : 0;
    out->has_nonmoving = nonmoving_any(&g->nonmoving);
    out->nonmoving = g->nonmoving;
}
