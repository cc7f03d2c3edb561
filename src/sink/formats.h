/* formats.h: the output formats: their names, what each needs, and the factory.
 *
 * One table (formats.c) has a row per format: the name -f and a file's extension give
 * it, its constructor (sinks.h) with the settings it takes from the run's options, and
 * what it needs of the run model. It sits above every sink and calls down into them;
 * sink.c, the base they share, knows none of them.
 */
#ifndef EV2HP_FORMATS_H
#define EV2HP_FORMATS_H

#include <stdbool.h>
#include <stdio.h>

#include "sink/sink.h"

struct chart_options;   /* chart.h */
struct run_model_needs; /* runmodel.h */
struct trend_commit;    /* model/trend.h */

/* The format named by "hp", "svg", "png", ... (for -f), or FORMAT_NONE. */
enum output_format format_from_name(const char *name);
/* The format a file name's extension asks for, or FORMAT_NONE; both without regard to
 * case, and a final ".gz" (a compressed output) looked through: x.HP.gz is a .hp. */
enum output_format format_from_path(const char *path);
/* Whether the file name has an extension besides ".gz": a name without one, such as
 * /dev/stdout, a FIFO or x.gz, gets the default format. */
bool format_path_has_extension(const char *path);
/* The extensions that name a format, for messages: ".hp, .csv, ..., .html". */
const char *format_extensions(void);
/* Formats that draw a chart from a profile (SVG, PNG: a display list, compare.h; the HTML
 * report: in the browser), and the formats that write a summary (--summary, and --junit,
 * whose report carries the text summary). */
bool format_is_chart(enum output_format format);
bool format_is_summary(enum output_format format);
/* Formats that read the time profile (folded stacks, flame graphs, the summary). */
bool format_uses_time_profile(enum output_format format);
/* Formats that, under --view diff, write the diff's lines, drawn from the profiles of
 * both runs as the diff chart is (CSV, JSON: sink_diff.c), instead of the censuses. */
bool format_has_diff_data(enum output_format format);

/* One output a run writes: -o PATH in its format. */
struct output_request {
    const char *path;              /* NULL = standard output */
    enum output_format format;
};

/* The options of a run, from which sink_new gives each format its own settings. */
struct sink_settings {
    const struct chart_options *chart; /* --bands, --width, ...; NULL = defaults */
    double png_scale;           /* PNG: --scale, pixels per layout unit; 0 = 1 */
    bool system_ccs;            /* --system-ccs: keep the runtime's own cost centres */
    bool unicode;               /* the text summary may use block characters (sparklines) */
    const struct trend_commit *commit;  /* --commit ...: the JSON summary's; NULL: none */
    const char *report_url;     /* --report-url: the Markdown summary links into the report */
};

/* A sink of format writing to out, with its settings taken from settings; NULL when out
 * of memory. */
struct sink *sink_new(enum output_format format, FILE *out, const struct sink_context *ctx,
                      const struct sink_settings *settings);

/* Adds what a sink of format needs of the run model (runmodel.h) to needs: 0, or -1 when
 * the run asks for more chart resolutions than a run model keeps. */
int sink_needs(enum output_format format, const struct sink_settings *settings,
                struct run_model_needs *needs);

#endif
