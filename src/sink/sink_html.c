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
 * The page's JavaScript and CSS are real files (the scripts and report.css in
 * share/report), linted and formatted there, embedded into the binary at build time
 * (report_assets.h): nothing is fetched when the report is opened, so it works from disk
 * and offline.
 */
#include "sink/summary_parts.h"
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/order.h"
#include "base/utf8.h"
#include "chart/chart.h"
#include "chart/colors.h"
#include "chart/compare.h"
#include "chart/flame.h"
#include "chart/kit.h"
#include "facts/peakbands.h"
#include "facts/phases.h"
#include "facts/suspects.h"
#include "model/bandmatch.h"
#include "model/diffseries.h"
#include "census/foldstacks.h"
#include "census/grouping.h"
#include "sink/runstacks.h"
#include "sink/stacklabels.h"
#include "model/profile.h"
#include "model/peak.h"
#include "census/timeprof.h"
#include "sink/report_assets.h"
#include "model/runmodel.h"
#include "sink/textout.h"

#define PEAK_TOP 10     /* bands named at the peak */
#define FLAME_MAX_NODES 20000   /* calling contexts in the flame data (~20 bytes each) */
/* Values of the bands folded into OTHER in the band table (profile_table): all kept
 * censuses of each while they fit, so a folded band the reader selects is drawn at the
 * chart's own points; past it, fewer points per band (a few MB of numbers at most), and
 * never more than TABLE_POINTS per band (a dense profile's few hundred folded bands would
 * otherwise add megabytes to a report for a band few readers draw). */
#define TABLE_VALUES 1000000
#define TABLE_POINTS 256

struct html_sink {
    struct sink base;
    struct chart_options chart;
    bool system_ccs;                /* the flame data: keep the runtime's cost centres */
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

/* A double of the data: ten significant digits, which statistics need no more than
 * (the shortest exact form would be up to 17, and the report holds many). */
static void json_stat(struct json_writer *w, double x)
{
    json_double_digits(w, x, 10);
}

/* A JSON array of times in seconds. */
static void write_seconds(struct json_writer *w, const uint64_t *time_ns, size_t count)
{
    json_array_begin(w);
    for (size_t i = 0; i < count; i++)
        textout_json_seconds(w, time_ns[i]);
    json_array_end(w);
}

/* A heap total's kept points. The runtime writes the three totals at each collection, so
 * their times are usually one list: when an earlier kind (same_as) has the same times,
 * they are not written again ("t_of" names it), a seventh of a dense report. */
static void write_series(struct json_writer *w, const struct profile_series *s,
                         const char *same_as)
{
    json_object_begin(w);
    if (same_as) {
        json_member_cstring(w, "t_of", same_as);
    } else {
        json_key(w, "t");
        write_seconds(w, s->time_ns, s->count);
    }
    json_key(w, "b");
    json_array_begin(w);
    for (size_t i = 0; i < s->count; i++)
        json_uint(w, s->bytes[i]);
    json_array_end(w);
    json_object_end(w);
}

/* The label of a band as the runtime wrote it (*len bytes), when a description (-hi)
 * replaced it in pb->label; NULL when the label is the runtime's own, or for OTHER. */
static const char *raw_label(const struct profile_band *pb, const struct bands *bands,
                             size_t *len)
{
    if (pb->band == PROFILE_OTHER)
        return NULL;
    const char *raw = bands_label(bands, pb->band, len);
    return raw && (strlen(pb->label) != *len || memcmp(raw, pb->label, *len) != 0) ? raw
                                                                                   : NULL;
}

/* One band of a run: its labels, colour (as the charts draw it: drawn_colours) and exact
 * statistics. */
static void write_band(struct json_writer *w, const struct profile_band *pb,
                       const struct bands *bands, struct dl_color drawn)
{
    json_object_begin(w);
    json_member_cstring(w, "label", pb->label);
    size_t len;
    const char *raw = raw_label(pb, bands, &len);
    if (raw)
        json_member_string(w, "raw", raw, len);
    if (pb->band == PROFILE_OTHER) {
        json_member_bool(w, "other", true);
        json_member_uint(w, "folded", pb->folded);
    }
    char colour[8];
    dl_color_hex(drawn, colour);
    json_member_cstring(w, "colour", colour);
    json_key(w, "area");
    json_stat(w, pb->stats.area);
    json_member_uint(w, "peak", pb->stats.peak);
    json_key(w, "mean");
    json_stat(w, pb->stats.mean);
    /* OTHER's spread is not its bands' (deviations do not add) and the profile has none:
     * null, which the page computes where it has every census */
    json_key(w, "stddev");
    json_stat(w, pb->band == PROFILE_OTHER ? NAN : pb->stats.stddev);
    /* the least-squares slope over the window and its R^2 (NAN for OTHER: null) */
    json_key(w, "growth_bytes_per_s");
    json_stat(w, pb->stats.growth);
    json_key(w, "growth_r2");
    json_stat(w, pb->stats.growth_r2);
    json_object_end(w);
}

/* A JSON array of indices, -1 for UINT32_MAX (none). */
static void write_indices(struct json_writer *w, const uint32_t *ids, size_t count)
{
    json_array_begin(w);
    for (size_t i = 0; i < count; i++)
        json_int(w, ids[i] == UINT32_MAX ? -1 : (int64_t)ids[i]);
    json_array_end(w);
}

/* A folded band's bytes at the band table's points, packed into one JSON string (the
 * page's kit.unpackCounts reads it back). The table keeps every band, and a dense -hc
 * run folds hundreds to thousands of them into OTHER at 256 points each: as decimal
 * arrays they were most of the report (the 115 MB class's grew to over 1 MiB, a run of
 * 4,000 bands to 5.7 MB), and a band that exists only for a while is mostly zeros.
 * Each number is written in base-32 digits, least significant first, as characters of
 * the base64 alphabet (A-Z a-z 0-9 + /, values 0-63): a digit below 32 is a number's
 * last, one of 32 or more (its value less 32) says another follows. A value other than
 * zero is written as its difference from the last such value before it (zigzag: 2d for
 * d >= 0, -2d - 1 below), in units (unit divides every value: folded_unit): a band's
 * bytes move by less than they are, 2.3 characters a value on a 4,000-band run where
 * whole counts took 2.7 and decimal with a comma 8. A zero is '-', a run of RUN_MIN or
 * more '.' and the run's length as a number. Nothing in it needs escaping. 0, or -1
 * when out of memory. */
#define RUN_MIN 3
static int write_packed_counts(struct json_writer *w, const uint64_t *vals, size_t count,
                               uint64_t unit)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    /* at most 13 base-32 digits a uint64_t (65 bits), and a '.' */
    char *buf = malloc(count * 14 + 1), *p = buf;
    uint64_t last = 0;
    if (!buf)
        return -1;
    for (size_t i = 0; i < count;) {
        uint64_t x = vals[i] / unit;
        size_t run = 0;
        while (i + run < count && vals[i + run] == 0)
            run++;
        if (run > 0 && run < RUN_MIN) {
            memset(p, '-', run);
            p += run;
            i += run;
            continue;
        }
        if (run >= RUN_MIN) {
            *p++ = '.';
            x = run;
            i += run;
        } else {
            /* a count is below 2^63 (a heap's bytes), so the difference fits an int64_t */
            int64_t d = (int64_t)(x - last);
            last = x;
            x = d >= 0 ? (uint64_t)d << 1 : ((uint64_t)-(d + 1) << 1) | 1;
            i++;
        }
        for (; x >= 32; x >>= 5)
            *p++ = digits[32 + (x & 31)];
        *p++ = digits[x];
    }
    json_string(w, buf, (size_t)(p - buf));
    free(buf);
    return 0;
}

/* Whether some band of the table has a key (grouping_band_key). */
static bool key_applies(const struct profile_table *t, const struct group_source *src,
                        enum group_key key)
{
    char text[GROUP_KEY_TEXT];
    size_t len;
    for (size_t i = 0; i < t->count; i++)
        if (grouping_band_key(key, src, t->bands[i].band, text, &len))
            return true;
    return false;
}

/* The groups of a key, [[name, colour]...]: 0, or -1 when out of memory. */
static int write_group_names(struct json_writer *w, const struct bands *names)
{
    json_array_begin(w);
    for (uint32_t g = 0; g < bands_count(names); g++) {
        size_t len;
        const char *name = bands_label(names, g, &len);
        char *z = strndup(name, len), colour[8];  /* chart_band_color wants a C string */
        if (!z)
            return -1;
        /* the group's own colour (a function of its label), which the page resolves
         * among the groups it draws as the charts of --group-by do (chart/colors.h) */
        dl_color_hex(chart_band_color(z), colour);
        free(z);
        json_array_begin(w);
        json_string(w, name, len);
        json_cstring(w, colour);
        json_array_end(w);
    }
    json_array_end(w);
    return 0;
}

/* The keys of one grouping of the table's bands (grouping_band_key, the rule --group-by
 * follows): {"key": its --group-by name, "names": [[group, colour]...] in order of first
 * appearance, "of": per table band its group's index in names, or -1 where the key says
 * nothing of the band (a group of its own, as --group-by leaves it)}. A table of names
 * and an index per band: a -hi run has tens of thousands of bands and far fewer groups.
 * 0, or -1 when out of memory. */
static int write_key(struct json_writer *w, const struct profile_table *t,
                     const struct group_source *src, enum group_key key, bool stacks)
{
    struct bands *names = bands_new();
    uint32_t *of = malloc((t->count ? t->count : 1) * sizeof *of);
    char text[GROUP_KEY_TEXT];
    int rc = -1;
    for (size_t i = 0; names && of && i < t->count; i++) {
        size_t len;
        const char *k = grouping_band_key(key, src, t->bands[i].band, text, &len);
        of[i] = UINT32_MAX;
        if (k && bands_string(names, k, len, &of[i]) != TABLE_OK)
            goto done;
    }
    if (!names || !of)
        goto done;
    json_newline(w);
    json_object_begin(w);
    json_member_cstring(w, "key", group_key_name(key, stacks));
    json_key(w, "names");
    if ((rc = write_group_names(w, names)) == 0) {
        json_key(w, "of");
        write_indices(w, of, t->count);
    }
    json_object_end(w);
done:
    bands_free(names);
    free(of);
    return rc;
}

/* "peak": each table band's bytes in the peak census (facts/peakbands.h), packed, so
 * that the page's peak list of a grouping sums each group's exactly (the run's "peak"
 * names only its largest bands). Nothing without a peak. 0, or -1 when out of memory. */
static int write_peak_bytes(struct json_writer *w, const struct sink_context *ctx,
                            const struct profile_table *t)
{
    const struct peak *pk = &ctx->run->peak;
    if (!pk->censuses || !t->count)
        return 0;
    uint64_t *bytes = malloc(t->count * sizeof *bytes);
    int rc = -1;
    if (bytes && peakbands_of_table(pk, bands_count(ctx->bands), t, bytes) == 0) {
        json_newline(w);
        json_key(w, "peak");
        rc = write_packed_counts(w, bytes, t->count, 1);
    }
    free(bytes);
    return rc;
}

/* The report's grouping control: "group_by" of the table, {"none": the name of the bands
 * as they are ("table" for info tables, "stack" for stacks), "keys": [write_key...]} with
 * every key some band has; nothing when none has one (a -hy or -hd run, string bands, a
 * .hp), when the bands are already groups (--group-by) or with --compare (the base has no
 * table to group). 0, or -1 when out of memory. */
static int write_group_keys(struct json_writer *w, const struct sink_context *ctx,
                            const struct profile_table *t)
{
    /* in --group-by's order: type, closure, module, file, location (-hi); cc, module (-hc) */
    static const enum group_key keys[] = { GROUP_TYPE, GROUP_CLOSURE, GROUP_CC, GROUP_MODULE,
                                           GROUP_FILE, GROUP_LOCATION };
    const struct group_source src = { ctx->bands, ctx->ipe, ctx->ccs, ctx->info };
    bool applies[sizeof keys / sizeof *keys], any = false, stacks = false;
    if (ctx->grouped || ctx->base || (!ctx->ipe && !ctx->ccs))
        return 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        any |= applies[k] = key_applies(t, &src, keys[k]);
    if (!any)
        return 0;
    for (size_t i = 0; i < t->count && !stacks; i++) {
        size_t len;
        stacks = bands_stack_ids(ctx->bands, t->bands[i].band, &len) != NULL;
    }
    json_newline(w);
    json_key(w, "group_by");
    json_object_begin(w);
    json_member_cstring(w, "none", group_key_name(GROUP_NONE, stacks));
    json_key(w, "keys");
    json_array_begin(w);
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (applies[k] && write_key(w, t, &src, keys[k], stacks) != 0)
            return -1;
    json_array_end(w);
    if (write_peak_bytes(w, ctx, t) != 0)
        return -1;
    json_object_end(w);
    return 0;
}

/* The greatest common divisor of the folded bands' values (8: a heap's bytes are whole
 * words), which the packed values are written in (write_packed_counts' unit): fewer digits
 * for the same exact counts. 1 when there are none or all are zero. */
static uint64_t folded_unit(const struct profile_table *t)
{
    uint64_t g = 0;
    size_t folded = 0;
    for (size_t i = 0; i < t->count; i++)
        folded += t->shown[i] < 0;
    for (size_t k = 0; k < folded * t->points && g != 1; k++) {
        uint64_t a = t->values[k], b = g;
        while (b) {
            uint64_t r = a % b;
            a = b;
            b = r;
        }
        g = a;
    }
    return g ? g : 1;
}

/* A band's label in the band table: a stack's as its frames' indices into "frames"
 * (stacklabels.h; the page joins their texts with '/'), any other as its text. And the
 * label as the runtime wrote it, when it differs: as a number n when it is the label's
 * first n bytes (ASCII, so the page's characters are bytes) and "..." (the runtime's -L
 * cut of a long stack), else as its text; null when it is the label. 0, or -1 when out
 * of memory. */
static int write_table_labels(struct json_writer *w, const struct profile_band *pb,
                              const struct sink_context *ctx, struct stacklabels *frames)
{
    size_t depth = 0;
    const uint32_t *f = pb->band == PROFILE_OTHER
                            ? NULL
                            : stacklabels_band(frames, ctx->bands, ctx->ccs, pb->band,
                                               pb->label, &depth);
    if (depth == SIZE_MAX)
        return -1;
    if (f) {
        json_array_begin(w);
        for (size_t k = 0; k < depth; k++)
            json_uint(w, f[k]);
        json_array_end(w);
    } else {
        json_cstring(w, pb->label);
    }
    size_t len;
    const char *raw = raw_label(pb, ctx->bands, &len);
    if (!raw) {
        json_null(w);
        return 0;
    }
    size_t cut = len >= 3 && memcmp(raw + len - 3, "...", 3) == 0 ? len - 3 : SIZE_MAX;
    bool ascii = cut != SIZE_MAX && cut <= strlen(pb->label) && memcmp(raw, pb->label, cut) == 0;
    for (size_t k = 0; ascii && k < cut; k++)
        ascii = (unsigned char)raw[k] < 0x80;
    if (ascii)
        json_uint(w, cut);
    else
        json_string(w, raw, len);
    return 0;
}

/* Every band, for the band table: "t", the times of the folded bands' values; "unit",
 * what the packed values count in (folded_unit); "frames", the texts the stack labels
 * index (write_table_labels); and per band [label, label as the runtime wrote it or null
 * (write_table_labels), its own colour (chart_band_color: the page draws a shown band in
 * its run.bands colour, and resolves the others' among the bands it draws, as a band
 * drawn out of OTHER or a group of one), its index among the shown bands or -1, peak,
 * mean, stddev, area, growth, R^2, its values at t in units packed (write_packed_counts)
 * or null]. The page's kit.unpackTable makes the labels and counts of them again.
 * Arrays, not objects: a -hi run has tens of thousands of bands. Then each band's groups
 * (write_group_keys). 0, or -1 when out of memory. */
static int write_table(struct json_writer *w, const struct profile_table *t,
                       const struct sink_context *ctx)
{
    struct stacklabels *frames = stacklabels_new();
    uint64_t unit = folded_unit(t);
    int rc = -1;
    if (!frames)
        return -1;
    json_object_begin(w);
    json_key(w, "t");
    write_seconds(w, t->time_ns, t->points);
    json_member_uint(w, "unit", unit);
    json_key(w, "bands");
    json_array_begin(w);
    size_t folded = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct profile_band *pb = &t->bands[i];
        json_newline(w);
        json_array_begin(w);
        if (write_table_labels(w, pb, ctx, frames) != 0)
            goto done;
        char colour[8];
        dl_color_hex(chart_band_color(pb->label), colour);
        json_cstring(w, colour);
        json_int(w, t->shown[i]);
        json_uint(w, pb->stats.peak);
        json_stat(w, pb->stats.mean);
        json_stat(w, pb->stats.stddev);
        json_stat(w, pb->stats.area);
        json_stat(w, pb->stats.growth);
        json_stat(w, pb->stats.growth_r2);
        if (t->shown[i] < 0 && t->points) {
            if (write_packed_counts(w, t->values + folded++ * t->points, t->points, unit) != 0)
                goto done;
        } else {
            json_null(w);
        }
        json_array_end(w);
    }
    json_array_end(w);
    json_newline(w);
    json_key(w, "frames");
    json_array_begin(w);
    for (uint32_t f = 0; f < stacklabels_count(frames); f++) {
        size_t len;
        const char *text = stacklabels_text(frames, f, &len);
        json_newline(w);
        json_string(w, text, len);
    }
    json_array_end(w);
    rc = write_group_keys(w, ctx, t);
    json_object_end(w);
done:
    stacklabels_free(frames);
    return rc;
}

/* One run: what it says about itself, its bands with exact statistics and colours (per
 * band of v), the kept censuses (t, and v[band][point]), heap totals and markers; with
 * table (the run, not a base), every band (write_table), and the window (window: the
 * chart options, --from/--to) the page opens on. */
static int write_run(struct json_writer *w, const struct profile_view *v,
                     const struct dl_color *colours, const struct run_info *info,
                     const struct bands *bands, const char *name, const char *title,
                     const struct profile_table *table, const struct sink_context *ctx,
                     const struct profile_options *window)
{
    json_object_begin(w);
    json_member_cstring(w, "name", name);
    json_member_cstring(w, "title", title ? title : info->program);
    textout_json_run_names(w, info, false);
    if (table)
        textout_json_grouped_by(w, ctx->autogroup);
    textout_json_member_seconds(w, "interval_s", info->period_ns);
    textout_json_member_seconds(w, "duration_s", info->end_time_ns);
    json_member_uint(w, "censuses", v->censuses);
    textout_json_member_seconds(w, "first_s", v->first_ns);
    textout_json_member_seconds(w, "last_s", v->last_ns);
    if (table && window && (window->has_from || window->has_to)) {
        /* --from/--to: the page opens on it; v is the whole run (run_model_report_whole),
         * or the window alone on a live page */
        struct time_window tw = profile_window(window);
        textout_json_member_window(w, tw.from_ns, window->has_to, tw.to_ns);
        if (v->has_from || v->has_to)   /* the page has this window alone: it says so */
            json_member_bool(w, "window_only", true);
    }
    json_member_uint(w, "bands_seen", v->bands_seen);
    json_member_uint(w, "bands_filtered", v->bands_filtered);
    json_key(w, "total_area");
    json_stat(w, v->total_area);
    json_key(w, "bands");
    json_array_begin(w);
    for (size_t b = 0; b < v->band_count; b++) {
        json_newline(w);
        write_band(w, &v->bands[b], bands, colours[b]);
    }
    json_array_end(w);
    if (table) {
        json_newline(w);
        json_key(w, "table");
        if (write_table(w, table, ctx) != 0)
            return -1;
    }
    /* The suspects (profile.h's rule, as --summary lists them): indices into bands. */
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t ns = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    json_newline(w);
    json_key(w, "suspects");
    json_array_begin(w);
    for (size_t i = 0; i < ns; i++) {
        const struct profile_band_stats *st = &v->bands[sus[i]].stats;
        json_object_begin(w);
        json_member_uint(w, "band", sus[i]);
        json_key(w, "rise_bytes_per_s");
        json_stat(w, st->rise);
        json_key(w, "rise_r2");
        json_stat(w, st->rise_r2);
        json_member_uint(w, "rise_censuses", st->rise_censuses);
        textout_json_member_seconds(w, "peak_time_s", st->peak_ns);
        json_object_end(w);
    }
    json_array_end(w);
    if (table) {   /* the collector, and how the run ended, as --summary=json's gc and end */
        gc_summary_part.json(w, ctx->run);
        end_summary_part.json(w, ctx->run);
        cap_summary_part.json(w, ctx->run);
        cap_summary_timeline_json(w, ctx->run);   /* the strips under the heap view */
        cap_summary_nonmoving_json(w, ctx->run);   /* and the nonmoving collector's */
        ticky_summary_part.json(w, ctx->run);   /* the Ticky tab's (ticky.js) */
    }
    json_newline(w);
    json_key(w, "t");
    write_seconds(w, v->time_ns, v->point_count);
    json_newline(w);
    json_key(w, "v");
    json_array_begin(w);
    for (size_t b = 0; b < v->band_count; b++) {
        json_newline(w);
        json_array_begin(w);
        for (size_t i = 0; i < v->point_count; i++)
            json_uint(w, v->values[i * v->band_count + b]);
        json_array_end(w);
    }
    json_array_end(w);
    static const char *const kinds[] = { "heap_size", "heap_live", "blocks_size" };
    json_newline(w);
    json_key(w, "totals");
    json_object_begin(w);
    for (size_t k = 0; k < 3; k++) {
        json_key(w, kinds[k]);
        const char *same_as = NULL;
        for (size_t j = 0; j < k && !same_as; j++)
            if (v->totals[j].count == v->totals[k].count && v->totals[k].count &&
                memcmp(v->totals[j].time_ns, v->totals[k].time_ns,
                       v->totals[k].count * sizeof *v->totals[k].time_ns) == 0)
                same_as = kinds[j];
        write_series(w, &v->totals[k], same_as);
    }
    json_object_end(w);
    json_newline(w);
    json_key(w, "markers");
    json_array_begin(w);
    for (size_t i = 0; i < v->marker_count; i++) {
        json_object_begin(w);
        textout_json_member_seconds(w, "t", v->markers[i].time_ns);
        json_member_cstring(w, "text", v->markers[i].text);
        json_member_uint(w, "merged", v->markers[i].merged);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
    return 0;
}

static int by_u64_desc(const void *a, const void *b)
{
    return order_u64(*(const uint64_t *)b, *(const uint64_t *)a);
}

static int by_u32(const void *a, const void *b)
{
    return order_u64(*(const uint32_t *)a, *(const uint32_t *)b);
}

static void write_peak(struct json_writer *w, const struct peak *pk, const struct bands *bands)
{
    json_object_begin(w);
    json_member_uint(w, "bytes", pk ? pk->bytes : 0);
    textout_json_member_seconds(w, "time_s", pk ? pk->time_ns : 0);
    json_key(w, "bands");
    json_array_begin(w);
    for (size_t i = 0; pk && bands && i < pk->count && i < PEAK_TOP; i++) {
        size_t len;
        const char *label = bands_display_label(bands, pk->entries[i].band, &len);
        json_array_begin(w);
        json_string(w, label ? label : "", label ? len : 0);
        json_uint(w, pk->entries[i].bytes);
        json_array_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

/* A frame as the flame graph's data names it: [name, module, source location, fill
 * colour as flame.c chooses it] (write_flame's "ccs", write_census_stacks' "frames"). */
static void write_frame(struct json_writer *w, const struct stacks *st, uint32_t frame)
{
    char colour[8];
    size_t len, mlen;
    const char *name = stacks_frame_name(st, frame, &len);
    const char *module = stacks_frame_module(st, frame, &mlen);
    dl_color_hex(flame_frame_color(st, frame), colour);
    json_newline(w);
    json_array_begin(w);
    json_string(w, name, len);
    json_string(w, module, mlen);
    json_cstring(w, stacks_frame_detail(st, frame));
    json_cstring(w, colour);
    json_array_end(w);
}

/* The stacks' calling-context tree for the flame and icicle views (runstacks.h: the
 * time profile, or a heap census): the frames the kept nodes name (name, module, source
 * location, fill colour as flame.c chooses it), and per node its parent, frame, self and
 * inclusive value, parents first; with a base, each node's inclusive value in the base
 * and its fill by change (flame_change_color). Bounded: past FLAME_MAX_NODES nodes, only
 * the largest are kept, those of equal value at the edge in tree order (a node's parent
 * is never smaller than it and comes first, so the kept ones still form a tree), and the
 * data says how many were dropped; their values stay in their parents' totals. */
static int write_flame(struct json_writer *w, const struct sink_context *ctx,
                       const struct runstacks *rs, bool system, bool normalize)
{
    const struct stacks *st = rs->stacks;
    bool diff = stacks_differential(st);
    struct stacks_tree tree;
    if (stacks_tree(st, &tree) != 0)
        return -1;
    uint32_t *map = malloc(tree.count * sizeof *map);       /* node -> kept index */
    uint32_t *frames = malloc(tree.count * sizeof *frames); /* kept frames, sorted */
    uint64_t *totals = tree.count > FLAME_MAX_NODES ? malloc(tree.count * sizeof *totals)
                                                    : NULL;
    int rc = -1;
    if (!map || !frames || (tree.count > FLAME_MAX_NODES && !totals))
        goto done;
    /* kept: the nodes above the FLAME_MAX_NODES-th largest total, and as many of those
     * equal to it as the bound leaves room for */
    uint64_t edge = 0;
    size_t room = 0;
    if (totals) {
        for (uint32_t i = 0; i < tree.count; i++)
            totals[i] = tree.nodes[i].total[STACKS_NOW];
        qsort(totals, tree.count, sizeof *totals, by_u64_desc);
        edge = totals[FLAME_MAX_NODES - 1];
        room = FLAME_MAX_NODES;
        for (uint32_t i = 0; i < tree.count && totals[i] > edge; i++)
            room--;
    }
    uint32_t kept = 0;
    size_t nframes = 0;
    uint64_t dropped = 0, dropped_value = 0;
    for (uint32_t i = 0; i < tree.count; i++) {
        const struct stacks_node *n = &tree.nodes[i];
        uint64_t total = n->total[STACKS_NOW];
        bool fits = total > edge || (total == edge && room > 0);
        bool keep = i == 0 || (fits && map[n->parent] != UINT32_MAX);
        if (keep && totals && total == edge && room > 0)
            room--;
        map[i] = keep ? kept++ : UINT32_MAX;
        if (keep && i > 0)
            frames[nframes++] = n->frame;
        if (!keep) {
            dropped++;
            if (map[n->parent] != UINT32_MAX)   /* the top of a dropped subtree */
                dropped_value += total;
        }
    }
    qsort(frames, nframes, sizeof *frames, by_u32);
    size_t unique = 0;
    for (size_t i = 0; i < nframes; i++)
        if (i == 0 || frames[i] != frames[unique - 1])
            frames[unique++] = frames[i];
    json_object_begin(w);
    json_key(w, "ccs");
    json_array_begin(w);
    for (size_t i = 0; i < unique; i++)
        write_frame(w, st, frames[i]);
    json_array_end(w);
    /* nodes: parent (-1 for the root), frame (-1 for the root), self, total */
    json_newline(w);
    json_key(w, "nodes");
    json_array_begin(w);
    for (uint32_t i = 0; i < tree.count; i++) {
        const struct stacks_node *n = &tree.nodes[i];
        if (map[i] == UINT32_MAX)
            continue;
        if (i == 0) {
            json_int(w, -1);
            json_int(w, -1);
        } else {
            const uint32_t *at = bsearch(&n->frame, frames, unique, sizeof *frames, by_u32);
            json_newline(w);
            json_uint(w, map[n->parent]);
            json_uint(w, (uint64_t)(at - frames));
        }
        json_uint(w, n->self[STACKS_NOW]);
        json_uint(w, n->total[STACKS_NOW]);
    }
    json_array_end(w);
    if (diff) {
        /* per kept node: the base's inclusive value, and the fill of its change */
        json_newline(w);
        json_key(w, "base");
        json_array_begin(w);
        for (uint32_t i = 0; i < tree.count; i++)
            if (map[i] != UINT32_MAX)
                json_uint(w, tree.nodes[i].total[STACKS_BASE]);
        json_array_end(w);
        json_newline(w);
        json_key(w, "fills");
        json_array_begin(w);
        for (uint32_t i = 0; i < tree.count; i++) {
            if (map[i] == UINT32_MAX)
                continue;
            const struct stacks_node *n = &tree.nodes[i];
            char colour[8];
            dl_color_hex(flame_change_color(flame_change_ratio(
                             n->total[STACKS_NOW], n->total[STACKS_BASE],
                             tree.nodes[0].total[STACKS_NOW], tree.nodes[0].total[STACKS_BASE],
                             normalize)), colour);
            json_cstring(w, colour);
        }
        json_array_end(w);
        json_member_uint(w, "base_total", stacks_total(st, STACKS_BASE));
        /* what the fills measure, for the graph's key (flame.h) */
        json_member_bool(w, "normalized", normalize);
    }
    json_newline(w);
    json_member_cstring(w, "unit", rs->heap ? "bytes" : "samples");
    char what[512];
    runstacks_describe(rs, ctx, what, sizeof what);
    json_member_cstring(w, "what", what);
    json_member_uint(w, "samples", tree.nodes[0].total[STACKS_NOW]);
    const struct timeprof *tp = rs->heap ? NULL : ctx->run->timeprof;
    textout_json_member_seconds(w, "interval_s", tp ? timeprof_interval_ns(tp) : 0);
    json_member_uint(w, "capabilities", tp ? timeprof_cap_count(tp) : 0);
    json_member_bool(w, "system", system);
    json_member_uint(w, "dropped_nodes", dropped);
    json_member_uint(w, "dropped_samples", dropped_value);
    json_member_uint(w, "outside_window", tp ? timeprof_outside(tp) : 0);
    if (rs->heap)
        textout_json_member_seconds(w, "census_s", rs->census_ns);
    json_object_end(w);
    rc = 0;
done:
    free(map);
    free(frames);
    free(totals);
    stacks_tree_free(&tree);
    return rc;
}

/* A heap census's flame graph for any census the page shows (the charts' bands are
 * stacks: -hc, -hi): each shown band's stack ("bands": per band of the run's view, the
 * index of its stack, -1 for OTHER), the stacks as frame indices outermost first, and
 * the frames as the flame graph's (name, module, source location, fill). The page sums
 * a census's bands over these stacks. 0, or -1 when out of memory. */
static int write_census_stacks(struct json_writer *w, const struct sink_context *ctx,
                               const struct profile_view *now)
{
    struct stacks *s = stacks_new((uint32_t)now->band_count + 1);
    uint32_t *ids = malloc((now->band_count + 1) * sizeof *ids);
    struct heap_census_run run = { .census = { .bands = ctx->bands }, .info = ctx->info,
                                   .ccs = ctx->ccs };
    int rc = -1;
    if (!s || !ids)
        goto done;
    for (size_t i = 0; i < now->band_count; i++) {
        ids[i] = UINT32_MAX;
        if (now->bands[i].band != PROFILE_OTHER &&
            foldstacks_band(s, &run, now->bands[i].band, &ids[i]) != 0)
            goto done;
    }
    json_object_begin(w);
    json_key(w, "frames");
    json_array_begin(w);
    size_t frames = 0;
    for (uint32_t i = 0; i < stacks_count(s); i++) {
        unsigned depth;
        uint64_t v[2];
        const uint32_t *f = stacks_get(s, i, &depth, v);
        for (unsigned k = 0; k < depth; k++)
            if (f[k] + 1 > frames)
                frames = f[k] + 1;
    }
    for (uint32_t f = 0; f < frames; f++)
        write_frame(w, s, f);
    json_array_end(w);
    json_newline(w);
    json_key(w, "stacks");
    json_array_begin(w);
    for (uint32_t i = 0; i < stacks_count(s); i++) {
        unsigned depth;
        uint64_t v[2];
        const uint32_t *f = stacks_get(s, i, &depth, v);
        json_array_begin(w);
        for (unsigned k = 0; k < depth; k++)
            json_uint(w, f[k]);
        json_array_end(w);
    }
    json_array_end(w);
    json_newline(w);
    json_key(w, "bands");
    write_indices(w, ids, now->band_count);
    json_object_end(w);
    rc = 0;
done:
    stacks_free(s);
    free(ids);
    return rc;
}

/* --compare: which band of the base each band of this run is (model/bandmatch.h), as
 * [this run's index, the base's index] per pair, -1 where a run lacks the band
 * (the views' indices, OTHER left out): the page draws a pair as one band. */
static void write_pairs(struct json_writer *w, const struct bandmatch_pair *pairs,
                        size_t count)
{
    json_array_begin(w);
    for (size_t k = 0; k < count; k++) {
        json_array_begin(w);
        json_int(w, pairs[k].now == BANDMATCH_ABSENT ? -1 : (int64_t)pairs[k].now);
        json_int(w, pairs[k].base == BANDMATCH_ABSENT ? -1 : (int64_t)pairs[k].base);
        json_array_end(w);
    }
    json_array_end(w);
}

/* The colours of the bands the page draws first, colours[0] per band of now, colours[1]
 * of base_view (with --compare): no two alike (chart_kit_colors_of, as the charts draw
 * them), a band of the base paired with one of this run's (pairs) in that band's, as the
 * page draws a pair as one band. 0, or -1 when out of memory. */
static int drawn_colours(const struct profile_view *now, const struct profile_view *base_view,
                         const struct bandmatch_pair *pairs, size_t count,
                         struct dl_color *colours[2])
{
    const struct profile_view *views[2] = { now, base_view };
    size_t n = base_view ? 2 : 1;
    char **names[2] = { NULL, NULL };
    int rc = -1;
    for (size_t k = 0; k < n; k++) {
        names[k] = calloc(views[k]->band_count + 1, sizeof *names[k]);
        colours[k] = malloc((views[k]->band_count + 1) * sizeof *colours[k]);
        if (!names[k] || !colours[k])
            goto done;
        for (size_t i = 0; i < views[k]->band_count; i++)
            names[k][i] = (char *)views[k]->bands[i].label;
    }
    for (size_t p = 0; base_view && p < count; p++)
        if (pairs[p].now != BANDMATCH_ABSENT && pairs[p].base != BANDMATCH_ABSENT)
            names[1][pairs[p].base] = (char *)now->bands[pairs[p].now].label;
    rc = chart_kit_colors_of(views, names, n, colours);
done:
    free(names[0]);
    free(names[1]);
    return rc;
}

/* --compare: the base's bands no band of this run matches, each [label, its peak in the
 * base], over every band of both runs (the tables: those folded into OTHER too, which the
 * views' pairs cannot name), as --summary's compare.bands has them with "now": null. The
 * page lists them in its band table as gone. 0, or -1 when out of memory. */
static int write_gone(struct json_writer *w, const struct html_sink *h,
                      const struct profile_view *base_view, const struct profile_table *now_table)
{
    const struct sink_context *ctx = &h->base.ctx;
    struct profile_options popt;
    chart_profile_options(&h->chart, &popt);
    struct ev_error err;
    const struct profile *was = run_model_chart(ctx->base, &popt, &err);
    struct profile_table all;   /* statistics only: the least of values a table keeps */
    if (!was || profile_table(was, ctx->base->bands, base_view, 0, 2, &all) != 0)
        return -1;
    /* bandmatch reads no more of a view than its bands (labels, band ids): the tables' */
    struct profile_view base_all = { .band_count = all.count, .bands = all.bands };
    struct profile_view now_all = { .band_count = now_table->count, .bands = now_table->bands };
    struct bandmatch_view b = { &base_all, ctx->base->bands, ctx->base->info };
    struct bandmatch_view n = { &now_all, ctx->bands, ctx->info };
    struct bandmatch_pair *pairs;
    size_t count;
    if (bandmatch_views(&b, &n, &pairs, &count) != 0) {
        profile_table_free(&all);
        return -1;
    }
    json_array_begin(w);
    for (size_t k = 0; k < count; k++) {
        if (pairs[k].now != BANDMATCH_ABSENT || pairs[k].base == BANDMATCH_ABSENT)
            continue;
        const struct profile_band *pb = &all.bands[pairs[k].base];
        json_array_begin(w);
        json_cstring(w, pb->label);
        json_uint(w, pb->stats.peak);
        json_array_end(w);
    }
    json_array_end(w);
    free(pairs);
    profile_table_free(&all);
    return 0;
}

/* The Diff tab's alignment at first, as --view diff would draw it (model/diffseries.h):
 * "align" ("time" or "progress") and "align_reason" ("asked", "lengths_differ",
 * "lengths_close" or "no_length"), for the page to say why. 0, or -1 when out of
 * memory. */
static int write_align(struct json_writer *w, const struct html_sink *h,
                       const struct profile_view *base_view, const struct profile_view *now)
{
    const struct sink_context *ctx = &h->base.ctx;
    struct diff_input b = { base_view, ctx->base->bands, ctx->base->info };
    struct diff_input n = { now, ctx->bands, ctx->info };
    struct diff_series ds;
    if (diff_series_make(&b, &n, h->chart.align, &ds) != 0)
        return -1;
    json_member_cstring(w, "align", diff_align_name(ds.align));
    json_member_cstring(w, "align_reason", diff_align_reason_name(ds.reason));
    diff_series_free(&ds);
    return 0;
}

/* The report's data, one JSON document safe inside a <script> element: 0, or -1 with
 * errno set. */
static int write_data(struct html_sink *h, const struct profile_view *now,
                      const struct profile_view *base_view, const struct runstacks *flame,
                      const struct profile_table *table)
{
    const struct sink_context *ctx = &h->base.ctx;
    struct json_writer *w = json_writer_new(h->base.out, JSON_SCRIPT_SAFE);
    if (!w)
        return -1;
    int rc = -1;
    struct bandmatch_pair *pairs = NULL;
    size_t pair_count = 0;
    struct dl_color *colours[2] = { NULL, NULL };
    if (base_view) {
        struct bandmatch_view b = { base_view, ctx->base->bands, ctx->base->info };
        struct bandmatch_view n = { now, ctx->bands, ctx->info };
        if (bandmatch_views(&b, &n, &pairs, &pair_count) != 0) {
            pairs = NULL;
            errno = ENOMEM;
            goto done;
        }
    }
    if (drawn_colours(now, base_view, pairs, pair_count, colours) != 0) {
        errno = ENOMEM;
        goto done;
    }
    json_object_begin(w);
    json_member_cstring(w, "generator", "ev2hp");
    json_newline(w);
    json_key(w, "run");
    if (write_run(w, now, colours[0], ctx->info, ctx->bands, sink_file_name(ctx->input_name),
                  h->chart.title, table, ctx, &h->chart.profile) != 0) {
        errno = ENOMEM;
        goto done;
    }
    json_newline(w);
    json_key(w, "peak");
    write_peak(w, ctx->run->peak.censuses ? &ctx->run->peak : NULL, ctx->bands);
    json_newline(w);
    json_key(w, "base");
    if (base_view) {
        (void)write_run(w, base_view, colours[1], ctx->base->info, ctx->base->bands,
                        sink_file_name(ctx->base->name), NULL, NULL, ctx, NULL);  /* no table: 0 */
        json_newline(w);
        json_key(w, "base_peak");
        write_peak(w, &ctx->base->peak, NULL);
        json_newline(w);
        json_key(w, "pairs");
        write_pairs(w, pairs, pair_count);
        json_newline(w);
        json_key(w, "gone");
        if (write_gone(w, h, base_view, table) != 0) {
            errno = ENOMEM;
            goto done;
        }
    } else {
        json_null(w);
    }
    json_newline(w);
    size_t warnings = ctx->warning_count ? *ctx->warning_count : 0;
    for (int note = 0; note <= 1; note++) {   /* the damage, then the notes (error.h) */
        json_key(w, note ? "notes" : "warnings");
        json_array_begin(w);
        for (size_t i = 0; i < warnings; i++)
            if (ctx->warnings[i].note == note)
                json_cstring(w, ctx->warnings[i].what);
        json_array_end(w);
        json_newline(w);
    }
    json_key(w, "flame");
    if (flame->stacks) {
        if (write_flame(w, ctx, flame, h->system_ccs, h->chart.diff_normalize) != 0) {
            errno = ENOMEM;
            goto done;
        }
    } else {
        json_null(w);
    }
    /* a heap census's flame graph: any census the page shows can be drawn as one */
    if (flame->stacks && flame->heap && !stacks_differential(flame->stacks)) {
        json_newline(w);
        json_key(w, "census_stacks");
        if (write_census_stacks(w, ctx, now) != 0) {
            errno = ENOMEM;
            goto done;
        }
    }
    /* --phases: each phase's name and window, for the page's list of phases (its figures
     * the page computes over the window, as it does for one chosen on the chart) */
    const struct phase_report *phases = ctx->phases;
    if (phases && phases->count) {
        json_newline(w);
        json_key(w, "phases");
        json_array_begin(w);
        for (size_t i = 0; i < phases->count; i++) {
            json_object_begin(w);
            json_member_cstring(w, "name", phases->phases[i].name);
            textout_json_member_seconds(w, "start_s", phases->phases[i].start_ns);
            textout_json_member_seconds(w, "end_s", phases->phases[i].end_ns);
            json_object_end(w);
        }
        json_array_end(w);
    }
    /* the band palette (chart/colors.h), for the bands the page colours itself: groups,
     * a band drawn out of OTHER */
    json_newline(w);
    json_key(w, "palette");
    json_array_begin(w);
    size_t palette_size;
    const struct dl_color *palette = chart_palette(&palette_size);
    for (size_t i = 0; i < palette_size; i++) {
        char hex[8];
        dl_color_hex(palette[i], hex);
        json_cstring(w, hex);
    }
    json_array_end(w);
    json_newline(w);
    json_key(w, "options");
    json_object_begin(w);
    json_member_bool(w, "markers", !h->chart.no_markers);
    json_member_bool(w, "totals", h->chart.totals);
    if (h->chart.has_y_max) {
        json_member_uint(w, "y_max", h->chart.y_max);
    }
    /* how the shown bands were chosen (bandselect.h): the grouping control chooses the
     * shown groups by the same rule */
    static const char *const sorts[] = { [PROFILE_SORT_SIZE] = "size",
                                         [PROFILE_SORT_STDDEV] = "stddev",
                                         [PROFILE_SORT_NAME] = "name",
                                         [PROFILE_SORT_GROWTH] = "growth" };
    const struct profile_options *sel = &h->chart.profile;
    json_key(w, "select");
    json_object_begin(w);
    json_member_uint(w, "bands", sel->bands);
    json_key(w, "trace");
    json_stat(w, sel->trace_percent);
    json_member_cstring(w, "sort", sorts[sel->sort]);
    json_member_bool(w, "reverse", sel->reverse);
    json_object_end(w);
    /* the Diff tab's alignment at first (--align, or diffseries.h's rule; the page offers
     * both) and why */
    if (base_view && write_align(w, h, base_view, now) != 0) {
        errno = ENOMEM;
        goto done;
    }
    /* the view the page opens with: --view's, or the flame graph when the input has a
     * time profile and no census (html_finish refused a flame view without one) */
    enum chart_view view = h->chart.view;
    if (view == CHART_VIEW_AUTO && now->censuses == 0 && timeprof_present(ctx->run->timeprof))
        view = CHART_VIEW_FLAME;
    if (view != CHART_VIEW_AUTO) {
        json_member_cstring(w, "view", chart_view_name(view));
    }
    json_object_end(w);
    json_object_end(w);
    rc = json_writer_finish(w);
done:
    json_writer_free(w);
    free(pairs);
    free(colours[0]);
    free(colours[1]);
    return rc;
}

/* The views of the report's profile (the run model's at twice a chart's resolution) and
 * of the base's (at a chart's): 0, or -1 when out of memory. */
static int html_views(struct html_sink *h, struct profile_view *now, struct profile_view *base_view,
                      bool *compare, struct profile_table *table)
{
    const struct sink_context *ctx = &h->base.ctx;
    struct profile_options finer, popt;
    sink_html_profile_options(&h->chart, &finer);
    chart_profile_options(&h->chart, &popt);
    struct ev_error err;
    /* with --from/--to, the whole run (the page opens on the window), when the run model
     * kept it (not on a live page) */
    const struct profile *p = run_model_report_whole(ctx->run);
    if (!p)
        p = run_model_chart(ctx->run, &finer, &err);
    *compare = ctx->base && ctx->base->profile;
    const struct profile *was = *compare ? run_model_chart(ctx->base, &popt, &err) : NULL;
    if (!p || (*compare && !was))
        return -1;
    struct compare_run n = { p, ctx->bands, ctx->info, sink_file_name(ctx->input_name) };
    struct compare_run b = { was, *compare ? ctx->base->bands : NULL,
                             *compare ? ctx->base->info : NULL,
                             *compare ? sink_file_name(ctx->base->name) : NULL };
    if ((*compare ? compare_union_views(&b, &n, base_view, now)
                  : profile_view(p, ctx->bands, now)) != 0)
        return -1;
    if (profile_table(p, ctx->bands, now, TABLE_VALUES, TABLE_POINTS, table) != 0) {
        profile_view_free(now);
        if (*compare)
            profile_view_free(base_view);
        return -1;
    }
    return 0;
}

static int html_finish(struct sink *s)
{
    struct html_sink *h = (struct html_sink *)s;
    const struct sink_context *ctx = &s->ctx;
    FILE *out = s->out;
    struct profile_view now, base_view;
    /* the flame graph's stacks (runstacks.h): --view flame or icicle asks for them, as for
     * the charts; else the report has them when the run has them (this run's alone when
     * the --compare base has none of the same kind) */
    struct runstacks flame = { 0 };
    struct ev_error why;
    struct sink_context alone = *ctx;
    alone.base = NULL;
    errno = 0;
    int found = runstacks_open(ctx, h->system_ccs, true, &flame, &why);
    if (found != 0 && errno != ENOMEM && ctx->base)
        found = runstacks_open(&alone, h->system_ccs, true, &flame, &why);
    if (found != 0) {
        if (errno == ENOMEM)
            return no_memory();
        if (h->chart.view == CHART_VIEW_FLAME || h->chart.view == CHART_VIEW_ICICLE) {
            h->base.error = why;
            return -1;
        }
    }
    bool compare;
    struct profile_table table;
    if (html_views(h, &now, &base_view, &compare, &table) != 0) {
        runstacks_close(&flame);
        return no_memory();
    }
    const char *title = h->chart.title ? h->chart.title : ctx->info->program;
    if (!title)
        title = ctx->input_name ? sink_file_name(ctx->input_name) : "heap profile";
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"ev2hp " PACKAGE_VERSION "\">\n<title>", out);
    textout_html(out, title, strlen(title));
    fputs(" – ev2hp report</title>\n<style>\n", out);
    fwrite(report_css, 1, report_css_len, out);
    fputs("</style>\n</head>\n<body>\n<noscript>This report draws its charts with "
          "JavaScript; the data is in the element #ev2hp-data.</noscript>\n"
          "<main id=\"report\"></main>\n"
          "<script type=\"application/json\" id=\"ev2hp-data\">\n", out);
    int rc = write_data(h, &now, compare ? &base_view : NULL, &flame, &table);
    int data_errno = errno;
    runstacks_close(&flame);
    fputs("\n</script>\n<script>\n", out);
    fwrite(report_js, 1, report_js_len, out);
    fputs("</script>\n</body>\n</html>\n", out);
    profile_view_free(&now);
    profile_table_free(&table);
    if (compare)
        profile_view_free(&base_view);
    if (rc != 0) {
        errno = data_errno;
        return -1;
    }
    errno = 0;
    return ferror(out) ? -1 : 0;
}

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
    struct html_sink *h = sink_writer_alloc(sizeof *h, html_finish, ctx, out);
    if (!h)
        return NULL;
    if (settings->chart)
        h->chart = *settings->chart;
    else
        chart_options_default(&h->chart);
    h->system_ccs = settings->system_ccs;
    return &h->base;
}
