/* formats.c: the table of output formats and the factory that builds their sinks.
 *
 * A row per format: the name -f and a file's extension give it (none for the summaries
 * and --junit, which have options of their own), what kind of output it is, and its
 * constructor, adapted here to take its own settings from the run's. Adding a format is
 * adding its row (and its constructor in sinks.h). This module is above every sink: it
 * calls their constructors, and they call only sink.c, their base.
 */
#include "sink/formats.h"

#include "chart/chart.h"
#include "model/runmodel.h"
#include "sink/sinks.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a format is, beyond its name: the kinds convert.c and sink_needs ask about. */
enum {
    KIND_CHART = 1,         /* draws a chart from a profile (and --compare's base) */
    KIND_SUMMARY = 2,       /* writes a summary */
    KIND_TIME_PROFILE = 4,  /* reads the time profile */
    KIND_PEAK = 8,          /* reads the exact peak census */
    KIND_DIFF_DATA = 16,    /* under --view diff, writes the diff's lines (a chart's data) */
};

typedef struct sink *(*sink_maker)(enum output_format format, FILE *out,
                                   const struct sink_context *ctx,
                                   const struct sink_settings *settings);

static struct sink *make_hp(enum output_format f, FILE *out, const struct sink_context *ctx,
                            const struct sink_settings *s)
{
    (void)f, (void)s;
    return sink_hp_new(out, ctx);
}

/* --view diff: CSV and JSON write the diff's lines (sink_diff.c), not the censuses. */
static bool writes_diff(const struct sink_settings *s)
{
    return s->chart && s->chart->view == CHART_VIEW_DIFF;
}

static struct sink *make_csv(enum output_format f, FILE *out, const struct sink_context *ctx,
                             const struct sink_settings *s)
{
    return writes_diff(s) ? sink_diff_new(f, out, ctx, s->chart) : sink_csv_new(out, ctx);
}

static struct sink *make_json(enum output_format f, FILE *out, const struct sink_context *ctx,
                              const struct sink_settings *s)
{
    return writes_diff(s) ? sink_diff_new(f, out, ctx, s->chart) : sink_json_new(out, ctx);
}

/* The formats that take the summary's settings: the text and JSON summaries, the
 * Markdown, the benchmark's figures and JUnit (which carries the text summary). */
static struct sink *make_summary(enum output_format f, FILE *out,
                                 const struct sink_context *ctx,
                                 const struct sink_settings *s)
{
    struct summary_settings summary = { s->chart, s->system_ccs, s->unicode, s->commit,
                                        s->report_url };
    switch (f) {
    case FORMAT_SUMMARY_MARKDOWN:
        return sink_summary_markdown_new(out, ctx, &summary);
    case FORMAT_SUMMARY_BENCHMARK:
        return sink_benchmark_new(out, ctx, &summary);
    case FORMAT_JUNIT:
        return sink_junit_new(out, ctx, &summary);
    default:   /* the text and JSON summaries */
        return sink_summary_new(f, out, ctx, &summary);
    }
}

/* The formats that draw a picture: SVG, PNG and cairo's vector documents. */
static struct sink *make_chart(enum output_format f, FILE *out,
                               const struct sink_context *ctx, const struct sink_settings *s)
{
    struct chart_settings chart = { s->chart, s->png_scale, s->system_ccs };
    switch (f) {
    case FORMAT_SVG:
        return sink_svg_new(out, ctx, &chart);
    case FORMAT_PNG:
        return sink_png_new(out, ctx, &chart);
    default:   /* PDF, PS, EPS */
        return sink_vector_new(f, out, ctx, &chart);
    }
}

static struct sink *make_folded(enum output_format f, FILE *out,
                                const struct sink_context *ctx, const struct sink_settings *s)
{
    (void)f;
    struct folded_settings folded = { s->system_ccs };
    return sink_folded_new(out, ctx, &folded);
}

static struct sink *make_pprof(enum output_format f, FILE *out,
                               const struct sink_context *ctx, const struct sink_settings *s)
{
    (void)f;
    struct pprof_settings pprof = { s->system_ccs };
    return sink_pprof_new(out, ctx, &pprof);
}

static struct sink *make_html(enum output_format f, FILE *out, const struct sink_context *ctx,
                              const struct sink_settings *s)
{
    (void)f;
    struct report_settings report = { s->chart, s->system_ccs };
    return sink_html_new(out, ctx, &report);
}

/* A summary lists the time profile's busiest cost centres too. */
#define SUMMARY (KIND_SUMMARY | KIND_TIME_PROFILE)

static const struct format_row {
    enum output_format format;
    const char *name;       /* for -f and file extensions; NULL: chosen by its option */
    const char *extension;  /* another extension that names it, or NULL */
    unsigned kind;
    sink_maker make;
} formats[] = {
    { FORMAT_HP, "hp", NULL, 0, make_hp },
    { FORMAT_CSV, "csv", NULL, KIND_DIFF_DATA, make_csv },
    { FORMAT_JSON, "json", NULL, KIND_DIFF_DATA, make_json },
    { FORMAT_SVG, "svg", NULL, KIND_CHART | KIND_TIME_PROFILE, make_chart },
    { FORMAT_PNG, "png", NULL, KIND_CHART | KIND_TIME_PROFILE, make_chart },
    { FORMAT_PDF, "pdf", NULL, KIND_CHART | KIND_TIME_PROFILE, make_chart },
    { FORMAT_PS, "ps", NULL, KIND_CHART | KIND_TIME_PROFILE, make_chart },
    { FORMAT_EPS, "eps", NULL, KIND_CHART | KIND_TIME_PROFILE, make_chart },
    { FORMAT_FOLDED, "folded", NULL, KIND_TIME_PROFILE, make_folded },
    /* x.pb.gz, the name pprof's own profiles have, as well as x.pprof */
    { FORMAT_PPROF, "pprof", "pb", KIND_TIME_PROFILE | KIND_PEAK, make_pprof },
    /* the report draws flame graphs */
    { FORMAT_HTML, "html", NULL, KIND_CHART | KIND_TIME_PROFILE, make_html },
    { FORMAT_SUMMARY_TEXT, NULL, NULL, SUMMARY, make_summary },
    { FORMAT_SUMMARY_JSON, NULL, NULL, SUMMARY, make_summary },
    { FORMAT_SUMMARY_MARKDOWN, NULL, NULL, SUMMARY, make_summary },
    { FORMAT_SUMMARY_BENCHMARK, NULL, NULL, KIND_SUMMARY, make_summary },
    /* --junit carries the text summary */
    { FORMAT_JUNIT, NULL, NULL, SUMMARY, make_summary },
};

static const struct format_row *row_of(enum output_format format)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (formats[i].format == format)
            return &formats[i];
    return NULL;
}

static bool is_name(const char *name, const char *text, size_t len)
{
    return name && strlen(name) == len && strncasecmp(text, name, len) == 0;
}

/* The format whose name (or with extensions, whose other extension) is text[0..len),
 * without regard to case, or FORMAT_NONE. */
static enum output_format named(const char *text, size_t len, bool extensions)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (is_name(formats[i].name, text, len) ||
            (extensions && is_name(formats[i].extension, text, len)))
            return formats[i].format;
    return FORMAT_NONE;
}

enum output_format format_from_name(const char *name)
{
    return named(name, strlen(name), false);
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
    }
    return ext ? named(ext, ext_len, true) : FORMAT_NONE;
}

bool format_path_has_extension(const char *path)
{
    size_t len = strlen(path), ext_len;
    const char *ext = extension(path, len, &ext_len);
    if (ext && ext_len == 2 && strncasecmp(ext, "gz", 2) == 0)
        ext = extension(path, (size_t)(ext - path) - 1, &ext_len);
    return ext != NULL;
}

const char *format_extensions(void)
{
    static char list[128];   /* made once, from the table (the command line's thread) */
    if (list[0])
        return list;
    size_t used = 0;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (formats[i].name && used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s.%s",
                                     used ? ", " : "", formats[i].name);
    return list;
}

static bool is_kind(enum output_format format, unsigned kind)
{
    const struct format_row *row = row_of(format);
    return row && (row->kind & kind);
}

bool format_is_chart(enum output_format format)
{
    return is_kind(format, KIND_CHART);
}

bool format_is_summary(enum output_format format)
{
    return is_kind(format, KIND_SUMMARY);
}

bool format_uses_time_profile(enum output_format format)
{
    return is_kind(format, KIND_TIME_PROFILE);
}

bool format_has_diff_data(enum output_format format)
{
    return is_kind(format, KIND_DIFF_DATA);
}

struct sink *sink_new(enum output_format format, FILE *out, const struct sink_context *ctx,
                      const struct sink_settings *settings)
{
    const struct format_row *row = row_of(format);
    return row ? row->make(format, out, ctx, settings) : NULL;
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
    if (is_kind(format, KIND_PEAK))
        needs->peak = true;
    if (format == FORMAT_CSV || format == FORMAT_JSON) {
        needs->ticky = true;  /* a ticky run's counters (sink/summary_parts.h) */
        needs->gc = true;     /* and their share of allocation */
    }
    struct profile_options feed;
    if (format_uses_time_profile(format))
        needs->peak = true;   /* or, without one, a heap census (runstacks.h) */
    if (format == FORMAT_HTML) {
        sink_html_profile_options(chart, &feed);
        needs->peak = true;   /* the report shows the exact peak and its largest bands */
        needs->gc = true;     /* and the collector's figures */
        needs->ticky = true;  /* and a -ticky run's counters (the Ticky tab) */
        needs->end = true;    /* and what led up to the end */
        needs->caps = true;   /* and each capability's shares */
        if (feed.has_from || feed.has_to) {
            /* --from/--to: the report opens on the window with the whole run there (its
             * own profile, fed every census, and no profile of the window: the page
             * computes its figures); the peak and the flame graph are the window's. A
             * live run's report is of the window (convert.c asks for its profile). */
            needs->report_whole = true;
            needs->report_feed = feed;
            needs->report_feed.has_from = needs->report_feed.has_to = false;
            return 0;
        }
        return run_model_need_chart(needs, &feed);
    }
    if (format_is_chart(format) && chart->view == CHART_VIEW_HEAP) {
        needs->gc = true;     /* its collections, paired by their leaders (gcstats.h) */
        needs->caps = true;   /* and its strip per capability (capstats.h) */
    }
    if (format_is_chart(format) ||
        (format_has_diff_data(format) && chart->view == CHART_VIEW_DIFF)) {
        chart_profile_options(chart, &feed);
        return run_model_need_chart(needs, &feed);
    }
    if (format_is_summary(format)) {
        run_model_need_summary(needs, &chart->profile);
        needs->peak = true;
        needs->markers = true;
        needs->gc = true;
        needs->ticky = true;  /* ticky counters, with their share of allocation (gc) */
        needs->end = true;
        needs->caps = true;   /* each capability's shares (with gc's events) */
    }
    return 0;
}
