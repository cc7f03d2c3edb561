/* autogroup.c: the key the default outputs group bands by (autogroup.h).
 *
 * Each candidate key maps every band through a grouping of that key (grouping_map_band:
 * the very rule --group-by applies, so what is weighed here is what the regrouped outputs
 * show), and the profile says how much OTHER its selection would leave of the groups.
 */
#include "census/autogroup.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/format.h"
#include "model/breakdown.h"

/* OTHER's share of p's peak were its bands merged by key (GROUP_NONE: as they are); a
 * negative share when the key applies to no band. 0, or -1 when out of memory. */
static int other_share(const struct profile *p, const struct bandselect_rule *rule,
                       const struct group_source *src, enum group_key key, double *share)
{
    uint64_t peak = profile_peak_total(p), other = 0;
    size_t cap = profile_band_cap(p);
    if (key == GROUP_NONE) {
        if (profile_grouped_other(p, rule, NULL, 0, &other) != 0)
            return -1;
        *share = peak ? (double)other / (double)peak : 0;
        return 0;
    }
    struct census_events none = { 0 };
    struct grouping *g = grouping_new(key, &none);
    uint32_t *group_of = malloc((cap ? cap : 1) * sizeof *group_of);
    int rc = -1;
    if (!g || !group_of)
        goto done;
    grouping_source(g, src);
    /* the statistics may hold records past the last band named: never seen, no group */
    size_t named = bands_count(src->bands);
    for (size_t b = 0; b < cap; b++) {
        group_of[b] = 0;
        if (b < named && grouping_map_band(g, (uint32_t)b, &group_of[b]) != 0)
            goto done;
    }
    if (!grouping_applied(g)) {
        *share = -1;
        rc = 0;
        goto done;
    }
    if (profile_grouped_other(p, rule, group_of, bands_count(grouping_bands(g)), &other) != 0)
        goto done;
    *share = peak ? (double)other / (double)peak : 0;
    rc = 0;
done:
    free(group_of);
    grouping_free(g);
    return rc;
}

int autogroup_choose(const struct profile *p, const struct bandselect_rule *rule,
                     const struct group_source *src, uint32_t breakdown, struct autogroup *a)
{
    static const enum group_key tables[] = { GROUP_TYPE, GROUP_CLOSURE, GROUP_MODULE };
    static const enum group_key stacks[] = { GROUP_CC, GROUP_MODULE };
    const enum group_key *keys = NULL;
    size_t count = 0;
    *a = (struct autogroup){ .key = GROUP_NONE };
    if (breakdown == BREAKDOWN_INFO_TABLE && src->ipe) {
        keys = tables;
        count = sizeof tables / sizeof *tables;
    } else if (breakdown == BREAKDOWN_COST_CENTRE && src->ccs) {
        keys = stacks;
        count = sizeof stacks / sizeof *stacks;
        a->stacks = true;
    }
    if (!keys || !p || !rule->bands)
        return 0;
    /* The folded bands' own peaks summed are no less than OTHER's peak: when they are
     * under the trigger, so is OTHER, and its exact peak (every kept census read) is not
     * needed. other_share is read only of a grouped run. */
    uint64_t bound, peak = profile_peak_total(p);
    if (profile_other_peak_bound(p, rule, &bound) != 0)
        return -1;
    if ((double)bound <= AUTOGROUP_TRIGGER_SHARE * (double)peak)
        return 0;
    if (other_share(p, rule, src, GROUP_NONE, &a->other_share) != 0)
        return -1;
    if (a->other_share <= AUTOGROUP_TRIGGER_SHARE)
        return 0;
    double best = a->other_share;
    for (size_t i = 0; i < count; i++) {
        double share;
        if (other_share(p, rule, src, keys[i], &share) != 0)
            return -1;
        if (share < 0 || share >= best)
            continue;
        best = share;
        a->key = keys[i];
        if (share <= AUTOGROUP_TARGET_SHARE)
            break;
    }
    a->grouped = a->key != GROUP_NONE;
    a->grouped_share = best;
    a->bands = 0;
    for (size_t b = 0; b < profile_band_cap(p); b++)
        a->bands += profile_stats(p, (uint32_t)b).peak > 0;
    a->shown = rule->bands;
    return 0;
}

const char *autogroup_undo(const struct autogroup *a)
{
    return group_key_name(GROUP_NONE, a->stacks);
}

void autogroup_reason(const struct autogroup *a, char *out, size_t size)
{
    format_snprintf(out, size, "the %u largest of %" PRIu32 " %s left %.0f %% of the peak in "
                    "OTHER (%.0f %% grouped)", a->shown, a->bands,
                    a->stacks ? "stacks" : "info tables", a->other_share * 100,
                    a->grouped_share * 100);
}

void autogroup_note(const struct autogroup *a, char *out, size_t size)
{
    char reason[160];
    autogroup_reason(a, reason, sizeof reason);
    format_snprintf(out, size, "grouped by %s: %s; --group-by %s shows every %s",
                    group_key_name(a->key, a->stacks), reason, autogroup_undo(a),
                    autogroup_undo(a));
}
