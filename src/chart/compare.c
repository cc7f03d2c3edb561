/* compare.c: two runs in one picture (see compare.h).
 *
 * The bands of the two runs are paired by the one matching rule (model/bandmatch.h).
 * Each run then shows the bands it would show alone and the partners of the bands the
 * other run shows alone, so a band is drawn in both panels or marked absent from one,
 * never shown under one name in one and folded into OTHER in the other. The bands to
 * keep are a set of labels per run, kept in an interning table (a hash), so choosing
 * them costs one look-up per band.
 */
#include "chart/compare.h"

#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "chart/view_diff.h"
#include "model/bandmatch.h"

/* Adds the label of band i of run to set: 0, or -1 when out of memory. */
static int add_label(struct intern *set, const struct bandmatch_run *run, size_t i)
{
    uint32_t id;
    return intern_get(set, run->labels[i], strlen(run->labels[i]), &id, NULL) == TABLE_OK ? 0
                                                                                          : -1;
}

static struct intern *label_set(const struct bandmatch_run *run)
{
    size_t bytes = 1;
    for (size_t i = 0; i < run->count; i++)
        bytes += strlen(run->labels[i]);
    return intern_new(run->count >= UINT32_MAX ? UINT32_MAX : (uint32_t)run->count + 1, bytes);
}

/* The bands a view shows alone (OTHER aside), by band id: shown[id] set. */
static void mark_shown(const struct profile_view *v, bool *shown, size_t n)
{
    for (size_t i = 0; i < v->band_count; i++)
        if (v->bands[i].band != PROFILE_OTHER && v->bands[i].band < n)
            shown[v->bands[i].band] = true;
}

static bool in_set(void *ctx, const char *label, size_t len)
{
    uint32_t id;
    return intern_find(ctx, label, len, &id) == 0;
}

/* The two sets of labels to keep: each run's bands shown alone and their partners. */
static int keep_sets(const struct compare_run *base, const struct compare_run *now,
                     const struct profile_view alone[2], struct intern *sets[2])
{
    struct bandmatch_run runs[2];
    struct bandmatch_pair *pairs = NULL;
    size_t count = 0;
    bool *shown[2] = { NULL, NULL };
    int rc = -1;
    memset(runs, 0, sizeof runs);
    if (bandmatch_run_of_bands(base->bands, base->info, &runs[0]) != 0 ||
        bandmatch_run_of_bands(now->bands, now->info, &runs[1]) != 0 ||
        bandmatch(&runs[0], &runs[1], &pairs, &count) != 0)
        goto done;
    for (int k = 0; k < 2; k++) {
        shown[k] = calloc(runs[k].count + 1, sizeof *shown[k]);
        sets[k] = label_set(&runs[k]);
        if (!shown[k] || !sets[k])
            goto done;
        mark_shown(&alone[k], shown[k], runs[k].count);
    }
    for (size_t p = 0; p < count; p++) {
        size_t b = pairs[p].base, n = pairs[p].now;
        bool show = (b != BANDMATCH_ABSENT && shown[0][b]) ||
                    (n != BANDMATCH_ABSENT && shown[1][n]);
        if (!show)
            continue;
        if ((b != BANDMATCH_ABSENT && add_label(sets[0], &runs[0], b) != 0) ||
            (n != BANDMATCH_ABSENT && add_label(sets[1], &runs[1], n) != 0))
            goto done;
    }
    rc = 0;
done:
    bandmatch_run_free(&runs[0]);
    bandmatch_run_free(&runs[1]);
    free(pairs);
    free(shown[0]);
    free(shown[1]);
    return rc;
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
    struct intern *sets[2] = { NULL, NULL };
    int rc = keep_sets(base, now, alone, sets);
    if (rc == 0) {
        struct profile_keep keep = { in_set, sets[0] };
        rc = profile_view_keep(base->profile, base->bands, &keep, base_view);
        keep.ctx = sets[1];
        if (rc == 0 && (rc = profile_view_keep(now->profile, now->bands, &keep, now_view)) != 0)
            profile_view_free(base_view);
    }
    intern_free(sets[0]);
    intern_free(sets[1]);
    profile_view_free(&alone[0]);
    profile_view_free(&alone[1]);
    return rc;
}

/* The base's bands paired with bands of this run take their labels, so a pair is one
 * legend entry of one colour in both panels (a .hp's cut label drawn as the eventlog's
 * whole one). 0, or -1 when out of memory. */
static int base_as_now(struct profile_view *base_view, const struct compare_run *base,
                       const struct profile_view *now_view, const struct compare_run *now)
{
    struct bandmatch_view b = { base_view, base->bands, base->info };
    struct bandmatch_view n = { now_view, now->bands, now->info };
    struct bandmatch_pair *pairs;
    size_t count;
    if (bandmatch_views(&b, &n, &pairs, &count) != 0)
        return -1;
    int rc = 0;
    for (size_t k = 0; k < count && rc == 0; k++) {
        if (pairs[k].base == BANDMATCH_ABSENT || pairs[k].now == BANDMATCH_ABSENT)
            continue;
        struct profile_band *pb = &base_view->bands[pairs[k].base];
        const char *label = now_view->bands[pairs[k].now].label;
        if (strcmp(pb->label, label) == 0)
            continue;
        char *copy = strdup(label);
        if (!copy)
            rc = -1;
        else {
            free((char *)pb->label);
            pb->label = copy;
        }
    }
    free(pairs);
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
    int rc;
    if (opt->view == CHART_VIEW_DIFF) {
        struct diff_run b = { &base_view, base->bands, base->info, base->name };
        struct diff_run n = { &now_view, now->bands, now->info, now->name };
        rc = diff_layout(&b, &n, opt, tm, dl);
    } else if ((rc = base_as_now(&base_view, base, &now_view, now)) == 0) {
        struct chart_run b = { &base_view, base->info, base->name };
        struct chart_run n = { &now_view, now->info, now->name };
        rc = chart_layout_compare(&b, &n, opt, tm, dl);
    }
    profile_view_free(&base_view);
    profile_view_free(&now_view);
    return rc;
}
