/* growth.c: every band of two runs, paired, with its change (see growth.h). */
#include "facts/growth.h"
#include "base/order.h"

#include <stdlib.h>
#include <string.h>

int64_t band_change_bytes(const struct band_change *c)
{
    uint64_t d = c->now >= c->base ? c->now - c->base : c->base - c->now;
    int64_t m = d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
    return c->now >= c->base ? m : -m;
}

bool band_change_says_match(const struct band_change *c)
{
    if (c->how != BAND_MATCH_CUT)
        return c->how == BAND_MATCH_RENUMBERED || c->how == BAND_MATCH_LOCATION;
    size_t a, b;
    const char *x = bands_shown_label(c->label, strlen(c->label), &a);
    const char *y = bands_shown_label(c->base_label, strlen(c->base_label), &b);
    return a != b || memcmp(x, y, a) != 0;
}

static int by_change_desc(const void *a, const void *b)
{
    const struct band_change *x = a, *y = b;
    int c = order_i64(band_change_bytes(y), band_change_bytes(x));   /* largest first */
    return c ? c : strcmp(x->label, y->label);
}

int growth_changes(const struct bandmatch_view *base, const struct bandmatch_view *now,
                   struct band_change **out, size_t *count)
{
    struct bandmatch_pair *pairs = NULL;
    size_t npairs = 0;
    *out = NULL;
    if (bandmatch_views(base, now, &pairs, &npairs) != 0 ||
        !(*out = malloc((npairs + 1) * sizeof **out))) {
        free(pairs);
        return -1;
    }
    for (size_t k = 0; k < npairs; k++) {
        const struct bandmatch_pair *p = &pairs[k];
        const struct profile_band *pb =
            p->base != BANDMATCH_ABSENT ? &base->view->bands[p->base] : NULL;
        const struct profile_band *pn =
            p->now != BANDMATCH_ABSENT ? &now->view->bands[p->now] : NULL;
        (*out)[k] = (struct band_change){
            .label = pn ? pn->label : pb->label,
            .base_label = pb ? pb->label : NULL,
            .in_base = pb != NULL, .in_now = pn != NULL,
            .base = pb ? pb->stats.peak : 0, .now = pn ? pn->stats.peak : 0,
            .how = p->how,
        };
    }
    qsort(*out, npairs, sizeof **out, by_change_desc);
    *count = npairs;
    free(pairs);
    return 0;
}
