/* sink_png.c: the PNG sink: the SVG sink's chart, drawn with cairo and encoded with libpng.
 *
 * Censuses, markers and heap totals go into a profile (bounded memory, see profile.h) as
 * they arrive, exactly as for the SVG sink; finish selects the bands and lays out the
 * chart with the same chart_layout and text metrics, so the PNG shows the SVG's picture.
 * Only the last step differs: png_render draws the display list at --scale and
 * png_encode writes it with the Title (the chart's document title: --title or the JOB
 * line), Software and Source chunks. Nothing depends on the clock: the same input and
 * options give the same bytes.
 *
 * A failure errno cannot describe (no usable font, an image too big) is kept and given
 * to convert.c through the failure op.
 */
#include "sink.h"

#include <errno.h>
#include <stdlib.h>

#include "chart.h"
#include "compare.h"
#include "png_encode.h"
#include "png_render.h"
#include "profile.h"
#include "textmeasure.h"

struct png_sink {
    struct sink base;
    struct chart_options chart;
    double scale;
    struct profile *profile;
    struct ev_error error;          /* why finish failed, when errno cannot say */
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

static int png_frame(struct sink *s, const struct census_frame *frame)
{
    struct png_sink *g = (struct png_sink *)s;
    return profile_add_frame(g->profile, frame, s->ctx.bands) == 0 ? 0 : no_memory();
}

static int png_marker(struct sink *s, uint64_t time_ns, const char *text, size_t len)
{
    struct png_sink *g = (struct png_sink *)s;
    return profile_add_marker(g->profile, time_ns, text, len) == 0 ? 0 : no_memory();
}

static int png_total(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct png_sink *g = (struct png_sink *)s;
    return profile_add_total(g->profile, kind, time_ns, bytes) == 0 ? 0 : no_memory();
}

/* The chart of everything seen so far, as a display list; 0 or -1 (out of memory). */
static int lay_out(struct png_sink *g, struct display_list *dl)
{
    struct sink *s = &g->base;
    struct textmeasure *tm = textmeasure_new();
    /* one chart, or with --compare the base above this run (compare.h) */
    int rc = tm ? compare_layout(&s->ctx, g->profile, &g->chart, tm, dl) : -1;
    textmeasure_free(tm);
    return rc;
}

static int png_finish(struct sink *s)
{
    struct png_sink *g = (struct png_sink *)s;
    struct display_list dl;
    cairo_surface_t *surface = NULL;
    if (lay_out(g, &dl) != 0)
        return no_memory();
    int rc = png_render(&dl, g->scale, &surface, &g->error);
    if (rc == 0) {
        struct png_metadata meta = { dl.title, s->ctx.input_name, g->scale };
        errno = 0;
        rc = png_encode(surface, &meta, s->out, &g->error);
        cairo_surface_destroy(surface);
    }
    display_free(&dl);
    return rc;
}

static const struct ev_error *png_failure(const struct sink *s)
{
    const struct png_sink *g = (const struct png_sink *)s;
    return g->error.what[0] ? &g->error : NULL;
}

static void png_destroy(struct sink *s)
{
    struct png_sink *g = (struct png_sink *)s;
    profile_free(g->profile);
    free(g);
}

static const struct sink_ops png_ops = {
    .frame = png_frame,
    .marker = png_marker,
    .total = png_total,
    .finish = png_finish,
    .destroy = png_destroy,
    .failure = png_failure,
};

struct sink *sink_png_new(FILE *out, const struct sink_context *ctx)
{
    struct png_sink *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->base = (struct sink){ .ops = &png_ops, .ctx = *ctx, .out = out };
    if (ctx->chart)
        g->chart = *ctx->chart;
    else
        chart_options_default(&g->chart);
    g->scale = ctx->png_scale > 0 ? ctx->png_scale : 1;
    /* The SVG sink's resolution, not the pixels': the same kept censuses, so the same
     * outlines at any --scale (the profile keeps two per column already). */
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
