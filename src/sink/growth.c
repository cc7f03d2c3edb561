/* growth.c: every band of two runs, paired, with its change (see growth.h). */
#include "sink/growth.h"

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
    int64_t cx = band_change_bytes(x), cy = band_change_bytes(y);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* One run's bands for bandmatch: the labels of a view's bands other than OTHER, their
 * stacks' cost-centre numbers, and their indices in the view. */
struct run_bands {
    struct bandmatch_run run;
    const char **labels;
    const unsigned char **ids;
    size_t *ids_len, *index;
};

static int run_bands_of(const struct profile_view *v, const struct bands *bands,
                        const struct run_info *info, struct run_bands *r)
{
    size_t n = v->band_count + 1;
    r->labels = malloc(n * sizeof *r->labels);
    r->ids = malloc(n * sizeof *r->ids);
    r->ids_len = malloc(n * sizeof *r->ids_len);
    r->index = malloc(n * sizeof *r->index);
    if (!r->labels || !r->ids || !r->ids_len || !r->index)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < v->band_count; i++)
        if (v->bands[i].band != PROFILE_OTHER) {
            r->labels[k] = v->bands[i].label;
            r->ids[k] = bands ? bands_stack_ids(bands, v->bands[i].band, &r->ids_len[k]) : NULL;
            if (!bands)
                r->ids_len[k] = 0;
            r->index[k++] = i;
        }
    r->run = (struct bandmatch_run){ .labels = r->labels, .count = k,
                                     .ids = bands ? r->ids : NULL, .ids_len = r->ids_len };
    bandmatch_run_kind(info, &r->run);
    return 0;
}

static void run_bands_free(struct run_bands *r)
{
    free(r->labels);
    free(r->ids);
    free(r->ids_len);
    free(r->index);
}

int growth_changes(const struct growth_run *base, const struct growth_run *now,
                   struct band_change **out, size_t *count)
{
    struct run_bands b = { 0 }, n = { 0 };
    struct bandmatch_pair *pairs = NULL;
    size_t npairs = 0;
    int rc = -1;
    *out = NULL;
    if (run_bands_of(base->view, base->bands, base->info, &b) != 0 ||
        run_bands_of(now->view, now->bands, now->info, &n) != 0 ||
        bandmatch(&b.run, &n.run, &pairs, &npairs) != 0)
        goto done;
    *out = malloc((npairs + 1) * sizeof **out);
    if (!*out)
        goto done;
    for (size_t k = 0; k < npairs; k++) {
        const struct bandmatch_pair *p = &pairs[k];
        struct band_change *c = &(*out)[k];
        const struct profile_band *pb =
            p->base != BANDMATCH_ABSENT ? &base->view->bands[b.index[p->base]] : NULL;
        const struct profile_band *pn =
            p->now != BANDMATCH_ABSENT ? &now->view->bands[n.index[p->now]] : NULL;
        *c = (struct band_change){
            .label = pn ? pn->label : pb->label,
            .base_label = pb ? pb->label : NULL,
            .in_base = pb != NULL, .in_now = pn != NULL,
            .base = pb ? pb->stats.peak : 0, .now = pn ? pn->stats.peak : 0,
            .how = p->how,
        };
    }
    qsort(*out, npairs, sizeof **out, by_change_desc);
    *count = npairs;
    rc = 0;
done:
    run_bands_free(&b);
    run_bands_free(&n);
    free(pairs);
    return rc;
}
