/* metrics.c: the Prometheus exposition of a live run (see metrics.h). */
#include "serve/metrics.h"

#include <inttypes.h>

#include "base/format.h"
#include "sink/textout.h"

/* What the exposition format escapes in a label value. */
static const char *label_value_escape(unsigned char c)
{
    return c == '\\' ? "\\\\" : c == '"' ? "\\\"" : c == '\n' ? "\\n" : NULL;
}

void metrics_label_value(FILE *out, const char *s, size_t len)
{
    textout_escaped(out, s, len, label_value_escape);
}

static void family(FILE *out, const char *name, const char *type, const char *help)
{
    fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(FILE *out, const char *name, uint64_t v)
{
    fprintf(out, "%s %" PRIu64 "\n", name, v);
}

/* The histogram's bounds: 2^k - 1 ns for these k (4 µs to 17 s, every second octave). */
#define PAUSE_K_FIRST 12u
#define PAUSE_K_LAST 34u

/* Nanoseconds as seconds to the nanosecond: the histogram's bounds are exact. */
static void seconds_ns(FILE *out, uint64_t ns)
{
    fprintf(out, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

/* A per-generation sample: NAME{gen="G"} V. */
static void gen_sample(FILE *out, const char *name, unsigned gen, uint64_t v)
{
    fprintf(out, "%s{gen=\"%u\"} %" PRIu64 "\n", name, gen, v);
}

/* The collector's families; nothing before its first collection. */
static void write_gc(FILE *out, const struct gc_stats *gc, uint64_t end_ns)
{
    struct gc_summary s;
    gc_stats_summary(gc, end_ns, &s);
    if (!s.any)
        return;
    family(out, "ghc_gc_pause_seconds", "histogram",
           "Collections' pauses per generation (the leading capability's GC_START to its "
           "GC_END, as +RTS -s times them); bounds are 2^k - 1 ns, exact.");
    for (unsigned i = 0; i < s.generations; i++) {
        const struct gc_generation *g = &s.gen[i];
        for (unsigned k = PAUSE_K_FIRST; k <= PAUSE_K_LAST; k += 2) {
            fprintf(out, "ghc_gc_pause_seconds_bucket{gen=\"%u\",le=\"", g->gen);
            seconds_ns(out, ((uint64_t)1 << k) - 1);
            fprintf(out, "\"} %" PRIu64 "\n", gc_stats_pauses_below_pow2(gc, i, k));
        }
        fprintf(out, "ghc_gc_pause_seconds_bucket{gen=\"%u\",le=\"+Inf\"} %" PRIu64 "\n",
                g->gen, g->pauses);
        fprintf(out, "ghc_gc_pause_seconds_sum{gen=\"%u\"} ", g->gen);
        seconds_ns(out, g->elapsed_ns);
        fprintf(out, "\nghc_gc_pause_seconds_count{gen=\"%u\"} %" PRIu64 "\n", g->gen,
                g->pauses);
    }
    family(out, "ghc_gc_collections_total", "counter",
           "Collections per generation (GC_STATS_GHC), as +RTS -s counts them.");
    for (unsigned i = 0; i < s.generations; i++)
        gen_sample(out, "ghc_gc_collections_total", s.gen[i].gen, s.gen[i].collections);
    family(out, "ghc_gc_copied_bytes_total", "counter",
           "Bytes copied by the collections of each generation (GC_STATS_GHC).");
    for (unsigned i = 0; i < s.generations; i++)
        gen_sample(out, "ghc_gc_copied_bytes_total", s.gen[i].gen, s.gen[i].copied_bytes);
    if (s.has_allocated) {
        family(out, "ghc_gc_allocated_bytes_total", "counter",
               "Bytes allocated so far, every capability's last HEAP_ALLOCATED summed.");
        sample(out, "ghc_gc_allocated_bytes_total", s.allocated_bytes);
    }
    family(out, "ghc_gc_productivity", "gauge",
           "Mutator time over elapsed time so far (0 to 1; the collections' pauses are "
           "the GC time).");
    format_fprintf(out, "ghc_gc_productivity %.6f\n", s.productivity);
}

void metrics_write(FILE *out, const struct live_metrics *m)
{
    family(out, "ghc_heap_profile_bytes", "gauge",
           "Bytes of each shown band at the last heap census (id: the band's number; "
           "OTHER, id -1: every other band).");
    for (size_t i = 0; i < m->band_count; i++) {
        fputs("ghc_heap_profile_bytes{band=\"", out);
        metrics_label_value(out, m->bands[i].label, m->bands[i].len);
        fprintf(out, "\",id=\"%" PRId64 "\"} %" PRIu64 "\n", m->bands[i].id, m->bands[i].bytes);
    }
    family(out, "ghc_heap_profile_censuses_total", "counter", "Heap censuses read.");
    sample(out, "ghc_heap_profile_censuses_total", m->censuses);
    if (m->censuses) {
        family(out, "ghc_heap_profile_last_census_seconds", "gauge",
               "Time of the last heap census, in seconds since the program started.");
        fputs("ghc_heap_profile_last_census_seconds ", out);
        textout_seconds(out, m->last_census_ns);
        fputc('\n', out);
        family(out, "ghc_heap_profile_census_bytes", "gauge",
               "Total bytes of the last heap census, every band.");
        sample(out, "ghc_heap_profile_census_bytes", m->last_total);
    }
    static const char *const names[HEAP_TOTAL_RUNTIME] = {
        "ghc_heap_size_bytes", "ghc_heap_live_bytes", "ghc_heap_blocks_size_bytes" };
    static const char *const helps[HEAP_TOTAL_RUNTIME] = {
        "The runtime's heap size (HEAP_SIZE), latest value.",
        "The runtime's live bytes after the last collection (HEAP_LIVE), latest value.",
        "The runtime's allocated block bytes (BLOCKS_SIZE), latest value." };
    for (int k = 0; k < HEAP_TOTAL_RUNTIME; k++)
        if (m->has_total[k]) {
            family(out, names[k], "gauge", helps[k]);
            sample(out, names[k], m->totals[k]);
        }
    family(out, "ghc_heap_profile_markers_total", "counter", "Markers (traceMarker) read.");
    sample(out, "ghc_heap_profile_markers_total", m->markers);
    family(out, "ghc_heap_profile_damaged_censuses_total", "counter",
           "Heap censuses dropped because they overlap damaged bytes.");
    sample(out, "ghc_heap_profile_damaged_censuses_total", m->lost_to_damage);
    family(out, "ghc_heap_profile_stream_ended", "gauge",
           "1 once the eventlog has ended (the program exited), else 0.");
    sample(out, "ghc_heap_profile_stream_ended", m->ended);
    family(out, "ev2hp_events_clients_dropped_total", "counter",
           "Clients of /events dropped because they read too slowly.");
    sample(out, "ev2hp_events_clients_dropped_total", m->sse_dropped);
    if (m->has_time_profile) {
        family(out, "ghc_time_profile_samples_total", "counter",
               "Time-profile samples read (one per capability per tick, +RTS -p -l).");
        sample(out, "ghc_time_profile_samples_total", m->time_samples);
    }
    if (m->gc)
        write_gc(out, m->gc, m->end_ns);
}
