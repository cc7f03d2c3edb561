/* sinks.h: each format's constructor, with the settings it takes.
 *
 * What formats.c's table calls, one constructor per format (a sink built on sink.h's
 * base), and what the live server uses of two of them directly. Each sink's file includes
 * this header for its own declaration; none calls formats.c, so calls, like includes,
 * only go down: formats -> each sink -> sink.
 */
#ifndef EV2HP_SINKS_H
#define EV2HP_SINKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "facts/summary_facts.h"
#include "sink/sink.h"

struct chart_options;   /* chart.h */
struct profile_options; /* profile.h */

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

/* Settings of folded stacks. */
struct folded_settings {
    bool system_ccs;
};

/* Settings of pprof profiles. */
struct pprof_settings {
    bool system_ccs;            /* a time profile: keep the runtime's own cost centres */
};

struct sink *sink_hp_new(FILE *out, const struct sink_context *ctx);
/* The runtime's empty sample that closes a .hp (what the .hp sink's finish writes), at
 * end_ns: the live server appends it to the .hp spooled so far. 0, or -1 (errno). */
int sink_hp_end(FILE *out, uint64_t end_ns);
struct sink *sink_csv_new(FILE *out, const struct sink_context *ctx);
struct sink *sink_json_new(FILE *out, const struct sink_context *ctx);
/* With --view diff, CSV and JSON (format) write the diff's lines instead of the
 * censuses (sink_diff.c; chart: --align, the resolution and the bands; NULL = defaults). */
struct sink *sink_diff_new(enum output_format format, FILE *out, const struct sink_context *ctx,
                           const struct chart_options *chart);
/* The text or JSON summary (format FORMAT_SUMMARY_TEXT or FORMAT_SUMMARY_JSON). */
struct sink *sink_summary_new(enum output_format format, FILE *out,
                              const struct sink_context *ctx,
                              const struct summary_settings *settings);
struct sink *sink_summary_markdown_new(FILE *out, const struct sink_context *ctx,
                                       const struct summary_settings *settings);
struct sink *sink_benchmark_new(FILE *out, const struct sink_context *ctx,
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
struct sink *sink_pprof_new(FILE *out, const struct sink_context *ctx,
                            const struct pprof_settings *settings);
struct sink *sink_html_new(FILE *out, const struct sink_context *ctx,
                           const struct report_settings *settings);

/* The profile options a chart of opt reads (chart_profile_options), and the report's: the
 * same at twice the horizontal resolution. */
void sink_html_profile_options(const struct chart_options *opt, struct profile_options *out);

#endif
