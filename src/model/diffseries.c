/* diffseries.c: this run minus a base, band by band, as numbers (see diffseries.h).
 *
 * Every output of the diff reads its lines through here, so the picture, the CSV and
 * JSON export and the report agree on the alignment, on the span (never past a run's
 * last census, where an earlier version read the ended run as 0 and drew change that
 * was not there) and on each value.
 */
#include "model/diffseries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/order.h"
#include "model/bandmatch.h"

static int by_change(const void *a, const void *b)
{
    const struct diff_line *x = a, *y = b;
    int c = order_double(y->change, x->change);   /* largest first */
    return c ? c : strcmp(x->label, y->label);
}

static int by_value(const void *a, const void *b)
{
    return order_double(*(const double *)a, *(const double *)b);
}

/* The lines: every pair of bands the views show, OTHER left out, largest growth first.
 * 0, or -1 when out of memory. */
static int pair_lines(const struct diff_input *base, const struct diff_input *now,
                      struct diff_series *s)
{
    struct bandmatch_view b = { base->view, base->bands, base->info };
    struct bandmatch_view n = { now->view, now->bands, now->info };
    struct bandmatch_pair *pairs;
    size_t np;
    if (bandmatch_views(&b, &n, &pairs, &np) != 0)
        return -1;
    s->lines = malloc((np ? np : 1) * sizeof *s->lines);
    if (!s->lines) {
        free(pairs);
        return -1;
    }
    for (size_t k = 0; k < np; k++) {
        struct diff_line *l = &s->lines[k];
        l->base = pairs[k].base == BANDMATCH_ABSENT ? SIZE_MAX : pairs[k].base;
        l->now = pairs[k].now == BANDMATCH_ABSENT ? SIZE_MAX : pairs[k].now;
        const struct profile_band *pb = l->base != SIZE_MAX ? &base->view->bands[l->base] : NULL;
        const struct profile_band *pn = l->now != SIZE_MAX ? &now->view->bands[l->now] : NULL;
        l->label = pn ? pn->label : pb->label;
        l->change = (pn ? (double)pn->stats.peak : 0) - (pb ? (double)pb->stats.peak : 0);
    }
    qsort(s->lines, np, sizeof *s->lines, by_change);
    s->line_count = np;
    free(pairs);
    return 0;
}

static double first_s(const struct profile_view *v)
{
    return v->point_count ? (double)v->time_ns[0] / 1e9 : 0;
}

static double last_s(const struct profile_view *v)
{
    return v->point_count ? (double)v->time_ns[v->point_count - 1] / 1e9 : 0;
}

/* The alignment used and why: a run without two censuses apart in time has no length
 * to share out, whatever was asked. */
static void choose_align(struct diff_series *s, enum diff_align asked)
{
    bool lengths = s->base_view->point_count >= 2 && s->now_view->point_count >= 2 &&
                   s->base_last_s > s->base_first_s && s->now_last_s > s->now_first_s;
    if (!lengths) {
        s->align = DIFF_ALIGN_TIME;
        s->reason = DIFF_ALIGN_NO_LENGTH;
    } else if (asked != DIFF_ALIGN_AUTO) {
        s->align = asked;
        s->reason = DIFF_ALIGN_ASKED;
    } else {
        double lo = fmin(s->base_length_s, s->now_length_s);
        double hi = fmax(s->base_length_s, s->now_length_s);
        bool differ = hi > DIFF_LENGTH_RATIO * lo;
        s->align = differ ? DIFF_ALIGN_PROGRESS : DIFF_ALIGN_TIME;
        s->reason = differ ? DIFF_ALIGN_LENGTHS_DIFFER : DIFF_ALIGN_LENGTHS_CLOSE;
    }
}

/* A run's kept census at time t in aligned coordinates. */
static double to_x(const struct diff_series *s, double t, double first, double last)
{
    return s->align == DIFF_ALIGN_PROGRESS ? (t - first) / (last - first) : t;
}

/* The points: x0, x1 and every kept census of either run between them. 0, or -1 when
 * out of memory. */
static int collect_points(struct diff_series *s)
{
    const struct profile_view *b = s->base_view, *n = s->now_view;
    if (!diff_series_has_span(s))
        return 0;
    s->x = malloc((b->point_count + n->point_count + 2) * sizeof *s->x);
    if (!s->x)
        return -1;
    size_t count = 0;
    s->x[count++] = s->x0;
    s->x[count++] = s->x1;
    for (int run = 0; run < 2; run++) {
        const struct profile_view *v = run ? n : b;
        double first = run ? s->now_first_s : s->base_first_s;
        double last = run ? s->now_last_s : s->base_last_s;
        for (size_t i = 0; i < v->point_count; i++) {
            double x = to_x(s, (double)v->time_ns[i] / 1e9, first, last);
            if (x > s->x0 && x < s->x1)
                s->x[count++] = x;
        }
    }
    qsort(s->x, count, sizeof *s->x, by_value);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || s->x[i] != s->x[kept - 1])
            s->x[kept++] = s->x[i];
    s->point_count = kept;
    return 0;
}

int diff_series_make(const struct diff_input *base, const struct diff_input *now,
                     enum diff_align asked, struct diff_series *s)
{
    memset(s, 0, sizeof *s);
    s->base_view = base->view;
    s->now_view = now->view;
    s->base_length_s = (double)(base->view->last_ns - base->view->first_ns) / 1e9;
    s->now_length_s = (double)(now->view->last_ns - now->view->first_ns) / 1e9;
    s->base_first_s = first_s(base->view), s->base_last_s = last_s(base->view);
    s->now_first_s = first_s(now->view), s->now_last_s = last_s(now->view);
    choose_align(s, asked);
    if (!base->view->point_count || !now->view->point_count)
        s->x0 = 1, s->x1 = 0;   /* empty */
    else if (s->align == DIFF_ALIGN_PROGRESS)
        s->x0 = 0, s->x1 = 1;
    else {
        s->x0 = fmax(s->base_first_s, s->now_first_s);
        s->x1 = fmin(s->base_last_s, s->now_last_s);
    }
    if (pair_lines(base, now, s) != 0 || collect_points(s) != 0) {
        diff_series_free(s);
        return -1;
    }
    return 0;
}

void diff_series_free(struct diff_series *s)
{
    free(s->lines);
    free(s->x);
    s->lines = NULL, s->x = NULL;
    s->line_count = s->point_count = 0;
}

bool diff_series_has_span(const struct diff_series *s)
{
    return s->x0 <= s->x1;
}

/* A band of one run at t seconds, inside the run's kept censuses: linear between the two
 * around t. A band the run does not have is 0 (the run has data; the band is not in
 * it). */
static double value_at(const struct profile_view *v, size_t band, double t)
{
    if (band == SIZE_MAX || !v->point_count)
        return 0;
    size_t lo = 0, hi = v->point_count - 1;
    double first = (double)v->time_ns[0] / 1e9, last = (double)v->time_ns[hi] / 1e9;
    t = fmin(fmax(t, first), last);   /* rounding of a progress share, never further */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((double)v->time_ns[mid] / 1e9 <= t)
            lo = mid;
        else
            hi = mid;
    }
    double t0 = (double)v->time_ns[lo] / 1e9, t1 = (double)v->time_ns[hi] / 1e9;
    double a = (double)v->values[lo * v->band_count + band];
    double b = (double)v->values[hi * v->band_count + band];
    return t1 > t0 ? a + (b - a) * (t - t0) / (t1 - t0) : b;
}

double diff_series_base_time(const struct diff_series *s, double x)
{
    return s->align == DIFF_ALIGN_PROGRESS ? s->base_first_s + x * (s->base_last_s -
                                                                    s->base_first_s)
                                           : x;
}

double diff_series_now_time(const struct diff_series *s, double x)
{
    return s->align == DIFF_ALIGN_PROGRESS ? s->now_first_s + x * (s->now_last_s -
                                                                   s->now_first_s)
                                           : x;
}

double diff_series_value(const struct diff_series *s, size_t k, double x)
{
    const struct diff_line *l = &s->lines[k];
    return value_at(s->now_view, l->now, diff_series_now_time(s, x)) -
           value_at(s->base_view, l->base, diff_series_base_time(s, x));
}

const char *diff_align_name(enum diff_align align)
{
    return align == DIFF_ALIGN_PROGRESS ? "progress" : "time";
}

const char *diff_align_reason_name(enum diff_align_reason reason)
{
    static const char *const names[] = {
        [DIFF_ALIGN_ASKED] = "asked", [DIFF_ALIGN_LENGTHS_CLOSE] = "lengths_close",
        [DIFF_ALIGN_LENGTHS_DIFFER] = "lengths_differ", [DIFF_ALIGN_NO_LENGTH] = "no_length",
    };
    return names[reason];
}

/* "one census", "no census": why a run has no length. */
static const char *census_count(const struct profile_view *v)
{
    return v->point_count == 0 ? "no census" : "one census";
}

void diff_series_describe(const struct diff_series *s, char *out, size_t size)
{
    char a[32], b[32];
    if (s->reason == DIFF_ALIGN_NO_LENGTH) {
        bool base_short = s->base_view->point_count < 2;
        const struct profile_view *v = base_short ? s->base_view : s->now_view;
        format_snprintf(out, size, "aligned by time (%s has %s, no length to share out)%s",
                        base_short ? "the base" : "this run", census_count(v),
                        diff_series_has_span(s) ? "" : ": no moment in common");
        return;
    }
    format_seconds((uint64_t)llround(s->base_length_s * 1e9), 2, a, sizeof a);
    format_seconds((uint64_t)llround(s->now_length_s * 1e9), 2, b, sizeof b);
    if (s->align == DIFF_ALIGN_PROGRESS) {
        if (s->reason == DIFF_ALIGN_ASKED)
            format_snprintf(out, size, "aligned by share of each run (--align progress), 0 to "
                            "100 %% from its first census to its last");
        else
            format_snprintf(out, size, "aligned by share of each run (progress): the runs' "
                            "lengths, %s s and %s s, differ by more than a fifth (--align time "
                            "for seconds)", a, b);
        return;
    }
    char x0[32], x1[32], ends[96] = "";
    format_seconds((uint64_t)llround(s->x0 * 1e9), 2, x0, sizeof x0);
    format_seconds((uint64_t)llround(s->x1 * 1e9), 2, x1, sizeof x1);
    double base_end = s->base_last_s, now_end = s->now_last_s;
    if (base_end != now_end) {
        char e[32];
        format_seconds((uint64_t)llround(fmax(base_end, now_end) * 1e9), 2, e, sizeof e);
        format_snprintf(ends, sizeof ends, "; %s goes on to %s s",
                        now_end > base_end ? "this run" : "the base", e);
    }
    const char *why = s->reason == DIFF_ALIGN_ASKED ? "--align time"
                                                     : "lengths within a fifth";
    if (!diff_series_has_span(s))
        format_snprintf(out, size, "aligned by time (%s): the runs' censuses have no moment "
                        "in common", why);
    else
        format_snprintf(out, size, "aligned by time (%s), where both runs have censuses: "
                        "%s s to %s s%s", why, x0, x1, ends);
}
