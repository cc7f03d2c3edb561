/* sink_pprof.c: a heap or time profile in pprof's format (`-o x.pb.gz`, `.pprof`,
 * `-f pprof`), which go tool pprof, Pyroscope, Parca and speedscope read.
 *
 * A run with heap censuses gives a heap profile of one census, the peak (the run model's
 * exact peak); a run with only a time profile gives the time profile
 * (pprof_profiles.h says what each holds). Nothing arrives until finish. An input with
 * neither is refused, the input's fault (status 1), and nothing is written. The profile
 * is gzipped here unless the output is gzipped on its way (a name ending in .gz).
 */
#include "sink/sinks.h"

#include "census/timeprof.h"
#include "model/runmodel.h"
#include "sink/pprof.h"
#include "sink/pprof_profiles.h"

struct pprof_sink {
    struct sink base;
    bool system_ccs;                /* --system-ccs */
};

static int pprof_finish(struct sink *s)
{
    struct pprof_sink *ps = (struct pprof_sink *)s;
    const struct run_model *run = s->ctx.run;
    struct pprof *p = NULL;
    if (run->censuses > 0) {
        const struct peak *peak = &run->peak;
        struct census_frame census = { peak->time_ns, 0, peak->count, peak->entries };
        struct pprof_heap_source src = { &census, s->ctx.info, s->ctx.bands, s->ctx.ccs,
                                         s->ctx.ipe, "at the peak" };
        p = pprof_heap_profile(&src);
    } else if (run->timeprof && timeprof_present(run->timeprof)) {
        p = pprof_time_profile(run->timeprof, s->ctx.info, ps->system_ccs, NULL, 0,
                               s->ctx.info->end_time_ns);
    } else {
        ev_error_set(&s->error, "the input has neither a heap census nor a time profile to "
                     "write as a pprof profile (run the program with +RTS -h... -l, or "
                     "-p -l)");
        s->input_lacks = true;
        return -1;
    }
    int rc = p && pprof_write(p, s->out, !s->ctx.compressed) == 0 && fflush(s->out) == 0
                 ? 0 : -1;
    pprof_free(p);
    return rc;
}

static const struct sink_ops pprof_ops = {
    .finish = pprof_finish,
    .destroy = sink_free,
    .failure = sink_recorded_failure,
};

struct sink *sink_pprof_new(FILE *out, const struct sink_context *ctx,
                            const struct pprof_settings *settings)
{
    struct pprof_sink *ps = sink_alloc(sizeof *ps, &pprof_ops, ctx, out);
    if (!ps)
        return NULL;
    ps->system_ccs = settings->system_ccs;
    return &ps->base;
}
