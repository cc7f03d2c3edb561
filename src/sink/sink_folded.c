/* sink_folded.c: folded stacks (`-o profile.folded`).
 *
 * Brendan Gregg's format, which flamegraph.pl, inferno and speedscope read: one line per
 * distinct stack, its frames outermost first joined by ';', then a space and its value.
 * What is folded is the time profile (samples), or one heap census (bytes): runstacks.h
 * decides. A frame is "Module.label" (a ';' in a name becomes ':', a line break a space,
 * bytes that are not UTF-8 U+FFFD, as in every other output); the empty stack, samples
 * taken in no cost centre, is "MAIN", the root the runtime's
 * .prof gives them. Lines come in the order the stacks first appeared, so the same
 * eventlog gives the same bytes. Stacks holding one of the runtime's own cost centres
 * (GC, SYSTEM, IDLE, ...) are left out, as the .prof leaves them out, unless
 * --system-ccs.
 *
 * With --compare, each line has two values, "stack base now" (the form flamegraph's
 * difffolded.pl writes and flamegraph.pl draws as a differential flame graph): every
 * stack of either run, 0 where a run lacks it, so each column sums to what that run's
 * own folded output sums to.
 *
 * Nothing arrives until finish. An input with nothing to fold is refused (failure op)
 * rather than written empty.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "sink/runstacks.h"
#include "sink/textout.h"

struct folded_sink {
    struct sink base;
    bool system_ccs;                /* --system-ccs */
};

/* Writes stack i: its frames, then its value or values. */
static int write_stack(FILE *out, const struct stacks *s, uint32_t i)
{
    unsigned depth;
    uint64_t v[2];
    const uint32_t *frames = stacks_get(s, i, &depth, v);
    for (unsigned k = 0; k < depth; k++) {
        size_t len;
        const char *name = stacks_frame_name(s, frames[k], &len);
        if (k && fputc(';', out) == EOF)
            return -1;
        textout_utf8(out, name, len);   /* errors: ferror, at the fflush of finish */
    }
    if (stacks_differential(s))
        return fprintf(out, " %" PRIu64 " %" PRIu64 "\n", v[STACKS_BASE], v[STACKS_NOW]) < 0
                   ? -1 : 0;
    return fprintf(out, " %" PRIu64 "\n", v[STACKS_NOW]) < 0 ? -1 : 0;
}

static int folded_finish(struct sink *s)
{
    struct folded_sink *f = (struct folded_sink *)s;
    struct runstacks rs;
    if (runstacks_open(&s->ctx, f->system_ccs, false, &rs, &s->error) != 0)
        return -1;
    int rc = 0;
    errno = 0;
    for (uint32_t i = 0; i < stacks_count(rs.stacks) && rc == 0; i++)
        rc = write_stack(s->out, rs.stacks, i);
    runstacks_close(&rs);
    if (rc == 0 && (fflush(s->out) != 0 || ferror(s->out)))
        rc = -1;
    return rc;
}

struct sink *sink_folded_new(FILE *out, const struct sink_context *ctx,
                             const struct folded_settings *settings)
{
    struct folded_sink *f = sink_writer_alloc(sizeof *f, folded_finish, ctx, out);
    if (!f)
        return NULL;
    f->system_ccs = settings->system_ccs;
    return &f->base;
}
