/* sink_chart.c: the picture sinks, SVG and PNG: one chart, two ways to write it.
 *
 * The run is read once into the run model (runmodel.h), which every chart, the report and
 * the summary draw from; at finish this sink borrows the model's profile at its own
 * resolution (exactly what a profile of its own would have kept), selects the bands and
 * lays out the chart (chart.h, or two panels with --compare, compare.h) into a display
 * list with the shared text metrics. Only the
 * last step depends on the format: the SVG back-end streams the list through libxml2
 * (svg.h); the PNG back-end draws it with cairo at --scale and encodes it with libpng,
 * with the Title (--title or the JOB line), Software and Source chunks and nothing from
 * the clock, so the same input and options give the same bytes.
 *
 * A failure errno cannot describe (no usable font, an image too big) is kept and given
 * to convert.c through the failure op.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <stdlib.h>

#include "chart/chart.h"
#include "chart/compare.h"
#include "sink/runstacks.h"
#include "census/autogroup.h"
#include "census/timeprof.h"
#include "chart/flame.h"
#include "model/profile.h"
#include "chart/textmeasure.h"
#include "facts/suspects.h"
#include "render/png_encode.h"
#include "render/png_render.h"
#include "render/svg.h"
#include "render/vector.h"
#include "model/runmodel.h"

struct chart_sink;

/* Writes the laid-out chart in the sink's format: 0, or -1 (errno or error set). */
typedef int (*chart_writer)(struct chart_sink *g, const struct display_list *dl);

struct chart_sink {
    struct sink base;
    struct chart_options chart;
    chart_writer write;
    double scale;                   /* PNG: --scale */
    bool system_ccs;                /* flame graphs: --system-ccs */
    enum vector_kind vector;        /* PDF, PS or EPS */
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

static int write_svg(struct chart_sink *g, const struct display_list *dl)
{
    errno = 0;
    return svg_write(g->base.out, dl);
}

static int write_png(struct chart_sink *g, const struct display_list *dl)
{
    cairo_surface_t *surface = NULL;
    if (png_render(dl, g->scale, &surface, &g->base.error) != 0)
        return -1;
    struct png_metadata meta = { dl->title, g->base.ctx.input_name, g->scale };
    errno = 0;
    int rc = png_encode(surface, &meta, g->base.out, &g->base.error);
    cairo_surface_destroy(surface);
    return rc;
}

static int write_vector(struct chart_sink *g, const struct display_list *dl)
{
    errno = 0;
    return vector_write(dl, g->vector, g->chart.has_date ? &g->chart.date : NULL, g->base.out,
                        &g->base.error);
}

/* The heap chart of the run model (with --compare, the base above it), in this sink's
 * resolution: 0, or -1 when out of memory. */
static int heap_layout(struct chart_sink *g, struct textmeasure *tm, struct display_list *dl)
{
    const struct sink_context *ctx = &g->base.ctx;
    struct profile_options popt;
    chart_profile_options(&g->chart, &popt);
    struct ev_error err;
    const struct profile *now = run_model_chart(ctx->run, &popt, &err);
    const struct profile *was = ctx->base && ctx->base->profile
                                    ? run_model_chart(ctx->base, &popt, &err) : NULL;
    int rc = -1;
    if (now && (was || !(ctx->base && ctx->base->profile))) {
        struct compare_run n = { now, ctx->bands, ctx->info, ctx->input_name };
        struct compare_run b = { was, ctx->base ? ctx->base->bands : NULL,
                                 ctx->base ? ctx->base->info : NULL,
                                 ctx->base ? ctx->base->name : NULL };
        rc = compare_layout(was ? &b : NULL, &n, &g->chart, tm, dl);
    }
    return rc;
}

static int chart_finish(struct sink *s)
{
    struct chart_sink *g = (struct chart_sink *)s;
    char note[AUTOGROUP_NOTE_MAX];
    if (s->ctx.autogroup) {
        autogroup_note(s->ctx.autogroup, note, sizeof note);
        g->chart.grouped_note = note;
    }
    struct display_list dl;
    struct textmeasure *tm = textmeasure_new();
    /* The time profile (--view flame or icicle, or by default when there is nothing else
     * to draw); else one chart, or with --compare the base above this run. */
    enum chart_view view = g->chart.view;
    const struct timeprof *tp = s->ctx.run->timeprof;
    if (view == CHART_VIEW_AUTO && s->ctx.run->censuses == 0 && timeprof_present(tp))
        view = CHART_VIEW_FLAME;
    bool flame = view == CHART_VIEW_FLAME || view == CHART_VIEW_ICICLE;
    if (view == CHART_VIEW_DIFF && !(s->ctx.base && s->ctx.base->profile)) {
        textmeasure_free(tm);
        ev_error_set(&g->base.error, "--view diff draws this run minus a base: give one with "
                     "--compare BASE");
        return -1;
    }
    struct runstacks rs = { 0 };
    if (flame && runstacks_open(&s->ctx, g->system_ccs, true, &rs, &g->base.error) != 0) {
        textmeasure_free(tm);
        return -1;
    }
    char what[512];
    if (flame)
        runstacks_describe(&rs, &s->ctx, what, sizeof what);
    struct flame_input fin = { rs.stacks, rs.heap, what };
    int rc = !tm ? -1
             : flame ? flame_layout(&fin, view == CHART_VIEW_ICICLE, s->ctx.info,
                                    s->ctx.input_name, &g->chart, tm, &dl)
                     : heap_layout(g, tm, &dl);
    runstacks_close(&rs);
    textmeasure_free(tm);
    if (rc != 0)
        return no_memory();
    rc = g->write(g, &dl);
    display_free(&dl);
    return rc;
}

static struct sink *chart_sink_new(FILE *out, const struct sink_context *ctx,
                                   const struct chart_settings *settings, chart_writer write)
{
    struct chart_sink *g = sink_writer_alloc(sizeof *g, chart_finish, ctx, out);
    if (!g)
        return NULL;
    g->write = write;
    if (settings->chart)
        g->chart = *settings->chart;
    else
        chart_options_default(&g->chart);
    g->chart.suspects = suspects_of;   /* the detail view's marks, as the summary's */
    /* The profile's resolution is the layout's, not the pixels': the same kept censuses,
     * so the same outlines in SVG and in PNG at any --scale. */
    g->scale = settings->scale > 0 ? settings->scale : 1;
    g->system_ccs = settings->system_ccs;
    return &g->base;
}

struct sink *sink_svg_new(FILE *out, const struct sink_context *ctx,
                          const struct chart_settings *settings)
{
    return chart_sink_new(out, ctx, settings, write_svg);
}

struct sink *sink_png_new(FILE *out, const struct sink_context *ctx,
                          const struct chart_settings *settings)
{
    return chart_sink_new(out, ctx, settings, write_png);
}

struct sink *sink_vector_new(enum output_format format, FILE *out,
                             const struct sink_context *ctx,
                             const struct chart_settings *settings)
{
    struct sink *s = chart_sink_new(out, ctx, settings, write_vector);
    if (s)
        ((struct chart_sink *)s)->vector = format == FORMAT_PDF ? VECTOR_PDF
                                           : format == FORMAT_PS ? VECTOR_PS
                                                                 : VECTOR_EPS;
    return s;
}
