/* compare.c: two runs in one picture (see compare.h).
 *
 * The union of the bands both views show is a set of labels as charts show them, kept
 * in an interning table (a hash), so choosing the bands costs one look-up per band of
 * either run rather than a scan of the other run's bands for each.
 */
#include "chart/compare.h"

#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

/* The labels, as charts show them, of the bands the views show (OTHER aside); NULL when
 * out of memory. */
static struct intern *shown_labels(const struct profile_view *const *views, size_t n)
{
    size_t count = 0, bytes = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < views[k]->band_count; i++) {
            count++;
            bytes += strlen(views[k]->bands[i].label);
        }
    struct intern *set = intern_new(count > UINT32_MAX - 1 ? UINT32_MAX : (uint32_t)count + 1,
                                    bytes + 1);
    for (size_t k = 0; set && k < n; k++)
        for (size_t i = 0; i < views[k]->band_count; i++) {
            const struct profile_band *b = &views[k]->bands[i];
            if (b->band == PROFILE_OTHER)
                continue;
            size_t len;
            const char *shown = bands_shown_label(b->label, strlen(b->label), &len);
            uint32_t id;
            if (intern_get(set, shown, len, &id, NULL) != TABLE_OK) {
                intern_free(set);
                return NULL;
            }
        }
    return set;
}

static bool in_set(void *ctx, const char *label, size_t len)
{
    size_t shown_len;
    const char *shown = bands_shown_label(label, len, &shown_len);
    uint32_t id;
    return intern_find(ctx, shown, shown_len, &id) == 0;
}

int compare_union_views(const struct compare_run *base, const struct compare_run *now,
                        struct profile_view *base_view, struct profile_view *now_view)
{
    struct profile_view alone[2];
    if (profile_view(base->profile, base->bands, &alone[0]) != 0)
        return -1;
    if (profile_view(now->profile, now->bands, &alone[1]) != 0) {
        profile_view_free(&alone[0]);
        return -1;
    }
    const struct profile_view *views[2] = { &alone[0], &alone[1] };
    struct intern *set = shown_labels(views, 2);
    int rc = -1;
    if (set) {
        struct profile_keep keep = { in_set, set };
        rc = profile_view_keep(base->profile, base->bands, &keep, base_view);
        if (rc == 0 && (rc = profile_view_keep(now->profile, now->bands, &keep, now_view)) != 0)
            profile_view_free(base_view);
        intern_free(set);
    }
    profile_view_free(&alone[0]);
    profile_view_free(&alone[1]);
    return rc;
}

int compare_layout(const struct compare_run *base, const struct compare_run *now,
                   const struct chart_options *opt, struct textmeasure *tm,
                   struct display_list *dl)
{
    struct profile_view now_view, base_view;
    if (!base) {
        if (profile_view(now->profile, now->bands, &now_view) != 0)
            return -1;
        int rc = chart_layout(&now_view, now->info, now->name, opt, tm, dl);
        profile_view_free(&now_view);
        return rc;
    }
    if (compare_union_views(base, now, &base_view, &now_view) != 0)
        return -1;
    struct chart_run b = { &base_view, base->info, base->name };
    struct chart_run n = { &now_view, now->info, now->name };
    int rc = chart_layout_compare(&b, &n, opt, tm, dl);
    profile_view_free(&base_view);
    profile_view_free(&now_view);
    return rc;
}
