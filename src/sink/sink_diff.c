/* sink_diff.c: the diff as data: with --compare and --view diff, -o x.csv or x.json
 * writes the lines the diff view draws, not the censuses.
 *
 * The lines are model/diffseries.h's, over the views the diff view draws (both runs at
 * a chart's resolution, the union of the bands either would show, compare.h): the same
 * bands, the same alignment and the same span, at every kept census of either run inside
 * it (the view samples the same lines to its width). CSV, RFC 4180 with CRLF line ends
 * as the census CSV (sink_csv.c):
 *
 *   progress,(7)loop/main...,(6)kept/main...          or time_s,... by time
 *   0.000000,0,-2159616
 *   0.012987,1843,-2159616
 *
 * The first column names the alignment: "time_s" (seconds from the start, the same in
 * both runs) or "progress" (the share of each run from its first census to its last,
 * 0 to 1); then one column per band, largest growth at the peak first, named as the
 * census CSV names it (this run's name, the base's for a band only the base has): this
 * run's bytes minus the base's, rounded to the byte. JSON, through base/json:
 *
 *   {"program": ..., "rts": ..., "breakdown": ..., "base": "BASE's file",
 *    "align": "progress", "align_reason": "lengths_differ", "description": "...",
 *    "base_length_s": 3.31, "length_s": 7.68, "from": 0, "to": 1,
 *    "bands": [{"label": ..., "hp_label": ..., "change_at_peak_bytes": -2159616,
 *               "in_base": true, "in_run": true}, ...],
 *    "points": [[0, 0, -2159616], ...]}
 *
 * each point the aligned coordinate ("from" to "to": seconds, or shares) and each band's
 * change in the order of "bands"; "points" is empty when the runs have no moment in
 * common (a run of one census outside the other's span).
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json.h"
#include "chart/compare.h"
#include "model/diffseries.h"
#include "model/runmodel.h"
#include "sink/textout.h"

struct diff_sink {
    struct sink base;
    struct chart_options chart;
    bool json;
    char name[65536 + 16];
};

/* The band table and cost centres that name line k: this run's, or the base's for a
 * band only the base has; *band its id there. */
static const struct bands *line_names(const struct diff_sink *d, const struct diff_series *ds,
                                      size_t k, uint32_t *band,
                                      const struct costcentres **ccs)
{
    const struct diff_line *l = &ds->lines[k];
    const struct sink_context *ctx = &d->base.ctx;
    if (l->now != SIZE_MAX) {
        *band = ds->now_view->bands[l->now].band;
        *ccs = ctx->ccs;
        return ctx->bands;
    }
    *band = ds->base_view->bands[l->base].band;
    *ccs = ctx->base->ccs;
    return ctx->base->bands;
}

/* The aligned coordinate as written: seconds to the microsecond, or a share. */
static void write_x(FILE *out, const struct diff_series *ds, double x)
{
    if (ds->align == DIFF_ALIGN_PROGRESS)
        format_fprintf(out, "%.6f", x);
    else
        textout_seconds(out, (uint64_t)llround(x * 1e9));
}

static void write_json_x(struct json_writer *w, const struct diff_series *ds, double x)
{
    if (ds->align == DIFF_ALIGN_PROGRESS)
        json_double(w, x);
    else
        textout_json_seconds(w, (uint64_t)llround(x * 1e9));
}

static int write_csv(struct diff_sink *d, const struct diff_series *ds)
{
    FILE *out = d->base.out;
    fputs(ds->align == DIFF_ALIGN_PROGRESS ? "progress" : "time_s", out);
    for (size_t k = 0; k < ds->line_count; k++) {
        uint32_t band;
        const struct costcentres *ccs;
        const struct bands *bands = line_names(d, ds, k, &band, &ccs);
        size_t len = bands_person_name(bands, band, d->name, sizeof d->name);
        fputc(',', out);
        textout_csv_field(out, d->name, len);
    }
    fputs("\r\n", out);
    for (size_t p = 0; p < ds->point_count; p++) {
        write_x(out, ds, ds->x[p]);
        for (size_t k = 0; k < ds->line_count; k++)
            fprintf(out, ",%" PRId64, (int64_t)llround(diff_series_value(ds, k, ds->x[p])));
        fputs("\r\n", out);
    }
    return ferror(out) ? -1 : 0;
}

static int write_json(struct diff_sink *d, const struct diff_series *ds)
{
    const struct sink_context *ctx = &d->base.ctx;
    struct json_writer *w = json_writer_new(d->base.out, JSON_PRETTY);
    if (!w)
        return -1;
    char text[1024];
    json_object_begin(w);
    textout_json_run_names(w, ctx->info, true);
    json_newline(w);
    json_member_cstring(w, "base", sink_file_name(ctx->base->name));
    json_member_cstring(w, "align", diff_align_name(ds->align));
    json_member_cstring(w, "align_reason", diff_align_reason_name(ds->reason));
    diff_series_describe(ds, text, sizeof text);
    json_member_cstring(w, "description", text);
    json_newline(w);
    textout_json_member_seconds(w, "base_length_s", (uint64_t)llround(ds->base_length_s * 1e9));
    textout_json_member_seconds(w, "length_s", (uint64_t)llround(ds->now_length_s * 1e9));
    bool span = diff_series_has_span(ds);
    json_key(w, "from");
    span ? write_json_x(w, ds, ds->x0) : json_null(w);
    json_key(w, "to");
    span ? write_json_x(w, ds, ds->x1) : json_null(w);
    json_newline(w);
    json_key(w, "bands");
    json_array_begin(w);
    for (size_t k = 0; k < ds->line_count; k++) {
        uint32_t band;
        const struct costcentres *ccs;
        const struct bands *bands = line_names(d, ds, k, &band, &ccs);
        json_newline(w);
        json_object_begin(w);
        json_key(w, "label");
        size_t len = bands_person_name(bands, band, d->name, sizeof d->name);
        json_string(w, d->name, len);
        textout_json_band_names(w, bands, ccs, band);
        json_key(w, "change_at_peak_bytes");
        json_int(w, llround(ds->lines[k].change));
        json_member_bool(w, "in_base", ds->lines[k].base != SIZE_MAX);
        json_member_bool(w, "in_run", ds->lines[k].now != SIZE_MAX);
        json_object_end(w);
    }
    json_array_end(w);
    json_newline(w);
    json_key(w, "points");
    json_array_begin(w);
    for (size_t p = 0; p < ds->point_count; p++) {
        json_newline(w);
        json_array_begin(w);
        write_json_x(w, ds, ds->x[p]);
        for (size_t k = 0; k < ds->line_count; k++)
            json_int(w, llround(diff_series_value(ds, k, ds->x[p])));
        json_array_end(w);
        if (json_writer_check(w) != 0)
            break;
    }
    json_array_end(w);
    json_newline(w);
    json_object_end(w);
    int rc = json_writer_finish(w);
    json_writer_free(w);
    if (rc == 0)
        fputc('\n', d->base.out);
    return rc != 0 || ferror(d->base.out) ? -1 : 0;
}

static int diff_finish(struct sink *s)
{
    struct diff_sink *d = (struct diff_sink *)s;
    const struct sink_context *ctx = &s->ctx;
    if (!(ctx->base && ctx->base->profile)) {
        ev_error_set(&d->base.error, "--view diff writes this run minus a base: give one with "
                     "--compare BASE");
        return -1;
    }
    struct profile_options popt;
    chart_profile_options(&d->chart, &popt);
    struct ev_error err;
    const struct profile *now = run_model_chart(ctx->run, &popt, &err);
    const struct profile *was = run_model_chart(ctx->base, &popt, &err);
    struct profile_view base_view, now_view;
    struct compare_run b = { was, ctx->base->bands, ctx->base->info, ctx->base->name };
    struct compare_run n = { now, ctx->bands, ctx->info, ctx->input_name };
    if (!now || !was || compare_union_views(&b, &n, &base_view, &now_view) != 0) {
        errno = ENOMEM;
        return -1;
    }
    struct diff_input bi = { &base_view, ctx->base->bands, ctx->base->info };
    struct diff_input ni = { &now_view, ctx->bands, ctx->info };
    struct diff_series ds;
    int rc = diff_series_make(&bi, &ni, d->chart.align, &ds);
    if (rc != 0)
        errno = ENOMEM;
    else {
        errno = 0;
        rc = d->json ? write_json(d, &ds) : write_csv(d, &ds);
        diff_series_free(&ds);
    }
    profile_view_free(&base_view);
    profile_view_free(&now_view);
    return rc;
}

struct sink *sink_diff_new(enum output_format format, FILE *out, const struct sink_context *ctx,
                           const struct chart_options *chart)
{
    struct diff_sink *d = sink_writer_alloc(sizeof *d, diff_finish, ctx, out);
    if (!d)
        return NULL;
    d->json = format == FORMAT_JSON;
    if (chart)
        d->chart = *chart;
    else
        chart_options_default(&d->chart);
    return &d->base;
}
