/* sink_chart.c: the picture sinks, SVG and PNG: one chart, two ways to write it.
 *
 * Censuses, markers and heap totals go into a profile (bounded memory, see profile.h) as
 * they arrive; finish selects the bands and lays out the chart (chart.h, or two panels
 * with --compare, compare.h) into a display list with the shared text metrics. Only the
 * last step depends on the format: the SVG back-end streams the list through libxml2
 * (svg.h); the PNG back-end draws it with cairo at --scale and encodes it with libpng,
 * with the Title (--title or the JOB line), Software and Source chunks and nothing from
 * the clock, so the same input and options give the same bytes.
 *
 * A failure errno cannot describe (no usable font, an image too big) is kept and given
 * to convert.c through the failure op.
 */
#include "sink/sink.h"

#include <errno.h>
#include <stdlib.h>

#include "chart/chart.h"
#include "chart/compare.h"
#include "chart/flame.h"
#include "render/png_encode.h"
#include "render/png_render.h"
#include "chart/profile.h"
#include "render/svg.h"
#include "render/vector.h"
#include "chart/textmeasure.h"

struct chart_sink;

/* Writes the laid-out chart in the sink's format: 0, or -1 (errno or error set). */
typedef int (*chart_writer)(struct chart_sink *g, const struct display_list *dl);

struct chart_sink {
    struct sink base;
    struct chart_options chart;
    struct profile *profile;
    chart_writer write;
    double scale;                   /* PNG: --scale */
    enum vector_kind vector;        /* PDF, PS or EPS */
    struct ev_error error;          /* why finish failed, when errno cannot say */
    uint64_t censuses;              /* heap censuses seen: none, and a time profile,
                                     * draws the flame graph by default */
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

static int chart_frame(struct sink *s, const struct census_frame *frame)
{
    struct chart_sink *g = (struct chart_sink *)s;
    g->censuses++;
    return profile_add_frame(g->profile, frame, s->ctx.bands) == 0 ? 0 : no_memory();
}

static int chart_marker(struct sink *s, uint64_t time_ns, const char *text, size_t len)
{
    struct chart_sink *g = (struct chart_sink *)s;
    return profile_add_marker(g->profile, time_ns, text, len) == 0 ? 0 : no_memory();
}

static int chart_total(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct chart_sink *g = (struct chart_sink *)s;
    return profile_add_total(g->profile, kind, time_ns, bytes) == 0 ? 0 : no_memory();
}

static int write_svg(struct chart_sink *g, const struct display_list *dl)
{
    errno = 0;
    return svg_write(g->base.out, dl);
}

static int write_png(struct chart_sink *g, const struct display_list *dl)
{
    cairo_surface_t *surface = NULL;
    if (png_render(dl, g->scale, &surface, &g->error) != 0)
        return -1;
    struct png_metadata meta = { dl->title, g->base.ctx.input_name, g->scale };
    errno = 0;
    int rc = png_encode(surface, &meta, g->base.out, &g->error);
    cairo_surface_destroy(surface);
    return rc;
}

static int write_vector(struct chart_sink *g, const struct display_list *dl)
{
    errno = 0;
    return vector_write(dl, g->vector, g->base.out, &g->error);
}

static int chart_finish(struct sink *s)
{
    struct chart_sink *g = (struct chart_sink *)s;
    struct display_list dl;
    struct textmeasure *tm = textmeasure_new();
    /* The time profile (--view flame or icicle, or by default when there is nothing else
     * to draw); else one chart, or with --compare the base above this run. */
    enum chart_view view = g->chart.view;
    const struct timeprof *tp = s->ctx.timeprof;
    if (view == CHART_VIEW_AUTO && g->censuses == 0 && timeprof_present(tp))
        view = CHART_VIEW_FLAME;
    bool flame = view == CHART_VIEW_FLAME || view == CHART_VIEW_ICICLE;
    if (flame && !timeprof_present(tp)) {
        textmeasure_free(tm);
        ev_error_set(&g->error, "the input has no time profile to draw (--view %s; run the "
                     "program with +RTS -p -l)", view == CHART_VIEW_FLAME ? "flame" : "icicle");
        return -1;
    }
    int rc = !tm ? -1
             : flame ? flame_layout(tp, s->ctx.system_ccs, view == CHART_VIEW_ICICLE,
                                    s->ctx.info, s->ctx.input_name, &g->chart, tm, &dl)
                     : compare_layout(&s->ctx, g->profile, &g->chart, tm, &dl);
    textmeasure_free(tm);
    if (rc != 0)
        return no_memory();
    rc = g->write(g, &dl);
    display_free(&dl);
    return rc;
}

static const struct ev_error *chart_failure(const struct sink *s)
{
    const struct chart_sink *g = (const struct chart_sink *)s;
    return g->error.what[0] ? &g->error : NULL;
}

static void chart_destroy(struct sink *s)
{
    struct chart_sink *g = (struct chart_sink *)s;
    profile_free(g->profile);
    free(g);
}

static const struct sink_ops chart_ops = {
    .frame = chart_frame,
    .marker = chart_marker,
    .total = chart_total,
    .finish = chart_finish,
    .destroy = chart_destroy,
    .failure = chart_failure,
};

static struct sink *chart_sink_new(FILE *out, const struct sink_context *ctx, chart_writer write)
{
    struct chart_sink *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->base = (struct sink){ .ops = &chart_ops, .ctx = *ctx, .out = out };
    g->write = write;
    if (ctx->chart)
        g->chart = *ctx->chart;
    else
        chart_options_default(&g->chart);
    g->scale = ctx->png_scale > 0 ? ctx->png_scale : 1;
    /* The profile's resolution is the layout's, not the pixels': the same kept censuses,
     * so the same outlines in SVG and in PNG at any --scale. */
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

struct sink *sink_svg_new(FILE *out, const struct sink_context *ctx)
{
    return chart_sink_new(out, ctx, write_svg);
}

struct sink *sink_png_new(FILE *out, const struct sink_context *ctx)
{
    return chart_sink_new(out, ctx, write_png);
}

struct sink *sink_vector_new(enum output_format format, FILE *out,
                             const struct sink_context *ctx)
{
    struct sink *s = chart_sink_new(out, ctx, write_vector);
    if (s)
        ((struct chart_sink *)s)->vector = format == FORMAT_PDF ? VECTOR_PDF
                                           : format == FORMAT_PS ? VECTOR_PS
                                                                 : VECTOR_EPS;
    return s;
}
