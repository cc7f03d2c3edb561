/* sink_svg.c: the SVG sink: a profile fed while reading, a chart written at the end.
 *
 * Censuses, markers and heap totals go into a profile (bounded memory, see profile.h) as
 * they arrive; finish selects the bands, lays out the chart (chart.h) and streams it out
 * as SVG (svg.h). The chart options come from the sink context (defaults without one).
 */
#include "sink.h"

#include <errno.h>
#include <stdlib.h>

#include "chart.h"
#include "compare.h"
#include "profile.h"
#include "svg.h"
#include "textmeasure.h"

struct svg_sink {
    struct sink base;
    struct chart_options chart;
    struct profile *profile;
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

static int svg_frame(struct sink *s, const struct census_frame *frame)
{
    struct svg_sink *g = (struct svg_sink *)s;
    return profile_add_frame(g->profile, frame, s->ctx.bands) == 0 ? 0 : no_memory();
}

static int svg_marker(struct sink *s, uint64_t time_ns, const char *text, size_t len)
{
    struct svg_sink *g = (struct svg_sink *)s;
    return profile_add_marker(g->profile, time_ns, text, len) == 0 ? 0 : no_memory();
}

static int svg_total(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct svg_sink *g = (struct svg_sink *)s;
    return profile_add_total(g->profile, kind, time_ns, bytes) == 0 ? 0 : no_memory();
}

static int svg_finish(struct sink *s)
{
    struct svg_sink *g = (struct svg_sink *)s;
    struct display_list dl;
    int rc = -1;
    struct textmeasure *tm = textmeasure_new();
    if (!tm || compare_layout(&s->ctx, g->profile, &g->chart, tm, &dl) != 0) {
        rc = no_memory();
        goto done;
    }
    errno = 0;
    rc = svg_write(s->out, &dl);
    display_free(&dl);
done:
    textmeasure_free(tm);
    return rc;
}

static void svg_destroy(struct sink *s)
{
    struct svg_sink *g = (struct svg_sink *)s;
    profile_free(g->profile);
    free(g);
}

static const struct sink_ops svg_ops = {
    .frame = svg_frame,
    .marker = svg_marker,
    .total = svg_total,
    .finish = svg_finish,
    .destroy = svg_destroy,
};

struct sink *sink_svg_new(FILE *out, const struct sink_context *ctx)
{
    struct svg_sink *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->base = (struct sink){ &svg_ops, *ctx, out };
    if (ctx->chart)
        g->chart = *ctx->chart;
    else
        chart_options_default(&g->chart);
    struct profile_options popt;
    chart_profile_options(&g->chart, &popt);
    struct ev_error err;
    g->profile = profile_new(&popt, &err);
    if (!g->profile) {
        free(g);
        return NULL;
    }
    return &g->base;
}
