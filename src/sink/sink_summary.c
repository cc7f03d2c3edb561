/* sink_summary.c: --summary and --summary=json, what a person or a CI job wants to know.
 *
 * Program and arguments, GHC version, breakdown, number of censuses and duration, the
 * peak residency with its time and the largest bands at the peak, each band's peak and
 * mean, the markers, and the damage found, all from the run model (runmodel.h): the exact
 * peak, band statistics of every band (exact statistics, whatever the profile's
 * resolution), and every marker up to SUMMARY_MAX_MARKERS in time order (a chart's
 * profile keeps one per pixel column, and traceMarker calls made back to back,
 * microseconds apart, would vanish). With --compare, the change of peak and the bands that
 * grew most (growth.h). Written at finish, when the warnings of the run are known
 * (sink_context.warnings).
 */
#include "sink/sink.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "chart/chart.h"
#include "model/peak.h"
#include "model/profile.h"
#include "sink/growth.h"
#include "model/runmodel.h"
#include "sink/textout.h"
#include "sink/timeprof_summary.h"
#include "model/breakdown.h"

/* Bands named in the text summary; the JSON has them all. */
#define TEXT_TOP_AT_PEAK 5
#define TEXT_BANDS 10
#define JSON_TOP_AT_PEAK 10
#define GREW_MOST 10            /* --compare: bands that grew most, by peak */

struct summary_sink;
static void text_compare(struct summary_sink *m, const struct peak *pk,
                         const struct profile_view *v);

struct summary_sink {
    struct sink base;
    bool json;
    bool no_memory;                 /* the time profile part ran out of memory */
    struct profile_options select;  /* every band, in the order of --sort and --reverse */
    bool system_ccs;
    char name[65536 + 16];
};

static const char *name_of(struct summary_sink *m, uint32_t band, size_t *len)
{
    *len = textout_band_name(m->base.ctx.bands, band, m->name, sizeof m->name);
    return m->name;
}

/* "+1.25 MiB/s", "-300 B/s", "0 B/s". */
static void format_growth(double bytes_per_s, char *out, size_t size)
{
    char mag[32];
    format_bytes(fabs(bytes_per_s), mag, sizeof mag);
    snprintf(out, size, "%s%s/s", bytes_per_s > 0 ? "+" : bytes_per_s < 0 ? "-" : "", mag);
}

static void write_text(struct summary_sink *m, const struct peak *pk,
                       const struct profile_view *v)
{
    FILE *out = m->base.out;
    const struct run_info *info = m->base.ctx.info;
    char scratch[32], size[32];
    size_t len;
    fprintf(out, "program    %s\n", info->program ? info->program : "(unknown)");
    fprintf(out, "runtime    %s\n", info->rts_version ? info->rts_version : "(unknown)");
    fprintf(out, "breakdown  %s\n", info->has_heap_profile
                                        ? breakdown_words(info->breakdown, scratch, sizeof scratch)
                                        : "(no heap profile)");
    fprintf(out, "censuses   %" PRIu64, pk->censuses);
    if (pk->censuses)
        format_fprintf(out, " from %.2f s to %.2f s", pk->first_ns / 1e9, pk->last_ns / 1e9);
    if (info->period_ns)
        format_fprintf(out, ", sampled every %g s", info->period_ns / 1e9);
    format_fprintf(out, "\nduration   %.2f s\n", info->end_time_ns / 1e9);
    format_bytes((double)pk->bytes, size, sizeof size);
    format_fprintf(out, "peak       %s at %.2f s\n", size, pk->time_ns / 1e9);
    for (size_t i = 0; i < pk->count && i < TEXT_TOP_AT_PEAK; i++) {
        format_bytes((double)pk->entries[i].bytes, size, sizeof size);
        const char *name = name_of(m, pk->entries[i].band, &len);
        fprintf(out, "  %10s  %.*s\n", size, (int)len, name);
    }
    fprintf(out, "bands      %zu, the %s:\n", v->band_count,
            m->select.sort == PROFILE_SORT_GROWTH ? "fastest growing" : "largest by area");
    fprintf(out, "  %10s  %10s  %12s  %5s  %s\n", "peak", "mean", "growth/s", "R2", "label");
    for (size_t i = 0; i < v->band_count && i < TEXT_BANDS; i++) {
        char mean[32], growth[40];
        format_bytes((double)v->bands[i].stats.peak, size, sizeof size);
        format_bytes(v->bands[i].stats.mean, mean, sizeof mean);
        format_growth(v->bands[i].stats.growth, growth, sizeof growth);
        const char *name = name_of(m, v->bands[i].band, &len);
        format_fprintf(out, "  %10s  %10s  %12s  %5.2f  %.*s\n", size, mean, growth,
                       v->bands[i].stats.growth_r2, (int)len, name);
    }
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t ns = profile_suspects(v, sus, PROFILE_SUSPECTS_LISTED);
    fprintf(out, "suspects   %s\n", ns ? "(rose steadily to their peak: R2 >= 0.8 over 4 "
                                         "censuses or more, by 10% of the heap's peak or more)"
                                       : "none");
    for (size_t i = 0; i < ns; i++) {
        const struct profile_band_stats *st = &v->bands[sus[i]].stats;
        char growth[40];
        format_growth(st->rise, growth, sizeof growth);
        const char *name = name_of(m, v->bands[sus[i]].band, &len);
        format_fprintf(out, "  %12s  R2 %.2f  to its peak at %.2f s  %.*s\n", growth, st->rise_r2,
                       st->peak_ns / 1e9, (int)len, name);
    }
    fprintf(out, "markers    %" PRIu64 "\n", m->base.ctx.run->marker_count + m->base.ctx.run->markers_not_listed);
    /* Six decimals: markers microseconds apart must not read as one. */
    for (size_t i = 0; i < m->base.ctx.run->marker_count; i++)
        format_fprintf(out, "  %12.6f s  %s\n", m->base.ctx.run->markers[i].time_ns / 1e9, m->base.ctx.run->markers[i].text);
    if (m->base.ctx.run->markers_not_listed)
        fprintf(out, "  (%" PRIu64 " more, not listed: at most %u are kept)\n",
                m->base.ctx.run->markers_not_listed, SUMMARY_MAX_MARKERS);
    size_t warnings = m->base.ctx.warning_count ? *m->base.ctx.warning_count : 0;
    fprintf(out, "damage     %s\n", warnings ? "" : "none");
    for (size_t i = 0; i < warnings; i++)
        fprintf(out, "  %s\n", m->base.ctx.warnings[i].what);
    if (m->base.ctx.base)
        text_compare(m, pk, v);
    if (timeprof_summary_text(out, m->base.ctx.run->timeprof, m->system_ccs) != 0)
        m->no_memory = true;
}

static void json_key_string(FILE *out, const char *key, const char *value)
{
    fprintf(out, "\"%s\": ", key);
    if (value)
        textout_json_string(out, value, strlen(value));
    else
        fputs("null", out);
}

/* --compare: what changed from the base to this run. */
struct change {
    const struct run_model *base;
    int64_t bytes;               /* this peak minus the base's */
    double percent;              /* NAN when the base peak is 0 */
    struct band_growth grew[GREW_MOST];
    long grew_count;             /* -1 when out of memory */
};

/* The bands of now that grew most over the base's (every band of the base, without this
 * run's window or filters, as the base was read): their number, or -1 when out of memory. */
static long grew_most(const struct run_model *base, const struct profile_view *now,
                      struct band_growth *out, size_t max)
{
    struct profile_options every;
    profile_options_every_band(&every);
    struct ev_error err;
    struct profile *p = run_model_summary(base, &every, &err);
    struct profile_view v;
    long n = -1;
    if (p && profile_view(p, base->bands, &v) == 0) {
        n = growth_rank(&v, now, out, max);
        profile_view_free(&v);
    }
    profile_free(p);
    return n;
}

static void change_of(const struct summary_sink *m, const struct peak *pk,
                      const struct profile_view *v, struct change *c)
{
    c->base = m->base.ctx.base;
    /* Peaks may be anything up to 2^64 - 1: the difference is taken unsigned, then
     * held to what an int64 can say. */
    uint64_t now = pk->bytes, was = c->base->peak.bytes;
    uint64_t diff = now >= was ? now - was : was - now;
    int64_t magnitude = diff > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)diff;
    c->bytes = now >= was ? magnitude : -magnitude;
    c->percent = c->base->peak.bytes ? 100.0 * (double)c->bytes / (double)c->base->peak.bytes
                                     : NAN;
    c->grew_count = grew_most(c->base, v, c->grew, GREW_MOST);
}

static void text_compare(struct summary_sink *m, const struct peak *pk,
                         const struct profile_view *v)
{
    struct change c;
    change_of(m, pk, v, &c);
    const struct run_model *b = c.base;
    FILE *out = m->base.out;
    const struct band_growth *grew = c.grew;
    long n = c.grew_count;
    int64_t bytes = c.bytes;
    double percent = c.percent;
    char was[32], now[32], change[32];
    format_bytes((double)b->peak.bytes, was, sizeof was);
    format_bytes((double)pk->bytes, now, sizeof now);
    format_bytes((double)(bytes < 0 ? -bytes : bytes), change, sizeof change);
    fprintf(out, "compare    with %s (%s)\n", b->name,
            b->info && b->info->program ? b->info->program : "(unknown)");
    format_fprintf(out, "  peak     %s at %.2f s, was %s at %.2f s: %c%s", now, pk->time_ns / 1e9,
                   was, b->peak.time_ns / 1e9, bytes < 0 ? '-' : '+', change);
    if (isnan(percent))
        fprintf(out, "\n");
    else
        format_fprintf(out, " (%+.1f%%)\n", percent);
    fprintf(out, "  grew most, by peak:%s\n", n > 0 ? "" : " none");
    for (long i = 0; i < n; i++) {
        format_bytes((double)grew[i].base, was, sizeof was);
        format_bytes((double)grew[i].now, now, sizeof now);
        fprintf(out, "  %10s -> %10s  %s\n", was, now, grew[i].label);
    }
}

static void json_compare(struct summary_sink *m, const struct peak *pk,
                         const struct profile_view *v)
{
    struct change c;
    change_of(m, pk, v, &c);
    FILE *out = m->base.out;
    fputs(",\n \"compare\": {", out);
    json_key_string(out, "base", c.base->name);
    fputs(", ", out);
    json_key_string(out, "base_program", c.base->info ? c.base->info->program : NULL);
    fprintf(out, ",\n  \"base_peak\": {\"bytes\": %" PRIu64 ", \"time_s\": ", c.base->peak.bytes);
    textout_seconds(out, c.base->peak.time_ns);
    fprintf(out, "},\n  \"peak_change_bytes\": %" PRId64 ", \"peak_change_percent\": ", c.bytes);
    if (isnan(c.percent))
        fputs("null", out);
    else
        format_fprintf(out, "%.3f", c.percent);
    fputs(",\n  \"grew_by\": \"peak\", \"grew\": [", out);
    for (long i = 0; i < c.grew_count; i++) {
        fputs(i ? ", {\"label\": " : "{\"label\": ", out);
        textout_json_string(out, c.grew[i].label, strlen(c.grew[i].label));
        fprintf(out, ", \"base\": %" PRIu64 ", \"now\": %" PRIu64 "}", c.grew[i].base,
                c.grew[i].now);
    }
    fputs("]}", out);
}

static void write_json(struct summary_sink *m, const struct peak *pk,
                       const struct profile_view *v)
{
    FILE *out = m->base.out;
    const struct run_info *info = m->base.ctx.info;
    char scratch[32];
    size_t len;
    fputc('{', out);
    json_key_string(out, "program", info->program);
    fputs(",\n ", out);
    json_key_string(out, "rts", info->rts_version);
    fputs(",\n ", out);
    json_key_string(out, "breakdown", info->has_heap_profile
                                          ? breakdown_words(info->breakdown, scratch,
                                                            sizeof scratch)
                                          : NULL);
    fprintf(out, ",\n \"censuses\": %" PRIu64 ",\n \"duration_s\": ", pk->censuses);
    textout_seconds(out, info->end_time_ns);
    fprintf(out, ",\n \"sample_interval_s\": ");
    textout_seconds(out, info->period_ns);
    fprintf(out, ",\n \"peak\": {\"bytes\": %" PRIu64 ", \"time_s\": ", pk->bytes);
    textout_seconds(out, pk->time_ns);
    fputs(", \"top\": [", out);
    for (size_t i = 0; i < pk->count && i < JSON_TOP_AT_PEAK; i++) {
        fputs(i ? ", {\"label\": " : "{\"label\": ", out);
        const char *name = name_of(m, pk->entries[i].band, &len);
        textout_json_string(out, name, len);
        fprintf(out, ", \"bytes\": %" PRIu64 "}", pk->entries[i].bytes);
    }
    fputs("]},\n \"bands\": [", out);
    for (size_t i = 0; i < v->band_count; i++) {
        fputs(i ? ",\n  {\"label\": " : "\n  {\"label\": ", out);
        const char *name = name_of(m, v->bands[i].band, &len);
        textout_json_string(out, name, len);
        textout_json_band_names(out, m->base.ctx.bands, m->base.ctx.ccs, v->bands[i].band);
        format_fprintf(out, ", \"peak\": %" PRIu64 ", \"mean\": %.1f, \"area_byte_s\": %.1f, "
                "\"growth_bytes_per_s\": %.3f, \"growth_r2\": %.4f}",
                v->bands[i].stats.peak, v->bands[i].stats.mean, v->bands[i].stats.area,
                v->bands[i].stats.growth, v->bands[i].stats.growth_r2);
    }
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t ns = profile_suspects(v, sus, PROFILE_SUSPECTS_LISTED);
    format_fprintf(out, "],\n \"suspect_rule\": {\"min_censuses\": %d, \"min_r2\": %.2f, "
                        "\"min_rise_of_peak\": %.2f},\n \"suspects\": [", PROFILE_SUSPECT_CENSUSES,
                   PROFILE_SUSPECT_R2, PROFILE_SUSPECT_RISE);
    for (size_t i = 0; i < ns; i++) {
        const struct profile_band *b = &v->bands[sus[i]];
        fputs(i ? ", {\"label\": " : "{\"label\": ", out);
        const char *name = name_of(m, b->band, &len);
        textout_json_string(out, name, len);
        format_fprintf(out, ", \"rise_bytes_per_s\": %.3f, \"rise_r2\": %.4f, \"rise_censuses\": %"
                       PRIu64 ", \"peak_time_s\": ", b->stats.rise, b->stats.rise_r2,
                       b->stats.rise_censuses);
        textout_seconds(out, b->stats.peak_ns);
        fputc('}', out);
    }
    fputs("],\n \"markers\": [", out);
    for (size_t i = 0; i < m->base.ctx.run->marker_count; i++) {
        fputs(i ? ", {\"time_s\": " : "{\"time_s\": ", out);
        textout_seconds(out, m->base.ctx.run->markers[i].time_ns);
        fputs(", \"text\": ", out);
        textout_json_string(out, m->base.ctx.run->markers[i].text, strlen(m->base.ctx.run->markers[i].text));
        fputc('}', out);
    }
    fprintf(out, "],\n \"markers_not_listed\": %" PRIu64 ",\n \"damage\": [",
            m->base.ctx.run->markers_not_listed);
    size_t warnings = m->base.ctx.warning_count ? *m->base.ctx.warning_count : 0;
    for (size_t i = 0; i < warnings; i++) {
        const struct ev_error *w = &m->base.ctx.warnings[i];
        fputs(i ? ", {\"what\": " : "{\"what\": ", out);
        textout_json_string(out, w->what, strlen(w->what));
        if (w->has_offset)
            fprintf(out, ", \"offset\": %" PRIu64, w->offset);
        fputc('}', out);
    }
    fputc(']', out);
    if (m->base.ctx.base)
        json_compare(m, pk, v);
    if (timeprof_summary_json(out, m->base.ctx.run->timeprof, m->system_ccs) != 0)
        m->no_memory = true;
    fputs("}\n", out);
}

static int summary_finish(struct sink *s)
{
    struct summary_sink *m = (struct summary_sink *)s;
    const struct peak *pk = &s->ctx.run->peak;
    struct profile_view v;
    struct ev_error err;
    struct profile *p = run_model_summary(s->ctx.run, &m->select, &err);
    if (!p || profile_view(p, s->ctx.bands, &v) != 0) {
        profile_free(p);
        errno = ENOMEM;
        return -1;
    }
    if (m->json)
        write_json(m, pk, &v);
    else
        write_text(m, pk, &v);
    profile_view_free(&v);
    profile_free(p);
    if (m->no_memory) {
        errno = ENOMEM;
        return -1;
    }
    return ferror(s->out) ? -1 : 0;
}

static void summary_destroy(struct sink *s)
{
    free(s);
}

/* Censuses and markers go to the run model, not here: this sink only writes. */
static const struct sink_ops summary_ops = {
    .finish = summary_finish,
    .destroy = summary_destroy,
};

static struct sink *summary_new(FILE *out, const struct sink_context *ctx,
                                const struct summary_settings *settings, bool json)
{
    struct summary_sink *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    profile_options_every_band(&m->select);   /* the summary lists them all */
    if (settings->chart) {
        /* the order in force (the window is the run model's: growth is over it) */
        const struct profile_options *c = &settings->chart->profile;
        m->select.sort = c->sort, m->select.reverse = c->reverse;
    }
    m->base = (struct sink){ &summary_ops, *ctx, out };
    m->json = json;
    m->system_ccs = settings->system_ccs;
    return &m->base;
}

struct sink *sink_summary_text_new(FILE *out, const struct sink_context *ctx,
                                   const struct summary_settings *settings)
{
    return summary_new(out, ctx, settings, false);
}

struct sink *sink_summary_json_new(FILE *out, const struct sink_context *ctx,
                                   const struct summary_settings *settings)
{
    return summary_new(out, ctx, settings, true);
}
