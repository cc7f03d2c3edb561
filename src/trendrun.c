/* trendrun.c: `ev2hp --trend FILE...` (see trendrun.h). */
#include "trendrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/trendchart.h"
#include "read/summaryread.h"
#include "render/png_encode.h"
#include "render/png_render.h"
#include "render/svg.h"
#include "render/vector.h"
#include "sink/outfile.h"
#include "sink/outpaths.h"

bool trendrun_writes(enum output_format format)
{
    return format == FORMAT_SVG || format == FORMAT_PNG || format == FORMAT_PDF ||
           format == FORMAT_PS || format == FORMAT_EPS || format == FORMAT_HTML;
}

static void fail(struct trendrun_result *r, int status, const char *file)
{
    r->exit_status = status;
    r->error_file = file;
}

/* Every summary into t, the skipped ones listed: 0, or -1 with r's error set. */
static int read_all(const struct trendrun_options *opt, struct trend *t,
                    struct trendrun_result *r)
{
    r->skipped = calloc(opt->file_count, sizeof *r->skipped);
    if (!r->skipped) {
        ev_error_set(&r->error, "out of memory");
        return fail(r, EXIT_BAD_INPUT, "--trend"), -1;
    }
    for (size_t i = 0; i < opt->file_count; i++) {
        struct ev_error err = { 0 };
        enum summary_read_status st = summary_read(t, opt->files[i], &err);
        if (st == SUMMARY_READ_FAILED) {
            r->error = err;
            return fail(r, EXIT_BAD_INPUT, opt->files[i]), -1;
        }
        if (st == SUMMARY_READ_SKIPPED)
            r->skipped[r->skipped_count++] = (struct trend_skip){ opt->files[i], err };
    }
    if (t->count < 2) {
        ev_error_set(&r->error, "%zu of %zu summaries %s a heap census: a trend needs two or "
                     "more", t->count, opt->file_count, t->count == 1 ? "has" : "have");
        return fail(r, EXIT_BAD_INPUT, "--trend"), -1;
    }
    return 0;
}

/* The chart's note: which summaries were left out. */
static void skipped_note(const struct trendrun_result *r, char *out, size_t size)
{
    if (!r->skipped_count) {
        out[0] = '\0';
        return;
    }
    int n = snprintf(out, size, "; left out, without a heap census: %s", r->skipped[0].file);
    for (size_t i = 1; i < r->skipped_count && n > 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, ", %s", r->skipped[i].file);
}

/* One output in its format: 0, or -1 with err set (errno kept when it says why). */
static int write_one(const struct trendrun_options *opt, enum output_format format, FILE *out,
                     const char *title, const struct trend *t, const struct display_list *dl,
                     const struct trendrun_result *r, struct ev_error *err)
{
    int rc;
    errno = 0;
    switch (format) {
    case FORMAT_PNG: {
        cairo_surface_t *surface = NULL;
        double scale = opt->png_scale > 0 ? opt->png_scale : 1;
        if (png_render(dl, scale, &surface, err) != 0)
            return -1;
        struct png_metadata meta = { dl->title, NULL, scale };
        rc = png_encode(surface, &meta, out, err);
        cairo_surface_destroy(surface);
        return rc;
    }
    case FORMAT_PDF:
    case FORMAT_PS:
    case FORMAT_EPS:
        return vector_write(dl, format == FORMAT_PDF ? VECTOR_PDF
                                : format == FORMAT_PS ? VECTOR_PS : VECTOR_EPS,
                            opt->chart->has_date ? &opt->chart->date : NULL, out, err);
    case FORMAT_HTML:
        rc = trendpage_write(out, title, t, dl, r->skipped, r->skipped_count);
        break;
    default:
        rc = svg_write(out, dl);
        break;
    }
    if (rc != 0)
        ev_error_set(err, "cannot write it: %s", strerror(errno ? errno : EIO));
    return rc;
}

/* Every output written, then put in place; none when one fails. */
static void write_all(const struct trendrun_options *opt, const struct trend *t,
                      const char *title, const struct display_list *dl,
                      struct trendrun_result *r)
{
    struct outfile files[CLI_MAX_OUTPUTS];
    size_t opened = 0;
    for (; opened < opt->output_count; opened++) {
        const struct output_request *o = &opt->outputs[opened];
        if (outfile_open(&files[opened], o->path, &r->error) != 0)
            break;
        if (write_one(opt, o->format, files[opened].fp, title, t, dl, r, &r->error) != 0) {
            outfile_abort(&files[opened]);
            break;
        }
    }
    if (opened < opt->output_count) {
        fail(r, EXIT_WRITE, opt->outputs[opened].path ? opt->outputs[opened].path
                                                      : "(standard output)");
        while (opened-- > 0)
            outfile_abort(&files[opened]);
        return;
    }
    for (size_t i = 0; i < opt->output_count; i++)
        if (outfile_commit(&files[i], &r->error) != 0) {
            fail(r, EXIT_WRITE, opt->outputs[i].path ? opt->outputs[i].path
                                                     : "(standard output)");
            while (++i < opt->output_count)
                outfile_abort(&files[i]);
            return;
        }
}

/* Refuses (status 2) an output that is one of the summaries read, or named twice. */
static int check_paths(const struct trendrun_options *opt, struct trendrun_result *r)
{
    struct read_path *reads = calloc(opt->file_count, sizeof *reads);
    if (!reads) {
        ev_error_set(&r->error, "out of memory");
        return fail(r, EXIT_BAD_INPUT, "--trend"), -1;
    }
    for (size_t i = 0; i < opt->file_count; i++)
        reads[i] = (struct read_path){ opt->files[i], "one of the --trend summaries" };
    const char *bad = NULL;
    int rc = outpaths_check(opt->outputs, opt->output_count, reads, opt->file_count, &bad,
                            &r->error);
    free(reads);
    if (rc != 0)
        fail(r, EXIT_USAGE, bad);
    return rc;
}

void trendrun(const struct trendrun_options *opt, struct trendrun_result *result)
{
    memset(result, 0, sizeof *result);
    if (check_paths(opt, result) != 0)
        return;
    struct trend *t = trend_new();
    if (!t) {
        ev_error_set(&result->error, "out of memory");
        fail(result, EXIT_BAD_INPUT, "--trend");
        return;
    }
    if (read_all(opt, t, result) != 0) {
        trend_free(t);
        return;
    }
    char note[1024], title[KIT_LABEL_MAX];
    skipped_note(result, note, sizeof note);
    struct trend_chart tc = { t, opt->bands, opt->chart->title, note[0] ? note : NULL };
    trend_chart_title(&tc, title, sizeof title);
    struct display_list dl;
    struct textmeasure *tm = textmeasure_new();
    int rc = tm ? trend_chart_layout(&tc, opt->chart, tm, &dl) : -1;
    textmeasure_free(tm);
    if (rc != 0) {
        if (tm)
            display_free(&dl);
        ev_error_set(&result->error, "out of memory");
        fail(result, EXIT_BAD_INPUT, "--trend");
        trend_free(t);
        return;
    }
    write_all(opt, t, title, &dl, result);
    display_free(&dl);
    trend_free(t);
}

void trendrun_result_free(struct trendrun_result *result)
{
    free(result->skipped);
    result->skipped = NULL;
}
