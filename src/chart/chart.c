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
#include "chart/chart.h"
#include "base/format.h"
#include "base/grow.h"

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

bool chart_view_from_name(const char *name, enum chart_view *out)
{
    static const struct {
        const char *name;
        enum chart_view view;
    } views[] = {
        { "area", CHART_VIEW_AREA }, { "flame", CHART_VIEW_FLAME },
        { "icicle", CHART_VIEW_ICICLE },
    };
    for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        if (strcmp(name, views[i].name) == 0) {
            *out = views[i].view;
            return true;
        }
    return false;
}

void chart_profile_options(const struct chart_options *opt, struct profile_options *out)
{
    *out = opt->profile;
    out->columns = opt->width;   /* kept censuses per pixel column: enough, no more */
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
    format_snprintf(out, size, "%.*f %s", decimals_for(step / scale), bytes / scale,
                    format_unit_name(unit));
}

static void format_tick_seconds(double s, double step, char *out, size_t size)
{
    format_snprintf(out, size, "%.*f", decimals_for(step), s);
}

/* --- colours ------------------------------------------------------------------------ */

/* The label a band is shown with (bands.h), for a NUL-terminated label. */
static const char *shown(const char *label)
{
    return bands_shown_label(label, strlen(label), NULL);
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
    uint32_t h = fnv1a(shown(label));
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
    uint32_t h = fnv1a(shown(label));
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
    bool clipped;                        /* a value above ymax was drawn (--y-max) */
    struct dl_color *colors;             /* per shown band of v */
    char buf[LABEL_MAX];
};

static double px_x(const struct layout *L, uint64_t ns)
{
    double s = ns / 1e9;
    return L->left + (s - L->x0) / (L->x1 - L->x0) * (L->right - L->left);
}

/* Values above the scale (only with --y-max) stop at the top of the plot: clipped here,
 * once for every back-end, and noted on the chart. */
static double px_y(struct layout *L, double bytes)
{
    if (bytes > L->ymax * (1 + 1e-12)) {
        L->clipped = true;
        bytes = L->ymax;
    }
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

static void time_range(struct layout *L, const struct profile_view *v,
                       const struct run_info *info)
{
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
        if (n < size) n += (size_t)format_snprintf(out + n, size - n, __VA_ARGS__); \
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

/* The title of a run: --title (when given for it), the JOB line, or the file name. */
static const char *run_title(const char *given, const struct run_info *info,
                             const char *input_name)
{
    const char *title = given;
    if (!title || !*title)
        title = info && info->program && *info->program ? info->program : input_name;
    return title && *title ? title : "heap profile";
}

/* Draws the title (prefixed, e.g. "base: ") and subtitle from y0; returns the subtitle's
 * baseline. */
static double title_block(struct layout *L, const struct run_info *info, const char *title,
                          const char *prefix, double y0)
{
    double avail = L->dl->width - 2 * MARGIN;
    char full[LABEL_MAX];
    snprintf(full, sizeof full, "%s%s", prefix, title);
    title = full;
    bool cut = text_elide_end(L->tm, title, TITLE_SIZE, true, avail, L->buf, sizeof L->buf);
    double y = y0 + TITLE_SIZE * 0.8;
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
    double base_peak;            /* --compare: the band's peak in the base run */
    int total_kind;              /* -1 for a band, else the heap total */
};

struct legend {
    struct legend_entry *entries;
    size_t count;
    double font, row, width, label_width, value_width;
    size_t fitting;              /* entries drawn; the rest summed up in one line */
    bool compare;                /* values read "base → now" */
};

/* The value column of an entry: its peak, or with --compare "base → now". */
static void legend_value(const struct legend *lg, const struct legend_entry *e, char *out,
                         size_t size)
{
    char now[32], base[32];
    format_bytes(e->peak, now, sizeof now);
    if (!lg->compare || e->total_kind >= 0) {
        snprintf(out, size, "%s", now);
        return;
    }
    format_bytes(e->base_peak, base, sizeof base);
    snprintf(out, size, "%s \xe2\x86\x92 %s", base, now);
}

static const char *legend_header(const struct legend *lg)
{
    return lg->compare ? "peak: base \xe2\x86\x92 this run" : "peak";
}

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
                    series_peak(&v->totals[k]), 0, k };
    /* top of the stack first, as the eye reads the chart */
    for (size_t i = v->band_count; i-- > 0;) {
        const struct profile_band *b = &v->bands[i];
        lg->entries[lg->count++] = (struct legend_entry){
            b->label, shown(b->label), L->colors[i], (double)b->stats.peak, 0,
            -1 };
    }
    return 0;
}

static struct legend_entry *find_entry(struct legend *lg, const char *label)
{
    for (size_t i = 0; i < lg->count; i++)
        if (lg->entries[i].total_kind < 0 &&
            strcmp(lg->entries[i].shown, shown(label)) == 0)
            return &lg->entries[i];
    return NULL;
}

/* --compare: the base run's bands join the legend of this run: a band in both is one
 * entry with both peaks; a band only in the base is added at the end (at 0 now). */
static int legend_add_base(struct layout *L, struct legend *lg, const struct profile_view *base,
                           const struct dl_color *base_colors)
{
    size_t cap = lg->count;   /* calloc'd for the bands of this run */
    if (GROW_ARRAY(lg->entries, &cap, lg->count + base->band_count + 1) != 0)
        return -1;
    lg->compare = true;
    for (size_t i = base->band_count; i-- > 0;) {
        const struct profile_band *b = &base->bands[i];
        struct legend_entry *e = find_entry(lg, b->label);
        if (e) {
            e->base_peak = (double)b->stats.peak;
            continue;
        }
        lg->entries[lg->count++] = (struct legend_entry){
            b->label, shown(b->label), base_colors[i], 0, (double)b->stats.peak,
            -1 };
    }
    (void)L;
    return 0;
}

/* Sizes the legend to fit width max_width and height avail: shrinks the font, then
 * cuts the list. */
static void legend_fit(struct layout *L, struct legend *lg, double max_width, double avail)
{
    char value[80];
    for (lg->font = LEGEND_SIZE;; lg->font -= 1) {
        lg->row = ceil(lg->font * 1.45);
        if (lg->font <= LEGEND_MIN_SIZE || (lg->count + 1) * lg->row <= avail)
            break;
    }
    size_t rows = (size_t)(avail / lg->row);
    lg->fitting = lg->count + 1 <= rows ? lg->count : (rows >= 3 ? rows - 2 : 0);
    lg->label_width = 0;
    lg->value_width = text_width(L->tm, legend_header(lg), lg->font * 0.9, false);
    for (size_t i = 0; i < lg->fitting; i++) {
        double w = text_width(L->tm, lg->entries[i].shown, lg->font, false);
        if (w > lg->label_width)
            lg->label_width = w;
        legend_value(lg, &lg->entries[i], value, sizeof value);
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
    char value[80];
    double value_x = x + lg->width;
    text(L, value_x, y, legend_header(lg), lg->font * 0.9, QUIET, DL_ANCHOR_END, false,
         "legend", NULL);
    for (size_t i = 0; i < lg->fitting; i++) {
        const struct legend_entry *e = &lg->entries[i];
        y += lg->row;
        legend_swatch(L, e, x, y, lg->font);
        bool cut = text_elide_middle(L->tm, e->shown, lg->font, false, lg->label_width,
                                     L->buf, sizeof L->buf);
        text(L, x + SWATCH + 6, y, L->buf, lg->font, INK, DL_ANCHOR_START, false, "legend",
             cut || e->shown != e->label ? e->label : NULL);
        legend_value(lg, e, value, sizeof value);
        text(L, value_x, y, value, lg->font, QUIET, DL_ANCHOR_END, false, "legend", NULL);
    }
    if (lg->fitting < lg->count) {
        snprintf(L->buf, sizeof L->buf, "\xe2\x80\xa6 and %zu more", lg->count - lg->fitting);
        text(L, x + SWATCH + 6, y + lg->row, L->buf, lg->font, QUIET, DL_ANCHOR_START, false,
             "legend", NULL);
    }
}

/* --- plot --------------------------------------------------------------------------- */

/* The memory ticks: round steps up to the top; with --y-max the top itself is a tick
 * too (the scale a reader compares charts by), and a round tick too close under it
 * gives way. */
struct y_ticks {
    double step;
    unsigned unit;
    unsigned count;              /* round ticks 0 .. count - 1 */
    bool top;                    /* a tick at ymax besides */
};

static struct y_ticks y_ticks(const struct layout *L, unsigned max_ticks)
{
    struct y_ticks t;
    t.step = chart_bytes_step(L->ymax, max_ticks, &t.unit);
    double last = floor(L->ymax / t.step + 1e-9);
    t.top = L->opt->has_y_max && last * t.step < L->ymax * (1 - 1e-9);
    if (t.top && L->ymax - last * t.step < t.step * 0.5 && last > 0)
        last -= 1;
    t.count = (unsigned)last + 1;
    return t;
}

static void y_tick_label(const struct y_ticks *t, unsigned i, double ymax, char *out,
                         size_t size)
{
    if (i < t->count)
        chart_format_tick(i * t->step, t->unit, t->step, out, size);
    else
        format_bytes(ymax, out, size);
}

static void y_axis(struct layout *L, const struct y_ticks *t)
{
    char label[48];
    for (unsigned i = 0; i < t->count + t->top; i++) {
        double v = i < t->count ? i * t->step : L->ymax;
        double y = px_y(L, v);
        if (v > 0)
            line(L, L->left, y, L->right, y, GRID, 1, false, "grid");
        line(L, L->left - 4, y, L->left, y, AXIS, 1, false, "axis");
        y_tick_label(t, i, L->ymax, label, sizeof label);
        text(L, L->left - 7, y + TICK_SIZE * 0.35, label, TICK_SIZE, QUIET, DL_ANCHOR_END,
             false, "axis", NULL);
    }
}

static double widest_y_label(const struct layout *L, const struct y_ticks *t)
{
    char label[48];
    double widest = 0;
    for (unsigned i = 0; i < t->count + t->top; i++) {
        y_tick_label(t, i, L->ymax, label, sizeof label);
        widest = fmax(widest, text_width(L->tm, label, TICK_SIZE, false));
    }
    return widest;
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
        format_tick_seconds(s, step, label, sizeof label);
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
        format_snprintf(tip, sizeof tip, "%s (%.3f s)%s", m->text, m->time_ns / 1e9,
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
    format_bytes((double)v->point_totals[best], value, sizeof value);
    snprintf(label, sizeof label, "peak %s", value);
    struct dl_point tri[3] = { { x - 4, y - 9 }, { x + 4, y - 9 }, { x, y - 3 } };
    if ((double)v->point_totals[best] > L->ymax) {
        /* off the scale (--y-max): an arrow up just inside the top, the value under it */
        tri[0] = (struct dl_point){ x - 4, L->top + 10 };
        tri[1] = (struct dl_point){ x + 4, L->top + 10 };
        tri[2] = (struct dl_point){ x, L->top + 4 };
        y = L->top + 36;
    }
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

/* One band of one view, for colouring. */
struct colored {
    size_t view, band;
    double area;
};

/* Colours for the bands of n views drawn with one legend: the largest bands first,
 * across all views, so the big bands keep their own colours (all shown bands differ
 * while the palette lasts); a label already coloured in another view keeps that colour,
 * so a band looks the same in both charts of a comparison. */
static int assign_colors(const struct profile_view *const *views, size_t n,
                         struct dl_color **colors)
{
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += views[k]->band_count;
    struct colored *order = malloc((total ? total : 1) * sizeof *order);
    if (!order)
        return -1;
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < views[k]->band_count; i++)
            order[m++] = (struct colored){ k, i, views[k]->bands[i].stats.area };
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && order[j].area > order[j - 1].area; j--) {
            struct colored t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    bool used[PALETTE_SIZE] = { false };
    for (size_t x = 0; x < m; x++) {
        const struct profile_band *b = &views[order[x].view]->bands[order[x].band];
        struct dl_color *c = &colors[order[x].view][order[x].band];
        if (b->band == PROFILE_OTHER) {
            *c = chart_other_color();
            continue;
        }
        bool shared = false;
        for (size_t y = 0; y < x && !shared; y++) {
            const struct profile_band *o = &views[order[y].view]->bands[order[y].band];
            if (order[y].view != order[x].view && o->band != PROFILE_OTHER &&
                strcmp(shown(o->label), shown(b->label)) == 0) {
                *c = colors[order[y].view][order[y].band];
                shared = true;
            }
        }
        if (shared)
            continue;
        bool all_used = true;
        for (size_t u = 0; u < PALETTE_SIZE; u++)
            all_used = all_used && used[u];
        if (all_used)
            memset(used, 0, sizeof used);   /* more bands than colours: start again */
        *c = distinct_band_color(b->label, used);
    }
    free(order);
    return 0;
}

static bool has_totals(const struct profile_view *v)
{
    return v->totals[0].count || v->totals[1].count || v->totals[2].count;
}

/* One chart of the picture: a run, its title, and where it goes. */
struct panel {
    const struct chart_run *run;
    const char *title;
    const char *prefix;          /* "base: ", "this run: " or "" */
    struct dl_color *colors;
    double y0, y1;               /* the slice of the picture it owns */
    double top, bottom;          /* its plot area */
};

static void use_panel(struct layout *L, const struct panel *p)
{
    L->v = p->run->view;
    L->colors = p->colors;
    L->top = p->top;
    L->bottom = p->bottom;
    L->show_totals = L->opt->totals || L->v->censuses == 0;
}

/* Draws the panel's title block and fixes its plot's top and bottom. */
static void panel_frame(struct layout *L, struct panel *p)
{
    use_panel(L, p);
    double subtitle_y = title_block(L, p->run->info, p->title, p->prefix, p->y0);
    bool marker_labels = !L->opt->no_markers && L->v->marker_count;
    p->top = subtitle_y + 16 + (marker_labels ? MARKER_SIZE + 6 : 0);
    p->bottom = p->y1 - (2 * TICK_SIZE + 14);
    if (p->bottom - p->top < 40)
        p->bottom = p->top + 40;
}

static void clip_note(struct layout *L)
{
    char top[32], what[96];
    format_bytes(L->ymax, top, sizeof top);
    snprintf(what, sizeof what, "clipped: values above %s (--y-max) are drawn at the top", top);
    /* on the line of the time axis's name, right-aligned: clear of bands and the peak */
    text(L, L->right, L->bottom + 12 + 2 * TICK_SIZE + 2, what, TICK_SIZE, INK,
         DL_ANCHOR_END, false, "note", NULL);
}

/* Everything of one panel but its title, on the scales already fixed in L. */
static void panel_plot(struct layout *L, const struct panel *p, const struct y_ticks *ticks,
                       double label_right)
{
    use_panel(L, p);
    L->clipped = false;
    y_axis(L, ticks);
    x_axis(L);
    bands(L);
    totals(L);
    markers(L, label_right);
    line(L, L->left, L->top, L->left, L->bottom, AXIS, 1, false, "axis");
    line(L, L->left, L->bottom, L->right, L->bottom, AXIS, 1, false, "axis");
    peak_mark(L);
    const struct profile_view *view = L->v;
    if (view->censuses == 0)
        note(L, has_totals(view) ? "no heap censuses (run with +RTS -h for a profile): "
                                   "heap totals shown"
                                 : "no heap censuses and no heap totals in this input");
    else if (!view->band_count)
        note(L, "no band left after --include / --exclude");
    if (L->clipped)
        clip_note(L);
}

/* The top of the memory scale: --y-max, or the largest peak of all panels with room
 * above it for its label. */
static void memory_scale(struct layout *L, struct panel *panels, size_t n)
{
    double peak = 0, plot_h = panels[0].bottom - panels[0].top;
    for (size_t k = 0; k < n; k++) {
        use_panel(L, &panels[k]);
        peak = fmax(peak, peak_of_totals(L));
        plot_h = fmin(plot_h, panels[k].bottom - panels[k].top);
    }
    if (L->opt->has_y_max && L->opt->y_max > 0)
        L->ymax = (double)L->opt->y_max;
    else
        L->ymax = peak > 0 ? peak * plot_h / fmax(plot_h - 26, 1) : 1024;
}

/* The time scale: from the earliest start to the latest end of all panels. */
static void time_scale(struct layout *L, const struct panel *panels, size_t n)
{
    double x0 = INFINITY, x1 = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        use_panel(L, &panels[k]);
        time_range(L, L->v, panels[k].run->info);
        x0 = fmin(x0, L->x0);
        x1 = fmax(x1, L->x1);
    }
    L->x0 = x0;
    L->x1 = x1;
}

/* The legend of every panel: the last panel's bands, then the others' not among them. */
static int panels_legend(struct layout *L, struct panel *panels, size_t n, struct legend *lg)
{
    use_panel(L, &panels[n - 1]);
    if (legend_entries(L, lg) != 0)
        return -1;
    for (size_t k = 0; k + 1 < n; k++)
        if (legend_add_base(L, lg, panels[k].run->view, panels[k].colors) != 0)
            return -1;
    return 0;
}

/* Lays out n panels stacked top to bottom, sharing scales, colours and one legend. */
static int layout_panels(struct panel *panels, size_t n, const char *document_title,
                         const struct chart_options *opt, struct textmeasure *tm,
                         struct display_list *dl)
{
    struct layout L = { .opt = opt, .tm = tm, .dl = dl };
    double W = opt->width, H = opt->height;
    display_init(dl, W, H, WHITE);
    struct legend lg = { 0 };
    const struct profile_view *views[2];
    struct dl_color *colors[2] = { NULL, NULL };
    for (size_t k = 0; k < n; k++) {
        views[k] = panels[k].run->view;
        colors[k] = malloc((views[k]->band_count + 1) * sizeof *colors[k]);
        panels[k].colors = colors[k];
        if (!colors[k])
            goto fail;
    }
    if (display_set_document_title(dl, document_title) != 0 ||
        assign_colors(views, n, colors) != 0 || panels_legend(&L, panels, n, &lg) != 0)
        goto fail;
    time_scale(&L, panels, n);
    double slice = (H - 2 * MARGIN) / (double)n;
    for (size_t k = 0; k < n; k++) {
        panels[k].y0 = MARGIN + k * slice + (k ? 10 : 0);
        panels[k].y1 = MARGIN + (k + 1) * slice;
        panel_frame(&L, &panels[k]);
    }
    memory_scale(&L, panels, n);
    double plot_h = panels[0].bottom - panels[0].top;
    struct y_ticks ticks = y_ticks(&L, (unsigned)fmax(2, plot_h / 50));
    L.left = MARGIN + widest_y_label(&L, &ticks) + 8;
    if (lg.count) {
        legend_fit(&L, &lg, W * 0.34, panels[n - 1].bottom - panels[0].top);
        L.right = W - MARGIN - lg.width - 20;
    } else {
        L.right = W - MARGIN;
    }
    if (L.right - L.left < 60)
        L.right = L.left + 60;
    for (size_t k = 0; k < n; k++)
        panel_plot(&L, &panels[k], &ticks, lg.count ? L.right + 16 : W - MARGIN);
    if (lg.count)
        legend_draw(&L, &lg, L.right + 20, panels[0].top + lg.row * 0.5);
    if (L.failed)
        goto fail;
    free(lg.entries);
    free(colors[0]);
    free(colors[1]);
    return 0;
fail:
    free(lg.entries);
    free(colors[0]);
    free(colors[1]);
    display_free(dl);
    return -1;
}

int chart_layout(const struct profile_view *view, const struct run_info *info,
                 const char *input_name, const struct chart_options *opt,
                 struct textmeasure *tm, struct display_list *dl)
{
    struct chart_run run = { view, info, input_name };
    struct panel panel = { .run = &run, .prefix = "" };
    panel.title = run_title(opt->title, info, input_name);
    return layout_panels(&panel, 1, panel.title, opt, tm, dl);
}

int chart_layout_compare(const struct chart_run *base, const struct chart_run *now,
                         const struct chart_options *opt, struct textmeasure *tm,
                         struct display_list *dl)
{
    struct panel panels[2] = {
        { .run = base, .prefix = "base: " },
        { .run = now, .prefix = "this run: " },
    };
    panels[0].title = run_title(NULL, base->info, base->input_name);
    panels[1].title = run_title(opt->title, now->info, now->input_name);
    char document_title[LABEL_MAX];
    snprintf(document_title, sizeof document_title, "%s, compared with %s", panels[1].title,
             panels[0].title);
    return layout_panels(panels, 2, document_title, opt, tm, dl);
}
