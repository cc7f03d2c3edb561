/* sink_benchmark.c: --summary=benchmark, the run's figures as github-action-benchmark's
 * `customSmallerIsBetter` input.
 *
 * That action reads a JSON array of {name, unit, value, range?, extra?} (its
 * src/extract.ts: name and unit are strings, value a number; an empty array is refused)
 * and keeps each name's history on its pages branch, so the names here are fixed texts
 * that never depend on the run: "peak residency" (bytes, the heap profile's largest
 * census) and "heap growth" (bytes per second, summary_heap_growth) when the run has a
 * census, and the collector's figures when it has collection events (+RTS -l): "GC max
 * pause" and "GC time" (seconds), "GC bytes copied", "allocated" and "GC max residency"
 * (bytes) where the eventlog gives them. Every one is smaller-is-better. `extra` says
 * what the figure is of (the program, the time of the peak), for the action's tooltip.
 * A run with neither a census nor a collection writes an empty array, which the action
 * refuses: there is nothing to benchmark.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/format.h"
#include "base/json.h"
#include "facts/summary_facts.h"
#include "model/runmodel.h"

struct benchmark_sink {
    struct sink base;
    struct profile_options select;
};

/* One entry; extra when not NULL. */
static void entry(struct json_writer *w, const char *name, const char *unit, double value,
                  const char *extra)
{
    json_newline(w);
    json_object_begin(w);
    json_member_cstring(w, "name", name);
    json_member_cstring(w, "unit", unit);
    json_key(w, "value");
    json_double(w, value);
    if (extra)
        json_member_cstring(w, "extra", extra);
    json_object_end(w);
}

static void heap_entries(struct json_writer *w, struct benchmark_sink *b,
                         const struct profile_view *v)
{
    const struct run_model *run = b->base.ctx.run;
    const char *program = b->base.ctx.info->program;
    char extra[1024];
    format_snprintf(extra, sizeof extra, "the largest census, at %.2f s of %s",
                    run->peak.time_ns / 1e9, program ? program : b->base.ctx.input_name);
    entry(w, "peak residency", "bytes", (double)run->peak.bytes, extra);
    format_snprintf(extra, sizeof extra, "the heap's least-squares slope over %" PRIu64
                    " censuses", run->peak.censuses);
    entry(w, "heap growth", "bytes/s", summary_heap_growth(v), extra);
}

static void gc_entries(struct json_writer *w, const struct run_model *run)
{
    struct gc_summary s;
    if (!run_model_gc(run, &s))
        return;
    uint64_t max_pause = 0, copied = 0;
    for (unsigned i = 0; i < s.generations; i++) {
        if (s.gen[i].max_pause_ns > max_pause)
            max_pause = s.gen[i].max_pause_ns;
        copied += s.gen[i].copied_bytes;
    }
    entry(w, "GC max pause", "s", max_pause / 1e9, "the longest collection, any generation");
    entry(w, "GC time", "s", s.gc_ns / 1e9, "the collections' pauses summed (elapsed)");
    entry(w, "GC bytes copied", "bytes", (double)copied, "every generation");
    if (s.has_allocated)
        entry(w, "allocated", "bytes", (double)s.allocated_bytes, NULL);
    if (s.has_residency)
        entry(w, "GC max residency", "bytes", (double)s.max_residency_bytes,
              "the largest live heap a major collection measured");
}

static int benchmark_finish(struct sink *s)
{
    struct benchmark_sink *b = (struct benchmark_sink *)s;
    struct summary_view sv;
    struct ev_error err;
    if (summary_view_open(&sv, s->ctx.run, &b->select, &err) != 0)
        return -1;
    struct json_writer *w = json_writer_new(s->out, JSON_PRETTY);
    if (!w) {
        summary_view_close(&sv);
        return -1;
    }
    json_array_begin(w);
    if (!summary_heapless(s->ctx.run))
        heap_entries(w, b, &sv.view);
    gc_entries(w, s->ctx.run);
    json_newline(w);
    json_array_end(w);
    int rc = json_writer_finish(w);
    json_writer_free(w);
    summary_view_close(&sv);
    if (rc == 0)
        fputc('\n', s->out);
    return rc != 0 || ferror(s->out) ? -1 : 0;
}

struct sink *sink_benchmark_new(FILE *out, const struct sink_context *ctx,
                                const struct summary_settings *settings)
{
    struct benchmark_sink *b = sink_writer_alloc(sizeof *b, benchmark_finish, ctx, out);
    if (!b)
        return NULL;
    summary_view_options(settings, &b->select);
    return &b->base;
}
