/* chart.c: the chart layout (see chart.h).
 *
 * The layout is computed top-down: the title block fixes the top of the plot, the x axis
 * labels fix its bottom, the legend's measured width fixes its right edge and the widest
 * memory tick label its left edge. Then items are emitted in drawing order: background
 * grid, bands, totals, markers, axes, peak, legend, titles.
 *
 * Bands are drawn from the top of the stack down, each filled from its upper outline to
 * the x axis, so a band covers the ones above it only below their lower edge: every band
 * is one outline (half the points of closed ribbons) and the topmost item under the
 * pointer is the band there, so tooltips stay right. Outlines are reduced to the output
 * resolution: per pixel column only the kept censuses with the largest and the smallest
 * total remain, so the spikes and dips of each column survive.
 */
#include "chart.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sizes in user units. */
#define MARGIN 16.0
#define TITLE_SIZE 18.0
#define SUBTITLE_SIZE 12.0
#define TICK_SIZE 11.0
#define MARKER_SIZE 10.0
#define LEGEND_SIZE 12.0
#define LEGEND_MIN_SIZE 9.0
#define SWATCH 11.0
#define LABEL_MAX 1024

static const struct dl_color WHITE = { 255, 255, 255, 255 };
static const struct dl_color INK = { 34, 34, 34, 255 };
static const struct dl_color QUIET = { 102, 102, 102, 255 };
static const struct dl_color AXIS = { 85, 85, 85, 255 };
static const struct dl_color GRID = { 232, 232, 232, 255 };
static const struct dl_color MARKER = { 60, 60, 60, 150 };

/* Tableau 10 (without its grey) and seven of Tableau 20's lighter or deeper tones:
 * sixteen hues, no two of which a neighbour could be mistaken for. */
static const struct dl_color palette[] = {
    { 0x4e, 0x79, 0xa7, 255 }, { 0xf2, 0x8e, 0x2b, 255 }, { 0xe1, 0x57, 0x59, 255 },
    { 0x76, 0xb7, 0xb2, 255 }, { 0x59, 0xa1, 0x4f, 255 }, { 0xed, 0xc9, 0x48, 255 },
    { 0xb0, 0x7a, 0xa1, 255 }, { 0xff, 0x9d, 0xa7, 255 }, { 0x9c, 0x75, 0x5f, 255 },
    { 0xa0, 0xcb, 0xe8, 255 }, { 0xff, 0xbe, 0x7d, 255 }, { 0x8c, 0xd1, 0x7d, 255 },
    { 0xb6, 0x99, 0x2d, 255 }, { 0x49, 0x98, 0x94, 255 }, { 0xd3, 0x72, 0x95, 255 },
    { 0xd4, 0xa6, 0xc8, 255 },
};
#define PALETTE_SIZE (sizeof palette / sizeof *palette)

static const struct {
    const char *label;
    struct dl_color color;
} total_style[3] = {
    [HEAP_TOTAL_SIZE] = { "heap size", { 0x22, 0x22, 0x22, 255 } },
    [HEAP_TOTAL_LIVE] = { "live data", { 0xb2, 0x22, 0x22, 255 } },
    [HEAP_TOTAL_BLOCKS] = { "blocks", { 0x1f, 0x5f, 0xa8, 255 } },
};

void chart_options_default(struct chart_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->width = 1280;
    opt->height = 720;
    profile_options_default(&opt->profile);
}

/* --- numbers ------------------------------------------------------------------------ */

double chart_nice_step(double range, unsigned max_ticks)
{
    if (!(range > 0) || max_ticks == 0)
        return 1;
    double raw = range / max_ticks;
    double magnitude = pow(10, floor(log10(raw)));
    static const double steps[] = { 1, 2, 5, 10 };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (steps[i] * magnitude >= raw * (1 - 1e-9))
            return steps[i] * magnitude;
    return 10 * magnitude;
}

static const char *const unit_names[] = { "B", "KiB", "MiB", "GiB", "TiB" };

double chart_bytes_step(double max_bytes, unsigned max_ticks, unsigned *unit)
{
    unsigned u = 0;
    double scale = 1;
    while (u < 4 && max_bytes >= scale * 1024) {
        scale *= 1024;
        u++;
    }
    double step = chart_nice_step(max_bytes / scale, max_ticks);
    if (u == 0 && step < 1)
        step = 1;   /* no fractions of a byte */
    *unit = u;
    return step * scale;
}

static int decimals_for(double step)
{
    int d = 0;
    while (d < 6 && fabs(step * pow(10, d) - floor(step * pow(10, d) + 0.5)) > 1e-6)
        d++;
    return d;
}

void chart_format_tick(double bytes, unsigned unit, double step, char *out, size_t size)
{
    double scale = pow(1024, unit);
    if (bytes == 0) {
        snprintf(out, size, "0");
        return;
    }
    snprintf(out, size, "%.*f %s", decimals_for(step / scale), bytes / scale, unit_names[unit]);
}

void chart_format_bytes(double bytes, char *out, size_t size)
{
    unsigned u = 0;
    double v = bytes;
    while (u < 4 && v >= 1024) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(out, size, "%.0f B", v);
    else
        snprintf(out, size, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, unit_names[u]);
}

static void format_seconds(double s, double step, char *out, size_t size)
{
    snprintf(out, size, "%.*f", decimals_for(step), s);
}

/* --- colours ------------------------------------------------------------------------ */

const char *chart_display_label(const char *label)
{
    if (label[0] != '(' || label[1] < '0' || label[1] > '9')
        return label;
    const char *p = label + 1;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == ')' && p[1] ? p + 1 : label;
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static bool same_color(struct dl_color a, struct dl_color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/* The k-th colour a label may take: its hash's, then a probe sequence from the hash. */
static unsigned color_choice(uint32_t h, unsigned k)
{
    /* an odd stride is coprime with the 16 colours: the sequence visits every one */
    unsigned stride = 1 + 2 * ((h >> 16) % (PALETTE_SIZE / 2));
    return (h % PALETTE_SIZE + k * stride) % PALETTE_SIZE;
}

struct dl_color chart_band_color(const char *label, const struct dl_color *below)
{
    uint32_t h = fnv1a(chart_display_label(label));
    struct dl_color c = palette[color_choice(h, 0)];
    if (below && same_color(c, *below))
        c = palette[color_choice(h, 1)];
    return c;
}

/* The colour of the next band: its label's own colour unless a band already shown has
 * it; then the first free colour in the label's probe sequence (so the largest bands,
 * assigned first, keep their own colours, and all shown bands differ while the palette
 * lasts). used marks the palette entries taken. */
static struct dl_color distinct_band_color(const char *label, bool *used)
{
    uint32_t h = fnv1a(chart_display_label(label));
    for (unsigned k = 0; k < 4 * PALETTE_SIZE; k++) {
        unsigned i = color_choice(h, k);
        if (!used[i]) {
            used[i] = true;
            return palette[i];
        }
    }
    return palette[color_choice(h, 0)];
}

struct dl_color chart_other_color(void)
{
    return (struct dl_color){ 0xc4, 0xc4, 0xc4, 255 };
}

/* --- layout state ------------------------------------------------------------------- */

struct layout {
    const struct profile_view *v;
    const struct chart_options *opt;
    struct textmeasure *tm;
    struct display_list *dl;
    bool failed;
    bool show_totals;
    double left, right, top, bottom;     /* the plot area */
    double x0, x1;                       /* seconds at left and right */
    double ymax;                         /* bytes at the top */
    struct dl_color *colors;             /* per shown band */
    char buf[LABEL_MAX];
};

static double px_x(const struct layout *L, uint64_t ns)
{
    double s = ns / 1e9;
    return L->left + (s - L->x0) / (L->x1 - L->x0) * (L->right - L->left);
}

static double px_y(const struct layout *L, double bytes)
{
    return L->bottom - bytes / L->ymax * (L->bottom - L->top);
}

static void check(struct layout *L, const void *item)
{
    if (!item)
        L->failed = true;
}

static void text(struct layout *L, double x, double y, const char *s, double size,
                 struct dl_color color, enum dl_anchor anchor, bool bold, const char *role,
                 const char *tooltip)
{
    struct dl_item *it = display_text(L->dl, x, y, s, size, color, anchor, bold, 0, role);
    check(L, it);
    if (it && tooltip && display_set_title(it, tooltip) != 0)
        L->failed = true;
}

static void line(struct layout *L, double x1, double y1, double x2, double y2,
                 struct dl_color color, double width, bool dashed, const char *role)
{
    struct dl_point pts[2] = { { x1, y1 }, { x2, y2 } };
    check(L, display_polyline(L->dl, pts, 2, color, width, dashed, role));
}

/* --- scales ------------------------------------------------------------------------- */

static double peak_of_totals(const struct layout *L)
{
    double peak = 0;
    for (size_t i = 0; i < L->v->point_count; i++)
        if (L->v->point_totals[i] > peak)
            peak = (double)L->v->point_totals[i];
    if (L->show_totals)
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < L->v->totals[k].count; i++)
                if (L->v->totals[k].bytes[i] > peak)
                    peak = (double)L->v->totals[k].bytes[i];
    return peak;
}

static void time_range(struct layout *L, const struct run_info *info)
{
    const struct profile_view *v = L->v;
    uint64_t end = v->last_ns;
    if (info && info->end_time_ns > end)
        end = info->end_time_ns;
    for (int k = 0; k < 3; k++)
        if (L->show_totals && v->totals[k].count && v->totals[k].time_ns[v->totals[k].count - 1] > end)
            end = v->totals[k].time_ns[v->totals[k].count - 1];
    L->x0 = v->has_from ? v->from_ns / 1e9 : 0;
    L->x1 = v->has_to && v->to_ns / 1e9 > L->x0 ? v->to_ns / 1e9 : end / 1e9;
    if (v->has_to && end / 1e9 < L->x1)
        L->x1 = end / 1e9 > L->x0 ? end / 1e9 : L->x1;
    if (!(L->x1 > L->x0))
        L->x1 = L->x0 + 1;
}

/* --- title block -------------------------------------------------------------------- */

static void subtitle_text(const struct layout *L, const struct run_info *info, char *out,
                          size_t size)
{
    const struct profile_view *v = L->v;
    size_t n = 0;
    out[0] = '\0';
#define ADD(...) do { \
        if (n < size) n += (size_t)snprintf(out + n, size - n, "%s", n ? "  \xc2\xb7  " : ""); \
        if (n < size) n += (size_t)snprintf(out + n, size - n, __VA_ARGS__); \
    } while (0)
    if (info && info->has_start_time) {
        time_t t = (time_t)info->start_time;
        struct tm tm;
        char date[40];
        if (localtime_r(&t, &tm) && strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm))
            ADD("%s", date);
    }
    if (info && info->rts_version && *info->rts_version)
        ADD("%s", info->rts_version);
    if (info && (info->has_heap_profile || info->breakdown)) {
        char scratch[40];
        ADD("%s", breakdown_words(info->breakdown, scratch, sizeof scratch));
    }
    if (info && info->period_ns)
        ADD("sampled every %g s", info->period_ns / 1e9);
    ADD("%" PRIu64 " census%s", v->censuses, v->censuses == 1 ? "" : "es");
    if (v->has_from || v->has_to)
        ADD("window %g to %g s", L->x0, L->x1);
    if (v->bands_filtered)
        ADD("%" PRIu32 " band%s filtered out", v->bands_filtered, v->bands_filtered == 1 ? "" : "s");
#undef ADD
}

static double title_block(struct layout *L, const struct run_info *info, const char *input_name)
{
    const char *title = L->opt->title;
    if (!title || !*title)
        title = info && info->program && *info->program ? info->program : input_name;
    if (!title || !*title)
        title = "heap profile";
    double avail = L->dl->width - 2 * MARGIN;
    if (display_set_document_title(L->dl, title) != 0)
        L->failed = true;
    bool cut = text_elide_end(L->tm, title, TITLE_SIZE, true, avail, L->buf, sizeof L->buf);
    double y = MARGIN + TITLE_SIZE * 0.8;
    text(L, MARGIN, y, L->buf, TITLE_SIZE, INK, DL_ANCHOR_START, true, "title", cut ? title : NULL);
    char sub[LABEL_MAX];
    subtitle_text(L, info, sub, sizeof sub);
    text_elide_end(L->tm, sub, SUBTITLE_SIZE, false, avail, L->buf, sizeof L->buf);
    y += SUBTITLE_SIZE + 9;
    text(L, MARGIN, y, L->buf, SUBTITLE_SIZE, QUIET, DL_ANCHOR_START, false, "subtitle", NULL);
    return y;
}

/* --- legend ------------------------------------------------------------------------- */

struct legend_entry {
    const char *label;           /* full label (tooltip) */
    const char *shown;           /* label as shown before eliding */
    struct dl_color color;
    double peak;
    int total_kind;              /* -1 for a band, else the heap total */
};

struct legend {
    struct legend_entry *entries;
    size_t count;
    double font, row, width, label_width, value_width;
    size_t fitting;              /* entries drawn; the rest summed up in one line */
};

static double series_peak(const struct profile_series *s)
{
    double peak = 0;
    for (size_t i = 0; i < s->count; i++)
        if (s->bytes[i] > peak)
            peak = (double)s->bytes[i];
    return peak;
}

static int legend_entries(struct layout *L, struct legend *lg)
{
    const struct profile_view *v = L->v;
    lg->entries = calloc(v->band_count + 3 + 1, sizeof *lg->entries);
    if (!lg->entries)
        return -1;
    if (L->show_totals)
        for (int k = 0; k < 3; k++)
            if (v->totals[k].count)
                lg->entries[lg->count++] = (struct legend_entry){
                    total_style[k].label, total_style[k].label, total_style[k].color,
                    series_peak(&v->totals[k]), k };
    /* top of the stack first, as the eye reads the chart */
    for (size_t i = v->band_count; i-- > 0;) {
        const struct profile_band *b = &v->bands[i];
        lg->entries[lg->count++] = (struct legend_entry){
            b->label, chart_display_label(b->label), L->colors[i], (double)b->stats.peak, -1 };
    }
    return 0;
}

/* Sizes the legend to fit width max_width and height avail: shrinks the font, then
 * cuts the list. */
static void legend_fit(struct layout *L, struct legend *lg, double max_width, double avail)
{
    char value[32];
    for (lg->font = LEGEND_SIZE;; lg->font -= 1) {
        lg->row = ceil(lg->font * 1.45);
        if (lg->font <= LEGEND_MIN_SIZE || (lg->count + 1) * lg->row <= avail)
            break;
    }
    size_t rows = (size_t)(avail / lg->row);
    lg->fitting = lg->count + 1 <= rows ? lg->count : (rows >= 3 ? rows - 2 : 0);
    lg->label_width = 0;
    lg->value_width = text_width(L->tm, "peak", lg->font * 0.9, false);
    for (size_t i = 0; i < lg->fitting; i++) {
        double w = text_width(L->tm, lg->entries[i].shown, lg->font, false);
        if (w > lg->label_width)
            lg->label_width = w;
        chart_format_bytes(lg->entries[i].peak, value, sizeof value);
        w = text_width(L->tm, value, lg->font, false);
        if (w > lg->value_width)
            lg->value_width = w;
    }
    double fixed = SWATCH + 6 + 12 + lg->value_width;
    if (fixed + lg->label_width > max_width)
        lg->label_width = max_width - fixed;
    if (lg->label_width < 40)
        lg->label_width = 40;
    lg->width = fixed + lg->label_width;
}

static void legend_swatch(struct layout *L, const struct legend_entry *e, double x, double y,
                          double font)
{
    double mid = y - font * 0.35;
    if (e->total_kind >= 0) {
        line(L, x, mid, x + SWATCH, mid, e->color, 2, true, "legend");
        return;
    }
    struct dl_item *it = display_rect(L->dl, x, mid - SWATCH / 2, SWATCH, SWATCH, e->color,
                                      (struct dl_color){ 0, 0, 0, 40 }, 0.5, "legend");
    check(L, it);
    if (it && display_set_title(it, e->label) != 0)
        L->failed = true;
}

static void legend_draw(struct layout *L, const struct legend *lg, double x, double y)
{
    char value[32];
    double value_x = x + lg->width;
    text(L, value_x, y, "peak", lg->font * 0.9, QUIET, DL_ANCHOR_END, false, "legend", NULL);
    for (size_t i = 0; i < lg->fitting; i++) {
        const struct legend_entry *e = &lg->entries[i];
        y += lg->row;
        legend_swatch(L, e, x, y, lg->font);
        bool cut = text_elide_middle(L->tm, e->shown, lg->font, false, lg->label_width,
                                     L->buf, sizeof L->buf);
        text(L, x + SWATCH + 6, y, L->buf, lg->font, INK, DL_ANCHOR_START, false, "legend",
             cut || e->shown != e->label ? e->label : NULL);
        chart_format_bytes(e->peak, value, sizeof value);
        text(L, value_x, y, value, lg->font, QUIET, DL_ANCHOR_END, false, "legend", NULL);
    }
    if (lg->fitting < lg->count) {
        snprintf(L->buf, sizeof L->buf, "\xe2\x80\xa6 and %zu more", lg->count - lg->fitting);
        text(L, x + SWATCH + 6, y + lg->row, L->buf, lg->font, QUIET, DL_ANCHOR_START, false,
             "legend", NULL);
    }
}

/* --- plot --------------------------------------------------------------------------- */

static void y_axis(struct layout *L, double step, unsigned unit)
{
    char label[48];
    for (double v = 0; v <= L->ymax * (1 + 1e-9); v += step) {
        double y = px_y(L, v);
        if (v > 0)
            line(L, L->left, y, L->right, y, GRID, 1, false, "grid");
        line(L, L->left - 4, y, L->left, y, AXIS, 1, false, "axis");
        chart_format_tick(v, unit, step, label, sizeof label);
        text(L, L->left - 7, y + TICK_SIZE * 0.35, label, TICK_SIZE, QUIET, DL_ANCHOR_END,
             false, "axis", NULL);
    }
}

static void x_axis(struct layout *L)
{
    char label[48];
    double span = L->x1 - L->x0;
    unsigned max_ticks = (unsigned)((L->right - L->left) / 70);
    double step = chart_nice_step(span, max_ticks ? max_ticks : 1);
    for (double s = ceil(L->x0 / step - 1e-9) * step; s <= L->x1 + step * 1e-9; s += step) {
        if (fabs(s) < step * 1e-6)
            s = 0;   /* no "-0" */
        double x = L->left + (s - L->x0) / span * (L->right - L->left);
        if (x > L->left + 0.5)
            line(L, x, L->top, x, L->bottom, GRID, 1, false, "grid");
        line(L, x, L->bottom, x, L->bottom + 4, AXIS, 1, false, "axis");
        format_seconds(s, step, label, sizeof label);
        text(L, x, L->bottom + 6 + TICK_SIZE, label, TICK_SIZE, QUIET, DL_ANCHOR_MIDDLE, false,
             "axis", NULL);
    }
    text(L, (L->left + L->right) / 2, L->bottom + 12 + 2 * TICK_SIZE + 2, "time (s)",
         TICK_SIZE, QUIET, DL_ANCHOR_MIDDLE, false, "axis", NULL);
}

/* The kept points that survive reduction to one pixel column: per column the points
 * with the largest and the smallest total, in time order. Returns their count. */
static size_t reduce_points(const struct layout *L, size_t *keep)
{
    const struct profile_view *v = L->v;
    size_t n = 0;
    for (size_t i = 0; i < v->point_count;) {
        long column = lround(floor(px_x(L, v->time_ns[i])));
        size_t hi = i, lo = i, j = i + 1;
        for (; j < v->point_count && lround(floor(px_x(L, v->time_ns[j]))) == column; j++) {
            if (v->point_totals[j] > v->point_totals[hi])
                hi = j;
            if (v->point_totals[j] < v->point_totals[lo])
                lo = j;
        }
        keep[n++] = hi < lo ? hi : lo;
        if (hi != lo)
            keep[n++] = hi < lo ? lo : hi;
        i = j;
    }
    return n;
}

static void bands(struct layout *L)
{
    const struct profile_view *v = L->v;
    size_t w = v->band_count;
    if (!w || !v->point_count)
        return;
    size_t *keep = malloc(v->point_count * sizeof *keep);
    uint64_t *cum = calloc(v->point_count, sizeof *cum);
    struct dl_point *pts = malloc((v->point_count + 2) * sizeof *pts);
    if (!keep || !cum || !pts) {
        L->failed = true;
        goto done;
    }
    size_t n = reduce_points(L, keep);
    /* cumulative totals up to and including band b; computed from the top down */
    for (size_t k = 0; k < n; k++)
        cum[k] = v->point_totals[keep[k]];
    for (size_t b = w; b-- > 0;) {
        size_t m = 0;
        pts[m++] = (struct dl_point){ px_x(L, v->time_ns[keep[0]]), L->bottom };
        for (size_t k = 0; k < n; k++)
            pts[m++] = (struct dl_point){ px_x(L, v->time_ns[keep[k]]), px_y(L, (double)cum[k]) };
        pts[m++] = (struct dl_point){ px_x(L, v->time_ns[keep[n - 1]]), L->bottom };
        struct dl_item *it = display_polygon(L->dl, pts, m, L->colors[b], WHITE, 0.6, "band");
        check(L, it);
        if (it && display_set_title(it, v->bands[b].label) != 0)
            L->failed = true;
        for (size_t k = 0; k < n; k++)
            cum[k] -= v->values[keep[k] * w + b];
    }
done:
    free(keep);
    free(cum);
    free(pts);
}

static void totals(struct layout *L)
{
    if (!L->show_totals)
        return;
    for (int k = 0; k < 3; k++) {
        const struct profile_series *s = &L->v->totals[k];
        if (!s->count)
            continue;
        struct dl_point *pts = malloc(s->count * sizeof *pts);
        if (!pts) {
            L->failed = true;
            return;
        }
        for (size_t i = 0; i < s->count; i++)
            pts[i] = (struct dl_point){ px_x(L, s->time_ns[i]), px_y(L, (double)s->bytes[i]) };
        struct dl_item *it = display_polyline(L->dl, pts, s->count, total_style[k].color, 1.5,
                                              true, "total");
        check(L, it);
        if (it && display_set_title(it, total_style[k].label) != 0)
            L->failed = true;
        free(pts);
    }
}

static void markers(struct layout *L, double label_right)
{
    const struct profile_view *v = L->v;
    if (L->opt->no_markers)
        return;
    double free_from = L->left - 1e9;   /* marker labels may start right of this */
    for (size_t i = 0; i < v->marker_count; i++) {
        const struct profile_marker *m = &v->markers[i];
        double x = px_x(L, m->time_ns);
        if (x < L->left - 0.5 || x > L->right + 0.5)
            continue;
        char tip[PROFILE_MAX_MARKER_TEXT + 64];
        snprintf(tip, sizeof tip, "%s (%.3f s)%s", m->text, m->time_ns / 1e9,
                 m->merged ? " and more" : "");
        struct dl_point pts[2] = { { x, L->top }, { x, L->bottom } };
        struct dl_item *it = display_polyline(L->dl, pts, 2, MARKER, 1, false, "marker");
        check(L, it);
        if (it && display_set_title(it, tip) != 0)
            L->failed = true;
        if (!*m->text || x < free_from)
            continue;
        double room = label_right - x;
        if (room < 30)
            continue;
        text_elide_end(L->tm, m->text, MARKER_SIZE, false, room < 160 ? room : 160, L->buf,
                       sizeof L->buf);
        double w = text_width(L->tm, L->buf, MARKER_SIZE, false);
        text(L, x, L->top - 4, L->buf, MARKER_SIZE, INK, DL_ANCHOR_START, false, "marker", tip);
        free_from = x + w + 6;
    }
}

static void peak_mark(struct layout *L)
{
    const struct profile_view *v = L->v;
    size_t best = 0;
    if (!v->point_count || !v->band_count)
        return;
    for (size_t i = 1; i < v->point_count; i++)
        if (v->point_totals[i] > v->point_totals[best])
            best = i;
    double x = px_x(L, v->time_ns[best]), y = px_y(L, (double)v->point_totals[best]);
    char value[40], label[64];
    chart_format_bytes((double)v->point_totals[best], value, sizeof value);
    snprintf(label, sizeof label, "peak %s", value);
    struct dl_point tri[3] = { { x - 4, y - 9 }, { x + 4, y - 9 }, { x, y - 3 } };
    check(L, display_polygon(L->dl, tri, 3, INK, (struct dl_color){ 0 }, 0, "peak"));
    double w = text_width(L->tm, label, TICK_SIZE, true);
    enum dl_anchor anchor = DL_ANCHOR_MIDDLE;
    double tx = x;
    if (x - w / 2 < L->left + 2)
        anchor = DL_ANCHOR_START, tx = fmax(L->left + 2, x - 6);
    else if (x + w / 2 > L->right - 2)
        anchor = DL_ANCHOR_END, tx = fmin(L->right - 2, x + 6);
    text(L, tx, y - 12, label, TICK_SIZE, INK, anchor, true, "peak", NULL);
}

static void note(struct layout *L, const char *what)
{
    text(L, (L->left + L->right) / 2, (L->top + L->bottom) / 2, what, 14, QUIET,
         DL_ANCHOR_MIDDLE, false, "note", NULL);
}

static int assign_colors(struct layout *L)
{
    const struct profile_view *v = L->v;
    L->colors = malloc((v->band_count ? v->band_count : 1) * sizeof *L->colors);
    if (!L->colors)
        return -1;
    bool used[PALETTE_SIZE] = { false };
    /* largest first, whatever the stack order, so the big bands keep their own colours */
    size_t *order = malloc((v->band_count ? v->band_count : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < v->band_count; i++)
        order[i] = i;
    for (size_t i = 1; i < v->band_count; i++)
        for (size_t j = i; j > 0 && v->bands[order[j]].stats.area > v->bands[order[j - 1]].stats.area; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (size_t k = 0; k < v->band_count; k++) {
        size_t i = order[k];
        if (v->bands[i].band == PROFILE_OTHER)
            L->colors[i] = chart_other_color();
        else {
            bool all_used = true;
            for (size_t c = 0; c < PALETTE_SIZE; c++)
                all_used = all_used && used[c];
            if (all_used)
                memset(used, 0, sizeof used);   /* more bands than colours: start again */
            L->colors[i] = distinct_band_color(v->bands[i].label, used);
        }
    }
    free(order);
    return 0;
}

static bool has_totals(const struct profile_view *v)
{
    return v->totals[0].count || v->totals[1].count || v->totals[2].count;
}

int chart_layout(const struct profile_view *view, const struct run_info *info,
                 const char *input_name, const struct chart_options *opt,
                 struct textmeasure *tm, struct display_list *dl)
{
    struct layout L = { .v = view, .opt = opt, .tm = tm, .dl = dl };
    double W = opt->width, H = opt->height;
    display_init(dl, W, H, WHITE);
    struct legend lg = { 0 };
    L.show_totals = opt->totals || (view->censuses == 0);
    if (assign_colors(&L) != 0 || legend_entries(&L, &lg) != 0)
        goto fail;
    time_range(&L, info);

    double subtitle_y = title_block(&L, info, input_name);
    bool marker_labels = !opt->no_markers && view->marker_count;
    L.top = subtitle_y + 16 + (marker_labels ? MARKER_SIZE + 6 : 0);
    L.bottom = H - MARGIN - (2 * TICK_SIZE + 14);
    if (L.bottom - L.top < 40)
        L.bottom = L.top + 40;

    double peak = peak_of_totals(&L);
    unsigned unit;
    double plot_h = L.bottom - L.top;
    /* room above the peak for its label */
    L.ymax = peak > 0 ? peak * plot_h / fmax(plot_h - 26, 1) : 1024;
    double ystep = chart_bytes_step(L.ymax, (unsigned)fmax(2, plot_h / 50), &unit);
    char label[48];
    chart_format_tick(floor(L.ymax / ystep) * ystep, unit, ystep, label, sizeof label);
    double tick_w = text_width(tm, label, TICK_SIZE, false);

    L.left = MARGIN + tick_w + 8;
    if (lg.count) {
        legend_fit(&L, &lg, W * 0.34, L.bottom - L.top);
        L.right = W - MARGIN - lg.width - 20;
    } else {
        L.right = W - MARGIN;
    }
    if (L.right - L.left < 60)
        L.right = L.left + 60;

    y_axis(&L, ystep, unit);
    x_axis(&L);
    bands(&L);
    totals(&L);
    markers(&L, lg.count ? L.right + 16 : W - MARGIN);
    line(&L, L.left, L.top, L.left, L.bottom, AXIS, 1, false, "axis");
    line(&L, L.left, L.bottom, L.right, L.bottom, AXIS, 1, false, "axis");
    peak_mark(&L);
    if (view->censuses == 0)
        note(&L, has_totals(view) ? "no heap censuses (run with +RTS -h for a profile): "
                                    "heap totals shown"
                                  : "no heap censuses and no heap totals in this input");
    else if (!view->band_count)
        note(&L, "no band left after --include / --exclude");
    if (lg.count)
        legend_draw(&L, &lg, L.right + 20, L.top + lg.row * 0.5);
    if (L.failed)
        goto fail;
    free(lg.entries);
    free(L.colors);
    return 0;
fail:
    free(lg.entries);
    free(L.colors);
    display_free(dl);
    return -1;
}
