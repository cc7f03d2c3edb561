/* metrics.c: the Prometheus exposition of a live run (see metrics.h). */
#include "serve/metrics.h"

#include <inttypes.h>

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
}
