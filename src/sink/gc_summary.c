/* gc_summary.c: the collector's part of --summary, in text, JSON and Markdown.
 *
 * The figures are model/gcstats.h's, worked out once from the run model; this module only
 * writes them. The text is shaped like the runtime's own `+RTS -s` report (the same
 * lines, the same words, bytes with thousands separators) so that the two read side by
 * side; its pause columns add the distribution `-s` does not give (median, 90th and 99th
 * percentile, from a histogram within 1.6 %). The JSON keys are those issue 35 names.
 */
#include "sink/summary_parts.h"

#include <inttypes.h>
#include <stdbool.h>

#include "base/format.h"
#include "base/json.h"
#include "model/gcstats.h"
#include "model/runmodel.h"
#include "sink/textout.h"

/* n with a comma every three digits, as -s writes bytes: "366,305,072". */
static void with_commas(uint64_t n, char *out, size_t size)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, n);
    size_t j = 0;
    for (int i = 0; i < len && j + 2 < size; i++) {
        if (i && (len - i) % 3 == 0)
            out[j++] = ',';
        out[j++] = digits[i];
    }
    out[j] = '\0';
}

static double seconds(uint64_t ns)
{
    return (double)ns / 1e9;
}

static uint64_t average(const struct nonmoving_phase *p)
{
    return p->count ? p->total_ns / p->count : 0;
}

/* The nonmoving collector's lines, under the generations' as -s has them: its
 * synchronisations (the program stopped) and its cycles beside the program; then what
 * the cycles did. Averages are per synchronisation and per cycle (-s divides both by
 * the oldest generation's collections). */
static void nonmoving_text(FILE *out, const struct gc_summary *s)
{
    const struct nonmoving_stats *n = &s->nonmoving;
    unsigned oldest = s->generations ? s->generations - 1 : 0;
    format_fprintf(out, "  Gen %2u %7" PRIu64 " syncs,            %8.3fs %9.4fs %9.4fs\n",
                   oldest, n->sync.count, seconds(n->sync.total_ns),
                   seconds(average(&n->sync)), seconds(n->sync.max_ns));
    format_fprintf(out, "  Gen %2u %7" PRIu64 " concurrent,       %8.3fs %9.4fs %9.4fs\n",
                   oldest, n->cycle.count, seconds(n->cycle.total_ns),
                   seconds(average(&n->cycle)), seconds(n->cycle.max_ns));
    char marked[32];
    with_commas(n->marked, marked, sizeof marked);
    format_fprintf(out, "  Nonmoving: %" PRIu64 " concurrent cycles; %" PRIu64 " marks %.3fs "
                   "(%s objects), %" PRIu64 " syncs stopping the program %.3fs, %" PRIu64
                   " sweeps %.3fs\n", n->cycle.count, n->mark.count,
                   seconds(n->mark.total_ns), marked, n->sync.count,
                   seconds(n->sync.total_ns), n->sweep.count, seconds(n->sweep.total_ns));
    struct nonmoving_heap h;
    if (nonmoving_heap(n, &h)) {
        char live[32];
        with_commas(h.live_bytes, live, sizeof live);
        format_fprintf(out, "  Nonmoving heap at its last census (%.3fs): %s bytes live in "
                       "%" PRIu64 " active and %" PRIu64 " filled segments of %u block "
                       "sizes\n", seconds(h.time_ns), live, h.active_segments,
                       h.filled_segments, h.block_sizes);
    }
}

static void gc_summary_text(FILE *out, const struct run_model *run)
{
    struct gc_summary s;
    if (!run_model_gc(run, &s))
        return;
    char n[32];
    fputs("collector  (from the eventlog's GC events, as +RTS -s reports them)\n", out);
    if (s.has_allocated) {
        with_commas(s.allocated_bytes, n, sizeof n);
        fprintf(out, "  %16s bytes allocated in the heap\n", n);
    }
    uint64_t copied = 0;
    for (unsigned i = 0; i < s.generations; i++)
        copied += s.gen[i].copied_bytes;
    with_commas(copied, n, sizeof n);
    fprintf(out, "  %16s bytes copied during GC\n", n);
    if (s.has_residency) {
        with_commas(s.max_residency_bytes, n, sizeof n);
        fprintf(out, "  %16s bytes maximum residency\n", n);
    }
    with_commas(s.max_slop_bytes, n, sizeof n);
    fprintf(out, "  %16s bytes maximum slop\n", n);
    if (s.has_memory) {
        with_commas(s.memory_in_use_bytes >> 20, n, sizeof n);
        fprintf(out, "  %16s MiB total memory in use\n", n);
    }
    fputs("                              elapsed  Avg pause  Max pause        p50        p90"
          "        p99\n", out);
    for (unsigned i = 0; i < s.generations; i++) {
        const struct gc_generation *g = &s.gen[i];
        uint64_t avg = g->pauses ? g->elapsed_ns / g->pauses : 0;
        format_fprintf(out, "  Gen %2u %7" PRIu64 " colls, %6" PRIu64 " par %8.3fs %9.4fs "
                       "%9.4fs %9.4fs %9.4fs %9.4fs\n", g->gen, g->collections, g->parallel,
                       seconds(g->elapsed_ns), seconds(avg), seconds(g->max_pause_ns),
                       seconds(g->p50_ns), seconds(g->p90_ns), seconds(g->p99_ns));
    }
    if (s.has_nonmoving)
        nonmoving_text(out, &s);
    if (s.has_balance)
        format_fprintf(out, "  Parallel GC work balance: %.2f%% (serial 0%%, perfect 100%%)\n",
                       100 * s.work_balance);
    if (s.has_span)
        format_fprintf(out, "  INIT    time  %8.3fs elapsed\n", seconds(s.init_ns));
    format_fprintf(out, "  MUT     time  %8.3fs elapsed\n", seconds(s.mut_ns));
    format_fprintf(out, "  GC      time  %8.3fs elapsed\n", seconds(s.gc_ns));
    if (s.has_span)
        format_fprintf(out, "  EXIT    time  %8.3fs elapsed\n", seconds(s.exit_ns));
    format_fprintf(out, "  Productivity  %.1f%% of total elapsed\n", 100 * s.productivity);
}

static void json_generation(struct json_writer *w, const struct gc_generation *g)
{
    json_object_begin(w);
    json_member_uint(w, "gen", g->gen);
    json_member_uint(w, "collections", g->collections);
    json_member_uint(w, "parallel", g->parallel);
    json_member_uint(w, "copied_bytes", g->copied_bytes);
    textout_json_member_seconds(w, "elapsed_s", g->elapsed_ns);
    textout_json_member_seconds(w, "avg_pause_s", g->pauses ? g->elapsed_ns / g->pauses : 0);
    textout_json_member_seconds(w, "max_pause_s", g->max_pause_ns);
    textout_json_member_seconds(w, "pause_p50_s", g->p50_ns);
    textout_json_member_seconds(w, "pause_p90_s", g->p90_ns);
    textout_json_member_seconds(w, "pause_p99_s", g->p99_ns);
    json_object_end(w);
}

/* JSON gc.nonmoving: each phase's count, time and longest. */
static void nonmoving_json(struct json_writer *w, const struct nonmoving_stats *n)
{
    json_object_begin(w);
    json_member_uint(w, "cycles", n->cycle.count);
    textout_json_member_seconds(w, "concurrent_s", n->cycle.total_ns);
    textout_json_member_seconds(w, "max_concurrent_s", n->cycle.max_ns);
    json_member_uint(w, "marks", n->mark.count);
    textout_json_member_seconds(w, "mark_s", n->mark.total_ns);
    json_member_uint(w, "marked_objects", n->marked);
    json_member_uint(w, "syncs", n->sync.count);
    textout_json_member_seconds(w, "sync_s", n->sync.total_ns);
    textout_json_member_seconds(w, "avg_sync_s", average(&n->sync));
    textout_json_member_seconds(w, "max_sync_s", n->sync.max_ns);
    json_member_uint(w, "sweeps", n->sweep.count);
    textout_json_member_seconds(w, "sweep_s", n->sweep.total_ns);
    /* the heap at its last census (+RTS -ln), or null */
    struct nonmoving_heap h;
    json_key(w, "heap");
    if (nonmoving_heap(n, &h)) {
        json_object_begin(w);
        textout_json_member_seconds(w, "census_s", h.time_ns);
        json_member_uint(w, "block_sizes", h.block_sizes);
        json_member_uint(w, "active_segments", h.active_segments);
        json_member_uint(w, "filled_segments", h.filled_segments);
        json_member_uint(w, "live_blocks", h.live_blocks);
        json_member_uint(w, "live_bytes", h.live_bytes);
        json_object_end(w);
    } else {
        json_null(w);
    }
    json_object_end(w);
}

static void gc_summary_json(struct json_writer *w, const struct run_model *run)
{
    struct gc_summary s;
    if (!textout_json_section(w, "gc", run_model_gc(run, &s)))
        return;
    json_key(w, "generations");
    json_array_begin(w);
    for (unsigned i = 0; i < s.generations; i++)
        json_generation(w, &s.gen[i]);
    json_array_end(w);
    json_member_uint_or_null(w, "allocated_bytes", s.has_allocated, s.allocated_bytes);
    json_member_uint_or_null(w, "max_residency_bytes", s.has_residency, s.max_residency_bytes);
    json_member_uint(w, "max_slop_bytes", s.max_slop_bytes);
    json_member_uint_or_null(w, "memory_in_use_bytes", s.has_memory, s.memory_in_use_bytes);
    textout_json_member_seconds(w, "mut_s", s.mut_ns);
    textout_json_member_seconds(w, "gc_s", s.gc_ns);
    /* -s's INIT and EXIT, when the runtime's tasks say where the program began and
     * ended (model/mutspan.h); else null, and MUT is the whole run less the collections */
    textout_json_member_seconds_or_null(w, "init_s", s.has_span, s.init_ns);
    textout_json_member_seconds_or_null(w, "exit_s", s.has_span, s.exit_ns);
    /* every digit: a reader rounding it prints what the text summary prints */
    json_key(w, "productivity");
    json_double(w, s.productivity);
    json_member_double_or_null(w, "work_balance", s.has_balance, s.work_balance);
    json_key(w, "nonmoving");
    if (s.has_nonmoving)
        nonmoving_json(w, &s.nonmoving);
    else
        json_null(w);
    json_object_end(w);
}

static void gc_summary_markdown(FILE *out, const struct run_model *run)
{
    struct gc_summary s;
    if (!run_model_gc(run, &s))
        return;
    fputs("\n#### Collector\n\n| Generation | Collections | Parallel | Copied | Elapsed "
          "| Avg pause | Max pause | p50 | p90 | p99 |\n"
          "| :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n", out);
    for (unsigned i = 0; i < s.generations; i++) {
        const struct gc_generation *g = &s.gen[i];
        char copied[32];
        format_bytes((double)g->copied_bytes, copied, sizeof copied);
        uint64_t avg = g->pauses ? g->elapsed_ns / g->pauses : 0;
        format_fprintf(out, "| Gen %u | %" PRIu64 " | %" PRIu64 " | %s | %.3f s | %.4f s "
                       "| %.4f s | %.4f s | %.4f s | %.4f s |\n", g->gen, g->collections,
                       g->parallel, copied, seconds(g->elapsed_ns), seconds(avg),
                       seconds(g->max_pause_ns), seconds(g->p50_ns), seconds(g->p90_ns),
                       seconds(g->p99_ns));
    }
    char a[32] = "unknown", r[32] = "unknown";
    if (s.has_allocated)
        format_bytes((double)s.allocated_bytes, a, sizeof a);
    if (s.has_residency)
        format_bytes((double)s.max_residency_bytes, r, sizeof r);
    format_fprintf(out, "\nAllocated %s, maximum residency %s; ", a, r);
    if (s.has_span)
        format_fprintf(out, "INIT %.3f s, ", seconds(s.init_ns));
    format_fprintf(out, "MUT %.3f s, GC %.3f s", seconds(s.mut_ns), seconds(s.gc_ns));
    if (s.has_span)
        format_fprintf(out, ", EXIT %.3f s", seconds(s.exit_ns));
    format_fprintf(out, " elapsed: productivity %.1f %%", 100 * s.productivity);
    if (s.has_balance)
        format_fprintf(out, "; parallel work balance %.2f %%", 100 * s.work_balance);
    fputs(".\n", out);
    if (s.has_nonmoving) {
        const struct nonmoving_stats *n = &s.nonmoving;
        format_fprintf(out, "\nNonmoving collector: %" PRIu64 " concurrent cycles, %.3f s "
                       "(the longest %.4f s): %" PRIu64 " marks %.3f s, %" PRIu64 " syncs "
                       "stopping the program %.3f s (the longest %.4f s), %" PRIu64
                       " sweeps %.3f s.\n", n->cycle.count, seconds(n->cycle.total_ns),
                       seconds(n->cycle.max_ns), n->mark.count, seconds(n->mark.total_ns),
                       n->sync.count, seconds(n->sync.total_ns), seconds(n->sync.max_ns),
                       n->sweep.count, seconds(n->sweep.total_ns));
    }
}

const struct summary_part gc_summary_part = {
    .text = gc_summary_text,
    .json = gc_summary_json,
    .markdown = gc_summary_markdown,
};
