/* view_heap.c: the heap view, the runtime's own account of its heap (views.h).
 *
 * The lines are chart.c's heap totals (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE, with their
 * legend entries); this module adds what they do not show: the allocation rate, from the
 * cumulative HEAP_ALLOCATED counts (bytes between two kept counts over the time between
 * them), as a light area on a scale of its own in the lower third of the plot, labelled
 * with its peak; and the garbage collections, paired by the capability that led each
 * (model/gcstats.h), as marks along the bottom of the plot, a lane per generation, each
 * as long as its pause. None of it needs a heap census, so the view works for any
 * eventlog.
 *
 * Under the plot, for a -threaded run with the scheduler's events, a strip per
 * capability on the same time axis (model/capstats.h's timeline): in each of its slots
 * the share of the slot it ran Haskell threads (dark blue, from the strip's foot) and
 * collected (orange, above it); the grey left over is idle (colours: chart/colors.h). The strip's areas are the
 * summary's shares (cap_stats_shares), which the row's tooltip states. A non-threaded
 * run (one capability, RTS_IDENTIFIER without "rts_thr") has no strip: its one
 * capability's time is the run's. Under them, for a run with the nonmoving collector,
 * one strip of its phases drawn the same way on the same slots (model/capstats.h's
 * nonmoving timeline): synchronising (from the foot), marking beside the program,
 * sweeping; its areas are those times (its slots' heights make up for their edges'
 * rounding), which its tooltip states.
 */
#include "chart/views.h"
#include "chart/colors.h"
#include "base/format.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANE 6.0                 /* a generation's lane of collections, user units */
#define NOTE_SIZE 10.0

static const struct dl_color ALLOC_FILL = { 0x59, 0xa1, 0x4f, 70 };
static const struct dl_color ALLOC_LINE = { 0x3b, 0x7a, 0x33, 255 };

static double heap_top(const struct profile_view *v)
{
    double top = 0;
    for (int k = 0; k < HEAP_TOTAL_RUNTIME; k++)
        for (size_t i = 0; i < v->totals[k].count; i++)
            top = fmax(top, (double)v->totals[k].bytes[i]);
    return top;
}

static double strip_height(const struct profile_view *v);
static int gc_lanes(const struct profile_gc *gc);
static void collections_label(const struct chart_plot *P, bool merged, char *label,
                              size_t size);

/* The allocation rate between kept counts (bytes per second); counts that go back (a
 * capability's count out of order) give no interval. */
static void allocation(struct chart_plot *P)
{
    const struct profile_series *a = &P->v->totals[HEAP_TOTAL_ALLOCATED];
    if (a->count < 2)
        return;
    if (P->v->allocation_split) {
        /* one capability's count after another's is no rate: said, not drawn; a line
         * above the collections' note when the plot is too narrow for both on one (the
         * note's longest form: whether buckets merged is known only as they are drawn) */
        static const char note[] = "allocation rate not drawn: each capability counts its "
                                   "own allocation (HEAP_ALLOCATED)";
        char label[240];
        collections_label(P, true, label, sizeof label);
        double y = P->bottom - strip_height(P->v) - 4;
        if (gc_lanes(&P->v->gc) &&
            text_width(P->tm, note, NOTE_SIZE, false) + text_width(P->tm, label, NOTE_SIZE,
                                                                    false) + 16 >
                P->right - P->left)
            y -= NOTE_SIZE + 3;
        char cut[sizeof note + 8];   /* within the plot (whole in its tooltip) */
        text_elide_end(P->tm, note, NOTE_SIZE, false, fmax(P->right - P->left - 12, 0), cut,
                       sizeof cut);
        chart_kit_text(P, P->left + 6, y, cut, NOTE_SIZE, ALLOC_LINE, DL_ANCHOR_START, false,
                       "allocation", strcmp(cut, note) != 0 ? note : NULL);
        return;
    }
    double *rate = malloc(a->count * sizeof *rate);
    struct dl_point *pts = malloc((2 * a->count + 2) * sizeof *pts);
    if (!rate || !pts) {
        P->failed = true;
        goto done;
    }
    double peak = 0;
    for (size_t i = 1; i < a->count; i++) {
        double dt = (double)(a->time_ns[i] - a->time_ns[i - 1]) / 1e9;
        double db = (double)a->bytes[i] - (double)a->bytes[i - 1];
        rate[i] = dt > 0 && db >= 0 ? db / dt : 0;
        peak = fmax(peak, rate[i]);
    }
    if (!(peak > 0))
        goto done;
    /* each interval a step at its rate: what was allocated over it, spread evenly */
    double floor_y = P->bottom - strip_height(P->v) - 1, height = (P->bottom - P->top) * 0.33;
    size_t m = 0;
    pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[0]), floor_y };
    for (size_t i = 1; i < a->count; i++) {
        double y = floor_y - rate[i] / peak * height;
        pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[i - 1]), y };
        pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[i]), y };
    }
    pts[m++] = (struct dl_point){ chart_plot_x(P, a->time_ns[a->count - 1]), floor_y };
    char peak_text[32], label[160];
    format_bytes(peak, peak_text, sizeof peak_text);
    snprintf(label, sizeof label, "allocation rate, on its own scale: peak %s/s", peak_text);
    chart_kit_check(P, display_polygon(P->dl, pts, m, ALLOC_FILL, ALLOC_LINE, 0.8, "allocation"),
                    label);
    chart_kit_check(P, display_text(P->dl, P->left + 6, floor_y - height - 4, label, NOTE_SIZE,
                                    ALLOC_LINE, DL_ANCHOR_START, false, 0, "allocation"), NULL);
done:
    free(rate);
    free(pts);
}

/* The collections: a lane per generation along the bottom of the plot (generation 0
 * lowest), each pause a mark from where it began as long as it lasted (at least one
 * unit wide, so a short one still shows); where a bucket (half a pixel column) holds more
 * than one, its longest stands for them (model/buckets.h), which the note says. */
static const struct dl_color GC_LANE_INK[PROFILE_GC_LANES] = {
    { 0xd0, 0x60, 0x50, 255 }, { 0x80, 0x20, 0x20, 255 }, { 0x50, 0x20, 0x70, 255 },
};

/* The lanes drawn: up to the oldest with a collection. */
static int gc_lanes(const struct profile_gc *gc)
{
    int lanes = 0;
    for (int l = 0; l < PROFILE_GC_LANES; l++)
        if (gc->marks[l] && gc->collections[l])
            lanes = l + 1;
    return lanes;
}

static double strip_height(const struct profile_view *v)
{
    return gc_lanes(&v->gc) * LANE;
}

static bool gc_lane(struct chart_plot *P, int lane, double y)
{
    const struct profile_gc *gc = &P->v->gc;
    /* the display list keeps the name, not a copy */
    static const char *const names[PROFILE_GC_LANES] = { "gc0", "gc1", "gc2" };
    bool merged = false;
    for (size_t i = 0; gc->marks[lane] && i < gc->count; i++) {
        const struct gc_mark *m = &gc->marks[lane][i];
        if (!m->count)
            continue;
        merged |= m->count > 1;
        double x0 = chart_plot_x(P, m->start_ns), x1 = chart_plot_x(P, m->start_ns + m->pause_ns);
        if (x1 < P->left || x0 > P->right)
            continue;
        x0 = fmax(x0, P->left);
        x1 = fmin(fmax(x1, x0 + 1), P->right + 1);
        chart_kit_check(P, display_rect(P->dl, x0, y, x1 - x0, LANE - 1, GC_LANE_INK[lane],
                                        (struct dl_color){ 0 }, 0, names[lane]), NULL);
    }
    return merged;
}

/* The collections' note: each lane's count and pauses, and whether a bucket's longest
 * stands for several (merged). */
static void collections_label(const struct chart_plot *P, bool merged, char *label,
                              size_t size)
{
    const struct profile_gc *gc = &P->v->gc;
    int lanes = gc_lanes(gc);
    size_t n = (size_t)format_snprintf(label, size, "collections, each pause as long "
                                       "as it lasted:");
    for (int l = 0; l < lanes && n < size; l++)
        n += (size_t)format_snprintf(label + n, size - n, "%s gen %d%s %llu, %.3f s",
                                     l ? ";" : "", l, l == PROFILE_GC_LANES - 1 ? "+" : "",
                                     (unsigned long long)gc->collections[l],
                                     gc->total_ns[l] / 1e9);
    if (merged && n < size) {
        char width[32];
        format_seconds(gc->width_ns, 6, width, sizeof width);
        format_snprintf(label + n, size - n, " (the longest of each %s s)", width);
    }
}

static void collections(struct chart_plot *P)
{
    int lanes = gc_lanes(&P->v->gc);
    if (!lanes)
        return;
    bool merged = false;
    for (int l = 0; l < lanes; l++)
        merged |= gc_lane(P, l, P->bottom - (l + 1) * LANE);
    char label[240];
    collections_label(P, merged, label, sizeof label);
    chart_kit_check(P, display_text(P->dl, P->right - 4, P->bottom - lanes * LANE - 3, label,
                                    NOTE_SIZE, COLOR_QUIET, DL_ANCHOR_END, false, 0, "gc"),
                    NULL);
}

#define CAP_ROW_MAX 10.0          /* a capability's strip, user units */
#define CAP_ROW_MIN 3.0
#define CAP_ROWS_MAX 120.0        /* all strips: more capabilities get thinner strips */
#define CAP_GAP 2.0
#define CAP_LEGEND 20.0           /* the legend's line above the strips */

static double cap_row(size_t n)
{
    return fmax(CAP_ROW_MIN, fmin(CAP_ROW_MAX, CAP_ROWS_MAX / (double)n - CAP_GAP));
}

/* The nonmoving collector's phases at the run's end (false: none, or no run). */
static bool nonmoving_phases(const struct profile_view *v, const struct run_info *info,
                             struct nonmoving_timeline *out)
{
    return info && cap_stats_nonmoving(v->caps, info->end_time_ns, out);
}

/* The height of the capabilities' strips (0 without), and of the nonmoving collector's
 * strip under them with its legend (0 without). */
static double caps_height(size_t n)
{
    return n ? CAP_LEGEND + (double)n * (cap_row(n) + CAP_GAP) : 0;
}
#define NM_HEIGHT (CAP_LEGEND + CAP_ROW_MAX + CAP_GAP)

static double heap_below(const struct profile_view *v, const struct run_info *info)
{
    size_t n = info ? cap_stats_strips(v->caps, info) : 0;   /* the end is info's */
    bool phases = info && cap_stats_has_nonmoving(v->caps);
    return n || phases ? caps_height(n) + (phases ? NM_HEIGHT : 0) + 4 : 0;
}

/* A swatch and its word in the legend line; returns the x after it. */
static double legend_entry(struct chart_plot *P, double x, double y, struct dl_color ink,
                           const char *word, const char *role)
{
    chart_kit_check(P, display_rect(P->dl, x, y - 8, 9, 9, ink, (struct dl_color){ 0 }, 0,
                                    role), NULL);
    chart_kit_text(P, x + 12, y, word, NOTE_SIZE, COLOR_INK, DL_ANCHOR_START, false,
                   role, NULL);
    return x + 12 + text_width(P->tm, word, NOTE_SIZE, false) + 14;
}

/* What a legend line's strips are, after its swatches at x, cut to the plot's width
 * (whole in its tooltip). */
static void legend_what(struct chart_plot *P, double x, double y, const char *what,
                        const char *role)
{
    char cut[96];
    text_elide_end(P->tm, what, NOTE_SIZE, false, fmax(P->right - x, 0), cut, sizeof cut);
    chart_kit_text(P, x, y, cut, NOTE_SIZE, COLOR_QUIET, DL_ANCHOR_START, false, role,
                   strcmp(cut, what) != 0 ? what : NULL);
}

/* A strip's time series: per slot of width_ns (slots of them, the last reaching end_ns)
 * each column's time in it, drawn in its ink from the foot up in column order. */
struct strip_series {
    uint64_t width_ns, end_ns;
    size_t slots, columns;
    const uint64_t *ns[NM_PHASES];
    struct dl_color ink[NM_PHASES];
    const char *role[NM_PHASES];
    const char *ground, *name_role;   /* the ground's role, the name's */
    /* each column's area its time exactly: a slot's heights scaled by its width before
     * over after its edges are rounded, and what its full height cannot hold carried
     * into the next slot (the time it stands for lies within half a unit of their
     * common edge) unless that one has none of the strip's time */
    bool keep_area;
};

/* One strip, its foot at y (row high): slot by slot each column's time as shares of the
 * slot's time up to the run's end, on an idle ground from the run's start to its end
 * (titled tip); named (left of it) when name is. */
static void slot_strip(struct chart_plot *P, const struct strip_series *S, double y,
                       double row, const char *name, const char *tip)
{
    double x0 = fmax(chart_plot_x(P, 0), P->left);
    double x1 = fmin(chart_plot_x(P, S->end_ns), P->right);
    if (x1 > x0)
        chart_kit_check(P, display_rect(P->dl, x0, y - row, x1 - x0, row, COLOR_CAP_IDLE,
                                        (struct dl_color){ 0 }, 0, S->ground), tip);
    double carry[NM_PHASES] = { 0 };   /* area owed, by column (keep_area) */
    for (size_t k = 0; k < S->slots; k++) {
        uint64_t t0 = k * S->width_ns;
        uint64_t t1 = t0 + S->width_ns < S->end_ns ? t0 + S->width_ns : S->end_ns;
        bool any = false;
        for (size_t c = 0; c < S->columns; c++)
            any |= S->ns[c][k] != 0;
        double a = chart_plot_x(P, t0), b = chart_plot_x(P, t1);
        if (t1 <= t0 || !any || b <= P->left || a >= P->right) {
            memset(carry, 0, sizeof carry);
            continue;
        }
        double exact = fmin(b, P->right) - fmax(a, P->left);
        /* whole units at both edges: neighbours meet on a pixel's edge, where blending
         * two anti-aliased edges would let the idle ground show through between them */
        a = round(fmax(a, P->left));
        b = round(fmin(b, P->right));
        if (b <= a) {   /* under half a unit: its area owed to the next */
            for (size_t c = 0; c < S->columns && S->keep_area; c++)
                carry[c] += row * (double)S->ns[c][k] / (double)(t1 - t0) * exact;
            continue;
        }
        double top = y;
        for (size_t c = 0; c < S->columns; c++) {
            double h = row * (double)S->ns[c][k] / (double)(t1 - t0);
            if (S->keep_area) {
                double area = h * exact + carry[c];
                h = fmin(area / (b - a), top - (y - row));
                carry[c] = area - h * (b - a);
            }
            if (h > 0)
                chart_kit_check(P, display_rect(P->dl, a, top - h, b - a, h, S->ink[c],
                                                (struct dl_color){ 0 }, 0, S->role[c]),
                                NULL);
            top -= h;
        }
    }
    /* the name left of the strip, in the y axis's margin */
    if (name)
        chart_kit_text(P, P->left - 6, y - row / 2 + 3.5, name, fmin(NOTE_SIZE, row + 1),
                       COLOR_QUIET, DL_ANCHOR_END, false, S->name_role, tip);
}

/* One capability's strip, its foot at y (row high): its running and collecting time;
 * named when asked (thin strips name the first and last only, the tooltips every one). */
static void cap_strip(struct chart_plot *P, const struct cap_timeline *tl,
                      const struct cap_share *share, uint64_t end_ns, double y, double row,
                      bool named)
{
    char tip[160], name[24];
    snprintf(name, sizeof name, "cap %u", tl->cap);
    format_snprintf(tip, sizeof tip, "%s: %.1f %% running, %.1f %% collecting, %.1f %% idle",
                    name, 100 * share->running, 100 * share->gc, 100 * share->idle);
    const struct strip_series S = {
        .width_ns = tl->width_ns, .end_ns = end_ns, .slots = tl->slots, .columns = 2,
        .ns = { tl->running_ns, tl->gc_ns }, .ink = { COLOR_CAP_RUNNING, COLOR_CAP_GC },
        .role = { "cap-running", "cap-gc" }, .ground = "cap-idle", .name_role = "cap-name",
    };
    slot_strip(P, &S, y, row, named ? name : NULL, tip);
}

static void capabilities(struct chart_plot *P, size_t n)
{
    struct cap_share *shares = calloc(n, sizeof *shares);
    struct cap_timeline *tl = malloc(sizeof *tl);
    if (!shares || !tl) {
        P->failed = true;
        goto done;
    }
    uint64_t end_ns = P->info->end_time_ns;
    cap_stats_shares(P->v->caps, end_ns, shares, n);
    double y = P->bottom + CAP_LEGEND - 4;
    double x = legend_entry(P, P->left, y, COLOR_CAP_RUNNING, "running Haskell threads",
                            "cap-legend");
    x = legend_entry(P, x, y, COLOR_CAP_GC, "collecting", "cap-legend");
    x = legend_entry(P, x, y, COLOR_CAP_IDLE, "idle", "cap-legend");
    legend_what(P, x, y, "each capability, from the scheduler's and the collector's events",
                "cap-legend");
    double row = cap_row(n);
    for (size_t i = 0; i < n; i++) {
        if (!cap_stats_timeline(P->v->caps, i, end_ns, tl))
            continue;
        double foot = P->bottom + CAP_LEGEND + (double)(i + 1) * (row + CAP_GAP);
        cap_strip(P, tl, &shares[i], end_ns, foot, row, row >= 7 || i == 0 || i + 1 == n);
    }
done:
    free(shares);
    free(tl);
}

/* The nonmoving collector's strip, under the capabilities' (top: where it begins): its
 * legend line, then one strip of its synchronisations, concurrent marking and sweeps. */
static void nonmoving_strip(struct chart_plot *P, const struct nonmoving_timeline *nm,
                            double top)
{
    double y = top + CAP_LEGEND - 4;
    double x = legend_entry(P, P->left, y, COLOR_NM_MARK, "marking", "nm-legend");
    x = legend_entry(P, x, y, COLOR_NM_SYNC, "synchronising (program stopped)", "nm-legend");
    x = legend_entry(P, x, y, COLOR_NM_SWEEP, "sweeping", "nm-legend");
    /* its name here rather than left of the strip, where the y axis's margin is too
     * narrow for it */
    legend_what(P, x, y, "nonmoving GC, from the collector's events", "nm-legend");
    char tip[200];
    format_snprintf(tip, sizeof tip, "nonmoving GC: synchronising %.6f s, marking %.6f s "
                    "beside the program, sweeping %.6f s", nm->total_ns[NM_SYNC] / 1e9,
                    nm->total_ns[NM_MARK] / 1e9, nm->total_ns[NM_SWEEP] / 1e9);
    const struct strip_series S = {
        .width_ns = nm->width_ns, .end_ns = P->info->end_time_ns, .slots = nm->slots,
        .columns = NM_PHASES,
        .ns = { nm->ns[NM_SYNC], nm->ns[NM_MARK], nm->ns[NM_SWEEP] },
        .ink = { COLOR_NM_SYNC, COLOR_NM_MARK, COLOR_NM_SWEEP },
        .role = { "nm-sync", "nm-mark", "nm-sweep" }, .ground = "nm-ground",
        .keep_area = true,
    };
    slot_strip(P, &S, top + NM_HEIGHT, CAP_ROW_MAX, NULL, tip);
}

static void strips(struct chart_plot *P)
{
    size_t n = P->info ? cap_stats_strips(P->v->caps, P->info) : 0;
    if (n)
        capabilities(P, n);
    struct nonmoving_timeline *nm = malloc(sizeof *nm);
    if (!nm)
        P->failed = true;
    else if (nonmoving_phases(P->v, P->info, nm))
        nonmoving_strip(P, nm, P->bottom + caps_height(n));
    free(nm);
}

static void heap_draw(struct chart_plot *P)
{
    allocation(P);
    collections(P);
    strips(P);
}

/* The lines are the chart's heap totals, always listed; no band is. */
const struct view_ops view_heap_ops = {
    .name = "heap", .view = CHART_VIEW_HEAP, .scale_top = heap_top, .draw = heap_draw,
    .below = heap_below,
    .lists_bands = false, .totals = VIEW_TOTALS_ALWAYS,
};
