/* bandselect.c: band filters and the choice of shown bands (bandselect.h). */
#include "model/bandselect.h"

#include "base/grow.h"
#include "base/order.h"

#include <stdlib.h>
#include <string.h>

bool profile_sort_from_name(const char *name, enum profile_sort *sort)
{
    static const struct { const char *name; enum profile_sort sort; } sorts[] = {
        { "size", PROFILE_SORT_SIZE }, { "stddev", PROFILE_SORT_STDDEV },
        { "name", PROFILE_SORT_NAME }, { "growth", PROFILE_SORT_GROWTH },
    };
    for (size_t i = 0; i < sizeof sorts / sizeof *sorts; i++)
        if (strcmp(name, sorts[i].name) == 0) {
            *sort = sorts[i].sort;
            return true;
        }
    return false;
}

static int compile(regex_t *re, const char *pattern, struct ev_error *err)
{
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[160];
        regerror(rc, re, msg, sizeof msg);
        ev_error_set(err, "bad regular expression '%s': %s", pattern, msg);
        return -1;
    }
    return 0;
}

int profile_check_pattern(const char *pattern, struct ev_error *err)
{
    regex_t re;
    if (compile(&re, pattern, err) != 0)
        return -1;
    regfree(&re);
    return 0;
}

/* --- filters ----------------------------------------------------------------------- */

int bandfilter_init(struct bandfilter *f, const char *const *include, size_t include_count,
                    const char *const *exclude, size_t exclude_count, struct ev_error *err)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < include_count && i < PROFILE_MAX_FILTERS; i++, f->include_count++)
        if (compile(&f->include[i], include[i], err) != 0)
            return -1;
    for (size_t i = 0; i < exclude_count && i < PROFILE_MAX_FILTERS; i++, f->exclude_count++)
        if (compile(&f->exclude[i], exclude[i], err) != 0)
            return -1;
    return 0;
}

void bandfilter_free(struct bandfilter *f)
{
    for (size_t i = 0; i < f->include_count; i++)
        regfree(&f->include[i]);
    for (size_t i = 0; i < f->exclude_count; i++)
        regfree(&f->exclude[i]);
    free(f->decided);
    memset(f, 0, sizeof *f);
}

int bandfilter_grow(struct bandfilter *f, size_t needed)
{
    return GROW_ARRAY_ZEROED(f->decided, &f->cap, needed);
}

int bandfilter_copy_decisions(struct bandfilter *to, const struct bandfilter *from)
{
    if (bandfilter_grow(to, from->cap) != 0)
        return -1;
    if (from->cap)
        memcpy(to->decided, from->decided, from->cap);
    return 0;
}

static bool label_passes(const struct bandfilter *f, const char *label)
{
    if (f->include_count) {
        bool any = false;
        for (size_t i = 0; i < f->include_count && !any; i++)
            any = regexec(&f->include[i], label, 0, NULL, 0) == 0;
        if (!any)
            return false;
    }
    for (size_t i = 0; i < f->exclude_count; i++)
        if (regexec(&f->exclude[i], label, 0, NULL, 0) == 0)
            return false;
    return true;
}

/* Labels are not NUL-terminated in the band table. */
bool bandfilter_decide(struct bandfilter *f, uint32_t band, const struct bands *bands)
{
    size_t len;
    const char *label = bands_display_label(bands, band, &len);
    char *copy = strndup(label ? label : "", label ? len : 0);
    if (!copy)
        return false;   /* decided again next time */
    f->decided[band] = label_passes(f, copy) ? 1 : -1;
    free(copy);
    return f->decided[band] > 0;
}

uint32_t bandfilter_dropped(const struct bandfilter *f)
{
    uint32_t n = 0;
    for (size_t b = 0; b < f->cap; b++)
        n += f->decided[b] < 0;
    return n;
}

/* --- the shown bands --------------------------------------------------------------- */

static int by_area_desc(const void *a, const void *b)
{
    const struct profile_band *x = a, *y = b;
    int c = order_double(y->stats.area, x->stats.area);
    if (!c)
        c = order_double((double)y->stats.peak, (double)x->stats.peak);
    return c ? c : order_u64(x->band, y->band);
}

static int by_growth_desc(const void *a, const void *b)
{
    const struct profile_band *x = a, *y = b;
    int c = order_double(y->stats.growth, x->stats.growth);
    return c ? c : by_area_desc(a, b);
}

static int by_stddev_desc(const void *a, const void *b)
{
    const struct profile_band *x = a, *y = b;
    int c = order_double(y->stats.stddev, x->stats.stddev);
    return c ? c : by_area_desc(a, b);
}

/* Names sort as charts show them (bands_shown_label). */
static const char *chart_label(const char *label)
{
    return bands_shown_label(label, strlen(label), NULL);
}

static int by_name(const void *a, const void *b)
{
    const struct profile_band *x = a, *y = b;
    int c = strcmp(chart_label(x->label), chart_label(y->label));
    return c ? c : by_area_desc(a, b);
}

/* The bands with bytes (to be ranked); NULL when out of memory. */
static struct profile_band *bands_with_bytes(const struct bandstats *s, size_t *count)
{
    size_t n = 0;
    for (uint32_t b = 0; b < s->cap; b++)
        n += s->band[b].seen;
    struct profile_band *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return NULL;
    n = 0;
    for (uint32_t b = 0; b < s->cap; b++)
        if (s->band[b].seen)
            r[n++] = (struct profile_band){ .band = b, .stats = bandstats_of(s, b) };
    *count = n;
    return r;
}

/* How many of the ranked bands are shown: the first `bands`, none under the trace. */
static size_t shown_count(const struct bandselect_rule *rule, const struct profile_band *r,
                          size_t n, double total_area)
{
    size_t shown = 0;
    bool by_peak = total_area <= 0;   /* a single census has no area: rank by peak */
    uint64_t top_peak = n ? r[0].stats.peak : 0;
    for (; shown < n; shown++) {
        if (rule->bands && shown >= rule->bands)
            break;
        double share = by_peak ? (top_peak ? (double)r[shown].stats.peak / (double)top_peak : 0)
                               : r[shown].stats.area / total_area;
        if (share * 100.0 < rule->trace_percent)
            break;
    }
    return shown;
}

static void sort_shown(const struct bandselect_rule *rule, struct profile_band *r, size_t shown)
{
    if (rule->sort == PROFILE_SORT_STDDEV)
        qsort(r, shown, sizeof *r, by_stddev_desc);
    else if (rule->sort == PROFILE_SORT_NAME)
        qsort(r, shown, sizeof *r, by_name);
    else if (rule->sort == PROFILE_SORT_GROWTH)
        qsort(r, shown, sizeof *r, by_growth_desc);
    if (rule->reverse)
        for (size_t i = 0; i < shown / 2; i++) {
            struct profile_band t = r[i];
            r[i] = r[shown - 1 - i];
            r[shown - 1 - i] = t;
        }
}

/* Moves the ranked bands past the first `shown` that keep wants into the shown part (in
 * rank order); returns the new number shown. */
static size_t also_shown(struct profile_band *r, size_t n, size_t shown,
                         const struct bands *bands, const struct profile_keep *keep)
{
    if (!keep)
        return shown;
    for (size_t i = shown; i < n; i++) {
        size_t len;
        const char *label = bands_display_label(bands, r[i].band, &len);
        if (!label || !keep->wants(keep->ctx, label, len))
            continue;
        struct profile_band t = r[i];
        memmove(&r[shown + 1], &r[shown], (i - shown) * sizeof *r);
        r[shown++] = t;
    }
    return shown;
}

size_t bandselect_rank(struct profile_band *r, size_t n, const struct bandselect_rule *rule,
                      double *total_area)
{
    qsort(r, n, sizeof *r, by_area_desc);
    *total_area = 0;
    for (size_t i = 0; i < n; i++)
        *total_area += r[i].stats.area;
    return shown_count(rule, r, n, *total_area);
}

int bandselect_choose(const struct bandstats *s, const struct bands *bands,
                      const struct bandselect_rule *rule, const struct profile_keep *keep,
                      struct band_selection *sel)
{
    memset(sel, 0, sizeof *sel);
    size_t n;
    struct profile_band *r = bands_with_bytes(s, &n);
    if (!r)
        return -1;
    sel->band = r;
    sel->count = n;
    size_t shown = also_shown(r, n, bandselect_rank(r, n, rule, &sel->total_area), bands, keep);
    for (; sel->shown < shown; sel->shown++) {
        size_t len;
        const char *label = bands_display_label(bands, r[sel->shown].band, &len);
        r[sel->shown].label = strndup(label ? label : "", label ? len : 0);
        if (!r[sel->shown].label) {
            band_selection_free(sel);
            return -1;
        }
    }
    sort_shown(rule, r, shown);
    return 0;
}

void band_selection_free(struct band_selection *sel)
{
    for (size_t i = 0; sel->band && i < sel->shown; i++)
        free((char *)sel->band[i].label);
    free(sel->band);
    memset(sel, 0, sizeof *sel);
}
