/* sink_html.c: -o report.html, an interactive report in one self-contained file.
 *
 * The page draws its charts in the browser from data, so this sink writes data, not
 * pictures: it draws from the run model (runmodel.h) like a chart, at twice the chart's
 * horizontal resolution so that zooming in a few steps still shows real censuses (each
 * pixel column keeps its extremes, every kept point is a census that happened); finish
 * writes the selected bands with their exact statistics, the kept censuses, markers, heap
 * totals, the exact peak with its largest bands, and the run's warnings, as one JSON
 * document inside a <script type="application/json"> element. With --compare the base
 * run goes in too, both views showing the same bands (compare_union_views).
 *
 * The page's JavaScript and CSS are real files (share/report/report.js, report.css),
 * linted and formatted there, embedded into the binary at build time (report_assets.h):
 * nothing is fetched when the report is opened, so it works from disk and offline.
 */
#include "sink/sink.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "chart/chart.h"
#include "chart/colors.h"
#include "chart/compare.h"
#include "chart/flame.h"
#include "model/profile.h"
#include "model/peak.h"
#include "census/timeprof.h"
#include "sink/report_assets.h"
#include "model/runmodel.h"
#include "sink/textout.h"
#include "model/breakdown.h"

#define PEAK_TOP 10     /* bands named at the peak */
#define FLAME_MAX_NODES 20000   /* calling contexts in the flame data (~20 bytes each) */

struct html_sink {
    struct sink base;
    struct chart_options chart;
    bool system_ccs;                /* the flame data: keep the runtime's cost centres */
    struct ev_error error;          /* why finish failed, when errno cannot say */
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

/* Text of an HTML element: markup characters escaped, bytes that are not UTF-8 as U+FFFD. */
static void html_text(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_sequence(p + i, len - i);
        if (n == 0) {
            fputs("\xef\xbf\xbd", out);
            i++;
        } else if (p[i] == '<') {
            fputs("&lt;", out), i++;
        } else if (p[i] == '>') {
            fputs("&gt;", out), i++;
        } else if (p[i] == '&') {
            fputs("&amp;", out), i++;
        } else {
            fwrite(p + i, 1, n, out);
            i += n;
        }
    }
}

static void key_string(FILE *out, const char *key, const char *value, size_t len)
{
    fprintf(out, "\"%s\":", key);
    if (value)
        textout_json_string_html(out, value, len);
    else
        fputs("null", out);
}

static void key_cstring(FILE *out, const char *key, const char *value)
{
    key_string(out, key, value, value ? strlen(value) : 0);
}

/* A double as JSON: %.17g would be exact but long; statistics need no more than this. */
static void json_number(FILE *out, double x)
{
    if (x != x || x > 1e300 || x < -1e300)
        fputs("null", out);
    else
        fprintf(out, "%.10g", x);
}

/* Decimal digits of v, faster than printf for the many values of a dense profile. */
static void json_u64(FILE *out, uint64_t v)
{
    char buf[24];
    size_t n = sizeof buf;
    do {
        buf[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(buf + n, 1, sizeof buf - n, out);
}

/* Seconds from nanoseconds: integer microseconds as a decimal, "12.000345". */
static void json_seconds(FILE *out, uint64_t ns)
{
    textout_seconds(out, ns);
}

/* A JSON array of times in seconds. */
static void write_seconds(FILE *out, const uint64_t *time_ns, size_t count)
{
    fputc('[', out);
    for (size_t i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        json_seconds(out, time_ns[i]);
    }
    fputc(']', out);
}

/* A heap total's kept points. The runtime writes the three totals at each collection, so
 * their times are usually one list: when an earlier kind (same_as) has the same times,
 * they are not written again ("t_of" names it), a seventh of a dense report. */
static void write_series(FILE *out, const struct profile_series *s, const char *same_as)
{
    if (same_as) {
        fprintf(out, "{\"t_of\":\"%s\",\"b\":[", same_as);
    } else {
        fputs("{\"t\":", out);
        write_seconds(out, s->time_ns, s->count);
        fputs(",\"b\":[", out);
    }
    for (size_t i = 0; i < s->count; i++) {
        if (i)
            fputc(',', out);
        json_u64(out, s->bytes[i]);
    }
    fputs("]}", out);
}

/* One run: what it says about itself, its bands with exact statistics, the kept
 * censuses (t, and v[band][point]), heap totals and markers. */
static void write_run(FILE *out, const struct profile_view *v, const struct run_info *info,
                      const struct bands *bands, const char *name, const char *title)
{
    char scratch[32];
    fputc('{', out);
    key_cstring(out, "name", name);
    fputc(',', out);
    key_cstring(out, "title", title ? title : info->program);
    fputc(',', out);
    key_cstring(out, "program", info->program);
    fputc(',', out);
    key_cstring(out, "rts", info->rts_version);
    fputc(',', out);
    key_cstring(out, "breakdown", info->has_heap_profile
                                      ? breakdown_words(info->breakdown, scratch, sizeof scratch)
                                      : NULL);
    fputs(",\"interval_s\":", out);
    json_seconds(out, info->period_ns);
    fputs(",\"duration_s\":", out);
    json_seconds(out, info->end_time_ns);
    fputs(",\"censuses\":", out);
    json_u64(out, v->censuses);
    fputs(",\"first_s\":", out);
    json_seconds(out, v->first_ns);
    fputs(",\"last_s\":", out);
    json_seconds(out, v->last_ns);
    fprintf(out, ",\"bands_seen\":%" PRIu32 ",\"bands_filtered\":%" PRIu32, v->bands_seen,
            v->bands_filtered);
    fputs(",\"total_area\":", out);
    json_number(out, v->total_area);
    fputs(",\"bands\":[", out);
    for (size_t b = 0; b < v->band_count; b++) {
        const struct profile_band *pb = &v->bands[b];
        fputs(b ? ",\n{" : "\n{", out);
        key_cstring(out, "label", pb->label);
        if (pb->band != PROFILE_OTHER) {
            /* the label as the runtime wrote it, when a description (-hi) replaced it */
            size_t len;
            const char *raw = bands_label(bands, pb->band, &len);
            if (raw && (strlen(pb->label) != len || memcmp(raw, pb->label, len) != 0)) {
                fputc(',', out);
                key_string(out, "raw", raw, len);
            }
        } else {
            fprintf(out, ",\"other\":true,\"folded\":%" PRIu32, pb->folded);
        }
        /* the band's colour in every chart (chart/colors.h), so the page matches them */
        char colour[8];
        dl_color_hex(pb->band == PROFILE_OTHER ? chart_other_color()
                                               : chart_band_color(pb->label), colour);
        fprintf(out, ",\"colour\":\"%s\"", colour);
        fputs(",\"area\":", out);
        json_number(out, pb->stats.area);
        fputs(",\"peak\":", out);
        json_u64(out, pb->stats.peak);
        fputs(",\"mean\":", out);
        json_number(out, pb->stats.mean);
        fputs(",\"stddev\":", out);
        json_number(out, pb->stats.stddev);
        /* the least-squares slope over the window and its R^2 (NAN for OTHER: null) */
        fputs(",\"growth_bytes_per_s\":", out);
        json_number(out, pb->stats.growth);
        fputs(",\"growth_r2\":", out);
        json_number(out, pb->stats.growth_r2);
        fputc('}', out);
    }
    /* The suspects (profile.h's rule, as --summary lists them): indices into bands. */
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t ns = profile_suspects(v, sus, PROFILE_SUSPECTS_LISTED);
    fputs("],\n\"suspects\":[", out);
    for (size_t i = 0; i < ns; i++) {
        const struct profile_band_stats *st = &v->bands[sus[i]].stats;
        fprintf(out, "%s{\"band\":%zu,\"rise_bytes_per_s\":", i ? "," : "", sus[i]);
        json_number(out, st->rise);
        fputs(",\"rise_r2\":", out);
        json_number(out, st->rise_r2);
        fputs(",\"rise_censuses\":", out);
        json_u64(out, st->rise_censuses);
        fputs(",\"peak_time_s\":", out);
        json_seconds(out, st->peak_ns);
        fputc('}', out);
    }
    fputs("],\n\"t\":", out);
    write_seconds(out, v->time_ns, v->point_count);
    fputs(",\n\"v\":[", out);
    for (size_t b = 0; b < v->band_count; b++) {
        fputs(b ? ",\n[" : "\n[", out);
        for (size_t i = 0; i < v->point_count; i++) {
            if (i)
                fputc(',', out);
            json_u64(out, v->values[i * v->band_count + b]);
        }
        fputc(']', out);
    }
    static const char *const kinds[] = { "heap_size", "heap_live", "blocks_size" };
    fputs("],\n\"totals\":{", out);
    for (size_t k = 0; k < 3; k++) {
        fprintf(out, "%s\"%s\":", k ? "," : "", kinds[k]);
        const char *same_as = NULL;
        for (size_t j = 0; j < k && !same_as; j++)
            if (v->totals[j].count == v->totals[k].count && v->totals[k].count &&
                memcmp(v->totals[j].time_ns, v->totals[k].time_ns,
                       v->totals[k].count * sizeof *v->totals[k].time_ns) == 0)
                same_as = kinds[j];
        write_series(out, &v->totals[k], same_as);
    }
    fputs("},\n\"markers\":[", out);
    for (size_t i = 0; i < v->marker_count; i++) {
        fputs(i ? ",{\"t\":" : "{\"t\":", out);
        json_seconds(out, v->markers[i].time_ns);
        fputc(',', out);
        key_cstring(out, "text", v->markers[i].text);
        fprintf(out, ",\"merged\":%" PRIu32 "}", v->markers[i].merged);
    }
    fputs("]}", out);
}

static int by_u64_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void write_peak(FILE *out, const struct peak *pk, const struct bands *bands)
{
    fputs("{\"bytes\":", out);
    json_u64(out, pk ? pk->bytes : 0);
    fputs(",\"time_s\":", out);
    json_seconds(out, pk ? pk->time_ns : 0);
    fputs(",\"bands\":[", out);
    for (size_t i = 0; pk && bands && i < pk->count && i < PEAK_TOP; i++) {
        size_t len;
        const char *label = bands_display_label(bands, pk->entries[i].band, &len);
        fputs(i ? ",[" : "[", out);
        textout_json_string_html(out, label ? label : "", label ? len : 0);
        fputc(',', out);
        json_u64(out, pk->entries[i].bytes);
        fputc(']', out);
    }
    fputs("]}", out);
}

/* The time profile's calling-context tree for the flame and icicle views: the cost
 * centres the kept nodes name (frame name, module, source location, fill colour as
 * flame.c chooses it), and per node its parent, cost centre, self and inclusive samples,
 * parents first. Bounded: past FLAME_MAX_NODES nodes, only the largest are kept, those
 * of equal samples at the edge in tree order (a node's parent is never smaller than it
 * and comes first, so the kept ones still form a tree), and the data says how many were
 * dropped; their samples stay in their parents' totals. Cost
 * centres are numbered by the eventlog (any 32-bit number), so they are found in a
 * sorted list of the kept ones, not in a table indexed by number. */
static int write_flame(FILE *out, const struct sink_context *ctx, bool system)
{
    const struct timeprof *tp = ctx->run->timeprof;
    struct timeprof_tree tree;
    if (timeprof_tree(tp, system, &tree) != 0)
        return -1;
    uint32_t *map = malloc(tree.count * sizeof *map);       /* node -> kept index */
    uint32_t *ccs = malloc(tree.count * sizeof *ccs);       /* kept cost centres, sorted */
    uint64_t *totals = tree.count > FLAME_MAX_NODES ? malloc(tree.count * sizeof *totals)
                                                    : NULL;
    char *name = NULL;
    size_t name_size = 0;
    int rc = -1;
    if (!map || !ccs || (tree.count > FLAME_MAX_NODES && !totals))
        goto done;
    /* kept: the nodes above the FLAME_MAX_NODES-th largest total, and as many of those
     * equal to it as the bound leaves room for */
    uint64_t edge = 0;
    size_t room = 0;
    if (totals) {
        for (uint32_t i = 0; i < tree.count; i++)
            totals[i] = tree.nodes[i].total;
        qsort(totals, tree.count, sizeof *totals, by_u64_desc);
        edge = totals[FLAME_MAX_NODES - 1];
        room = FLAME_MAX_NODES;
        for (uint32_t i = 0; i < tree.count && totals[i] > edge; i++)
            room--;
    }
    uint32_t kept = 0;
    size_t nccs = 0;
    uint64_t dropped = 0, dropped_samples = 0;
    for (uint32_t i = 0; i < tree.count; i++) {
        const struct timeprof_node *n = &tree.nodes[i];
        bool fits = n->total > edge || (n->total == edge && room > 0);
        bool keep = i == 0 || (fits && map[n->parent] != UINT32_MAX);
        if (keep && totals && n->total == edge && room > 0)
            room--;
        map[i] = keep ? kept++ : UINT32_MAX;
        if (keep && i > 0)
            ccs[nccs++] = n->cc;
        if (!keep) {
            dropped++;
            if (map[n->parent] != UINT32_MAX)   /* the top of a dropped subtree */
                dropped_samples += n->total;
        }
    }
    qsort(ccs, nccs, sizeof *ccs, by_u32);
    size_t unique = 0;
    for (size_t i = 0; i < nccs; i++)
        if (i == 0 || ccs[i] != ccs[unique - 1])
            ccs[unique++] = ccs[i];
    fputs("{\"ccs\":[", out);
    for (size_t i = 0; i < unique; i++) {
        struct timeprof_cc cc;
        char scratch[16], colour[8];
        timeprof_cc_names(tp, ccs[i], &cc, scratch);
        /* the whole name, however long (never cut inside a character) */
        size_t len = timeprof_frame_name(&cc, name, name_size);
        if (len >= name_size) {
            free(name);
            name_size = len + 1;
            if (!(name = malloc(name_size)))
                goto done;
            timeprof_frame_name(&cc, name, name_size);
        }
        dl_color_hex(flame_frame_color(&cc), colour);
        fputs(i ? ",\n[" : "\n[", out);
        textout_json_string_html(out, name, len);
        fputc(',', out);
        textout_json_string_html(out, cc.module, cc.module_len);
        fputc(',', out);
        textout_json_string_html(out, cc.srcloc, strlen(cc.srcloc));
        fprintf(out, ",\"%s\"]", colour);
    }
    /* nodes: parent (-1 for the root), cost centre (-1 for the root), self, total */
    fputs("],\n\"nodes\":[", out);
    for (uint32_t i = 0; i < tree.count; i++) {
        const struct timeprof_node *n = &tree.nodes[i];
        if (map[i] == UINT32_MAX)
            continue;
        if (i == 0) {
            fputs("-1,-1,", out);
        } else {
            const uint32_t *at = bsearch(&n->cc, ccs, unique, sizeof *ccs, by_u32);
            fputs(",\n", out);
            json_u64(out, map[n->parent]);
            fputc(',', out);
            json_u64(out, (uint64_t)(at - ccs));
            fputc(',', out);
        }
        json_u64(out, n->self);
        fputc(',', out);
        json_u64(out, n->total);
    }
    fputs("],\n\"samples\":", out);
    json_u64(out, tree.nodes[0].total);
    fputs(",\"interval_s\":", out);
    json_seconds(out, timeprof_interval_ns(tp));
    fprintf(out, ",\"capabilities\":%" PRIu32 ",\"system\":%s,\"max_depth\":%u",
            timeprof_cap_count(tp), system ? "true" : "false", tree.max_depth);
    fputs(",\"dropped_nodes\":", out);
    json_u64(out, dropped);
    fputs(",\"dropped_samples\":", out);
    json_u64(out, dropped_samples);
    fputs(",\"outside_window\":", out);
    json_u64(out, timeprof_outside(tp));
    fputc('}', out);
    rc = 0;
done:
    free(map);
    free(ccs);
    free(totals);
    free(name);
    timeprof_tree_free(&tree);
    return rc;
}

static int write_data(struct html_sink *h, const struct profile_view *now,
                       const struct profile_view *base_view)
{
    FILE *out = h->base.out;
    const struct sink_context *ctx = &h->base.ctx;
    fputs("{\"generator\":\"ev2hp\",\n\"run\":", out);
    write_run(out, now, ctx->info, ctx->bands, ctx->input_name, h->chart.title);
    fputs(",\n\"peak\":", out);
    write_peak(out, ctx->run->peak.censuses ? &ctx->run->peak : NULL, ctx->bands);
    fputs(",\n\"base\":", out);
    if (base_view) {
        write_run(out, base_view, ctx->base->info, ctx->base->bands, ctx->base->name, NULL);
        fputs(",\n\"base_peak\":", out);
        write_peak(out, &ctx->base->peak, NULL);
    } else {
        fputs("null", out);
    }
    fputs(",\n\"warnings\":[", out);
    size_t warnings = ctx->warning_count ? *ctx->warning_count : 0;
    for (size_t i = 0; i < warnings; i++) {
        if (i)
            fputc(',', out);
        textout_json_string_html(out, ctx->warnings[i].what, strlen(ctx->warnings[i].what));
    }
    fputs("],\n\"flame\":", out);
    if (timeprof_present(ctx->run->timeprof)) {
        if (write_flame(out, ctx, h->system_ccs) != 0)
            return -1;
    } else {
        fputs("null", out);
    }
    fprintf(out, ",\n\"options\":{\"markers\":%s,\"totals\":%s",
            h->chart.no_markers ? "false" : "true", h->chart.totals ? "true" : "false");
    if (h->chart.has_y_max) {
        fputs(",\"y_max\":", out);
        json_u64(out, h->chart.y_max);
    }
    /* the view the page opens with: --view's, or the flame graph when the input has a
     * time profile and no census (html_finish refused a flame view without one) */
    enum chart_view view = h->chart.view;
    if (view == CHART_VIEW_AUTO && now->censuses == 0 && timeprof_present(ctx->run->timeprof))
        view = CHART_VIEW_FLAME;
    if (view != CHART_VIEW_AUTO)
        fprintf(out, ",\"view\":\"%s\"", chart_view_name(view));
    fputs("}}", out);
    return 0;
}

/* The views of the report's profile (the run model's at twice a chart's resolution) and
 * of the base's (at a chart's): 0, or -1 when out of memory. */
static int html_views(struct html_sink *h, struct profile_view *now, struct profile_view *base_view,
                      bool *compare)
{
    const struct sink_context *ctx = &h->base.ctx;
    struct profile_options finer, popt;
    sink_html_profile_options(&h->chart, &finer);
    chart_profile_options(&h->chart, &popt);
    struct ev_error err;
    const struct profile *p = run_model_chart(ctx->run, &finer, &err);
    *compare = ctx->base && ctx->base->profile;
    const struct profile *was = *compare ? run_model_chart(ctx->base, &popt, &err) : NULL;
    if (!p || (*compare && !was))
        return -1;
    struct compare_run n = { p, ctx->bands, ctx->info, ctx->input_name };
    struct compare_run b = { was, *compare ? ctx->base->bands : NULL,
                             *compare ? ctx->base->info : NULL,
                             *compare ? ctx->base->name : NULL };
    return *compare ? compare_union_views(&b, &n, base_view, now)
                    : profile_view(p, ctx->bands, now);
}

static int html_finish(struct sink *s)
{
    struct html_sink *h = (struct html_sink *)s;
    const struct sink_context *ctx = &s->ctx;
    FILE *out = s->out;
    struct profile_view now, base_view;
    /* --view flame or icicle asks for a time profile, as for the charts */
    if ((h->chart.view == CHART_VIEW_FLAME || h->chart.view == CHART_VIEW_ICICLE) &&
        !timeprof_present(ctx->run->timeprof)) {
        ev_error_set(&h->error, "the input has no time profile to draw (--view %s; run the "
                     "program with +RTS -p -l)", chart_view_name(h->chart.view));
        return -1;
    }
    bool compare;
    if (html_views(h, &now, &base_view, &compare) != 0)
        return no_memory();
    const char *title = h->chart.title ? h->chart.title : ctx->info->program;
    if (!title)
        title = ctx->input_name ? ctx->input_name : "heap profile";
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"ev2hp " PACKAGE_VERSION "\">\n<title>", out);
    html_text(out, title, strlen(title));
    fputs(" – ev2hp report</title>\n<style>\n", out);
    fwrite(report_css, 1, report_css_len, out);
    fputs("</style>\n</head>\n<body>\n<noscript>This report draws its charts with "
          "JavaScript; the data is in the element #ev2hp-data.</noscript>\n"
          "<main id=\"report\"></main>\n"
          "<script type=\"application/json\" id=\"ev2hp-data\">\n", out);
    int rc = write_data(h, &now, compare ? &base_view : NULL);
    fputs("\n</script>\n<script>\n", out);
    fwrite(report_js, 1, report_js_len, out);
    fputs("</script>\n</body>\n</html>\n", out);
    profile_view_free(&now);
    if (compare)
        profile_view_free(&base_view);
    if (rc != 0)
        return no_memory();
    errno = 0;
    return ferror(out) ? -1 : 0;
}

static const struct ev_error *html_failure(const struct sink *s)
{
    const struct html_sink *h = (const struct html_sink *)s;
    return h->error.what[0] ? &h->error : NULL;
}

static void html_destroy(struct sink *s)
{
    free(s);
}

/* Censuses, markers and totals go to the run model, not here: this sink only writes. */
static const struct sink_ops html_ops = {
    .finish = html_finish,
    .destroy = html_destroy,
    .failure = html_failure,
};

void sink_html_profile_options(const struct chart_options *opt, struct profile_options *out)
{
    /* Twice the chart's resolution (up to 4 kept censuses per pixel column of the
     * default width): zooming in two or three steps still draws real censuses, and the
     * densest profile stays near 1 MB of numbers. */
    struct chart_options finer = *opt;
    finer.width = opt->width * 2 > PROFILE_MAX_COLUMNS ? PROFILE_MAX_COLUMNS : opt->width * 2;
    chart_profile_options(&finer, out);
}

struct sink *sink_html_new(FILE *out, const struct sink_context *ctx,
                           const struct report_settings *settings)
{
    struct html_sink *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->base = (struct sink){ .ops = &html_ops, .ctx = *ctx, .out = out };
    if (settings->chart)
        h->chart = *settings->chart;
    else
        chart_options_default(&h->chart);
    h->system_ccs = settings->system_ccs;
    return &h->base;
}
