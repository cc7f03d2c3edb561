/* growth.c: the bands that grew most over the --compare base (see growth.h). */
#include "sink/growth.h"

#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

static int by_growth_desc(const void *a, const void *b)
{
    const struct band_growth *x = a, *y = b;
    uint64_t gx = x->now - x->base, gy = y->now - y->base;
    if (gx != gy)
        return gx > gy ? -1 : 1;
    return strcmp(x->label, y->label);
}

static const char *shown(const struct profile_band *b, size_t *len)
{
    return bands_shown_label(b->label, strlen(b->label), len);
}

long growth_rank(const struct profile_view *base, const struct profile_view *now,
                 struct band_growth *out, size_t max)
{
    /* build: the base's labels, each numbered once (the first shown keeps the number) */
    size_t bytes = 1;
    for (size_t i = 0; i < base->band_count; i++)
        bytes += strlen(base->bands[i].label);
    struct intern *labels = intern_new(base->band_count >= UINT32_MAX ? UINT32_MAX
                                                                      : (uint32_t)base->band_count + 1,
                                       bytes);
    uint64_t *peak = malloc((base->band_count + 1) * sizeof *peak);
    struct band_growth *all = malloc((now->band_count + 1) * sizeof *all);
    long n = -1;
    if (!labels || !peak || !all)
        goto done;
    for (size_t i = 0; i < base->band_count; i++) {
        const struct profile_band *b = &base->bands[i];
        if (b->band == PROFILE_OTHER)
            continue;
        size_t len;
        const char *label = shown(b, &len);
        uint32_t id;
        bool added;
        if (intern_get(labels, label, len, &id, &added) != TABLE_OK)
            goto done;
        if (added)
            peak[id] = b->stats.peak;
    }
    /* probe: each band of this run */
    n = 0;
    for (size_t i = 0; i < now->band_count; i++) {
        const struct profile_band *b = &now->bands[i];
        if (b->band == PROFILE_OTHER)
            continue;
        size_t len;
        const char *label = shown(b, &len);
        uint32_t id;
        uint64_t was = intern_find(labels, label, len, &id) == 0 ? peak[id] : 0;
        if (b->stats.peak > was)
            all[n++] = (struct band_growth){ b->label, was, b->stats.peak };
    }
    qsort(all, (size_t)n, sizeof *all, by_growth_desc);
    if ((size_t)n > max)
        n = (long)max;
    memcpy(out, all, (size_t)n * sizeof *out);
done:
    intern_free(labels);
    free(peak);
    free(all);
    return n;
}
