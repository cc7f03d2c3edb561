/* trend.c: the heap across commits (see trend.h). */
#include "model/trend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/intern.h"
#include "base/limits.h"
#include "base/order.h"

struct trend *trend_new(void)
{
    struct trend *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->labels = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    if (!t->labels) {
        free(t);
        return NULL;
    }
    return t;
}

static void run_free(struct trend_run *r)
{
    free(r->file);
    free(r->sha);
    free(r->time);
    free(r->subject);
    free(r->name);
    free(r->bands);
}

void trend_free(struct trend *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++)
        run_free(&t->runs[i]);
    free(t->runs);
    intern_free(t->labels);
    free(t);
}

static char *copy_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The file's name without its directory and a final ".json". */
static char *name_of_file(const char *file)
{
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    return strndup(base, len);
}

struct trend_run *trend_add_run(struct trend *t, const char *file)
{
    if (t->count == TREND_MAX_RUNS || GROW_ARRAY(t->runs, &t->cap, t->count + 1) != 0)
        return NULL;
    struct trend_run *r = &t->runs[t->count];
    memset(r, 0, sizeof *r);
    r->file = strdup(file);
    r->name = name_of_file(file);
    if (!r->file || !r->name) {
        run_free(r);
        return NULL;
    }
    t->count++;
    return r;
}

void trend_drop_last(struct trend *t)
{
    if (t->count)
        run_free(&t->runs[--t->count]);
}

int trend_run_set_commit(struct trend_run *run, const char *sha, const char *time,
                         const char *subject)
{
    run->sha = copy_or_null(sha);
    run->time = copy_or_null(time);
    run->subject = copy_or_null(subject);
    if ((sha && !run->sha) || (time && !run->time) || (subject && !run->subject))
        return -1;
    if (sha) {
        char *name = strndup(sha, TREND_SHORT_SHA);
        if (!name)
            return -1;
        free(run->name);
        run->name = name;
    }
    return 0;
}

/* The label without a leading "(n)". */
static const char *unnumbered(const char *label, size_t *len)
{
    if (*len < 3 || label[0] != '(')
        return label;
    size_t i = 1;
    while (i < *len && label[i] >= '0' && label[i] <= '9')
        i++;
    if (i == 1 || i == *len || label[i] != ')')
        return label;
    *len -= i + 1;
    return label + i + 1;
}

int trend_run_add_band(struct trend *t, struct trend_run *run, const char *label, size_t len,
                       uint64_t peak)
{
    const char *key = unnumbered(label, &len);
    uint32_t id;
    if (intern_get(t->labels, key, len, &id, NULL) != TABLE_OK)
        return -1;
    for (size_t i = 0; i < run->band_count; i++)
        if (run->bands[i].band == id) {
            if (peak > run->bands[i].peak)
                run->bands[i].peak = peak;
            return 0;
        }
    if (GROW_ARRAY(run->bands, &run->band_cap, run->band_count + 1) != 0)
        return -1;
    run->bands[run->band_count++] = (struct trend_band_peak){ id, peak };
    return 0;
}

void trend_run_add_gate(struct trend_run *run, const char *name, bool failed)
{
    run->gates++;
    if (!failed)
        return;
    size_t used = strlen(run->failed);
    if (used + strlen(name) + 3 < sizeof run->failed)
        snprintf(run->failed + used, sizeof run->failed - used, "%s%s", used ? ", " : "",
                 name);
    run->gates_failed++;
}

const char *trend_band_label(const struct trend *t, uint32_t band, size_t *len)
{
    return intern_key(t->labels, band, len);
}

uint64_t trend_run_band_peak(const struct trend_run *run, uint32_t band)
{
    for (size_t i = 0; i < run->band_count; i++)
        if (run->bands[i].band == band)
            return run->bands[i].peak;
    return 0;
}

size_t trend_band_count(const struct trend *t)
{
    return intern_count(t->labels);
}

struct ranked {
    uint32_t band;
    uint64_t peak;
    const char *label;
    size_t len;
};

static int by_peak(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    int c = order_u64(y->peak, x->peak);   /* largest first */
    return c ? c : order_bytes(x->label, x->len, y->label, y->len);
}

long trend_top_bands(const struct trend *t, size_t n, uint32_t *out)
{
    uint32_t count = intern_count(t->labels);
    struct ranked *r = calloc(count ? count : 1, sizeof *r);
    if (!r)
        return -1;
    for (uint32_t b = 0; b < count; b++) {
        r[b].band = b;
        r[b].label = trend_band_label(t, b, &r[b].len);
    }
    for (size_t i = 0; i < t->count; i++)
        for (size_t j = 0; j < t->runs[i].band_count; j++) {
            const struct trend_band_peak *p = &t->runs[i].bands[j];
            if (p->peak > r[p->band].peak)
                r[p->band].peak = p->peak;
        }
    qsort(r, count, sizeof *r, by_peak);
    size_t k = 0;
    for (; k < n && k < count && r[k].peak > 0; k++)
        out[k] = r[k].band;
    free(r);
    return (long)k;
}
