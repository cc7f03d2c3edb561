/* sink_pprof.c: a heap or time profile in pprof's format (`-o x.pb.gz`, `.pprof`,
 * `-f pprof`), which go tool pprof, Pyroscope, Parca and speedscope read.
 *
 * A run with heap censuses gives a heap profile of one census, the run model's
 * (run_model_census): the exact peak, or with --at the last census at or before it; a
 * run with only a time profile gives the time profile (pprof_profiles.h says what each
 * holds). Nothing arrives until finish. An input with neither, or whose first census
 * comes after --at, is refused, the input's fault (status 1), and nothing is written.
 * The profile is gzipped here unless the output is gzipped on its way (x.pb.gz).
 */
#include "sink/sinks.h"

#include "base/format.h"
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
    struct run_census chosen;
    run_model_census(run, &chosen);
    char at[32], first[32], which[64] = "at the peak";
    format_seconds(run->needs.at_ns, 3, at, sizeof at);
    if (chosen.at)
        format_snprintf(which, sizeof which, "last at or before --at %s s", at);
    if (chosen.found) {
        struct census_frame census = { chosen.time_ns, 0, chosen.count, chosen.entries };
        struct pprof_heap_source src = { &census, s->ctx.info, s->ctx.bands, s->ctx.ccs,
                                         s->ctx.ipe, which };
        p = pprof_heap_profile(&src);
    } else if (run->censuses > 0) {
        format_seconds(run->peak.first_ns, 3, first, sizeof first);
        ev_error_set(&s->error, "no heap census at or before --at %s s to write as a pprof "
                     "profile (the first is at %s s)", at, first);
        s->input_lacks = true;
        return -1;
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

struct sink *sink_pprof_new(FILE *out, const struct sink_context *ctx,
                            const struct pprof_settings *settings)
{
    struct pprof_sink *ps = sink_writer_alloc(sizeof *ps, pprof_finish, ctx, out);
    if (!ps)
        return NULL;
    ps->system_ccs = settings->system_ccs;
    return &ps->base;
}
