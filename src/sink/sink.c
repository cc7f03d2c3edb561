/* sink.c: the format table and the sink factory. */
#include "sink/sink.h"

#include <string.h>

static const struct {
    const char *name;
    enum output_format format;
} formats[] = {
    { "hp", FORMAT_HP },
    { "csv", FORMAT_CSV },
    { "json", FORMAT_JSON },
    { "svg", FORMAT_SVG },
    { "png", FORMAT_PNG },
    { "html", FORMAT_HTML },
};

enum output_format format_from_name(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcmp(name, formats[i].name) == 0)
            return formats[i].format;
    return FORMAT_NONE;
}

enum output_format format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return FORMAT_NONE;
    return format_from_name(dot + 1);
}

bool format_is_chart(enum output_format format)
{
    /* each draws a chart profile, and with --compare the base's */
    return format == FORMAT_SVG || format == FORMAT_PNG || format == FORMAT_HTML;
}

bool format_is_summary(enum output_format format)
{
    return format == FORMAT_SUMMARY_TEXT || format == FORMAT_SUMMARY_JSON;
}

struct sink *sink_new(enum output_format format, FILE *out, const struct sink_context *ctx)
{
    switch (format) {
    case FORMAT_HP:
        return sink_hp_new(out, ctx);
    case FORMAT_CSV:
        return sink_csv_new(out, ctx);
    case FORMAT_JSON:
        return sink_json_new(out, ctx);
    case FORMAT_SUMMARY_TEXT:
        return sink_summary_text_new(out, ctx);
    case FORMAT_SUMMARY_JSON:
        return sink_summary_json_new(out, ctx);
    case FORMAT_SVG:
        return sink_svg_new(out, ctx);
    case FORMAT_PNG:
        return sink_png_new(out, ctx);
    case FORMAT_HTML:
        return sink_html_new(out, ctx);
    default:
        return NULL;
    }
}
