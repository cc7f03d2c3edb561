/* summary_facts.c: what every summary format says (summary_facts.h). */
#include "sink/summary_facts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "base/format.h"
#include "chart/chart.h"
#include "model/runmodel.h"
#include "sink/sinks.h"

void summary_view_options(const struct summary_settings *settings,
                          struct profile_options *out)
{
    profile_options_every_band(out);   /* the summary lists them all */
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

/* The bands of now that grew most over the base's (every band of the base, without this
 * run's window or filters, as the base was read): their number, or -1 when out of memory. */
static long grew_most(const struct run_model *base, const struct profile_view *now,
                      struct band_growth *out, size_t max)
{
    struct profile_options every;
    profile_options_every_band(&every);
    struct ev_error err;
    struct summary_view sv;
    if (summary_view_open(&sv, base, &every, &err) != 0)
        return -1;
    long n = growth_rank(&sv.view, now, out, max);
    summary_view_close(&sv);
    return n;
}

double summary_percent_change(uint64_t base_bytes, uint64_t now_bytes)
{
    if (!base_bytes)
        return NAN;
    return 100.0 * ((double)now_bytes - (double)base_bytes) / (double)base_bytes;
}

void summary_change_of(const struct run_model *base, const struct peak *pk,
                       const struct profile_view *now, struct summary_change *c)
{
    c->base = base;
    /* Peaks may be anything up to 2^64 - 1: the difference is taken unsigned, then
     * held to what an int64 can say. */
    uint64_t is = pk->bytes, was = base->peak.bytes;
    uint64_t diff = is >= was ? is - was : was - is;
    int64_t magnitude = diff > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)diff;
    c->bytes = is >= was ? magnitude : -magnitude;
    c->percent = summary_percent_change(was, is);
    c->grew_count = grew_most(base, now, c->grew, SUMMARY_GREW_MOST);
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
