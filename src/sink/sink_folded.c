/* sink_folded.c: the time profile as folded stacks (`-o profile.folded`).
 *
 * Brendan Gregg's format, which flamegraph.pl, inferno and speedscope read: one line per
 * distinct cost-centre stack, its frames outermost first joined by ';', then a space and
 * the number of samples. A frame is "Module.label" (timeprof_frame_name: a ';' in a name
 * becomes ':', a line break a space); the empty stack, samples taken in no cost centre,
 * is "MAIN", the root the runtime's .prof gives them. Lines come in the order the stacks
 * first appeared, so the same eventlog gives the same bytes. Stacks holding one of the
 * runtime's own cost centres (GC, SYSTEM, IDLE, ...) are left out, as the .prof leaves
 * them out, unless --system-ccs.
 *
 * Nothing arrives until finish: the assembler counts the samples while the input is read.
 * An input without a time profile is refused (failure op) rather than written empty.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/grow.h"
#include "census/timeprof.h"
#include "model/runmodel.h"

struct folded_sink {
    struct sink base;
    bool system_ccs;                /* --system-ccs */
};

/* Writes stack i's frames, outermost first. */
static int write_frames(FILE *out, const struct timeprof *tp, uint32_t i, char **buf,
                        size_t *cap)
{
    unsigned depth;
    timeprof_stack(tp, i, &depth);
    if (depth == 0)
        return fputs("MAIN", out) < 0 ? -1 : 0;
    for (unsigned k = depth; k-- > 0;) {
        struct timeprof_cc cc;
        char scratch[16];
        timeprof_cc_names(tp, timeprof_stack_cc(tp, i, k), &cc, scratch);
        size_t need = timeprof_frame_name(&cc, *buf, *cap);
        if (need >= *cap) {
            if (need == SIZE_MAX || GROW_ARRAY(*buf, cap, need + 1) != 0)
                return -1;
            timeprof_frame_name(&cc, *buf, *cap);
        }
        if (k + 1 != depth && fputc(';', out) == EOF)
            return -1;
        if (fwrite(*buf, 1, need, out) != need)
            return -1;
    }
    return 0;
}

static int folded_finish(struct sink *s)
{
    struct folded_sink *f = (struct folded_sink *)s;
    const struct timeprof *tp = s->ctx.run->timeprof;
    if (!timeprof_present(tp)) {
        ev_error_set(&s->error, "the input has no time profile to fold (run the program "
                     "with +RTS -p -l or -P -l)");
        return -1;
    }
    size_t cap = 256;
    char *buf = malloc(cap);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    int rc = 0;
    for (uint32_t i = 0; i < timeprof_stack_count(tp) && rc == 0; i++) {
        unsigned depth;
        uint64_t count = timeprof_stack(tp, i, &depth);
        if (!f->system_ccs && timeprof_stack_is_system(tp, i))
            continue;
        errno = 0;
        if (write_frames(s->out, tp, i, &buf, &cap) != 0 ||
            fprintf(s->out, " %" PRIu64 "\n", count) < 0)
            rc = -1;
    }
    free(buf);
    if (rc == 0 && fflush(s->out) != 0)
        rc = -1;
    return rc;
}

static const struct sink_ops folded_ops = {
    .finish = folded_finish,
    .destroy = sink_free,
    .failure = sink_recorded_failure,
};

struct sink *sink_folded_new(FILE *out, const struct sink_context *ctx,
                             const struct folded_settings *settings)
{
    struct folded_sink *f = sink_alloc(sizeof *f, &folded_ops, ctx, out);
    if (!f)
        return NULL;
    f->system_ccs = settings->system_ccs;
    return &f->base;
}
