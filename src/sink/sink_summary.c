/* sink_summary.c: --summary and --summary=json, what a person or a CI job wants to know.
 *
 * Program and arguments, GHC version, breakdown, number of censuses and duration, the
 * peak residency with its time and the largest bands at the peak, each band's peak and
 * mean, the markers, and the damage found, all from the run model (runmodel.h): the exact
 * peak, band statistics of every band (exact statistics, whatever the profile's
 * resolution), and every marker up to SUMMARY_MAX_MARKERS in time order (a chart's
 * profile keeps one per pixel column, and traceMarker calls made back to back,
 * microseconds apart, would vanish). With --compare, the change of peak and the bands that
 * grew most (growth.h), and of two time profiles each run's samples and the cost centres
 * that changed most (timeprof_summary.h). Without a census in either run (time profiles)
 * there is no peak, band table or suspects to write, and none is written. Written at
 * finish, when the warnings of the run are known (sink_context.warnings).
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json.h"
#include "chart/chart.h"
#include "model/peak.h"
#include "model/profile.h"
#include "facts/gates.h"
#include "facts/phases.h"
#include "sink/summary_parts.h"
#include "facts/growth.h"
#include "model/runmodel.h"
#include "facts/sparkline.h"
#include "facts/summary_facts.h"
#include "facts/suspects.h"
#include "sink/textout.h"
#include "sink/timeprof_summary.h"
#include "census/autogroup.h"
#include "model/breakdown.h"
#include "model/trend.h"

/* Bands named in the text summary; the JSON has them all. */
#define TEXT_TOP_AT_PEAK 5
#define TEXT_BANDS 10
#define JSON_TOP_AT_PEAK 10

struct summary_sink;
static void text_compare(struct summary_sink *m, const struct peak *pk,
                         const struct profile_view *v);

struct summary_sink {
    struct sink base;
    bool json;
    bool no_memory;                 /* the time profile part ran out of memory */
    struct profile_options select;  /* every band, in the order of --sort and --reverse */
    bool system_ccs;
    bool by_share;                  /* --diff-normalize: cost centres ranked by share */
    bool heapless;                  /* no census in this run: no heap lines of it */
    bool unicode;                   /* text: a sparkline per band */
    bool windowed;                  /* --from/--to: the figures are of this window */
    struct time_window window_ns;
    const struct trend_commit *commit;   /* JSON: --commit's, or NULL */
    char window[64];                /* its words */
    char raw[65536 + 16];
    char name[4 * 65536 + 16];      /* raw with its control characters as \xHH */
};

/* A band's name for the text summary, its control characters escaped (textout_plain). */
static const char *name_of(struct summary_sink *m, uint32_t band, size_t *len)
{
    size_t n = bands_person_name(m->base.ctx.bands, band, m->raw, sizeof m->raw);
    *len = textout_plain_copy(m->raw, n, m->name, sizeof m->name);
    return m->name;
}

/* The text summary's sparkline column (sparkline.h), on a UTF-8 locale only: band i's
 * sparkline, padded to the column's width; the heading with band SIZE_MAX. */
static void text_sparkline(struct summary_sink *m, const struct profile_view *v, size_t i)
{
    char spark[SPARKLINE_SIZE];
    if (!m->unicode)
        return;
    size_t cells = i == SIZE_MAX ? (size_t)fprintf(m->base.out, "over the run")
                                 : sparkline_of(v, i, spark, sizeof spark) / 3;
    if (i != SIZE_MAX)
        fputs(spark, m->base.out);
    fprintf(m->base.out, "%*s", (int)(SPARKLINE_CELLS + 2 - cells), "");
}

/* The peak, the band table and the suspects. */
static void write_text_heap(struct summary_sink *m, const struct peak *pk,
                            const struct profile_view *v)
{
    FILE *out = m->base.out;
    char size[32];
    size_t len;
    format_bytes((double)pk->bytes, size, sizeof size);
    format_fprintf(out, "peak       %s at %.2f s\n", size, pk->time_ns / 1e9);
    for (size_t i = 0; i < pk->count && i < TEXT_TOP_AT_PEAK; i++) {
        format_bytes((double)pk->entries[i].bytes, size, sizeof size);
        const char *name = name_of(m, pk->entries[i].band, &len);
        fprintf(out, "  %10s  %.*s\n", size, (int)len, name);
    }
    fprintf(out, "bands      %zu, the %s:\n", v->band_count,
            m->select.sort == PROFILE_SORT_GROWTH ? "fastest growing" : "largest by area");
    fprintf(out, "  %10s  %10s  %12s  %5s  ", "peak", "mean", "run growth/s", "R2");
    text_sparkline(m, v, SIZE_MAX);
    fprintf(out, "label\n");
    for (size_t i = 0; i < v->band_count && i < TEXT_BANDS; i++) {
        char mean[32], growth[40];
        format_bytes((double)v->bands[i].stats.peak, size, sizeof size);
        format_bytes(v->bands[i].stats.mean, mean, sizeof mean);
        format_rate(v->bands[i].stats.growth, growth, sizeof growth);
        const char *name = name_of(m, v->bands[i].band, &len);
        format_fprintf(out, "  %10s  %10s  %12s  %5.2f  ", size, mean, growth,
                       v->bands[i].stats.growth_r2);
        text_sparkline(m, v, i);
        fprintf(out, "%.*s\n", (int)len, name);
    }
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t ns = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    fprintf(out, "suspects   %s\n", ns ? "(rose steadily to their peak: R2 >= 0.8 over 4 "
                                         "censuses or more, by 10% of the heap's peak or more; "
                                         "--max-growth gates this rise, not the run growth)"
                                       : "none");
    for (size_t i = 0; i < ns; i++) {
        const struct profile_band_stats *st = &v->bands[sus[i]].stats;
        char growth[40];
        format_rate(st->rise, growth, sizeof growth);
        const char *name = name_of(m, v->bands[sus[i]].band, &len);
        format_fprintf(out, "  %12s  R2 %.2f  to its peak at %.2f s  %.*s\n", growth, st->rise_r2,
                       st->peak_ns / 1e9, (int)len, name);
    }
}

/* --phases: a line per phase (start, length, censuses, peak, growth, name), then the band
 * that grew most in it and its suspects (facts/phases.h), each under it. */
static void write_text_phases(struct summary_sink *m)
{
    const struct phase_report *r = m->base.ctx.phases;
    FILE *out = m->base.out;
    size_t len;
    if (!r || !r->count)
        return;
    fprintf(out, "phases     %zu, each over its own censuses:\n", r->count);
    fprintf(out, "  %12s  %10s  %8s  %10s  %12s  name\n", "start s", "length s", "censuses",
            "peak", "growth/s");
    for (size_t i = 0; i < r->count; i++) {
        const struct phase_facts *f = &r->phases[i];
        char peak[32] = "-", growth[40] = "-";
        if (f->has_heap)
            format_bytes((double)f->peak_bytes, peak, sizeof peak);
        if (f->has_growth)
            format_rate(f->growth, growth, sizeof growth);
        format_fprintf(out, "  %12.6f  %10.6f  %8" PRIu64 "  %10s  %12s  ", f->start_ns / 1e9,
                       (f->end_ns - f->start_ns) / 1e9, f->censuses, peak, growth);
        textout_plain(out, f->name, strlen(f->name));
        fputs(f->to_end ? "  (to the end)" : "", out);
        fputs(f->has_heap ? "\n" : "  (no census)\n", out);
        if (f->has_grew_most) {
            format_rate(f->grew_most_growth, growth, sizeof growth);
            const char *name = name_of(m, f->grew_most, &len);
            fprintf(out, "  %36s grew most %12s  %.*s\n", "", growth, (int)len, name);
        }
        for (size_t k = 0; k < f->suspect_count; k++) {
            format_rate(f->suspects[k].rise, growth, sizeof growth);
            const char *name = name_of(m, f->suspects[k].band, &len);
            format_fprintf(out, "  %36s suspect   %12s  R2 %.2f  %.*s\n", "", growth,
                           f->suspects[k].rise_r2, (int)len, name);
        }
    }
}

/* The markers and the damage. */
static void write_text_events(struct summary_sink *m)
{
    FILE *out = m->base.out;
    fprintf(out, "markers    %" PRIu64 "\n", m->base.ctx.run->marker_count + m->base.ctx.run->markers_not_listed);
    /* Six decimals: markers microseconds apart must not read as one. */
    for (size_t i = 0; i < m->base.ctx.run->marker_count; i++) {
        const char *text = m->base.ctx.run->markers[i].text;
        format_fprintf(out, "  %12.6f s  ", m->base.ctx.run->markers[i].time_ns / 1e9);
        textout_plain(out, text, strlen(text));
        fputc('\n', out);
    }
    if (m->base.ctx.run->markers_not_listed)
        fprintf(out, "  (%" PRIu64 " more, not listed: at most %u are kept)\n",
                m->base.ctx.run->markers_not_listed, SUMMARY_MAX_MARKERS);
    size_t warnings, notes;
    summary_warning_counts(m->base.ctx.warnings, m->base.ctx.warning_count, &warnings, &notes);
    for (int note = 0; note <= 1; note++) {   /* damage, then the notes (error.h) */
        if (note && !notes)
            break;
        if (note)
            fputs("notes\n", out);
        else
            fprintf(out, "damage     %s\n", warnings > notes ? "" : "none");
        for (size_t i = 0; i < warnings; i++) {
            const struct ev_error *e = &m->base.ctx.warnings[i];
            if (e->note != note)
                continue;
            fputs("  ", out);
            textout_plain(out, e->what, strlen(e->what));
            fputc('\n', out);
        }
    }
}

static void write_text(struct summary_sink *m, const struct peak *pk,
                       const struct profile_view *v)
{
    FILE *out = m->base.out;
    const struct run_info *info = m->base.ctx.info;
    char scratch[32];
    fputs("program    ", out);
    textout_plain(out, info->program ? info->program : "(unknown)",
                  info->program ? strlen(info->program) : 9);
    fputc('\n', out);
    fprintf(out, "runtime    %s\n", info->rts_version ? info->rts_version : "(unknown)");
    fprintf(out, "breakdown  %s\n", !info->has_heap_profile ? "(no heap profile)"
                                     : info->breakdown == BREAKDOWN_UNKNOWN ? "unknown"
                                     : breakdown_words(info->breakdown, scratch, sizeof scratch));
    if (m->base.ctx.autogroup) {
        char note[AUTOGROUP_NOTE_MAX];
        autogroup_note(m->base.ctx.autogroup, note, sizeof note);
        fprintf(out, "grouping   %s\n", note);
    }
    fprintf(out, "censuses   %" PRIu64, pk->censuses);
    if (pk->censuses)
        format_fprintf(out, " from %.2f s to %.2f s", pk->first_ns / 1e9, pk->last_ns / 1e9);
    if (info->period_ns)
        format_fprintf(out, ", sampled every %g s", info->period_ns / 1e9);
    format_fprintf(out, "\nduration   %.2f s\n", info->end_time_ns / 1e9);
    end_summary_part.text(out, m->base.ctx.run);   /* the run's end, whatever the window */
    if (m->windowed)
        fprintf(out, "window     %s (--from, --to): the figures below are of it\n", m->window);
    if (!m->heapless)
        write_text_heap(m, pk, v);
    write_text_phases(m);
    gc_summary_part.text(out, m->base.ctx.run);
    cap_summary_part.text(out, m->base.ctx.run);
    ticky_summary_part.text(out, m->base.ctx.run);
    write_text_events(m);
    if (m->base.ctx.base)
        text_compare(m, pk, v);
    if (timeprof_summary_text(out, m->base.ctx.run->timeprof, m->system_ccs) != 0)
        m->no_memory = true;
}

/* --compare: what changed from the base to this run (summary_facts.h). */
static void change_of(struct summary_sink *m, const struct peak *pk,
                      const struct profile_view *v, struct summary_change *c)
{
    summary_change_of(m->base.ctx.base, pk, m->base.ctx.info, m->base.ctx.bands, v, c);
    if (c->no_memory)
        m->no_memory = true;
}

/* One changed band: its peak in each run ("none" where it lacks the band), the change,
 * its label and how the two were matched where that says something
 * (band_change_says_match), or that it is new or gone. */
static void text_band_change(FILE *out, const struct band_change *c)
{
    char was[32], now[32], change[32];
    format_bytes((double)c->base, was, sizeof was);
    format_bytes((double)c->now, now, sizeof now);
    int64_t d = band_change_bytes(c);
    format_bytes((double)(d < 0 ? -(double)d : (double)d), change, sizeof change);
    fprintf(out, "  %10s -> %10s  %c%-10s  ", c->in_base ? was : "none",
            c->in_now ? now : "none", d < 0 ? '-' : '+', change);
    textout_plain(out, c->label, strlen(c->label));
    if (c->how == BAND_MATCH_NONE)
        fputs(c->in_now ? "  (new)" : "  (gone)", out);
    else if (band_change_says_match(c))
        fprintf(out, "  (%s)", band_match_name(c->how));
    fputc('\n', out);
}

/* The change of peak and the bands that changed most. */
static void text_heap_compare(struct summary_sink *m, const struct summary_change *c,
                              const struct peak *pk)
{
    const struct run_model *b = c->base;
    FILE *out = m->base.out;
    int64_t bytes = c->bytes;
    char was[32], now[32], change[32];
    format_bytes((double)b->peak.bytes, was, sizeof was);
    format_bytes((double)pk->bytes, now, sizeof now);
    format_bytes((double)(bytes < 0 ? -bytes : bytes), change, sizeof change);
    format_fprintf(out, "  peak     %s at %.2f s, was %s at %.2f s: %c%s", now, pk->time_ns / 1e9,
                   was, b->peak.time_ns / 1e9, bytes < 0 ? '-' : '+', change);
    if (isnan(c->percent))
        fprintf(out, "\n");
    else
        format_fprintf(out, " (%+.1f%%)\n", c->percent);
    fprintf(out, "  grew most, by peak:%s\n", c->grew_count > 0 ? "" : " none");
    for (size_t i = 0; i < c->grew_count; i++)
        text_band_change(out, &c->bands[i]);
    fprintf(out, "  shrank most, by peak:%s\n", c->shrank_count > 0 ? "" : " none");
    for (size_t i = 0; i < c->shrank_count; i++)
        text_band_change(out, summary_shrank(c, i));
}

static void text_compare(struct summary_sink *m, const struct peak *pk,
                         const struct profile_view *v)
{
    FILE *out = m->base.out;
    const struct run_model *b = m->base.ctx.base;
    const char *bprog = b->info && b->info->program ? b->info->program : "(unknown)";
    fputs("compare    with ", out);
    textout_plain(out, b->name, strlen(b->name));
    fputs(" (", out);
    textout_plain(out, bprog, strlen(bprog));
    fputs(")\n", out);
    char mismatch[160];
    if (summary_breakdown_mismatch(m->base.ctx.info, m->base.ctx.base, mismatch, sizeof mismatch))
        fprintf(out, "  breakdown  %s\n", mismatch);
    const char *one_sided = summary_heap_one_sided(m->base.ctx.run, m->base.ctx.base);
    if (one_sided) {
        fputs("  peak     not compared: ", out);
        fputs(one_sided, out);
        fputc('\n', out);
    } else if (!m->heapless) {
        struct summary_change c;
        change_of(m, pk, v, &c);
        text_heap_compare(m, &c, pk);
        summary_change_free(&c);
    }
    struct timeprof_change t;
    int rc = timeprof_change_of(&m->base.ctx, m->system_ccs, m->by_share, &t);
    if (rc == 0)
        timeprof_change_text(out, &t);
    else if (rc < 0)
        m->no_memory = true;
    timeprof_change_free(&t);
}

/* A list of changed bands as JSON objects: label, base and now (null where the run lacks
 * the band), how they were matched, and the base's label where it differs. */
static void json_band_changes(struct json_writer *w, const struct band_change *const *list,
                              size_t n)
{
    json_array_begin(w);
    for (size_t i = 0; i < n; i++) {
        const struct band_change *c = list[i];
        json_newline(w);
        json_object_begin(w);
        json_member_cstring(w, "label", c->label);
        json_member_uint_or_null(w, "base", c->in_base, c->base);
        json_member_uint_or_null(w, "now", c->in_now, c->now);
        json_member_cstring(w, "match", band_match_name(c->how));
        if (c->base_label && c->in_now && strcmp(c->base_label, c->label) != 0)
            json_member_cstring(w, "base_label", c->base_label);
        json_object_end(w);
    }
    json_array_end(w);
}

/* A band's name ("(n)" and the display label) as a JSON string. */
static void json_band_name(struct json_writer *w, struct summary_sink *m, uint32_t band)
{
    size_t len = bands_person_name(m->base.ctx.bands, band, m->raw, sizeof m->raw);
    json_string(w, m->raw, len);   /* JSON escapes its own */
}

/* The change of peak and every band's change, into the open compare object. */
static void json_heap_compare(struct json_writer *w, struct summary_sink *m,
                              const struct peak *pk, const struct profile_view *v)
{
    struct summary_change c;
    change_of(m, pk, v, &c);
    json_newline(w);
    json_key(w, "base_peak");
    json_object_begin(w);
    json_member_uint(w, "bytes", c.base->peak.bytes);
    textout_json_member_seconds(w, "time_s", c.base->peak.time_ns);
    json_object_end(w);
    json_newline(w);
    json_member_int(w, "peak_change_bytes", c.bytes);
    /* NAN (a base peak of 0) is written null */
    json_member_double_fixed(w, "peak_change_percent", c.percent, 3);
    json_newline(w);
    json_member_cstring(w, "grew_by", "peak");
    /* grew, shrank and bands: pointers into c.bands, so one writer serves the three */
    const struct band_change **list = malloc((c.band_count + 1) * sizeof *list);
    if (!list) {
        m->no_memory = true;
        c.band_count = c.grew_count = c.shrank_count = 0;
    }
    for (size_t i = 0; i < c.grew_count; i++)
        list[i] = &c.bands[i];
    json_key(w, "grew");
    json_band_changes(w, list, c.grew_count);
    json_newline(w);
    for (size_t i = 0; i < c.shrank_count; i++)
        list[i] = summary_shrank(&c, i);
    json_key(w, "shrank");
    json_band_changes(w, list, c.shrank_count);
    json_newline(w);
    for (size_t i = 0; i < c.band_count; i++)
        list[i] = &c.bands[i];
    json_key(w, "bands");
    json_band_changes(w, list, c.band_count);
    free(list);
    summary_change_free(&c);
}

static void json_compare(struct json_writer *w, struct summary_sink *m, const struct peak *pk,
                         const struct profile_view *v)
{
    const struct run_model *base = m->base.ctx.base;
    json_newline(w);
    json_key(w, "compare");
    json_object_begin(w);
    json_member_cstring(w, "base", base->name);
    json_member_cstring(w, "base_program", base->info ? base->info->program : NULL);
    char mismatch[160];
    json_member_cstring(w, "breakdown_mismatch",
                        summary_breakdown_mismatch(m->base.ctx.info, m->base.ctx.base, mismatch, sizeof mismatch)
                            ? mismatch : NULL);
    const char *one_sided = summary_heap_one_sided(m->base.ctx.run, m->base.ctx.base);
    json_newline(w);
    json_member_cstring(w, "heap_not_compared", one_sided);
    if (!m->heapless && !one_sided)
        json_heap_compare(w, m, pk, v);
    struct timeprof_change t;
    int rc = timeprof_change_of(&m->base.ctx, m->system_ccs, m->by_share, &t);
    if (rc < 0)
        m->no_memory = true;
    timeprof_change_json(w, rc == 0 ? &t : NULL);
    timeprof_change_free(&t);
    json_object_end(w);
}

/* The run's facts, the peak with its largest bands, and the heap's growth. */
static void json_run(struct json_writer *w, struct summary_sink *m, const struct peak *pk,
                     const struct profile_view *v)
{
    const struct run_info *info = m->base.ctx.info;
    if (m->commit) {   /* --commit: what --trend names the run by */
        json_key(w, "commit");
        json_object_begin(w);
        json_member_cstring(w, "sha", m->commit->sha);
        json_member_cstring(w, "time", m->commit->time);
        json_member_cstring(w, "subject", m->commit->subject);
        json_object_end(w);
        json_newline(w);
    }
    textout_json_run_names(w, info, true);
    json_newline(w);
    if (m->base.ctx.autogroup) {
        textout_json_grouped_by(w, m->base.ctx.autogroup);
        json_newline(w);
    }
    json_member_uint(w, "censuses", pk->censuses);
    json_newline(w);
    textout_json_member_seconds(w, "duration_s", info->end_time_ns);
    json_newline(w);
    textout_json_member_seconds(w, "sample_interval_s", info->period_ns);
    json_newline(w);
    if (m->windowed) {   /* the figures below are of it */
        textout_json_member_window(w, m->window_ns.from_ns, m->window_ns.to_ns != UINT64_MAX,
                                   m->window_ns.to_ns);
        json_newline(w);
    }
    json_key(w, "peak");
    if (m->heapless) {   /* no census: no peak nor growth to give */
        json_null(w);
        json_newline(w);
        json_key(w, "growth_bytes_per_s");
        json_null(w);
        return;
    }
    json_object_begin(w);
    json_member_uint(w, "bytes", pk->bytes);
    textout_json_member_seconds(w, "time_s", pk->time_ns);
    json_key(w, "top");
    json_array_begin(w);
    for (size_t i = 0; i < pk->count && i < JSON_TOP_AT_PEAK; i++) {
        json_object_begin(w);
        json_key(w, "label");
        json_band_name(w, m, pk->entries[i].band);
        json_member_uint(w, "bytes", pk->entries[i].bytes);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
    json_newline(w);
    json_member_double_fixed(w, "growth_bytes_per_s", summary_heap_growth(v), 3);
}

/* Every band with its statistics, one a line; then the suspects and the rule. */
static void json_bands(struct json_writer *w, struct summary_sink *m,
                       const struct profile_view *v)
{
    json_newline(w);
    json_key(w, "bands");
    json_array_begin(w);
    for (size_t i = 0; i < v->band_count; i++) {
        const struct profile_band_stats *st = &v->bands[i].stats;
        json_newline(w);
        json_object_begin(w);
        json_key(w, "label");
        json_band_name(w, m, v->bands[i].band);
        textout_json_band_names(w, m->base.ctx.bands, m->base.ctx.ccs, v->bands[i].band);
        json_member_uint(w, "peak", st->peak);
        json_member_double_fixed(w, "mean", st->mean, 1);
        json_member_double_fixed(w, "area_byte_s", st->area, 1);
        json_member_double_fixed(w, "growth_bytes_per_s", st->growth, 3);
        json_member_double_fixed(w, "growth_r2", st->growth_r2, 4);
        char spark[SPARKLINE_SIZE];
        size_t len = sparkline_of(v, i, spark, sizeof spark);
        json_member_string(w, "sparkline", spark, len);
        json_object_end(w);
    }
    json_array_end(w);
    json_newline(w);
    json_key(w, "suspect_rule");
    json_object_begin(w);
    json_member_uint(w, "min_censuses", PROFILE_SUSPECT_CENSUSES);
    json_member_double_fixed(w, "min_r2", PROFILE_SUSPECT_R2, 2);
    json_member_double_fixed(w, "min_rise_of_peak", PROFILE_SUSPECT_RISE, 2);
    json_object_end(w);
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t ns = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    json_newline(w);
    json_key(w, "suspects");
    json_array_begin(w);
    for (size_t i = 0; i < ns; i++) {
        const struct profile_band *b = &v->bands[sus[i]];
        json_object_begin(w);
        json_key(w, "label");
        json_band_name(w, m, b->band);
        json_member_double_fixed(w, "rise_bytes_per_s", b->stats.rise, 3);
        json_member_double_fixed(w, "rise_r2", b->stats.rise_r2, 4);
        json_member_uint(w, "rise_censuses", b->stats.rise_censuses);
        textout_json_member_seconds(w, "peak_time_s", b->stats.peak_ns);
        json_object_end(w);
    }
    json_array_end(w);
}

/* The markers kept and the damage found. */
static void json_events(struct json_writer *w, struct summary_sink *m)
{
    const struct run_model *run = m->base.ctx.run;
    json_newline(w);
    json_key(w, "markers");
    json_array_begin(w);
    for (size_t i = 0; i < run->marker_count; i++) {
        json_object_begin(w);
        textout_json_member_seconds(w, "time_s", run->markers[i].time_ns);
        json_member_cstring(w, "text", run->markers[i].text);
        json_object_end(w);
    }
    json_array_end(w);
    json_newline(w);
    json_member_uint(w, "markers_not_listed", run->markers_not_listed);
    size_t warnings = m->base.ctx.warning_count ? *m->base.ctx.warning_count : 0;
    for (int note = 0; note <= 1; note++) {   /* damage, then the notes (error.h) */
        json_newline(w);
        json_key(w, note ? "notes" : "damage");
        json_array_begin(w);
        for (size_t i = 0; i < warnings; i++) {
            const struct ev_error *e = &m->base.ctx.warnings[i];
            if (e->note != note)
                continue;
            json_object_begin(w);
            json_member_cstring(w, "what", e->what);
            if (e->has_offset)
                json_member_uint(w, "offset", e->offset);
            json_object_end(w);
        }
        json_array_end(w);
    }
}

/* Every gate asked for (gates.h), in the order of the exit status's decision: its name,
 * verdict, the measured and allowed numbers in its unit (measured null when unchecked),
 * the same as the Markdown and JUnit print them, and the message (null when it passed). */
static void json_gates(struct json_writer *w, const struct gate_report *r)
{
    json_key(w, "gates");
    json_array_begin(w);
    for (size_t i = 0; r && i < r->count; i++) {
        const struct gate *g = &r->gates[i];
        json_newline(w);
        json_object_begin(w);
        json_member_cstring(w, "gate", gate_name(g->kind));
        json_member_cstring(w, "verdict", gate_verdict_name(g->verdict));
        json_member_cstring(w, "unit", gate_unit(g->kind));
        json_key(w, "measured");
        json_double(w, g->measured_value);   /* NAN, unchecked: null */
        json_key(w, "allowed");
        json_double(w, g->allowed_value);
        json_member_cstring(w, "measured_text", g->measured[0] ? g->measured : NULL);
        json_member_cstring(w, "allowed_text", g->allowed);
        json_member_cstring(w, "message", g->verdict == GATE_PASSED ? NULL : g->why.what);
        json_object_end(w);
    }
    json_array_end(w);
}

/* --phases: each phase's facts (facts/phases.h), one object a phase: its name, start and
 * end, censuses, peak, growth (null without a census, or two), the band that grew most,
 * its suspects' names (largest rise first) and its gates. */
static void json_phases(struct json_writer *w, struct summary_sink *m)
{
    const struct phase_report *r = m->base.ctx.phases;
    if (!r || !r->count)
        return;
    json_newline(w);
    json_key(w, "phases");
    json_array_begin(w);
    for (size_t i = 0; i < r->count; i++) {
        const struct phase_facts *f = &r->phases[i];
        json_newline(w);
        json_object_begin(w);
        json_member_cstring(w, "name", f->name);
        textout_json_member_seconds(w, "start_s", f->start_ns);
        textout_json_member_seconds(w, "end_s", f->end_ns);
        json_key(w, "to_end");
        json_bool(w, f->to_end);
        json_member_uint(w, "censuses", f->censuses);
        json_member_uint_or_null(w, "peak_bytes", f->has_heap, f->peak_bytes);
        json_key(w, "growth_bytes_per_s");
        if (f->has_growth)
            json_double_fixed(w, f->growth, 3);
        else
            json_null(w);
        json_key(w, "grew_most");
        if (f->has_grew_most) {
            json_object_begin(w);
            json_key(w, "label");
            json_band_name(w, m, f->grew_most);
            json_member_double_fixed(w, "growth_bytes_per_s", f->grew_most_growth, 3);
            json_object_end(w);
        } else {
            json_null(w);
        }
        json_key(w, "suspects");
        json_array_begin(w);
        for (size_t k = 0; k < f->suspect_count; k++)
            json_band_name(w, m, f->suspects[k].band);
        json_array_end(w);
        json_key(w, "suspect_rises_bytes_per_s");
        json_array_begin(w);
        for (size_t k = 0; k < f->suspect_count; k++)
            json_double_fixed(w, f->suspects[k].rise, 3);
        json_array_end(w);
        json_gates(w, &f->gates);
        json_object_end(w);
    }
    json_array_end(w);
}

/* The summary as one JSON object, a line per member: 0, or -1 with errno set. */
static int write_json(struct summary_sink *m, const struct peak *pk,
                      const struct profile_view *v)
{
    struct json_writer *w = json_writer_new(m->base.out, JSON_PRETTY);
    if (!w)
        return -1;
    json_object_begin(w);
    json_run(w, m, pk, v);
    json_bands(w, m, v);
    json_events(w, m);
    gc_summary_part.json(w, m->base.ctx.run);
    ticky_summary_part.json(w, m->base.ctx.run);
    end_summary_part.json(w, m->base.ctx.run);
    cap_summary_part.json(w, m->base.ctx.run);
    json_newline(w);
    json_gates(w, m->base.ctx.gates);
    json_phases(w, m);
    if (m->base.ctx.base)
        json_compare(w, m, pk, v);
    if (timeprof_summary_json(w, m->base.ctx.run->timeprof, m->system_ccs) != 0)
        m->no_memory = true;
    json_object_end(w);
    int rc = m->no_memory ? 0 : json_writer_finish(w);
    json_writer_free(w);
    if (rc == 0)
        fputc('\n', m->base.out);
    return rc;
}

static int summary_finish(struct sink *s)
{
    struct summary_sink *m = (struct summary_sink *)s;
    const struct peak *pk = &s->ctx.run->peak;
    struct summary_view sv;
    struct ev_error err;
    if (summary_view_open(&sv, s->ctx.run, &m->select, &err) != 0)
        return -1;
    m->heapless = summary_heapless(s->ctx.run);   /* the censuses are all counted now */
    int rc = 0;
    if (m->json)
        rc = write_json(m, pk, &sv.view);
    else
        write_text(m, pk, &sv.view);
    summary_view_close(&sv);
    if (m->no_memory) {
        errno = ENOMEM;
        return -1;
    }
    if (rc != 0)
        return -1;
    return ferror(s->out) ? -1 : 0;
}

struct sink *sink_summary_new(enum output_format format, FILE *out,
                              const struct sink_context *ctx,
                              const struct summary_settings *settings)
{
    struct summary_sink *m = sink_writer_alloc(sizeof *m, summary_finish, ctx, out);
    if (!m)
        return NULL;
    summary_view_options(settings, &m->select);
    m->json = format == FORMAT_SUMMARY_JSON;
    m->system_ccs = settings->system_ccs;
    m->by_share = summary_by_share(settings);
    m->unicode = settings->unicode;
    m->commit = settings->commit;
    m->windowed = summary_window(settings, m->window, sizeof m->window);
    if (m->windowed)
        m->window_ns = profile_window(&settings->chart->profile);
    return &m->base;
}
