/* nonmoving.c: the nonmoving collector's phases (see nonmoving.h). */
#include "model/nonmoving.h"

bool nonmoving_event_kind(enum gc_event_kind kind)
{
    switch (kind) {
    case GC_EVENT_CONC_MARK_BEGIN: case GC_EVENT_CONC_MARK_END:
    case GC_EVENT_CONC_SYNC_BEGIN: case GC_EVENT_CONC_SYNC_END:
    case GC_EVENT_CONC_SWEEP_BEGIN: case GC_EVENT_CONC_SWEEP_END:
    case GC_EVENT_NONMOVING_CENSUS:
        return true;
    default:
        return false;
    }
}

static void begin(struct nonmoving_phase *p, uint64_t t)
{
    if (p->depth++ == 0)
        p->since = t;
}

/* An END without its BEGIN (lost to damage, or the file began after it) is no phase. */
static void end(struct nonmoving_phase *p, uint64_t t)
{
    if (!p->depth || --p->depth)
        return;
    uint64_t d = t > p->since ? t - p->since : 0;
    p->count++;
    p->total_ns += d;
    if (d > p->max_ns)
        p->max_ns = d;
}

/* A sub-heap's census over its block size's last (the file gives them by capability,
 * not in time order: the latest stands). */
static void take_census(struct nonmoving_stats *s, const struct gc_event *e)
{
    unsigned i = 0;
    while (i < s->sizes && s->heap[i].block_size != e->census.block_size)
        i++;
    if (i == s->sizes) {
        if (s->sizes == NONMOVING_BLOCK_SIZES)
            return;
        s->sizes++;
    } else if (s->heap[i].time_ns > e->time_ns) {
        return;
    }
    s->heap[i] = (struct nonmoving_census){ e->time_ns, e->census.block_size, e->census.active,
                                            e->census.filled, e->census.live };
}

void nonmoving_event(struct nonmoving_stats *s, const struct gc_event *e)
{
    switch (e->kind) {
    case GC_EVENT_CONC_MARK_BEGIN:
        if (!s->cycle.depth)   /* the cycle's first mark */
            begin(&s->cycle, e->time_ns);
        begin(&s->mark, e->time_ns);
        break;
    case GC_EVENT_CONC_MARK_END:
        s->marked += e->marked;
        end(&s->mark, e->time_ns);
        break;
    case GC_EVENT_CONC_SYNC_BEGIN: begin(&s->sync, e->time_ns); break;
    case GC_EVENT_CONC_SYNC_END: end(&s->sync, e->time_ns); break;
    case GC_EVENT_CONC_SWEEP_BEGIN: begin(&s->sweep, e->time_ns); break;
    case GC_EVENT_CONC_SWEEP_END:
        end(&s->sweep, e->time_ns);
        end(&s->cycle, e->time_ns);
        break;
    case GC_EVENT_NONMOVING_CENSUS:
        take_census(s, e);
        break;
    default:
        break;
    }
}

bool nonmoving_heap(const struct nonmoving_stats *s, struct nonmoving_heap *out)
{
    *out = (struct nonmoving_heap){ 0 };
    for (unsigned i = 0; i < s->sizes; i++) {
        const struct nonmoving_census *c = &s->heap[i];
        if (c->time_ns > out->time_ns)
            out->time_ns = c->time_ns;
        out->active_segments += c->active;
        out->filled_segments += c->filled;
        out->live_blocks += c->live;
        out->live_bytes += (uint64_t)c->live * c->block_size;
    }
    out->block_sizes = s->sizes;
    return s->sizes > 0;
}

bool nonmoving_any(const struct nonmoving_stats *s)
{
    return s->mark.count || s->sync.count || s->sweep.count;
}
