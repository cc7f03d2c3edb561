/* summary_facts.c: what every summary format says (summary_facts.h). */
#include "facts/summary_facts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "chart/chart.h"
#include "model/breakdown.h"
#include "model/runmodel.h"

void summary_view_options(const struct summary_settings *settings,
                          struct profile_options *out)
{
    profile_options_every_band(out);   /* the summary lists them all */
    out->shapes_only = true;           /* its sparklines are the bands' shapes */
    if (settings->chart) {
        const struct profile_options *c = &settings->chart->profile;
        out->sort = c->sort, out->reverse = c->reverse;
    }
}

int summary_view_open(struct summary_view *sv, const struct run_model *run,
                      const struct profile_options *opt, struct ev_error *err)
{
    sv->profile = run_model_summary(run, opt, err);
    if (sv->profile && profile_view(sv->profile, run->bands, &sv->view) == 0)
        return 0;
    if (sv->profile)
        ev_error_set(err, "out of memory");
    profile_free(sv->profile);
    sv->profile = NULL;
    errno = ENOMEM;
    return -1;
}

void summary_view_close(struct summary_view *sv)
{
    profile_view_free(&sv->view);
    profile_free(sv->profile);
    sv->profile = NULL;
}

double summary_percent_change(uint64_t base_bytes, uint64_t now_bytes)
{
    if (!base_bytes)
        return NAN;
    return 100.0 * ((double)now_bytes - (double)base_bytes) / (double)base_bytes;
}

void summary_change_of(const struct run_model *base, const struct peak *pk,
                       const struct run_info *now_info, const struct bands *now_bands,
                       const struct profile_view *now, struct summary_change *c)
{
    memset(c, 0, sizeof *c);
    c->base = base;
    /* Peaks may be anything up to 2^64 - 1: the difference is taken unsigned, then
     * held to what an int64 can say. */
    uint64_t is = pk->bytes, was = base->peak.bytes;
    uint64_t diff = is >= was ? is - was : was - is;
    int64_t magnitude = diff > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)diff;
    c->bytes = is >= was ? magnitude : -magnitude;
    c->percent = summary_percent_change(was, is);
    /* every band of the base, without this run's window or filters, as the base was read */
    struct profile_options every;
    profile_options_every_band(&every);
    struct ev_error err;
    if (summary_view_open(&c->base_view, base, &every, &err) != 0) {
        c->no_memory = true;
        return;
    }
    c->has_base_view = true;
    struct bandmatch_view b = { &c->base_view.view, base->bands, base->info };
    struct bandmatch_view n = { now, now_bands, now_info };
    if (growth_changes(&b, &n, &c->bands, &c->band_count) != 0) {
        c->no_memory = true;
        return;
    }
    while (c->grew_count < c->band_count && c->grew_count < SUMMARY_GREW_MOST &&
           band_change_bytes(&c->bands[c->grew_count]) > 0)
        c->grew_count++;
    while (c->shrank_count < c->band_count - c->grew_count &&
           c->shrank_count < SUMMARY_GREW_MOST &&
           band_change_bytes(&c->bands[c->band_count - 1 - c->shrank_count]) < 0)
        c->shrank_count++;
}

const struct band_change *summary_shrank(const struct summary_change *c, size_t i)
{
    return &c->bands[c->band_count - 1 - i];
}

void summary_change_free(struct summary_change *c)
{
    free(c->bands);
    c->bands = NULL;
    if (c->has_base_view)
        summary_view_close(&c->base_view);
    c->has_base_view = false;
}

void summary_format_percent(double percent, char *out, size_t size)
{
    if (isnan(percent))
        snprintf(out, size, "new");
    else if (fabs(percent) < 0.05)
        snprintf(out, size, "0 %%");
    else if (fabs(percent) >= 99.95 || fabs(percent - round(percent)) < 0.05)
        format_snprintf(out, size, "%+.0f %%", percent);
    else
        format_snprintf(out, size, "%+.1f %%", percent);
}

bool summary_breakdown_mismatch(const struct run_info *now, const struct run_model *base_run,
                                char *out, size_t size)
{
    const struct run_info *base = base_run ? base_run->info : NULL;
    return now && base && now->has_heap_profile && base->has_heap_profile &&
           breakdown_mismatch(now->breakdown, base->breakdown, out, size);
}

void summary_warning_counts(const struct ev_error *list, const size_t *count,
                            size_t *warnings, size_t *notes)
{
    *warnings = count ? *count : 0;
    *notes = 0;
    for (size_t i = 0; i < *warnings; i++)
        *notes += list[i].note;
}

bool summary_heapless(const struct run_model *run)
{
    return !run->peak.censuses;
}

double summary_heap_growth(const struct profile_view *v)
{
    double sum = 0;
    for (size_t i = 0; i < v->band_count; i++)
        sum += v->bands[i].stats.growth;
    return sum;
}

const char *summary_heap_one_sided(const struct run_model *run, const struct run_model *base)
{
    if (!base || !run->peak.censuses == !base->peak.censuses)
        return NULL;
    return run->peak.censuses ? "the base has no heap census"
                                   : "this run has no heap census";
}

bool summary_by_share(const struct summary_settings *settings)
{
    return settings->chart && settings->chart->diff_normalize;
}

bool summary_window(const struct summary_settings *settings, char *out, size_t size)
{
    const struct profile_options *p = settings->chart ? &settings->chart->profile : NULL;
    if (!p || !(p->has_from || p->has_to))
        return false;
    struct time_window w = profile_window(p);
    if (w.to_ns == UINT64_MAX)
        format_snprintf(out, size, "%.6f s to the end", w.from_ns / 1e9);
    else
        format_snprintf(out, size, "%.6f s to %.6f s", w.from_ns / 1e9, w.to_ns / 1e9);
    return true;
}
