/* bandmatch.c: the one rule pairing the bands of two runs (see bandmatch.h).
 *
 * Each rule is a key made of a label: pairs are bands of the two runs, neither paired
 * yet, whose keys are equal. The base's keys go into an interning table, each key
 * holding a queue of the base's bands in their order; each band of now takes the head of
 * its key's queue. So a rule costs one pass over each run, and rules run in order of
 * trust, each over the bands the earlier ones left.
 */
#include "model/bandmatch.h"

#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "model/bands.h"
#include "model/breakdown.h"
#include "model/profile.h"

const char *band_match_name(enum band_match how)
{
    switch (how) {
    case BAND_MATCH_SAME: return "same";
    case BAND_MATCH_RENUMBERED: return "renumbered";
    case BAND_MATCH_CUT: return "cut";
    case BAND_MATCH_LOCATION: return "location";
    case BAND_MATCH_NONE: break;
    }
    return "none";
}

/* What a run's information says about its labels: cut (a .hp's cost-centre stacks, or a
 * .hp whose breakdown is not known) and located (-hi). */
static void run_kind(const struct run_info *info, struct bandmatch_run *run)
{
    run->cut = info && info->labels_cut &&
               (info->breakdown == BREAKDOWN_COST_CENTRE || info->breakdown == BREAKDOWN_UNKNOWN);
    run->located = info && info->breakdown == BREAKDOWN_INFO_TABLE;
}

int bandmatch_run_of_bands(const struct bands *bands, const struct run_info *info,
                           struct bandmatch_run *run)
{
    size_t n = bands_count(bands);
    char **labels = calloc(n + 1, sizeof *labels);
    const unsigned char **ids = malloc((n + 1) * sizeof *ids);
    size_t *ids_len = malloc((n + 1) * sizeof *ids_len);
    const char **kinds = malloc((n + 1) * sizeof *kinds);
    size_t *kind_lens = malloc((n + 1) * sizeof *kind_lens);
    *run = (struct bandmatch_run){ .labels = (const char *const *)labels, .count = n, .ids = ids,
                                   .ids_len = ids_len, .kinds = kinds, .kind_lens = kind_lens };
    run_kind(info, run);
    if (!labels || !ids || !ids_len || !kinds || !kind_lens) {
        bandmatch_run_free(run);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *label = bands_display_label(bands, (uint32_t)i, &len);
        labels[i] = strndup(label ? label : "", label ? len : 0);
        ids[i] = bands_stack_ids(bands, (uint32_t)i, &ids_len[i]);
        kinds[i] = bands_attr(bands, (uint32_t)i, BAND_KIND, &kind_lens[i]);
        if (!labels[i]) {
            bandmatch_run_free(run);
            return -1;
        }
    }
    return 0;
}

void bandmatch_run_free(struct bandmatch_run *run)
{
    char **labels = (char **)run->labels;
    for (size_t i = 0; labels && i < run->count; i++)
        free(labels[i]);
    free(labels);
    free((void *)run->ids);
    free((void *)run->ids_len);
    free((void *)run->kinds);
    free((void *)run->kind_lens);
    memset(run, 0, sizeof *run);
}

/* The bands a view shows, OTHER left out: labels as the view has them, the stacks'
 * cost-centre numbers, the run's kind; (*index)[i] is band i's index in the view. 0, or
 * -1 when out of memory; free with view_run_free (and *index with free). */
static void view_run_free(struct bandmatch_run *run);
static int run_of_view(const struct profile_view *v, const struct bands *bands,
                       const struct run_info *info, struct bandmatch_run *run, size_t **index)
{
    size_t n = v->band_count + 1;
    const char **labels = malloc(n * sizeof *labels);
    const unsigned char **ids = malloc(n * sizeof *ids);
    size_t *ids_len = malloc(n * sizeof *ids_len);
    const char **kinds = bands ? malloc(n * sizeof *kinds) : NULL;
    size_t *kind_lens = bands ? malloc(n * sizeof *kind_lens) : NULL;
    *index = malloc(n * sizeof **index);
    *run = (struct bandmatch_run){ .labels = labels, .ids = bands ? ids : NULL,
                                   .ids_len = ids_len, .kinds = kinds, .kind_lens = kind_lens };
    if (!labels || !ids || !ids_len || !*index || (bands && (!kinds || !kind_lens))) {
        free(ids);
        run->ids = NULL;
        view_run_free(run);
        free(*index);
        *index = NULL;
        return -1;
    }
    if (!bands)
        free(ids);
    size_t k = 0;
    for (size_t i = 0; i < v->band_count; i++)
        if (v->bands[i].band != PROFILE_OTHER) {
            labels[k] = v->bands[i].label;
            ids_len[k] = 0;
            if (bands) {
                ids[k] = bands_stack_ids(bands, v->bands[i].band, &ids_len[k]);
                kinds[k] = bands_attr(bands, v->bands[i].band, BAND_KIND, &kind_lens[k]);
            }
            (*index)[k++] = i;
        }
    run->count = k;
    run_kind(info, run);
    return 0;
}

static void view_run_free(struct bandmatch_run *run)
{
    free((void *)run->labels);
    free((void *)run->ids);
    free((void *)run->ids_len);
    free((void *)run->kinds);
    free((void *)run->kind_lens);
    memset(run, 0, sizeof *run);
}

enum rule { RULE_LABEL, RULE_CUT, RULE_LOCATION };

/* What a rule needs to make keys. */
struct keys {
    enum rule rule;
    size_t cut_prefix;             /* RULE_CUT: the length of a cut label before "..." */
    char *scratch;                 /* RULE_CUT: room for the longest label and "...";
                                    * RULE_LOCATION with kinds: for kind and label */
    bool kinds;                    /* RULE_LOCATION: both runs know their bands' kinds */
};

static bool ends_cut(const char *s, size_t len)
{
    return len >= 3 && memcmp(s + len - 3, "...", 3) == 0;
}

/* The key of a label under k's rule for a run whose labels are (not) cut; NULL when the
 * label has none (rule 4 without a location). */
static const char *key_of(const struct keys *k, const struct bandmatch_run *run, size_t i,
                          size_t *len)
{
    size_t n;
    const char *shown = bands_shown_label(run->labels[i], strlen(run->labels[i]), &n);
    bool cut = run->cut;
    switch (k->rule) {
    case RULE_LABEL:
        break;
    case RULE_CUT:
        /* A whole label in the runtime's cut form: L = cut_prefix + 4, a name of more
         * than L characters becomes its first L - 4 and "..." (ccslabel.c). */
        if (!cut && k->cut_prefix != SIZE_MAX && n > k->cut_prefix + 4) {
            memcpy(k->scratch, shown, k->cut_prefix);
            memcpy(k->scratch + k->cut_prefix, "...", 3);
            *len = k->cut_prefix + 3;
            return k->scratch;
        }
        break;
    case RULE_LOCATION: {
        /* "name :: type at location": from " :: " on, when there is a location */
        const char *type = NULL;
        for (size_t c = 0; c + 4 <= n && !type; c++)
            if (memcmp(shown + c, " :: ", 4) == 0)
                type = shown + c;
        if (!type)
            return NULL;
        size_t rest = n - (size_t)(type - shown);
        bool located = false;
        for (size_t c = 0; c + 4 <= rest && !located; c++)
            located = memcmp(type + c, " at ", 4) == 0;
        if (!located)
            return NULL;
        if (!k->kinds) {
            *len = rest;
            return type;
        }
        /* the closure type, a separator no description holds, then type and location */
        size_t kl = run->kinds && run->kinds[i] ? run->kind_lens[i] : 0;
        if (kl)
            memcpy(k->scratch, run->kinds[i], kl);
        k->scratch[kl] = '\x1f';
        memcpy(k->scratch + kl + 1, type, rest);
        *len = kl + 1 + rest;
        return k->scratch;
    }
    }
    *len = n;
    return shown;
}

/* The matching state: each band's partner in the other run. */
struct match {
    const struct bandmatch_run *base, *now;
    size_t *base_to, *now_to;      /* partner index, or BANDMATCH_ABSENT */
    enum band_match *how;          /* by now's index */
};

/* Whether two bands' stacks are made of the same cost-centre numbers (true when either
 * run does not say). */
static bool same_ids(const struct bandmatch_run *a, size_t i, const struct bandmatch_run *b,
                     size_t j)
{
    if (!a->ids || !b->ids)
        return true;
    return a->ids_len[i] == b->ids_len[j] &&
           (a->ids_len[i] == 0 || memcmp(a->ids[i], b->ids[j], a->ids_len[i]) == 0);
}

/* One rule over the bands still unpaired. 0, or -1 when out of memory. */
static int join(struct match *m, const struct keys *k)
{
    size_t bytes = 1;
    for (size_t i = 0; i < m->base->count; i++)
        bytes += strlen(m->base->labels[i]) + 3;
    uint32_t max = m->base->count >= UINT32_MAX ? UINT32_MAX : (uint32_t)m->base->count + 1;
    struct intern *table = intern_new(max, bytes);
    size_t *head = malloc((m->base->count + 1) * sizeof *head);
    size_t *tail = malloc((m->base->count + 1) * sizeof *tail);
    size_t *next = malloc((m->base->count + 1) * sizeof *next);
    int rc = -1;
    if (!table || !head || !tail || !next)
        goto done;
    for (size_t i = 0; i < m->base->count; i++) {
        size_t len;
        const char *key;
        if (m->base_to[i] != BANDMATCH_ABSENT ||
            !(key = key_of(k, m->base, i, &len)))
            continue;
        uint32_t id;
        bool added;
        if (intern_get(table, key, len, &id, &added) != TABLE_OK)
            goto done;
        next[i] = BANDMATCH_ABSENT;
        if (added)
            head[id] = i;
        else
            next[tail[id]] = i;
        tail[id] = i;
    }
    for (size_t j = 0; j < m->now->count; j++) {
        size_t len;
        const char *key;
        uint32_t id;
        if (m->now_to[j] != BANDMATCH_ABSENT ||
            !(key = key_of(k, m->now, j, &len)) ||
            intern_find(table, key, len, &id) != 0 || head[id] == BANDMATCH_ABSENT)
            continue;
        size_t i = head[id];
        head[id] = next[i];
        m->base_to[i] = j;
        m->now_to[j] = i;
        if (k->rule == RULE_CUT)
            m->how[j] = BAND_MATCH_CUT;
        else if (k->rule == RULE_LOCATION)
            m->how[j] = BAND_MATCH_LOCATION;
        else
            m->how[j] = strcmp(m->base->labels[i], m->now->labels[j]) == 0 &&
                                same_ids(m->base, i, m->now, j)
                            ? BAND_MATCH_SAME : BAND_MATCH_RENUMBERED;
    }
    rc = 0;
done:
    intern_free(table);
    free(head);
    free(tail);
    free(next);
    return rc;
}

/* RULE_CUT's keys: the cut run's prefix length (the first of its labels the runtime cut;
 * one .hp has one -L), and room for the whole run's longest label. */
static int cut_keys(const struct bandmatch_run *cut, const struct bandmatch_run *whole,
                    struct keys *k)
{
    k->rule = RULE_CUT;
    k->cut_prefix = SIZE_MAX;
    for (size_t i = 0; i < cut->count && k->cut_prefix == SIZE_MAX; i++) {
        size_t n;
        const char *shown = bands_shown_label(cut->labels[i], strlen(cut->labels[i]), &n);
        if (ends_cut(shown, n) && n > 3)
            k->cut_prefix = n - 3;
    }
    size_t longest = 0;
    for (size_t i = 0; i < whole->count; i++) {
        size_t n = strlen(whole->labels[i]);
        if (n > longest)
            longest = n;
    }
    k->scratch = malloc(longest + 4);
    return k->scratch ? 0 : -1;
}

/* RULE_LOCATION's room for a kind, a separator and a label of either run. */
static int location_room(const struct bandmatch_run *a, const struct bandmatch_run *b,
                         struct keys *k)
{
    size_t longest = 0;
    for (int r = 0; r < 2; r++) {
        const struct bandmatch_run *run = r ? b : a;
        for (size_t i = 0; i < run->count; i++) {
            size_t n = strlen(run->labels[i]) + (run->kinds[i] ? run->kind_lens[i] : 0);
            if (n > longest)
                longest = n;
        }
    }
    free(k->scratch);
    k->scratch = malloc(longest + 2);
    return k->scratch ? 0 : -1;
}

int bandmatch(const struct bandmatch_run *base, const struct bandmatch_run *now,
              struct bandmatch_pair **pairs, size_t *count)
{
    struct match m = { base, now, NULL, NULL, NULL };
    m.base_to = malloc((base->count + 1) * sizeof *m.base_to);
    m.now_to = malloc((now->count + 1) * sizeof *m.now_to);
    m.how = malloc((now->count + 1) * sizeof *m.how);
    struct bandmatch_pair *out = malloc((base->count + now->count + 1) * sizeof *out);
    struct keys k = { RULE_LABEL, SIZE_MAX, NULL, false };
    int rc = -1;
    if (!m.base_to || !m.now_to || !m.how || !out)
        goto done;
    for (size_t i = 0; i < base->count; i++)
        m.base_to[i] = BANDMATCH_ABSENT;
    for (size_t j = 0; j < now->count; j++) {
        m.now_to[j] = BANDMATCH_ABSENT;
        m.how[j] = BAND_MATCH_NONE;
    }
    if (base->cut == now->cut) {
        if (join(&m, &k) != 0)
            goto done;
    } else {
        if (cut_keys(base->cut ? base : now, base->cut ? now : base, &k) != 0 ||
            join(&m, &k) != 0)
            goto done;
    }
    if (base->located && now->located) {
        k.rule = RULE_LOCATION;
        k.kinds = base->kinds && now->kinds;
        if (k.kinds && location_room(base, now, &k) != 0)
            goto done;
        if (join(&m, &k) != 0)
            goto done;
    }
    size_t n = 0;
    for (size_t j = 0; j < now->count; j++)
        out[n++] = (struct bandmatch_pair){ m.now_to[j], j, m.how[j] };
    for (size_t i = 0; i < base->count; i++)
        if (m.base_to[i] == BANDMATCH_ABSENT)
            out[n++] = (struct bandmatch_pair){ i, BANDMATCH_ABSENT, BAND_MATCH_NONE };
    *pairs = out;
    *count = n;
    out = NULL;
    rc = 0;
done:
    free(k.scratch);
    free(m.base_to);
    free(m.now_to);
    free(m.how);
    free(out);
    return rc;
}

int bandmatch_views(const struct bandmatch_view *base, const struct bandmatch_view *now,
                    struct bandmatch_pair **pairs, size_t *count)
{
    struct bandmatch_run b, n;
    size_t *bi = NULL, *ni = NULL;
    int rc = -1;
    if (run_of_view(base->view, base->bands, base->info, &b, &bi) != 0)
        return -1;
    if (run_of_view(now->view, now->bands, now->info, &n, &ni) == 0 &&
        bandmatch(&b, &n, pairs, count) == 0) {
        for (size_t k = 0; k < *count; k++) {
            struct bandmatch_pair *p = &(*pairs)[k];
            if (p->base != BANDMATCH_ABSENT)
                p->base = bi[p->base];
            if (p->now != BANDMATCH_ABSENT)
                p->now = ni[p->now];
        }
        rc = 0;
    }
    view_run_free(&b);
    view_run_free(&n);
    free(bi);
    free(ni);
    return rc;
}
