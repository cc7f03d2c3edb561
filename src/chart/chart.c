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
#include "chart/colors.h"
#include "base/format.h"
#include "base/grow.h"
#include "base/utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes in user units. */
#define MARKER_SIZE 10.0
#define LEGEND_SIZE 12.0
#define LEGEND_MIN_SIZE 9.0
#define SWATCH 11.0

static const struct {
    const char *label;
    struct dl_color color;
} total_style[3] = {
    [HEAP_TOTAL_SIZE] = { "heap size", { 0x22, 0x22, 0x22, 255 } },
    [HEAP_TOTAL_LIVE] = { "live data", { 0xb2, 0x22, 0x22, 255 } },
    [HEAP_TOTAL_BLOCKS] = { "blocks", { 0x1f, 0x5f, 0xa8, 255 } },
};

/* --- numbers ------------------------------------------------------------------------ */

/* --- colours ------------------------------------------------------------------------ */

/* The label a band is shown with (bands.h), for a NUL-terminated label. */
static const char *shown_label(const char *label)
{
    return bands_shown_label(label, strlen(label), NULL);
}

/* --- layout state ------------------------------------------------------------------- */

struct layout {
    const struct profile_view *v;
    const struct run_info *info;         /* the panel's run */
    double below;                        /* what the view draws under the plot */
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
    char **names;                        /* per shown band of v: distinct, whole */
    size_t marker_rows;                  /* rows of marker labels the panel has room for */
    size_t marker_rows_needed;           /* what the markers asked for (layout pass) */
    size_t unlabelled;                   /* markers whose label found no room */
    char buf[KIT_LABEL_MAX];
};

/* The layout as the kit sees it (kit.h), and what a view drawing into it reports back. */
static struct chart_plot plot_of(struct layout *L)
{
    return (struct chart_plot){
        .dl = L->dl, .tm = L->tm, .v = L->v, .opt = L->opt, .colors = L->colors,
        .left = L->left, .right = L->right, .top = L->top, .bottom = L->bottom,
        .x0 = L->x0, .x1 = L->x1, .ymax = L->ymax, .info = L->info, .below = L->below,
        .failed = false,
    };
}

static void plot_back(struct layout *L, const struct chart_plot *P)
{
    if (P->failed)
        L->failed = true;
}

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

/* --- title block -------------------------------------------------------------------- */

/* --- legend ------------------------------------------------------------------------- */

struct legend_entry {
    const char *label;           /* the whole name (tooltip) */
    const char *shown;           /* the name as shown before eliding */
    struct dl_color color;
    double peak;
    double base_peak;            /* --compare: the peak in the base run */
    int total_kind;              /* -1 for a band, else the heap total */
    size_t rank;                 /* which entries are listed when not all fit: lowest */
    bool listed;
    char *text;                  /* listed entries: the text drawn (legend_texts) */
};

struct legend {
    struct legend_entry *entries;
    size_t count;
    double font, row, width, label_width, value_width;
    size_t listed;               /* entries drawn; the rest summed up in one line */
    bool compare;                /* values read "base → now" */
    bool below;                  /* under the plot, in columns (narrow charts) */
    size_t columns, rows;        /* below: the grid of entries */
    double column_width, height;
    enum profile_sort sort;
};

/* The value column of an entry: its peak, or with --compare "base → now". */
static void legend_value(const struct legend *lg, const struct legend_entry *e, char *out,
                         size_t size)
{
    char now[32], base[32];
    format_bytes(e->peak, now, sizeof now);
    if (!lg->compare) {
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

/* Heap totals rank first (they are few and frame everything), then the bands in the
 * order of the sort in force (the view is in stack order: rank order, or its reverse
 * with --reverse), OTHER last. */
#define RANK_OTHER ((size_t)-1 / 2)

static int legend_entries(struct layout *L, struct legend *lg, char **names)
{
    const struct profile_view *v = L->v;
    lg->entries = calloc(v->band_count + 3 + 1, sizeof *lg->entries);
    if (!lg->entries)
        return -1;
    lg->sort = L->opt->profile.sort;
    if (L->show_totals)
        for (int k = 0; k < 3; k++)
            if (v->totals[k].count)
                lg->entries[lg->count++] = (struct legend_entry){
                    total_style[k].label, total_style[k].label, total_style[k].color,
                    series_peak(&v->totals[k]), 0, k, (size_t)k, false, NULL };
    size_t shown = v->band_count;
    if (shown && v->bands[shown - 1].band == PROFILE_OTHER)
        shown--;
    /* top of the stack first, as the eye reads the chart */
    for (size_t i = v->band_count; view_ops(L->opt->view)->lists_bands && i-- > 0;) {
        const struct profile_band *b = &v->bands[i];
        size_t rank = b->band == PROFILE_OTHER ? RANK_OTHER
                    : 3 + (L->opt->profile.reverse ? shown - 1 - i : i);
        lg->entries[lg->count++] = (struct legend_entry){
            names[i], names[i], L->colors[i], (double)b->stats.peak, 0, -1, rank, false,
            NULL };
    }
    return 0;
}

static struct legend_entry *find_entry(struct legend *lg, const char *shown, int total_kind)
{
    for (size_t i = 0; i < lg->count; i++)
        if (lg->entries[i].total_kind == total_kind &&
            strcmp(lg->entries[i].shown, shown) == 0)
            return &lg->entries[i];
    return NULL;
}

/* --compare: the base run's bands join the legend of this run: a band in both is one
 * entry with both peaks; a band only in the base is added at the end (at 0 now). The
 * heap totals rows, drawn in both panels, give both runs' peaks and say so. */
static int legend_add_base(struct layout *L, struct legend *lg, const struct profile_view *base,
                           const struct dl_color *base_colors, char **base_names)
{
    size_t cap = lg->count;   /* calloc'd for the bands of this run */
    if (GROW_ARRAY(lg->entries, &cap, lg->count + base->band_count + 3 + 1) != 0)
        return -1;
    lg->compare = true;
    bool base_totals = L->opt->totals || base->censuses == 0;
    for (int k = 0; base_totals && k < 3; k++) {
        if (!base->totals[k].count)
            continue;
        struct legend_entry *e = find_entry(lg, total_style[k].label, k);
        if (!e) {
            memmove(lg->entries + 1, lg->entries, lg->count * sizeof *lg->entries);
            lg->count++;
            e = &lg->entries[0];
            *e = (struct legend_entry){ total_style[k].label, total_style[k].label,
                                        total_style[k].color, 0, 0, k, (size_t)k, false,
                                        NULL };
        }
        e->base_peak = series_peak(&base->totals[k]);
    }
    for (size_t i = base->band_count; i-- > 0;) {
        const struct profile_band *b = &base->bands[i];
        struct legend_entry *e = find_entry(lg, base_names[i], -1);
        if (e) {
            e->base_peak = (double)b->stats.peak;
            continue;
        }
        lg->entries[lg->count++] = (struct legend_entry){
            base_names[i], base_names[i], base_colors[i], 0, (double)b->stats.peak, -1,
            b->band == PROFILE_OTHER ? RANK_OTHER : 3 + i, false, NULL };
    }
    return 0;
}

/* Lists the `slots` entries of lowest rank (the largest by the sort in force). */
static void legend_select(struct legend *lg, size_t slots)
{
    for (size_t i = 0; i < lg->count; i++)
        lg->entries[i].listed = false;
    if (slots >= lg->count) {
        for (size_t i = 0; i < lg->count; i++)
            lg->entries[i].listed = true;
        lg->listed = lg->count;
        return;
    }
    lg->listed = 0;
    for (size_t n = 0; n < slots; n++) {
        struct legend_entry *best = NULL;
        for (size_t i = 0; i < lg->count; i++)
            if (!lg->entries[i].listed && (!best || lg->entries[i].rank < best->rank))
                best = &lg->entries[i];
        if (!best)
            break;
        best->listed = true;
        lg->listed++;
    }
}

/* The widest label and value of the listed entries at the legend's font. */
static void legend_measure(struct layout *L, struct legend *lg)
{
    char value[80];
    lg->label_width = 0;
    lg->value_width = text_width(L->tm, legend_header(lg), lg->font * 0.9, false);
    for (size_t i = 0; i < lg->count; i++) {
        if (!lg->entries[i].listed)
            continue;
        double w = text_width(L->tm, lg->entries[i].shown, lg->font, false);
        if (w > lg->label_width)
            lg->label_width = w;
        legend_value(lg, &lg->entries[i], value, sizeof value);
        w = text_width(L->tm, value, lg->font, false);
        if (w > lg->value_width)
            lg->value_width = w;
    }
}

#define LEGEND_GAP 12.0     /* between a label and its value */
#define LEGEND_COLUMN_GAP 18.0

/* Sizes a legend right of the plot to fit width max_width and height avail: shrinks the
 * font, then lists the largest entries only. */
static void legend_fit(struct layout *L, struct legend *lg, double max_width, double avail)
{
    lg->below = false;
    for (lg->font = LEGEND_SIZE;; lg->font -= 1) {
        lg->row = ceil(lg->font * 1.45);
        if (lg->font <= LEGEND_MIN_SIZE || (lg->count + 1) * lg->row <= avail)
            break;
    }
    size_t rows = (size_t)(avail / lg->row);
    size_t slots = rows > 0 ? rows - 1 : 0;                 /* the header takes a row */
    if (slots < lg->count)
        slots = slots > 0 ? slots - 1 : 0;                  /* and the "left out" line */
    legend_select(lg, slots);
    legend_measure(L, lg);
    double fixed = SWATCH + 6 + LEGEND_GAP + lg->value_width;
    if (fixed + lg->label_width > max_width)
        lg->label_width = max_width - fixed;
    if (lg->label_width < 40)
        lg->label_width = 40;
    lg->width = fixed + lg->label_width;
}

/* Sizes a legend under the plot: columns of entries across the width, at most
 * max_height tall. */
static void legend_fit_below(struct layout *L, struct legend *lg, double width,
                             double max_height)
{
    lg->below = true;
    lg->font = LEGEND_MIN_SIZE + 1;
    lg->row = ceil(lg->font * 1.45);
    legend_select(lg, lg->count);
    legend_measure(L, lg);
    double fixed = SWATCH + 6 + LEGEND_GAP + lg->value_width;
    double natural = fixed + lg->label_width;
    lg->column_width = fmin(natural, width);
    lg->columns = (size_t)fmax(1, floor((width + LEGEND_COLUMN_GAP) /
                                        (lg->column_width + LEGEND_COLUMN_GAP)));
    /* widen the columns to share the width: more room for labels */
    lg->column_width = (width + LEGEND_COLUMN_GAP) / lg->columns - LEGEND_COLUMN_GAP;
    size_t max_rows = (size_t)fmax(1, floor(max_height / lg->row) - 1);
    size_t slots = lg->columns * max_rows;
    if (slots < lg->count)
        slots = slots > 0 ? slots - 1 : 0;
    legend_select(lg, slots);
    legend_measure(L, lg);
    lg->label_width = fmax(20, lg->column_width - fixed);
    lg->rows = (lg->listed + (lg->listed < lg->count) + lg->columns - 1) / lg->columns;
    lg->height = (lg->rows + 1) * lg->row;
    lg->width = width;
}

/* Byte offset where a and b first differ, on a character boundary. */
static size_t first_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return utf8_boundary(a, i);
}

/* The text of every listed entry, elided in the middle to the label width; where two
 * bands' elided texts would read the same although their names differ, each is shown
 * from a little before the place where it differs from the other ("…" + the rest,
 * elided at its end), and as a last resort gets its position in the legend appended,
 * so no two listed bands read the same. -1 when out of memory. */
static int legend_texts(struct layout *L, struct legend *lg)
{
    for (size_t i = 0; i < lg->count; i++) {
        struct legend_entry *e = &lg->entries[i];
        if (!e->listed)
            continue;
        text_elide_middle(L->tm, e->shown, lg->font, false, lg->label_width, L->buf,
                          sizeof L->buf);
        if (!(e->text = strdup(L->buf)))
            return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < lg->count; i++) {
            struct legend_entry *e = &lg->entries[i];
            if (!e->listed || e->total_kind >= 0)
                continue;
            size_t from = 0;
            bool clash = false;
            for (size_t j = 0; j < lg->count; j++) {
                struct legend_entry *o = &lg->entries[j];
                if (j == i || !o->listed || o->total_kind >= 0 || strcmp(e->text, o->text) != 0)
                    continue;
                clash = true;
                size_t d = first_difference(e->shown, o->shown);
                if (d > from)
                    from = d;
            }
            if (!clash)
                continue;
            if (pass == 0) {
                /* keep a few characters before the difference for context */
                size_t start = from > 12 ? utf8_boundary(e->shown, from - 12) : 0;
                char *rest = L->buf;
                size_t off = 0;
                if (start > 0) {
                    memcpy(rest, "\xe2\x80\xa6", 3);
                    off = 3;
                }
                double ell = start > 0 ? text_width(L->tm, "\xe2\x80\xa6", lg->font, false) : 0;
                text_elide_end(L->tm, e->shown + start, lg->font, false,
                               lg->label_width - ell, rest + off, sizeof L->buf - off);
                char *t = strdup(L->buf);
                if (!t)
                    return -1;
                free(e->text);
                e->text = t;
            } else {
                char suffix[32];
                int n = snprintf(suffix, sizeof suffix, " [%zu]", i + 1);
                double sw = text_width(L->tm, suffix, lg->font, false);
                text_elide_middle(L->tm, e->shown, lg->font, false, lg->label_width - sw,
                                  L->buf, sizeof L->buf - (size_t)n);
                strcat(L->buf, suffix);
                char *t = strdup(L->buf);
                if (!t)
                    return -1;
                free(e->text);
                e->text = t;
            }
        }
    }
    return 0;
}

static void legend_free(struct legend *lg)
{
    for (size_t i = 0; lg->entries && i < lg->count; i++)
        free(lg->entries[i].text);
    free(lg->entries);
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

/* "… 808 smaller bands not listed": what the legend leaves out, and which end. */
static void legend_left_out(const struct legend *lg, char *out, size_t size)
{
    size_t n = lg->count - lg->listed;
    const char *which = lg->listed == 0 ? ""   /* none listed: none larger */
                      : lg->sort == PROFILE_SORT_SIZE ? "smaller "
                      : lg->sort == PROFILE_SORT_STDDEV ? "steadier " : "more ";
    snprintf(out, size, "\xe2\x80\xa6 %zu %s%s not listed", n, which,
             n == 1 ? "entry" : "entries");
}

static void legend_entry_draw(struct layout *L, const struct legend *lg,
                              const struct legend_entry *e, double x, double y, double value_x)
{
    char value[80];
    legend_swatch(L, e, x, y, lg->font);
    text(L, x + SWATCH + 6, y, e->text, lg->font, COLOR_INK, DL_ANCHOR_START, false, "legend",
         strcmp(e->text, e->label) != 0 ? e->label : NULL);
    legend_value(lg, e, value, sizeof value);
    text(L, value_x, y, value, lg->font, COLOR_QUIET, DL_ANCHOR_END, false, "legend", NULL);
}

static void legend_draw(struct layout *L, struct legend *lg, double x, double y)
{
    if (legend_texts(L, lg) != 0) {
        L->failed = true;
        return;
    }
    double col_w = lg->below ? lg->column_width : lg->width;
    text(L, x + col_w, y, legend_header(lg), lg->font * 0.9, COLOR_QUIET, DL_ANCHOR_END, false,
         "legend", NULL);
    size_t slot = 0;
    for (size_t i = 0; i < lg->count; i++) {
        const struct legend_entry *e = &lg->entries[i];
        if (!e->listed)
            continue;
        size_t col = lg->below ? slot / lg->rows : 0, row = lg->below ? slot % lg->rows : slot;
        double cx = x + col * (col_w + LEGEND_COLUMN_GAP);
        legend_entry_draw(L, lg, e, cx, y + (row + 1) * lg->row, cx + col_w);
        slot++;
    }
    if (lg->listed < lg->count) {
        size_t col = lg->below ? slot / lg->rows : 0, row = lg->below ? slot % lg->rows : slot;
        double cx = x + col * (col_w + LEGEND_COLUMN_GAP);
        char what[96];
        legend_left_out(lg, what, sizeof what);
        text_elide_end(L->tm, what, lg->font, false, col_w - SWATCH - 6, L->buf, sizeof L->buf);
        text(L, cx + SWATCH + 6, y + (row + 1) * lg->row, L->buf, lg->font, COLOR_QUIET,
             DL_ANCHOR_START, false, "legend", strcmp(L->buf, what) != 0 ? what : NULL);
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
        chart_format_scale_top(ymax, t->unit, out, size);
}

static void y_axis(struct layout *L, const struct y_ticks *t)
{
    char label[48];
    const struct view_ops *ops = view_ops(L->opt->view);
    if (ops->y_axis) {
        struct chart_plot P = plot_of(L);
        ops->y_axis(&P, false);
        plot_back(L, &P);
        return;
    }
    for (unsigned i = 0; i < t->count + t->top; i++) {
        double v = i < t->count ? i * t->step : L->ymax;
        double y = px_y(L, v);
        if (v > 0)
            line(L, L->left, y, L->right, y, COLOR_GRID, 1, false, "grid");
        line(L, L->left - 4, y, L->left, y, COLOR_AXIS, 1, false, "axis");
        y_tick_label(t, i, L->ymax, label, sizeof label);
        text(L, L->left - 7, y + KIT_TICK_SIZE * 0.35, label, KIT_TICK_SIZE, COLOR_QUIET,
             DL_ANCHOR_END, false, "axis", NULL);
    }
}

static double widest_y_label(struct layout *L, const struct y_ticks *t)
{
    char label[48];
    double widest = 0;
    const struct view_ops *ops = view_ops(L->opt->view);
    if (ops->y_axis) {
        struct chart_plot P = plot_of(L);
        return ops->y_axis(&P, true);
    }
    for (unsigned i = 0; i < t->count + t->top; i++) {
        y_tick_label(t, i, L->ymax, label, sizeof label);
        widest = fmax(widest, text_width(L->tm, label, KIT_TICK_SIZE, false));
    }
    return widest;
}

static void x_axis(struct layout *L)
{
    struct chart_plot P = plot_of(L);
    chart_kit_x_axis(&P, true, true);
    plot_back(L, &P);
}

/* The memory axis's name, turned along it, left of the tick labels. */
static void y_title(struct layout *L)
{
    check(L, display_text(L->dl, KIT_MARGIN + KIT_TICK_SIZE * 0.8, (L->top + L->bottom) / 2,
                          "memory", KIT_TICK_SIZE, COLOR_QUIET, DL_ANCHOR_MIDDLE, false, -90,
                          "axis"));
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
    struct chart_plot P = plot_of(L);
    size_t n = chart_plot_reduce(&P, keep);
    /* Outlines while bands are 3 px thick on average; a denser chart (hundreds of bands)
     * shows its colours alone rather than a mesh of lines, but for a separator between
     * neighbours whose colours are too close (chart_band_separator). */
    bool edges = (L->bottom - L->top) / (double)w >= 3;
    /* cumulative totals up to and including band b; computed from the top down */
    for (size_t k = 0; k < n; k++)
        cum[k] = v->point_totals[keep[k]];
    for (size_t b = w; b-- > 0;) {
        size_t m = 0;
        pts[m++] = (struct dl_point){ px_x(L, v->time_ns[keep[0]]), L->bottom };
        for (size_t k = 0; k < n; k++)
            pts[m++] = (struct dl_point){ px_x(L, v->time_ns[keep[k]]), px_y(L, (double)cum[k]) };
        pts[m++] = (struct dl_point){ px_x(L, v->time_ns[keep[n - 1]]), L->bottom };
        /* the line along its top: against the band above (drawn before it), the
         * background for the topmost */
        double edge_width;
        struct dl_color edge = chart_band_separator(L->colors[b], b + 1 < w ? L->colors[b + 1]
                                                                           : COLOR_WHITE,
                                                    edges, &edge_width);
        struct dl_item *it = display_polygon(L->dl, pts, m, L->colors[b], edge, edge_width,
                                             "band");
        check(L, it);
        if (it && display_set_title(it, L->names[b]) != 0)
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

#define MARKER_ROW (MARKER_SIZE + 4)
#define MARKER_MAX_ROWS 4
#define MARKER_LABEL_MAX 200.0
#define MARKER_GAP 2.0

/* A rectangle a text occupies: x0 <= x1, y0 <= y1. */
struct box {
    double x0, y0, x1, y1;
};

static bool boxes_meet(const struct box *a, const struct box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Where the peak's label goes (peak_mark draws it; markers keep clear of it): its text,
 * anchor point and box. False when the view has no peak to mark. */
static bool peak_label(struct layout *L, char *label, size_t size, double *tx, double *ty,
                       enum dl_anchor *anchor, struct box *box, size_t *best_point)
{
    const struct profile_view *v = L->v;
    size_t best = 0;
    if (!view_ops(L->opt->view)->marks_peak || !v->point_count || !v->band_count)
        return false;
    for (size_t i = 1; i < v->point_count; i++)
        if (v->point_totals[i] > v->point_totals[best])
            best = i;
    double x = px_x(L, v->time_ns[best]), y = L->bottom
               - fmin((double)v->point_totals[best], L->ymax) / L->ymax * (L->bottom - L->top);
    char value[40];
    format_bytes((double)v->point_totals[best], value, sizeof value);
    snprintf(label, size, "peak %s", value);
    if ((double)v->point_totals[best] > L->ymax)
        y = L->top + 36;   /* off the scale: under an arrow at the top (peak_mark) */
    double w = text_width(L->tm, label, KIT_TICK_SIZE, true);
    *anchor = DL_ANCHOR_MIDDLE;
    *tx = x;
    if (x - w / 2 < L->left + 2)
        *anchor = DL_ANCHOR_START, *tx = fmax(L->left + 2, x - 6);
    else if (x + w / 2 > L->right - 2)
        *anchor = DL_ANCHOR_END, *tx = fmin(L->right - 2, x + 6);
    *ty = y - 12;
    double x0 = *anchor == DL_ANCHOR_START ? *tx : *anchor == DL_ANCHOR_MIDDLE ? *tx - w / 2
                                                                             : *tx - w;
    double asc, desc;
    text_vertical_extent(L->tm, label, KIT_TICK_SIZE, true, true, &asc, &desc);
    *box = (struct box){ x0, *ty - asc, x0 + w, *ty + desc };
    *best_point = best;
    return true;
}

/* A marker's label turned along its line, inside the plot, reading upwards and ending
 * near the top: right of the line, or left of it at the plot's right edge. Needs the
 * strip beside the line free of the previous turned label (*free_from: the first x it
 * may use) and of the peak's label. False when there is no room. */
static bool turned_label(struct layout *L, double x, const char *text, const char *tip,
                         bool whole_only, double *free_from, const struct box *avoid,
                         size_t n_avoid)
{
    double asc, desc;
    text_vertical_extent(L->tm, text, MARKER_SIZE, false, true, &asc, &desc);
    double thick = asc + desc;
    double x0 = x + MARKER_GAP;
    if (x0 + thick > L->right - 1)
        x0 = x - MARKER_GAP - thick;
    double top = L->top + 4, len = fmin(L->bottom - 4 - top, MARKER_LABEL_MAX);
    if (x0 < *free_from || x0 < L->left + 1 || len < 24)
        return false;
    struct box b = { x0, top, x0 + thick, top + len };
    for (size_t i = 0; i < n_avoid; i++) {
        if (!boxes_meet(&b, &avoid[i]))
            continue;
        /* the longer of the stretches above and below it */
        double above = avoid[i].y0 - 2 - b.y0, below = b.y1 - (avoid[i].y1 + 2);
        if (below > above)
            b.y0 = avoid[i].y1 + 2;
        else
            b.y1 = avoid[i].y0 - 2;
    }
    for (size_t i = 0; i < n_avoid; i++)
        if (boxes_meet(&b, &avoid[i]))
            return false;   /* boxes above and below it both */
    top = b.y0;
    len = b.y1 - b.y0;
    if (len < 24)
        return false;
    if (text_elide_end(L->tm, text, MARKER_SIZE, false, len, L->buf, sizeof L->buf) &&
        whole_only)
        return false;
    double w = text_width(L->tm, L->buf, MARKER_SIZE, false);
    /* a pale ground under the text, so it reads over any band */
    check(L, display_rect(L->dl, x0, top, thick, w, (struct dl_color){ 255, 255, 255, 170 },
                          (struct dl_color){ 0 }, 0, "marker"));
    struct dl_item *it = display_text(L->dl, x0 + asc, top, L->buf, MARKER_SIZE, COLOR_INK,
                                      DL_ANCHOR_END, false, -90, "marker");
    check(L, it);
    if (it && display_set_title(it, tip) != 0)
        L->failed = true;
    *free_from = x0 + thick + MARKER_GAP;
    return true;
}

/* Markers as thin lines, each with its text above the plot: a label that would collide
 * with the one before goes to the next row up (at most MARKER_MAX_ROWS, and the rows
 * the panel has room for); one that finds no row is turned along its line inside the
 * plot (turned_label); one that finds no room even so is counted as unlabelled (the
 * subtitle says how many). Every line's tooltip has its marker's text and time. A
 * marker at the very start is drawn just inside the plot, not under the y axis. */
static void markers(struct layout *L, double label_right)
{
    const struct profile_view *v = L->v;
    if (L->opt->no_markers)
        return;
    double free_from[MARKER_MAX_ROWS];
    for (size_t r = 0; r < MARKER_MAX_ROWS; r++)
        free_from[r] = -1e9;
    double turned_free_from = -1e9;
    struct box avoid[1];
    size_t n_avoid = 0;
    {
        char label[64];
        double tx, ty;
        enum dl_anchor anchor;
        size_t best;
        n_avoid += peak_label(L, label, sizeof label, &tx, &ty, &anchor, &avoid[0], &best);
    }
    L->unlabelled = 0;
    L->marker_rows_needed = 0;
    for (size_t i = 0; i < v->marker_count; i++) {
        const struct profile_marker *m = &v->markers[i];
        double x = px_x(L, m->time_ns);
        if (x < L->left - 0.5 || x > L->right + 0.5)
            continue;
        x = fmin(fmax(x, L->left + 1.5), L->right - 0.5);
        char tip[PROFILE_MAX_MARKER_TEXT + 64];
        if (m->merged)
            snprintf(tip, sizeof tip, "%s (%.3f s) and %" PRIu32 " more marker%s within a "
                     "pixel", m->text, m->time_ns / 1e9, m->merged, m->merged == 1 ? "" : "s");
        else
            snprintf(tip, sizeof tip, "%s (%.3f s)", m->text, m->time_ns / 1e9);
        struct dl_point pts[2] = { { x, L->top }, { x, L->bottom } };
        struct dl_item *it = display_polyline(L->dl, pts, 2, COLOR_MARKER, 1, false, "marker");
        check(L, it);
        if (it && display_set_title(it, tip) != 0)
            L->failed = true;
        if (!*m->text)
            continue;
        double room = label_right - x;
        size_t row = MARKER_MAX_ROWS;
        double w = 0;
        bool cut = false;
        if (room >= 24) {
            cut = text_elide_end(L->tm, m->text, MARKER_SIZE, false,
                                 fmin(room, MARKER_LABEL_MAX), L->buf, sizeof L->buf);
            w = text_width(L->tm, L->buf, MARKER_SIZE, false);
            row = 0;
            while (row < MARKER_MAX_ROWS && x < free_from[row])
                row++;
        }
        if (row < L->marker_rows) {
            /* cut short by the right edge: whole along its line, if it fits there */
            if (cut && turned_label(L, x, m->text, tip, true, &turned_free_from, avoid,
                                    n_avoid))
                continue;
            if (cut)   /* turned_label used the buffer */
                text_elide_end(L->tm, m->text, MARKER_SIZE, false,
                               fmin(room, MARKER_LABEL_MAX), L->buf, sizeof L->buf);
            text(L, x, L->top - 4 - row * MARKER_ROW, L->buf, MARKER_SIZE, COLOR_INK,
                 DL_ANCHOR_START, false, "marker", tip);
        }
        if (row < MARKER_MAX_ROWS) {
            if (row + 1 > L->marker_rows_needed)
                L->marker_rows_needed = row + 1;
            free_from[row] = x + w + 6;
        }
        if (row < L->marker_rows)
            continue;
        /* no row (or none reserved yet: the next layout pass makes them) */
        if (!turned_label(L, x, m->text, tip, false, &turned_free_from, avoid, n_avoid))
            L->unlabelled++;
    }
}

static void peak_mark(struct layout *L)
{
    const struct profile_view *v = L->v;
    char label[64];
    double tx, ty;
    enum dl_anchor anchor;
    struct box box;
    size_t best;
    if (!peak_label(L, label, sizeof label, &tx, &ty, &anchor, &box, &best))
        return;
    double x = px_x(L, v->time_ns[best]), y = px_y(L, (double)v->point_totals[best]);
    struct dl_point tri[3] = { { x - 4, y - 9 }, { x + 4, y - 9 }, { x, y - 3 } };
    if ((double)v->point_totals[best] > L->ymax) {
        /* off the scale (--y-max): an arrow up just inside the top, the value under it */
        tri[0] = (struct dl_point){ x - 4, L->top + 10 };
        tri[1] = (struct dl_point){ x + 4, L->top + 10 };
        tri[2] = (struct dl_point){ x, L->top + 4 };
    }
    check(L, display_polygon(L->dl, tri, 3, COLOR_INK, (struct dl_color){ 0 }, 0, "peak"));
    text(L, tx, ty, label, KIT_TICK_SIZE, COLOR_INK, anchor, true, "peak", NULL);
}

static void note(struct layout *L, const char *what)
{
    text(L, (L->left + L->right) / 2, (L->top + L->bottom) / 2, what, 14, COLOR_QUIET,
         DL_ANCHOR_MIDDLE, false, "note", NULL);
}

/* The names a view's bands are shown by (legend, tooltips): the label without a .hp's
 * "(n)"; where two shown bands would still read the same (two stacks of equal names,
 * two -L cut labels of a .hp), each gets its stack number ("#n") too, so no two bands
 * share a name. Malloc'd strings, for free_names; NULL when out of memory. */
static char **band_names(const struct profile_view *v)
{
    size_t n = v->band_count;
    char **names = calloc(n ? n : 1, sizeof *names);
    bool *dup = calloc(n ? n : 1, sizeof *dup);
    if (!names || !dup)
        goto fail;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(shown_label(v->bands[i].label),
                       shown_label(v->bands[j].label)) == 0)
                dup[i] = dup[j] = true;
    for (size_t i = 0; i < n; i++) {
        const struct profile_band *b = &v->bands[i];
        const char *shown = shown_label(b->label);
        if (!dup[i]) {
            names[i] = strdup(shown);
        } else {
            size_t prefix = (size_t)(shown - b->label);   /* "(n)" of a .hp label */
            unsigned long number = b->stack_number ? b->stack_number
                                 : prefix >= 3 ? strtoul(b->label + 1, NULL, 10)
                                               : (unsigned long)i + 1;
            size_t size = strlen(shown) + 32;
            names[i] = malloc(size);
            if (names[i])
                snprintf(names[i], size, "%s #%lu", shown, number);
        }
        if (!names[i])
            goto fail;
    }
    free(dup);
    return names;
fail:
    if (names)
        for (size_t i = 0; i < n; i++)
            free(names[i]);
    free(names);
    free(dup);
    return NULL;
}

static void free_names(char **names, size_t n)
{
    if (!names)
        return;
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static bool has_totals(const struct profile_view *v)
{
    return v->totals[0].count || v->totals[1].count || v->totals[2].count;
}

/* One chart of the picture: a run, its title, and where it goes. */
struct panel {
    const struct chart_run *run;
    const char *title;           /* NULL: no title line (--title '') */
    const char *prefix;          /* "base: ", "this run: " or "" */
    struct dl_color *colors;
    char **names;
    double y0, y1;               /* the slice of the picture it owns */
    double top, bottom;          /* its plot area */
    size_t marker_rows;          /* rows of marker labels it has room for */
    size_t marker_rows_needed, unlabelled;   /* what its markers asked (last pass) */
    size_t marker_rows_fit;      /* rows it can give and keep a plot of PLOT_MIN_HEIGHT */
};

static void use_panel(struct layout *L, const struct panel *p)
{
    L->v = p->run->view;
    L->info = p->run->info;
    const struct view_ops *ops = view_ops(L->opt->view);
    L->below = ops->below ? ops->below(L->v, L->info) : 0;
    L->colors = p->colors;
    L->names = p->names;
    L->top = p->top;
    L->bottom = p->bottom;
    L->marker_rows = p->marker_rows;
    L->unlabelled = p->unlabelled;
    L->show_totals = view_lists_totals(L->opt->view, L->opt->totals || L->v->censuses == 0);
}

#define PLOT_MIN_HEIGHT 40.0
#define X_AXIS_HEIGHT (2 * KIT_TICK_SIZE + 14)   /* tick labels and the axis's name */

/* Draws the panel's title block and fixes its plot's top and bottom: marker rows give
 * way to a plot of PLOT_MIN_HEIGHT (their labels are turned instead), and a plot that
 * still does not fit reaches below y1 (layout_pass moves the legend down for it). */
static void panel_frame(struct layout *L, struct panel *p)
{
    use_panel(L, p);
    struct chart_plot P = plot_of(L);
    double subtitle_y = chart_kit_title(&P, p->run->info, p->title, p->prefix, L->unlabelled,
                                        p->y0);
    plot_back(L, &P);
    p->bottom = p->y1 - X_AXIS_HEIGHT - L->below;
    double spare = p->bottom - (subtitle_y + 16) - PLOT_MIN_HEIGHT;
    p->marker_rows_fit = spare > 0 ? (size_t)floor(spare / MARKER_ROW) : 0;
    if (p->marker_rows > p->marker_rows_fit)
        p->marker_rows = p->marker_rows_fit;
    p->top = subtitle_y + 16 + (double)p->marker_rows * MARKER_ROW;
    if (p->bottom - p->top < PLOT_MIN_HEIGHT)
        p->bottom = p->top + PLOT_MIN_HEIGHT;
}

static void clip_note(struct layout *L, const struct y_ticks *t)
{
    char top[32], what[96];
    chart_format_scale_top(L->ymax, t->unit, top, sizeof top);
    snprintf(what, sizeof what, "clipped: values above %s (--y-max) are drawn at the top", top);
    /* on the line of the time axis's name, right-aligned: clear of bands and the peak */
    text_elide_end(L->tm, what, KIT_TICK_SIZE, false, L->right - L->left, L->buf, sizeof L->buf);
    text(L, L->right, L->bottom + L->below + 12 + 2 * KIT_TICK_SIZE + 2, L->buf, KIT_TICK_SIZE,
         COLOR_INK, DL_ANCHOR_END, false, "note", strcmp(L->buf, what) != 0 ? what : NULL);
}

/* Everything of one panel but its title, on the scales already fixed in L. */
static void panel_plot(struct layout *L, struct panel *p, const struct y_ticks *ticks,
                       double label_right)
{
    use_panel(L, p);
    L->clipped = false;
    y_axis(L, ticks);
    y_title(L);
    x_axis(L);
    const struct view_ops *ops = view_ops(L->opt->view);
    if (view_is_area(L->opt->view)) {
        bands(L);
    } else if (ops->draw) {
        struct chart_plot P = plot_of(L);
        ops->draw(&P);
        plot_back(L, &P);
    }
    totals(L);
    markers(L, label_right);
    p->marker_rows_needed = L->marker_rows_needed;
    p->unlabelled = L->unlabelled;
    line(L, L->left, L->top, L->left, L->bottom, COLOR_AXIS, 1, false, "axis");
    line(L, L->left, L->bottom, L->right, L->bottom, COLOR_AXIS, 1, false, "axis");
    if (ops->marks_peak)
        peak_mark(L);
    const struct profile_view *view = L->v;
    if (chart_kit_window_misses(view))
        note(L, "no census in the window --from / --to: it is outside the run");
    else if (L->opt->view == CHART_VIEW_HEAP) {
        if (!has_totals(view))
            note(L, "no heap totals in this input (eventlogs have them; .hp files do not)");
    } else if (view->censuses == 0)
        note(L, !has_totals(view) ? "no heap censuses and no heap totals in this input"
                : L->show_totals ? "no heap censuses (run with +RTS -h for a profile): "
                                   "heap totals shown"
                                 : "no heap censuses (run with +RTS -h for a profile): "
                                   "--view heap shows the heap totals");
    else if (!view->band_count)
        note(L, "no band left after --include / --exclude");
    if (L->clipped)
        clip_note(L, ticks);
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
    /* a view on another scale (percent, the streamgraph's height, the largest band)
     * says its own top; those on memory scales keep room above it for the peak's label */
    const struct view_ops *ops = view_ops(L->opt->view);
    double top = 0;
    for (size_t k = 0; ops->scale_top && k < n; k++)
        top = fmax(top, ops->scale_top(panels[k].run->view));
    if (top > 0 && !view_is_area(L->opt->view)) {
        bool memory = !ops->y_axis;
        if (memory && L->opt->has_y_max && L->opt->y_max > 0)
            L->ymax = (double)L->opt->y_max;
        else
            L->ymax = memory ? top * plot_h / fmax(plot_h - 26, 1) : top;
        return;
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
        struct chart_plot P = plot_of(L);
        chart_kit_time_range(&P, panels[k].run->info, L->show_totals);
        L->x0 = P.x0;
        L->x1 = P.x1;
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
    if (legend_entries(L, lg, panels[n - 1].names) != 0)
        return -1;
    for (size_t k = 0; k + 1 < n; k++)
        if (legend_add_base(L, lg, panels[k].run->view, panels[k].colors, panels[k].names) != 0)
            return -1;
    return 0;
}

/* A chart narrower than this keeps its plot wide and lists the bands under it. */
#define LEGEND_BELOW_WIDTH 560

/* One layout pass: n panels stacked top to bottom, sharing scales, colours and one
 * legend. 0, or -1 when out of memory. */
static int layout_pass(struct panel *panels, size_t n, const char *document_title,
                       const struct chart_options *opt, struct textmeasure *tm,
                       struct display_list *dl)
{
    struct layout L = { .opt = opt, .tm = tm, .dl = dl };
    double W = opt->width, H = opt->height;
    display_init(dl, W, H, COLOR_WHITE);
    struct legend lg = { 0 };
    if (display_set_document_title(dl, document_title) != 0 ||
        panels_legend(&L, panels, n, &lg) != 0)
        goto fail;
    time_scale(&L, panels, n);
    double legend_h = 0;
    if (lg.count && W < LEGEND_BELOW_WIDTH) {
        legend_fit_below(&L, &lg, W - 2 * KIT_MARGIN, (H - 2 * KIT_MARGIN) * 0.3);
        legend_h = lg.height + 6;
    }
    double slice = (H - 2 * KIT_MARGIN - legend_h) / (double)n;
    for (size_t k = 0; k < n; k++) {
        panels[k].y0 = KIT_MARGIN + k * slice + (k ? 10 : 0);
        panels[k].y1 = KIT_MARGIN + (k + 1) * slice;
        panel_frame(&L, &panels[k]);
    }
    if (lg.count && lg.below) {
        /* a small chart's plot reached below its slice: the legend gives up rows */
        use_panel(&L, &panels[n - 1]);
        double axis_end = panels[n - 1].bottom + L.below + X_AXIS_HEIGHT + 6;
        double over = axis_end - (H - KIT_MARGIN - lg.height);
        if (over > 0)
            legend_fit_below(&L, &lg, W - 2 * KIT_MARGIN, lg.height - over);
    }
    memory_scale(&L, panels, n);
    double plot_h = panels[0].bottom - panels[0].top;
    struct y_ticks ticks = y_ticks(&L, (unsigned)fmax(2, plot_h / 50));
    /* the turned axis name, then the tick labels */
    L.left = KIT_MARGIN + KIT_TICK_SIZE * 1.2 + 4 + widest_y_label(&L, &ticks) + 8;
    if (lg.count && !lg.below) {
        legend_fit(&L, &lg, W * 0.34, panels[n - 1].bottom - panels[0].top);
        L.right = W - KIT_MARGIN - lg.width - 20;
    } else {
        L.right = W - KIT_MARGIN;
    }
    if (L.right - L.left < 60)
        L.right = L.left + 60;
    for (size_t k = 0; k < n; k++)
        panel_plot(&L, &panels[k], &ticks, lg.count && !lg.below ? L.right + 16 : W - KIT_MARGIN);
    if (lg.count && lg.below)
        legend_draw(&L, &lg, KIT_MARGIN, H - KIT_MARGIN - lg.height + lg.row * 0.8);
    else if (lg.count)
        legend_draw(&L, &lg, L.right + 20, panels[0].top + lg.row * 0.5);
    if (L.failed)
        goto fail;
    legend_free(&lg);
    return 0;
fail:
    legend_free(&lg);
    display_free(dl);
    return -1;
}

/* Lays out the panels; further passes give marker labels the rows they asked for and
 * the subtitle the count of those left unlabelled. */
static int layout_panels(struct panel *panels, size_t n, const char *document_title,
                         const struct chart_options *opt, struct textmeasure *tm,
                         struct display_list *dl)
{
    struct dl_color *colors[2] = { NULL, NULL };
    char **names[2] = { NULL, NULL };
    int rc = -1;
    for (size_t k = 0; k < n; k++) {
        const struct profile_view *v = panels[k].run->view;
        colors[k] = malloc((v->band_count + 1) * sizeof *colors[k]);
        names[k] = band_names(v);
        if (!colors[k] || !names[k])
            goto done;
        panels[k].colors = colors[k];
        panels[k].names = names[k];
        bool labels = !opt->no_markers && v->marker_count;
        panels[k].marker_rows = labels ? 1 : 0;
    }
    /* the panels share one legend: their bands are coloured together, a band of one
     * legend entry alike in both */
    const struct profile_view *views[2] = { panels[0].run->view,
                                            n > 1 ? panels[1].run->view : NULL };
    if (chart_kit_colors_of(views, names, n, colors) != 0)
        goto done;
    /* Each pass draws the subtitle with the unlabelled count of the pass before (the
     * title comes before the plot), so passes repeat until the rows asked for are
     * given and the count said is the count drawn; rows only grow, so this ends (the
     * bound is for safety). */
    for (int pass = 0;; pass++) {
        size_t said[2] = { panels[0].unlabelled, n > 1 ? panels[1].unlabelled : 0 };
        if (layout_pass(panels, n, document_title, opt, tm, dl) != 0)
            goto done;
        bool again = false;
        for (size_t k = 0; k < n; k++) {
            /* marker rows take at most a fifth of the panel: the plot stays the chart */
            size_t room = (size_t)fmax(1, floor((panels[k].y1 - panels[k].y0) * 0.2
                                                / MARKER_ROW));
            if (room > panels[k].marker_rows_fit)
                room = panels[k].marker_rows_fit;
            size_t rows = panels[k].marker_rows_needed < room ? panels[k].marker_rows_needed
                                                              : room;
            if (rows > panels[k].marker_rows) {
                panels[k].marker_rows = rows;
                again = true;
            }
            again |= panels[k].unlabelled != said[k];
        }
        if (!again || pass == 4)
            break;
        display_free(dl);
    }
    rc = 0;
done:
    for (size_t k = 0; k < n; k++) {
        free(colors[k]);
        free_names(names[k], panels[k].run->view->band_count);
    }
    return rc;
}

int chart_layout(const struct profile_view *view, const struct run_info *info,
                 const char *input_name, const struct chart_options *opt,
                 struct textmeasure *tm, struct display_list *dl)
{
    const struct view_ops *ops = view_ops(opt->view);
    if (ops->layout)   /* a view that lays out the whole picture */
        return ops->layout(view, info, input_name, opt, tm, dl);
    struct chart_run run = { view, info, input_name };
    struct panel panel = { .run = &run, .prefix = "" };
    const char *named = chart_kit_run_title(opt->title, info, input_name);
    /* --title '' removes the title line; the document keeps a name */
    panel.title = opt->title && !*opt->title ? NULL : named;
    return layout_panels(&panel, 1, named, opt, tm, dl);
}

int chart_layout_compare(const struct chart_run *base, const struct chart_run *now,
                         const struct chart_options *opt, struct textmeasure *tm,
                         struct display_list *dl)
{
    const struct view_ops *ops = view_ops(opt->view);
    if (ops->layout)   /* a whole picture (detail: one row per band): this run only */
        return ops->layout(now->view, now->info, now->input_name, opt, tm, dl);
    struct panel panels[2] = {
        { .run = base, .prefix = "base: " },
        { .run = now, .prefix = "this run: " },
    };
    panels[0].title = chart_kit_run_title(NULL, base->info, base->input_name);
    panels[1].title = chart_kit_run_title(opt->title, now->info, now->input_name);
    char document_title[KIT_LABEL_MAX];
    utf8_end_printed(document_title, sizeof document_title,   /* never inside a character */
                     snprintf(document_title, sizeof document_title, "%s, compared with %s",
                              panels[1].title, panels[0].title));
    return layout_panels(panels, 2, document_title, opt, tm, dl);
}
