/* timeprof.c: sample counts per cost-centre stack (see timeprof.h).
 *
 * The key of a stack is the event's own bytes (big-endian numbers, innermost first), so
 * a sample costs one hash lookup and no conversion; consecutive samples very often
 * repeat a stack (one capability, one hot loop), so the last key is compared first and
 * skips even that.
 */
#include "census/timeprof.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/intern.h"
#include "base/order.h"

struct timeprof {
    struct timeprof_options opt;
    const struct costcentres *ccs;
    struct intern *stacks;          /* key: 4 bytes per cost centre, innermost first */
    uint64_t *counts;               /* per stack */
    size_t cap;
    bool begun;
    uint64_t interval_ns;
    uint64_t samples, outside;
    uint64_t cap_samples[TIMEPROF_MAX_CAPS];
    uint32_t caps_seen;
    /* the last stack seen, to skip the lookup when it repeats */
    unsigned char last_key[4 * 255];
    size_t last_len;
    uint32_t last_id;
    bool has_last;
};

void timeprof_free(struct timeprof *tp)
{
    if (!tp)
        return;
    intern_free(tp->stacks);
    free(tp->counts);
    free(tp);
}

struct timeprof *timeprof_new(const struct timeprof_options *opt)
{
    struct timeprof *tp = calloc(1, sizeof *tp);
    if (!tp)
        return NULL;
    if (opt)
        tp->opt = *opt;
    /* 4 bytes per frame, at most 255 frames: bounded by the stack count. */
    tp->stacks = intern_new(TIMEPROF_MAX_STACKS, (size_t)64 << 20);
    if (!tp->stacks) {
        free(tp);
        return NULL;
    }
    return tp;
}

void timeprof_set_names(struct timeprof *tp, const struct costcentres *ccs) { tp->ccs = ccs; }

/* The stack table copied whole (intern_copy: the same numbers, sized exactly), so the
 * counts and the last-stack cache hold for the copy as they are. */
struct timeprof *timeprof_copy(const struct timeprof *tp, const struct costcentres *ccs)
{
    struct timeprof *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *tp;
    c->ccs = ccs;
    uint32_t n = intern_count(tp->stacks);
    c->stacks = intern_copy(tp->stacks);
    c->counts = copy_array(tp->counts, n, sizeof *tp->counts);
    c->cap = n;
    if (!c->stacks || !c->counts) {
        timeprof_free(c);
        return NULL;
    }
    return c;
}

void timeprof_begin(struct timeprof *tp, uint64_t interval_ns)
{
    if (!tp->begun) {
        tp->begun = true;
        tp->interval_ns = interval_ns;
    }
}

enum table_status timeprof_sample(struct timeprof *tp, uint64_t time_ns, uint32_t cap,
                                     const struct ev_ccs *stack)
{
    if ((tp->opt.has_from && time_ns < tp->opt.from_ns) ||
        (tp->opt.has_to && time_ns > tp->opt.to_ns)) {
        tp->outside++;
        return TABLE_OK;
    }
    size_t len = 4 * (size_t)stack->depth;
    uint32_t id;
    if (tp->has_last && len == tp->last_len && memcmp(stack->ids, tp->last_key, len) == 0) {
        id = tp->last_id;
    } else {
        enum table_status st = intern_get(tp->stacks, stack->ids, len, &id, NULL);
        if (st == TABLE_FULL)
            return TABLE_FULL;
        if (st != TABLE_OK)
            return TABLE_NO_MEMORY;
        if (GROW_ARRAY_ZEROED(tp->counts, &tp->cap, (size_t)id + 1) != 0)
            return TABLE_NO_MEMORY;
        if (len <= sizeof tp->last_key) {
            memcpy(tp->last_key, stack->ids, len);
            tp->last_len = len;
            tp->last_id = id;
            tp->has_last = true;
        }
    }
    tp->counts[id]++;
    tp->samples++;
    uint32_t slot = cap < TIMEPROF_MAX_CAPS ? cap : TIMEPROF_MAX_CAPS - 1;
    tp->cap_samples[slot]++;
    if (slot + 1 > tp->caps_seen)
        tp->caps_seen = slot + 1;
    return TABLE_OK;
}

bool timeprof_present(const struct timeprof *tp)
{
    return tp && (tp->begun || tp->samples || tp->outside);
}

uint64_t timeprof_interval_ns(const struct timeprof *tp) { return tp->interval_ns; }
uint64_t timeprof_samples(const struct timeprof *tp) { return tp->samples; }
uint64_t timeprof_outside(const struct timeprof *tp) { return tp->outside; }

const uint64_t *timeprof_cap_samples(const struct timeprof *tp, uint32_t *caps)
{
    *caps = tp->caps_seen;
    return tp->cap_samples;
}

uint32_t timeprof_cap_count(const struct timeprof *tp)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < tp->caps_seen; i++)
        n += tp->cap_samples[i] != 0;
    return n;
}

uint32_t timeprof_stack_count(const struct timeprof *tp) { return intern_count(tp->stacks); }

uint64_t timeprof_stack(const struct timeprof *tp, uint32_t i, unsigned *depth)
{
    size_t len;
    intern_key(tp->stacks, i, &len);
    *depth = (unsigned)(len / 4);
    return tp->counts[i];
}

uint32_t timeprof_stack_cc(const struct timeprof *tp, uint32_t i, unsigned k)
{
    size_t len;
    const unsigned char *p = (const unsigned char *)intern_key(tp->stacks, i, &len) + 4 * k;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void timeprof_cc_names(const struct timeprof *tp, uint32_t number, struct cc_frame *out,
                       char scratch[16])
{
    ccframe_lookup(tp->ccs, number, out, scratch);
}

static bool names_are(const struct cc_frame *cc, const char *label, const char *module)
{
    return cc->label_len == strlen(label) && memcmp(cc->label, label, cc->label_len) == 0 &&
           cc->module_len == strlen(module) && memcmp(cc->module, module, cc->module_len) == 0;
}

/* The runtime's own cost centres (GC, SYSTEM, IDLE, OVERHEAD_of, DONT_CARE): sampled,
 * but left out of the .prof, and of ev2hp's outputs unless --system-ccs. */
static bool is_system(const struct timeprof *tp, uint32_t number)
{
    struct cc_frame cc;
    char scratch[16];
    timeprof_cc_names(tp, number, &cc, scratch);
    /* The runtime declares them with these modules (rts/Profiling.c, CC_DECLARE). */
    return names_are(&cc, "GC", "GC") || names_are(&cc, "SYSTEM", "SYSTEM") ||
           names_are(&cc, "IDLE", "IDLE") || names_are(&cc, "OVERHEAD_of", "PROFILING") ||
           names_are(&cc, "DONT_CARE", "MAIN");
}

bool timeprof_stack_is_system(const struct timeprof *tp, uint32_t i)
{
    unsigned depth;
    timeprof_stack(tp, i, &depth);
    for (unsigned k = 0; k < depth; k++)
        if (is_system(tp, timeprof_stack_cc(tp, i, k)))
            return true;
    return false;
}

uint64_t timeprof_kept_samples(const struct timeprof *tp, bool system)
{
    if (system)
        return tp->samples;
    uint64_t n = 0;
    for (uint32_t i = 0; i < timeprof_stack_count(tp); i++)
        if (!timeprof_stack_is_system(tp, i))
            n += tp->counts[i];
    return n;
}

/* The frames of every distinct stack together: what bounds the nodes of the tree and
 * the cost centres a profile names. */
static size_t frame_count(const struct timeprof *tp)
{
    size_t frames = 0;
    for (uint32_t i = 0; i < timeprof_stack_count(tp); i++) {
        unsigned depth;
        timeprof_stack(tp, i, &depth);
        frames += depth;
    }
    return frames;
}

static int by_share(const void *a, const void *b)
{
    const struct timeprof_cc_total *x = a, *y = b;
    int c = order_u64(y->individual, x->individual);   /* most first */
    if (!c)
        c = order_u64(y->inherited, x->inherited);
    return c ? c : order_u64(x->cc, y->cc);
}

int timeprof_cc_totals(const struct timeprof *tp, bool system, struct timeprof_cc_total **out,
                       size_t *count)
{
    *out = NULL;
    *count = 0;
    uint32_t nstacks = timeprof_stack_count(tp);
    size_t bound = frame_count(tp);
    struct intern *index = intern_new(bound ? (uint32_t)(bound > UINT32_MAX ? UINT32_MAX : bound)
                                            : 1, bound * 4 + 4);
    struct timeprof_cc_total *t = malloc((bound ? bound : 1) * sizeof *t);
    /* the sample's stack that last counted a cost centre, so recursion counts once */
    uint32_t *seen_in = malloc((bound ? bound : 1) * sizeof *seen_in);
    if (!index || !t || !seen_in)
        goto no_memory;
    size_t n = 0;
    for (uint32_t i = 0; i < nstacks; i++) {
        unsigned depth;
        uint64_t c = timeprof_stack(tp, i, &depth);
        if (!system && timeprof_stack_is_system(tp, i))
            continue;
        for (unsigned k = 0; k < depth; k++) {
            uint32_t cc = timeprof_stack_cc(tp, i, k);
            unsigned char key[4] = { cc >> 24, cc >> 16, cc >> 8, cc };
            uint32_t id;
            bool added;
            if (intern_get(index, key, 4, &id, &added) != TABLE_OK)
                goto no_memory;
            if (added) {
                t[id] = (struct timeprof_cc_total){ cc, 0, 0 };
                seen_in[id] = UINT32_MAX;
                n++;
            }
            if (k == 0)
                t[id].individual += c;
            if (seen_in[id] != i) {
                seen_in[id] = i;
                t[id].inherited += c;
            }
        }
    }
    intern_free(index);
    free(seen_in);
    if (n > 1)
        qsort(t, n, sizeof *t, by_share);
    *out = t;
    *count = n;
    return 0;
no_memory:
    intern_free(index);
    free(seen_in);
    free(t);
    return -1;
}
