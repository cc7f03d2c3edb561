/* runstacks.c: the stacks an output of the run shows (see runstacks.h). */
#include "sink/runstacks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "base/format.h"
#include "census/foldstacks.h"
#include "census/timeprof.h"
#include "model/runmodel.h"

static bool wants_time(const struct run_model *m)
{
    return timeprof_present(m->timeprof) && !m->needs.has_at;
}

/* One run's heap census, or false with err set to why it has none to show. */
static bool heap_run(const struct run_model *m, const char *which, struct heap_census_run *out,
                     struct ev_error *err)
{
    if (!foldstacks_heap_supported(m->info)) {
        ev_error_set(err, "%s has no time profile%s, and its heap profile is not broken down "
                     "by cost-centre stack or info table (-hc, -hi)", which,
                     m->needs.has_at ? " (or --at asked for a heap census)" : "");
        return false;
    }
    run_model_census(m, &out->census);
    if (!out->census.found) {
        if (m->needs.has_at && m->peak.censuses)
            ev_error_set(err, "%s has no heap census at or before --at %.3f s (the first is "
                         "at %.3f s)", which, m->needs.at_ns / 1e9, m->peak.first_ns / 1e9);
        else
            ev_error_set(err, "%s has no heap census", which);
        return false;
    }
    out->info = m->info;
    out->ccs = m->ccs;
    return true;
}

int runstacks_open(const struct sink_context *ctx, bool system, bool flame,
                   struct runstacks *out, struct ev_error *err)
{
    const struct run_model *now = ctx->run, *base = ctx->base;
    *out = (struct runstacks){ 0 };
    out->heap = !wants_time(now);
    struct heap_census_run hn, hb;
    if (!out->heap) {
        if (base && !timeprof_present(base->timeprof)) {
            ev_error_set(err, "the --compare base has no time profile to %s beside the "
                         "input's", flame ? "draw" : "fold");
            return -1;
        }
    } else if (!timeprof_present(now->timeprof) && !foldstacks_heap_supported(now->info) &&
               !now->needs.has_at) {
        ev_error_set(err, "the input has no time profile to %s (run the program with +RTS -p "
                     "-l or -P -l), and its heap profile is not broken down by cost-centre "
                     "stack or info table (-hc, -hi)", flame ? "draw" : "fold");
        return -1;
    } else if (!heap_run(now, "the input", &hn, err) ||
               (base && !heap_run(base, "the --compare base", &hb, err))) {
        return -1;
    }
    out->stacks = stacks_new(TIMEPROF_MAX_STACKS);
    if (!out->stacks)
        goto no_memory;
    if (base)
        stacks_set_differential(out->stacks);
    if (!out->heap) {
        if (foldstacks_time(out->stacks, now->timeprof, system, STACKS_NOW) != 0 ||
            (base && foldstacks_time(out->stacks, base->timeprof, system, STACKS_BASE) != 0))
            goto no_memory;
        return 0;
    }
    out->at = hn.census.at;
    out->census_ns = hn.census.time_ns;
    out->base_census_ns = base ? hb.census.time_ns : 0;
    if (foldstacks_heap(out->stacks, &hn, base ? &hb : NULL) != 0)
        goto no_memory;
    return 0;
no_memory:
    runstacks_close(out);
    ev_error_set(err, "out of memory");
    errno = ENOMEM;
    return -1;
}

void runstacks_close(struct runstacks *rs)
{
    stacks_free(rs->stacks);
    rs->stacks = NULL;
}

void runstacks_describe(const struct runstacks *rs, const struct sink_context *ctx,
                        char *out, size_t size)
{
    char bytes[32];
    uint64_t now = stacks_total(rs->stacks, STACKS_NOW);
    int n;
    if (rs->heap) {
        format_bytes((double)now, bytes, sizeof bytes);
        n = format_snprintf(out, size, "the heap census at %.2f s (%s)  \xc2\xb7  %s",
                            rs->census_ns / 1e9, rs->at ? "the last at or before --at"
                                                        : "the peak", bytes);
        if (stacks_differential(rs->stacks) && n > 0 && (size_t)n < size) {
            format_bytes((double)stacks_total(rs->stacks, STACKS_BASE), bytes, sizeof bytes);
            format_snprintf(out + n, size - (size_t)n, "; base at %.2f s: %s",
                            rs->base_census_ns / 1e9, bytes);
        }
        return;
    }
    const struct timeprof *tp = ctx->run->timeprof;
    uint32_t caps = timeprof_cap_count(tp);
    double interval = timeprof_interval_ns(tp) / 1e9;
    n = snprintf(out, size, "the time profile  \xc2\xb7  %" PRIu64 " samples", now);
    if (interval > 0 && n > 0 && (size_t)n < size)
        n += format_snprintf(out + n, size - (size_t)n, " @ %g ms = %.2f s on %" PRIu32
                             " capabilit%s", interval * 1e3,
                             (double)now * interval / (caps ? caps : 1), caps,
                             caps == 1 ? "y" : "ies");
    if (stacks_differential(rs->stacks) && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "; base: %" PRIu64 " samples",
                 stacks_total(rs->stacks, STACKS_BASE));
}
