/* sink.c: the format table, the sink factory, and what every sink's ops share (making
 * and freeing a sink, its recorded failure). */
#include "sink/sink.h"

#include "chart/chart.h"
#include "model/runmodel.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    enum output_format format;
} formats[] = {
    { "hp", FORMAT_HP },
    { "csv", FORMAT_CSV },
    { "json", FORMAT_JSON },
    { "svg", FORMAT_SVG },
    { "png", FORMAT_PNG },
    { "pdf", FORMAT_PDF },
    { "ps", FORMAT_PS },
    { "eps", FORMAT_EPS },
    { "folded", FORMAT_FOLDED },
    { "html", FORMAT_HTML },
};

enum output_format format_from_name(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcasecmp(name, formats[i].name) == 0)
            return formats[i].format;
    return FORMAT_NONE;
}

/* The extension of the file name in path[0..len), without its dot; NULL without one. */
static const char *extension(const char *path, size_t len, size_t *ext_len)
{
    for (size_t i = len; i > 0; i--) {
        if (path[i - 1] == '/')
            return NULL;
        if (path[i - 1] == '.') {
            *ext_len = len - i;
            return path + i;
        }
    }
    return NULL;
}

enum output_format format_from_path(const char *path)
{
    size_t len = strlen(path), ext_len;
    const char *ext = extension(path, len, &ext_len);
    if (ext && ext_len == 2 && strncasecmp(ext, "gz", 2) == 0) {
        /* x.hp.gz is a compressed .hp; x.gz alone names no format */
        len = (size_t)(ext - path) - 1;
        ext = extension(path, len, &ext_len);
        if (!ext)
            return FORMAT_NONE;
    }
    if (!ext)
        return FORMAT_NONE;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strlen(formats[i].name) == ext_len && strncasecmp(ext, formats[i].name, ext_len) == 0)
            return formats[i].format;
    return FORMAT_NONE;
}

bool format_path_has_extension(const char *path)
{
    size_t len = strlen(path), ext_len;
    const char *ext = extension(path, len, &ext_len);
    if (ext && ext_len == 2 && strncasecmp(ext, "gz", 2) == 0)
        ext = extension(path, (size_t)(ext - path) - 1, &ext_len);
    return ext != NULL;
}

bool format_is_chart(enum output_format format)
{
    /* each draws a chart profile, and with --compare the base's */
    return format == FORMAT_SVG || format == FORMAT_PNG || format == FORMAT_PDF ||
           format == FORMAT_PS || format == FORMAT_EPS || format == FORMAT_HTML;
}

bool format_is_summary(enum output_format format)
{
    return format == FORMAT_SUMMARY_TEXT || format == FORMAT_SUMMARY_JSON ||
           format == FORMAT_SUMMARY_MARKDOWN || format == FORMAT_JUNIT;
}

bool format_uses_time_profile(enum output_format format)
{
    /* the charts and the HTML report draw flame graphs */
    return format == FORMAT_FOLDED || format_is_chart(format) || format_is_summary(format);
}

struct sink *sink_new(enum output_format format, FILE *out, const struct sink_context *ctx,
                      const struct sink_settings *settings)
{
    struct chart_settings chart = { settings->chart, settings->png_scale, settings->system_ccs };
    struct report_settings report = { settings->chart, settings->system_ccs };
    struct summary_settings summary = { settings->chart, settings->system_ccs,
                                        settings->unicode };
    struct folded_settings folded = { settings->system_ccs };
    switch (format) {
    case FORMAT_HP:
        return sink_hp_new(out, ctx);
    case FORMAT_CSV:
        return sink_csv_new(out, ctx);
    case FORMAT_JSON:
        return sink_json_new(out, ctx);
    case FORMAT_SUMMARY_TEXT:
        return sink_summary_text_new(out, ctx, &summary);
    case FORMAT_SUMMARY_JSON:
        return sink_summary_json_new(out, ctx, &summary);
    case FORMAT_SUMMARY_MARKDOWN:
        return sink_summary_markdown_new(out, ctx, &summary);
    case FORMAT_JUNIT:
        return sink_junit_new(out, ctx, &summary);
    case FORMAT_SVG:
        return sink_svg_new(out, ctx, &chart);
    case FORMAT_PNG:
        return sink_png_new(out, ctx, &chart);
    case FORMAT_PDF:
    case FORMAT_PS:
    case FORMAT_EPS:
        return sink_vector_new(format, out, ctx, &chart);
    case FORMAT_FOLDED:
        return sink_folded_new(out, ctx, &folded);
    case FORMAT_HTML:
        return sink_html_new(out, ctx, &report);
    default:
        return NULL;
    }
}

void *sink_alloc(size_t size, const struct sink_ops *ops, const struct sink_context *ctx,
                 FILE *out)
{
    struct sink *s = calloc(1, size);
    if (s)
        *s = (struct sink){ .ops = ops, .ctx = *ctx, .out = out };
    return s;
}

void sink_free(struct sink *s)
{
    free(s);
}

const struct ev_error *sink_recorded_failure(const struct sink *s)
{
    return s->error.what[0] ? &s->error : NULL;
}

const char *sink_file_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash && slash[1] ? slash + 1 : path;
}

int sink_needs(enum output_format format, const struct sink_settings *settings,
                struct run_model_needs *needs)
{
    struct chart_options defaults;
    const struct chart_options *chart = settings->chart;
    if (!chart) {
        chart_options_default(&defaults);
        chart = &defaults;
    }
    struct profile_options feed;
    if (format == FORMAT_HTML) {
        sink_html_profile_options(chart, &feed);
        needs->peak = true;   /* the report shows the exact peak and its largest bands */
        return run_model_need_chart(needs, &feed);
    }
    if (format_is_chart(format)) {
        chart_profile_options(chart, &feed);
        return run_model_need_chart(needs, &feed);
    }
    if (format_is_summary(format)) {
        run_model_need_summary(needs, &chart->profile);
        needs->peak = true;
        needs->markers = true;
    }
    return 0;
}
