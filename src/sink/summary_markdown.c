/* summary_markdown.c: --summary=markdown, the run where a pull request's reviewers look.
 *
 * GitHub-flavoured Markdown for $GITHUB_STEP_SUMMARY, a GitLab merge-request note or a
 * pull-request comment: the program and run, the peak and when, the duration and the
 * censuses; a table of the largest bands (--bands of them, in the order of --sort) with
 * peak, mean, growth and a sparkline of the band over the run (sparkline.h); the leak
 * suspects; with --compare, the base's peak and this run's side by side with the signed
 * change, for the run and for the bands that grew most, and for two time profiles each
 * run's samples and the cost centres that changed most (timeprof_summary.h); without a
 * census in either run, no peak, band table or suspects; each gate's verdict (gates.h);
 * the markers and the damage. The numbers are the text summary's (summary_facts.h, the
 * same run model); every text that comes from the input (program, labels, markers,
 * warnings) goes through textout_markdown, so a cost centre named `<script>` or `a|b`
 * renders as text and cannot cut a table row or open a tag. With --report-url, each band
 * named links to the report at that band (and the summary's window), reportlink.h.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "census/autogroup.h"
#include "model/breakdown.h"
#include "model/peak.h"
#include "chart/chart.h"
#include "model/profile.h"
#include "facts/gates.h"
#include "facts/phases.h"
#include "model/runmodel.h"
#include "facts/sparkline.h"
#include "facts/summary_facts.h"
#include "facts/suspects.h"
#include "sink/reportlink.h"
#include "sink/textout.h"
#include "sink/summary_parts.h"
#include "sink/timeprof_summary.h"
#include "census/timeprof.h"

/* Markers listed; the rest are counted (a pull request is not the place for all). */
#define MARKDOWN_MARKERS 20
/* Bands in the table when --bands is 0 (all): a table a reviewer can still read. */
#define MARKDOWN_BANDS_MAX 100

struct markdown_sink {
    struct sink base;
    struct profile_options select;  /* every band, in the order of --sort and --reverse */
    unsigned bands;                 /* --bands: rows of the table */
    bool system_ccs;                /* the time profile's cost centres */
    bool by_share;                  /* --diff-normalize: cost centres ranked by share */
    bool heapless;                  /* no census in this run: no heap lines of it */
    bool windowed;                  /* --from/--to: the figures are of this window */
    char window[64];                /* its words */
    const char *report_url;         /* --report-url: bands link to the report there */
    struct reportlink_view link;    /* what a link opens: its window (the summary's) */
    char name[65536 + 16];
};

static void text(struct markdown_sink *m, const char *s, size_t len)
{
    textout_markdown(m->base.out, s, len);
}

static void text_z(struct markdown_sink *m, const char *s)
{
    text(m, s, strlen(s));
}

static void band_name(struct markdown_sink *m, uint32_t band)
{
    size_t len = bands_person_name(m->base.ctx.bands, band, m->name, sizeof m->name);
    text(m, m->name, len);
}

/* A band as the tables and the suspects name it: with --report-url, a link to the report
 * opened at it (its label as the report has it, bands_display_label) in view's window. */
static void band_link(struct markdown_sink *m, uint32_t band, const struct reportlink_view *view)
{
    if (!m->report_url) {
        band_name(m, band);
        return;
    }
    struct reportlink_view at = *view;
    at.band = bands_display_label(m->base.ctx.bands, band, &at.band_len);
    fputc('[', m->base.out);
    band_name(m, band);
    fputs("](", m->base.out);
    reportlink_destination(m->base.out, m->report_url, &at);
    fputc(')', m->base.out);
}

/* A phase's name: with --report-url, a link to the report on the phase's window. */
static void phase_link(struct markdown_sink *m, const struct phase_facts *f,
                       const struct reportlink_view *view)
{
    if (!m->report_url) {
        text_z(m, f->name);
        return;
    }
    fputc('[', m->base.out);
    text_z(m, f->name);
    fputs("](", m->base.out);
    reportlink_destination(m->base.out, m->report_url, view);
    fputc(')', m->base.out);
}

static void write_run(struct markdown_sink *m, const struct peak *pk)
{
    FILE *out = m->base.out;
    const struct run_info *info = m->base.ctx.info;
    char size[32], scratch[32];
    fputs(m->heapless ? "### Time profile of " : "### Heap profile of ", out);
    if (info->program)
        text_z(m, info->program);
    else
        fputs("an unknown program", out);
    fputs("\n\n", out);
    format_bytes((double)pk->bytes, size, sizeof size);
    if (pk->censuses)
        format_fprintf(out, "- **Peak:** %s at %.2f s\n", size, pk->time_ns / 1e9);
    else if (!m->heapless)
        fputs("- **Peak:** none: no heap census\n", out);
    format_fprintf(out, "- **Duration:** %.2f s; %" PRIu64 " censuses", info->end_time_ns / 1e9,
                   pk->censuses);
    if (pk->censuses)
        format_fprintf(out, " from %.2f s to %.2f s", pk->first_ns / 1e9, pk->last_ns / 1e9);
    if (info->period_ns)
        format_fprintf(out, ", every %g s", info->period_ns / 1e9);
    if (m->windowed) {
        fprintf(out, "\n- **Window:** %s (`--from`, `--to`): the figures here are of it",
                m->window);
        if (m->report_url) {   /* the report opened on it */
            fputs(" ([the report on it](", out);
            reportlink_destination(out, m->report_url, &m->link);
            fputs("))", out);
        }
    }
    fputs("\n- **Runtime:** ", out);
    if (info->rts_version)
        text_z(m, info->rts_version);
    else
        fputs("unknown", out);
    fprintf(out, "; %s\n- **Input:** ",
            info->has_heap_profile ? breakdown_words(info->breakdown, scratch, sizeof scratch)
                                   : "no heap profile");
    text_z(m, m->base.ctx.input_name);
    fputs("\n", out);
    const struct autogroup *a = m->base.ctx.autogroup;
    if (a) {
        char reason[AUTOGROUP_NOTE_MAX];
        autogroup_reason(a, reason, sizeof reason);
        fprintf(out, "- **Grouped by %s:** %s; `--group-by %s` shows every %s\n",
                group_key_name(a->key, a->stacks), reason, autogroup_undo(a), autogroup_undo(a));
    }
    const struct timeprof *tp = m->base.ctx.run->timeprof;
    if (timeprof_present(tp)) {
        uint64_t kept = timeprof_kept_samples(tp, m->system_ccs);
        uint32_t caps = timeprof_cap_count(tp);
        format_fprintf(out, "- **Time profile:** %" PRIu64 " samples @ %g ms = %.2f s on %"
                       PRIu32 " capabilit%s\n", kept, timeprof_interval_ns(tp) / 1e6,
                       (double)kept * timeprof_interval_ns(tp) / 1e9 / (caps ? caps : 1),
                       caps, caps == 1 ? "y" : "ies");
    }
}

static void write_bands(struct markdown_sink *m, const struct profile_view *v)
{
    FILE *out = m->base.out;
    size_t rows = m->bands && m->bands < MARKDOWN_BANDS_MAX ? m->bands : MARKDOWN_BANDS_MAX;
    if (rows > v->band_count)
        rows = v->band_count;
    fprintf(out, "\n#### %s bands\n\n",
            m->select.sort == PROFILE_SORT_GROWTH ? "Fastest-growing" : "Largest");
    if (!rows) {
        fputs("None.\n", out);
        return;
    }
    fputs("| Band | Peak | Mean | Growth (whole run) | Over the run |\n"
          "| :--- | ---: | ---: | ---: | :--- |\n", out);
    for (size_t i = 0; i < rows; i++) {
        const struct profile_band_stats *st = &v->bands[i].stats;
        char peak[32], mean[32], growth[40], spark[SPARKLINE_SIZE];
        format_bytes((double)st->peak, peak, sizeof peak);
        format_bytes(st->mean, mean, sizeof mean);
        format_rate(st->growth, growth, sizeof growth);
        sparkline_of(v, i, spark, sizeof spark);
        fputs("| ", out);
        band_link(m, v->bands[i].band, &m->link);
        fprintf(out, " | %s | %s | %s | %s |\n", peak, mean, growth, spark);
    }
    if (rows < v->band_count)
        fprintf(out, "\n%zu of %zu bands (`--bands` shows more).\n", rows, v->band_count);
}

static void write_suspects(struct markdown_sink *m, const struct profile_view *v)
{
    FILE *out = m->base.out;
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t n = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    fputs("\n#### Leak suspects\n\n", out);
    if (!n) {
        fputs("None: no band rose steadily to its peak.\n", out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const struct profile_band_stats *st = &v->bands[sus[i]].stats;
        char rise[40];
        format_rate(st->rise, rise, sizeof rise);
        fputs("- **", out);
        band_link(m, v->bands[sus[i]].band, &m->link);
        format_fprintf(out, "**: rose %s (R² %.2f over %" PRIu64 " censuses) to its peak at "
                       "%.2f s\n", rise, st->rise_r2, st->rise_censuses, st->peak_ns / 1e9);
    }
    format_fprintf(out, "\nA suspect rose steadily to its peak: R² ≥ %.1f over %d censuses or "
                   "more, by %.0f %% of the heap's peak or more. Its rise (the fit from the "
                   "first census to its peak) is what `--max-growth` gates, not the growth "
                   "over the whole run in the table above.\n", PROFILE_SUSPECT_R2,
                   PROFILE_SUSPECT_CENSUSES, PROFILE_SUSPECT_RISE * 100);
}

/* One changed band as a table row: its label (with how it was matched where that says
 * something, band_change_says_match), base and this run ("none" where
 * the run lacks the band) and the signed change. */
static void band_change_row(struct markdown_sink *m, const struct band_change *c)
{
    FILE *out = m->base.out;
    char was[32], now[32], change[32];
    format_bytes((double)c->base, was, sizeof was);
    format_bytes((double)c->now, now, sizeof now);
    if (!c->in_now)
        snprintf(change, sizeof change, "gone");
    else
        summary_format_percent(c->in_base ? summary_percent_change(c->base, c->now) : NAN,
                               change, sizeof change);
    fputs("| ", out);
    text_z(m, c->label);
    if (band_change_says_match(c))
        fprintf(out, " *(%s)*", band_match_name(c->how));
    fprintf(out, " | %s | %s | %s |\n", c->in_base ? was : "none", c->in_now ? now : "none",
            change);
}

/* One cost centre's change as a table row: its name, samples in each run, the change and
 * its share of each run. */
static void cc_change_row(struct markdown_sink *m, const struct timeprof_change *t,
                          const struct cc_change *cc)
{
    char change[32];
    summary_format_percent(cc->base ? summary_percent_change(cc->base, cc->now) : NAN,
                           change, sizeof change);
    fputs("| ", m->base.out);
    text(m, cc->name, cc->len);
    format_fprintf(m->base.out, " | %" PRIu64 " | %" PRIu64 " | %s | %.1f %% → %.1f %% |\n",
                   cc->base, cc->now, change, 100 * timeprof_share(cc->base, t->base_total),
                   100 * timeprof_share(cc->now, t->now_total));
}

/* Two time profiles: each run's samples, and the cost centres that changed most. */
static void write_time_compare(struct markdown_sink *m)
{
    FILE *out = m->base.out;
    struct timeprof_change t;
    int rc = timeprof_change_of(&m->base.ctx, m->system_ccs, m->by_share, &t);
    if (rc < 0)
        fputs("\nThe time profiles could not be compared: out of memory.\n", out);
    if (rc != 0)
        return;
    char change[32];
    summary_format_percent(summary_percent_change(t.base_total, t.now_total), change,
                           sizeof change);
    fputs("\n| Time profile | Base | This run | Change | Share of its run |\n"
          "| :--- | ---: | ---: | ---: | ---: |\n", out);
    fprintf(out, "| **Samples** | %" PRIu64 " | %" PRIu64 " | **%s** | |\n", t.base_total,
            t.now_total, change);
    for (size_t i = 0; i < t.grew_count; i++)
        cc_change_row(m, &t, &t.ccs[i]);
    for (size_t i = t.shrank_count; i-- > 0;)
        cc_change_row(m, &t, timeprof_shrank(&t, i));
    if (t.grew_count == 0 && t.shrank_count == 0)
        fputs("\nNo cost centre's samples changed.\n", out);
    else
        fprintf(out, "\nThe cost centres that grew most, then those that shrank most (at most "
                "%d each), by %s; a cost centre's samples are those it was running in, as each "
                "run's own folded output counts them.\n", TIMEPROF_CHANGED_MOST,
                t.by_share ? "their share of each run's samples (`--diff-normalize`)"
                           : "samples");
    timeprof_change_free(&t);
}

/* The change of peak and the bands that changed most. */
static void write_heap_compare(struct markdown_sink *m, const struct peak *pk,
                               const struct profile_view *v)
{
    FILE *out = m->base.out;
    struct summary_change c;
    summary_change_of(m->base.ctx.base, pk, m->base.ctx.info, m->base.ctx.bands, v, &c);
    char was[32], now[32], change[32];
    fputs("\n| | Base | This run | Change |\n| :--- | ---: | ---: | ---: |\n", out);
    format_bytes((double)c.base->peak.bytes, was, sizeof was);
    format_bytes((double)pk->bytes, now, sizeof now);
    summary_format_percent(c.percent, change, sizeof change);
    fprintf(out, "| **Peak** | %s | %s | **%s** |\n", was, now, change);
    for (size_t i = 0; i < c.grew_count; i++)
        band_change_row(m, &c.bands[i]);
    for (size_t i = c.shrank_count; i-- > 0;)
        band_change_row(m, summary_shrank(&c, i));
    if (c.no_memory)
        fputs("\nThe bands could not be compared: out of memory.\n", out);
    else if (c.grew_count == 0 && c.shrank_count == 0)
        fputs("\nNo band's peak changed.\n", out);
    else
        fprintf(out, "\nThe bands whose peak grew most, then those whose peak shrank most "
                "(at most %d each; none: the run has no such band).\n", SUMMARY_GREW_MOST);
    summary_change_free(&c);
}

static void write_compare(struct markdown_sink *m, const struct peak *pk,
                          const struct profile_view *v)
{
    FILE *out = m->base.out;
    fputs("\n#### Compared with ", out);
    text_z(m, m->base.ctx.base->name);
    char mismatch[160];
    if (summary_breakdown_mismatch(m->base.ctx.info, m->base.ctx.base, mismatch, sizeof mismatch))
        fprintf(out, "\n\n**Breakdowns differ:** %s.", mismatch);
    fputc('\n', out);
    const char *one_sided = summary_heap_one_sided(m->base.ctx.run, m->base.ctx.base);
    if (one_sided)
        fprintf(out, "\n**Peak:** not compared: %s.\n", one_sided);
    else if (!m->heapless)
        write_heap_compare(m, pk, v);
    write_time_compare(m);
}

static void write_gates(struct markdown_sink *m)
{
    FILE *out = m->base.out;
    const struct gate_report *r = m->base.ctx.gates;
    if (!r || !r->count)
        return;
    fputs("\n#### Gates\n\n| Gate | Allowed | Measured | Verdict |\n"
          "| :--- | ---: | ---: | :--- |\n", out);
    for (size_t i = 0; i < r->count; i++) {
        const struct gate *g = &r->gates[i];
        fprintf(out, "| `--%s` | %s | %s | ", gate_name(g->kind), g->allowed,
                g->measured[0] ? g->measured : "n/a");
        if (g->verdict == GATE_PASSED) {
            fputs("✅ passed |\n", out);
            continue;
        }
        fputs(g->verdict == GATE_FAILED ? "❌ **failed**: " : "⚠️ **not checked**: ", out);
        text_z(m, g->why.what);
        fputs(" |\n", out);
    }
}

/* A phase's gates in a cell: each that did not pass, by name; "passed" when all did. */
static void phase_gates_cell(FILE *out, const struct gate_report *r)
{
    size_t bad = 0;
    for (size_t k = 0; k < r->count; k++) {
        const struct gate *g = &r->gates[k];
        if (g->verdict == GATE_PASSED)
            continue;
        fprintf(out, "%s%s `--%s` %s", bad++ ? ", " : "", g->verdict == GATE_FAILED ? "❌" : "⚠️",
                gate_name(g->kind), g->measured[0] ? g->measured : "not checked");
    }
    if (!bad)
        fputs(r->count ? "✅ passed" : "", out);
}

/* --phases: a row per phase (facts/phases.h). */
static void write_phases(struct markdown_sink *m)
{
    FILE *out = m->base.out;
    const struct phase_report *r = m->base.ctx.phases;
    if (!r || !r->count)
        return;
    fputs("\n#### Phases\n\n| Phase | Start | Length | Peak | Growth | Grew most | Suspects "
          "| Gates |\n| :--- | ---: | ---: | ---: | ---: | :--- | :--- | :--- |\n", out);
    for (size_t i = 0; i < r->count; i++) {
        const struct phase_facts *f = &r->phases[i];
        char peak[32] = "no census", growth[40] = "n/a";
        if (f->has_heap)
            format_bytes((double)f->peak_bytes, peak, sizeof peak);
        if (f->has_growth)
            format_rate(f->growth, growth, sizeof growth);
        struct reportlink_view in = { .has_window = true, .from_s = f->start_ns / 1e9,
                                      .to_s = f->end_ns / 1e9 };
        fputs("| ", out);
        phase_link(m, f, &in);
        format_fprintf(out, " | %.6f s | %.6f s%s | %s | %s | ", f->start_ns / 1e9,
                       (f->end_ns - f->start_ns) / 1e9, f->to_end ? " (to the end)" : "", peak,
                       growth);
        if (f->has_grew_most)
            band_link(m, f->grew_most, &in);
        fputs(" | ", out);
        for (size_t k = 0; k < f->suspect_count; k++) {
            fputs(k ? ", " : "", out);
            band_link(m, f->suspects[k].band, &in);
        }
        fputs(f->suspect_count ? " | " : "none | ", out);
        phase_gates_cell(out, &f->gates);
        fputs(" |\n", out);
    }
}

static void write_markers_and_damage(struct markdown_sink *m)
{
    FILE *out = m->base.out;
    const struct run_model *run = m->base.ctx.run;
    uint64_t markers = run->marker_count + run->markers_not_listed;
    fprintf(out, "\n#### Markers\n\n");
    if (!markers)
        fputs("None.\n", out);
    for (size_t i = 0; i < run->marker_count && i < MARKDOWN_MARKERS; i++) {
        format_fprintf(out, "- %.6f s: ", run->markers[i].time_ns / 1e9);
        text_z(m, run->markers[i].text);
        fputc('\n', out);
    }
    if (markers > MARKDOWN_MARKERS)
        fprintf(out, "- and %" PRIu64 " more (`--summary` lists them)\n",
                markers - MARKDOWN_MARKERS);
    size_t warnings, notes;
    summary_warning_counts(m->base.ctx.warnings, m->base.ctx.warning_count, &warnings, &notes);
    for (int note = 0; note <= 1; note++) {   /* damage, then the notes (error.h) */
        if (note && !notes)
            break;
        fputs(note ? "\n#### Notes\n\n" : "\n#### Damage\n\n", out);
        if (!note && warnings == notes)
            fputs("None.\n", out);
        for (size_t i = 0; i < warnings; i++) {
            const struct ev_error *w = &m->base.ctx.warnings[i];
            if (w->note != note)
                continue;
            fputs("- ", out);
            if (w->has_offset)
                fprintf(out, "offset %" PRIu64 ": ", w->offset);
            text_z(m, w->what);
            fputc('\n', out);
        }
    }
}

static int markdown_finish(struct sink *s)
{
    struct markdown_sink *m = (struct markdown_sink *)s;
    const struct peak *pk = &s->ctx.run->peak;
    struct summary_view sv;
    struct ev_error err;
    if (summary_view_open(&sv, s->ctx.run, &m->select, &err) != 0)
        return -1;
    m->heapless = summary_heapless(s->ctx.run);   /* the censuses are all counted now */
    write_run(m, pk);
    if (!m->heapless) {
        write_bands(m, &sv.view);
        write_suspects(m, &sv.view);
    }
    write_phases(m);
    if (s->ctx.base)
        write_compare(m, pk, &sv.view);
    gc_summary_part.markdown(s->out, s->ctx.run);
    ticky_summary_part.markdown(s->out, s->ctx.run);
    end_summary_part.markdown(s->out, s->ctx.run);
    cap_summary_part.markdown(s->out, s->ctx.run);
    write_gates(m);
    write_markers_and_damage(m);
    summary_view_close(&sv);
    return ferror(s->out) ? -1 : 0;
}

struct sink *sink_summary_markdown_new(FILE *out, const struct sink_context *ctx,
                                       const struct summary_settings *settings)
{
    struct markdown_sink *m = sink_writer_alloc(sizeof *m, markdown_finish, ctx, out);
    if (!m)
        return NULL;
    summary_view_options(settings, &m->select);
    struct chart_options defaults;
    chart_options_default(&defaults);
    m->bands = (settings->chart ? settings->chart : &defaults)->profile.bands;
    m->system_ccs = settings->system_ccs;
    m->by_share = summary_by_share(settings);
    m->windowed = summary_window(settings, m->window, sizeof m->window);
    m->report_url = settings->report_url;
    const struct profile_options *p = settings->chart ? &settings->chart->profile : NULL;
    if (m->windowed) {   /* the links open the report on the summary's window */
        struct time_window w = profile_window(p);
        m->link.has_window = true;
        m->link.from_s = w.from_ns / 1e9;
        m->link.to_s = w.to_ns == UINT64_MAX ? ctx->info->end_time_ns / 1e9 : w.to_ns / 1e9;
    }
    return &m->base;
}
