/* sink.h: output formats behind one small ops table.
 *
 * A sink receives what the census assembler (or the .hp reader) reports, in order:
 * censuses, markers and heap totals as they happen, then finish at the end of input. It
 * writes to a FILE it does not own (outfile.c opens and commits it). Every op returns 0,
 * or -1 when writing failed (errno tells why). sink_new is the one place formats are
 * chosen.
 */
#ifndef EV2HP_SINK_H
#define EV2HP_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "model/frame.h"

enum output_format {
    FORMAT_NONE = 0, FORMAT_HP, FORMAT_CSV, FORMAT_JSON, FORMAT_SVG,
    FORMAT_SUMMARY_TEXT, FORMAT_SUMMARY_JSON,   /* --summary, --summary=json */
    FORMAT_PNG,
    FORMAT_PDF, FORMAT_PS, FORMAT_EPS,          /* cairo's vector documents (vector.h) */
    FORMAT_FOLDED,                              /* time profile: folded stacks */
    FORMAT_HTML,                                /* the interactive report */
    FORMAT_SUMMARY_MARKDOWN,                    /* --summary=markdown */
    FORMAT_JUNIT,                               /* --junit: the gates as JUnit XML */
};

/* The format named by "hp", "svg", "png", ... (for -f), or FORMAT_NONE. */
enum output_format format_from_name(const char *name);
/* The format a file name's extension asks for, or FORMAT_NONE; both without regard to
 * case, and a final ".gz" (a compressed output) looked through: x.HP.gz is a .hp. */
enum output_format format_from_path(const char *path);
/* Whether the file name has an extension besides ".gz": a name without one, such as
 * /dev/stdout, a FIFO or x.gz, gets the default format. */
bool format_path_has_extension(const char *path);
/* Formats that draw a chart from a profile (SVG, PNG: a display list, compare.h; the HTML
 * report: in the browser), and the formats that write a summary (--summary, and --junit,
 * whose report carries the text summary). */
bool format_is_chart(enum output_format format);
bool format_is_summary(enum output_format format);
/* Formats that read the time profile (folded stacks, flame graphs, the summary). */
bool format_uses_time_profile(enum output_format format);

struct chart_options;   /* chart.h */
struct run_model;       /* runmodel.h */
struct run_model_needs;
struct gate_report;     /* gates.h */
struct profile_options; /* profile.h */

/* What every sink may read; owned by the producer and alive until finish returns. Knobs
 * of one format are not here: each sink gets its own settings at construction. */
struct sink_context {
    const struct run_info *info;
    const struct bands *bands;
    const char *input_name;     /* for titles and metadata */
    bool live;                  /* the output is a pipe or terminal: flush each census */
    /* The run's warnings (damage and anomalies), complete by the time finish is called. */
    const struct ev_error *warnings;
    const size_t *warning_count;
    /* The run read once (runmodel.h), complete when finish is called: charts, the report
     * and the summary draw from it at finish; streaming formats ignore it. */
    const struct run_model *run;
    /* --compare: the base run, read whole before this one; NULL without. Charts draw it
     * above this run, the summary reports the change; .hp, CSV and JSON ignore it. */
    const struct run_model *base;
    /* An eventlog's cost centres, complete by the time finish is called (JSON lists each
     * -hc band's stack by them); NULL for a .hp. */
    const struct costcentres *ccs;
    /* --max-peak, --max-increase, --max-growth: every verdict, complete when finish is
     * called (gates.h); NULL or none when no gate was asked for. */
    const struct gate_report *gates;
};

/* The options of a run, from which sink_new gives each format its own settings. */
struct sink_settings {
    const struct chart_options *chart; /* --bands, --width, ...; NULL = defaults */
    double png_scale;           /* PNG: --scale, pixels per layout unit; 0 = 1 */
    bool system_ccs;            /* --system-ccs: keep the runtime's own cost centres */
    bool unicode;               /* the text summary may use block characters (sparklines) */
};

/* Settings of the picture formats (SVG, PNG, PDF, PS, EPS). */
struct chart_settings {
    const struct chart_options *chart; /* NULL = defaults */
    double scale;               /* PNG only: pixels per layout unit; 0 = 1 */
    bool system_ccs;            /* flame graphs: keep the runtime's own cost centres */
};

/* Settings of the HTML report. */
struct report_settings {
    const struct chart_options *chart; /* NULL = defaults */
    bool system_ccs;            /* the flame views: keep the runtime's own cost centres */
};

/* Settings of --summary (and of --junit's text summary). */
struct summary_settings {
    const struct chart_options *chart; /* the window, the order of bands and (Markdown)
                                        * their number; NULL = defaults */
    bool system_ccs;            /* the time profile part */
    bool unicode;               /* text: a sparkline per band (a UTF-8 locale) */
};

/* Settings of folded stacks. */
struct folded_settings {
    bool system_ccs;
};

struct sink;

struct sink_ops {
    int (*frame)(struct sink *s, const struct census_frame *frame);
    int (*marker)(struct sink *s, uint64_t time_ns, const char *text, size_t len);
    int (*total)(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes);
    int (*finish)(struct sink *s);
    void (*destroy)(struct sink *s);
    /* Optional: why the last op failed when errno cannot tell (PNG: no usable font), or
     * NULL; without it, or when it returns NULL, errno says why. */
    const struct ev_error *(*failure)(const struct sink *s);
};

struct sink {
    const struct sink_ops *ops;
    struct sink_context ctx;
    FILE *out;
    /* Why the last op failed when errno cannot say (no usable font, no time profile to
     * draw); empty otherwise. sink_recorded_failure is the failure op that reports it. */
    struct ev_error error;
};

/* The one way a format makes its sink: its own struct of size bytes (whose first member
 * is its struct sink), zeroed, with that struct sink set to ops, ctx and out; NULL when
 * out of memory. */
void *sink_alloc(size_t size, const struct sink_ops *ops, const struct sink_context *ctx,
                 FILE *out);
/* The destroy op of a sink that owns nothing besides its struct. */
void sink_free(struct sink *s);
/* The failure op of a sink that says why in s->error. */
const struct ev_error *sink_recorded_failure(const struct sink *s);

/* A sink of format writing to out, with its settings taken from settings; NULL when out
 * of memory. */
struct sink *sink_new(enum output_format format, FILE *out, const struct sink_context *ctx,
                      const struct sink_settings *settings);

/* The file name of path, without its directories ("runs/a/prog.eventlog" gives
 * "prog.eventlog"): what a document passed around names its input by, rather than the
 * author's directories. NULL gives NULL. */
const char *sink_file_name(const char *path);

/* Adds what a sink of format needs of the run model (runmodel.h) to needs: 0, or -1 when
 * the run asks for more chart resolutions than a run model keeps. */
int sink_needs(enum output_format format, const struct sink_settings *settings,
                struct run_model_needs *needs);

struct sink *sink_hp_new(FILE *out, const struct sink_context *ctx);
/* The runtime's empty sample that closes a .hp (what the .hp sink's finish writes), at
 * end_ns: the live server appends it to the .hp spooled so far. 0, or -1 (errno). */
int sink_hp_end(FILE *out, uint64_t end_ns);
struct sink *sink_csv_new(FILE *out, const struct sink_context *ctx);
struct sink *sink_json_new(FILE *out, const struct sink_context *ctx);
struct sink *sink_summary_text_new(FILE *out, const struct sink_context *ctx,
                                   const struct summary_settings *settings);
struct sink *sink_summary_json_new(FILE *out, const struct sink_context *ctx,
                                   const struct summary_settings *settings);
struct sink *sink_summary_markdown_new(FILE *out, const struct sink_context *ctx,
                                       const struct summary_settings *settings);
struct sink *sink_junit_new(FILE *out, const struct sink_context *ctx,
                            const struct summary_settings *settings);
struct sink *sink_svg_new(FILE *out, const struct sink_context *ctx,
                          const struct chart_settings *settings);
struct sink *sink_png_new(FILE *out, const struct sink_context *ctx,
                          const struct chart_settings *settings);
struct sink *sink_vector_new(enum output_format format, FILE *out,
                             const struct sink_context *ctx,
                             const struct chart_settings *settings);
struct sink *sink_folded_new(FILE *out, const struct sink_context *ctx,
                             const struct folded_settings *settings);
struct sink *sink_html_new(FILE *out, const struct sink_context *ctx,
                           const struct report_settings *settings);

/* The profile options a chart of opt reads (chart_profile_options), and the report's: the
 * same at twice the horizontal resolution. */
void sink_html_profile_options(const struct chart_options *opt, struct profile_options *out);

#endif
