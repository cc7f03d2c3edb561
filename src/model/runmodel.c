/* runmodel.c: one run, read once, for every drawing output (see runmodel.h).
 *
 * Feeding costs one profile_add_frame per census whatever the number of outputs; the
 * copies outputs take at finish cost what their own resolution keeps, not the run.
 */
#include "model/runmodel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"
#include "base/order.h"
#include "base/textcopy.h"
#include "base/utf8.h"

static bool same_patterns(const char *const *a, size_t na, const char *const *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

/* Whether two profiles of a and b are fed the same censuses: the same filters and window. */
static bool same_feed(const struct profile_options *a, const struct profile_options *b)
{
    return same_patterns(a->include, a->include_count, b->include, b->include_count) &&
           same_patterns(a->exclude, a->exclude_count, b->exclude, b->exclude_count) &&
           a->has_from == b->has_from && a->has_to == b->has_to &&
           (!a->has_from || a->from_seconds == b->from_seconds) &&
           (!a->has_to || a->to_seconds == b->to_seconds);
}

static unsigned held_columns(unsigned columns)
{
    return columns < PROFILE_MIN_COLUMNS ? PROFILE_MIN_COLUMNS
           : columns > PROFILE_MAX_COLUMNS ? PROFILE_MAX_COLUMNS : columns;
}

int run_model_need_chart(struct run_model_needs *n, const struct profile_options *feed)
{
    unsigned columns = held_columns(feed->columns);
    size_t i = 0;
    while (i < n->resolutions && n->columns[i] != columns)
        i++;
    if (i == n->resolutions) {
        if (n->resolutions == RUN_MODEL_RESOLUTIONS)
            return -1;
        n->columns[n->resolutions++] = columns;
    }
    /* outputs of one run share their chart options: one feed, the finest columns */
    unsigned finest = n->chart && n->chart_feed.columns > columns ? n->chart_feed.columns : columns;
    n->chart_feed = *feed;
    n->chart_feed.columns = finest;
    n->chart = true;
    return 0;
}

void run_model_need_summary(struct run_model_needs *n, const struct profile_options *feed)
{
    profile_options_every_band(&n->summary_feed);
    n->summary_feed.has_from = feed->has_from;
    n->summary_feed.from_seconds = feed->from_seconds;
    n->summary_feed.has_to = feed->has_to;
    n->summary_feed.to_seconds = feed->to_seconds;
    /* statistics do not depend on the resolution, and nothing else of it is read */
    n->summary_feed.columns = PROFILE_MIN_COLUMNS;
    n->summary_feed.band_shapes = true;   /* the sparklines */
    n->summary = true;
}

/* A profile per phase: every band, the phase's window, statistics only. */
static int new_phases(struct run_model *m, struct ev_error *err)
{
    if (!(m->phase = calloc(m->needs.phase_count, sizeof *m->phase))) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    if ((m->needs.gc && !(m->phase_gc = calloc(m->needs.phase_count, sizeof *m->phase_gc))) ||
        !(m->phase_active = calloc(m->needs.phase_count, sizeof *m->phase_active))) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->needs.phase_count; i++) {
        const struct time_window *w = &m->needs.phases[i];
        struct profile_options o;
        profile_options_every_band(&o);
        o.columns = PROFILE_MIN_COLUMNS;   /* only its statistics are read */
        o.has_from = w->from_ns > 0;
        o.from_seconds = time_window_seconds(w->from_ns);
        o.has_to = w->to_ns != UINT64_MAX;
        o.to_seconds = time_window_seconds(w->to_ns);
        if (!(m->phase[i] = profile_new(&o, err)))
            return -1;
    }
    return 0;
}

/* The heap view's strip per capability draws from the chart profile (profile.h); its
 * reductions take the same pointer. */
static void show_caps(struct run_model *m)
{
    if (m->profile)
        profile_show_caps(m->profile, m->caps);
    if (m->report)
        profile_show_caps(m->report, m->caps);
}

int run_model_init(struct run_model *m, const struct run_model_needs *needs,
                   struct ev_error *err)
{
    memset(m, 0, sizeof *m);
    m->needs = *needs;
    m->track_peak = needs->peak;
    m->keep_markers = needs->markers;
    bool shared = needs->summary && needs->chart &&
                  same_feed(&needs->chart_feed, &needs->summary_feed);
    /* a chart profile the summary reads too keeps the bands' shapes for its sparklines;
     * its copies at other resolutions (for charts only) do not */
    m->needs.chart_feed.band_shapes = shared;
    if (needs->chart && !(m->profile = profile_new(&m->needs.chart_feed, err)))
        return -1;
    if (needs->summary && !shared && !(m->every = profile_new(&needs->summary_feed, err)))
        return -1;
    if (needs->report_whole && !(m->report = profile_new(&needs->report_feed, err)))
        return -1;
    if (needs->phase_count && new_phases(m, err) != 0)
        return -1;
    if ((needs->gc && !(m->gc = gc_stats_new())) ||
        (needs->ticky && !(m->ticky = ticky_new())) ||
        (needs->end && !(m->end = run_end_new())) ||
        (needs->caps && !(m->caps = cap_stats_new()))) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    show_caps(m);
    return 0;
}

void run_model_free(struct run_model *m)
{
    for (size_t i = 0; i < RUN_MODEL_RESOLUTIONS; i++)
        profile_free(m->reduced[i]);
    profile_free(m->profile);
    profile_free(m->every);
    profile_free(m->report);
    peak_free(&m->peak);
    peak_free(&m->at);
    for (size_t i = 0; i < m->marker_count; i++)
        free(m->markers[i].text);
    free(m->markers);
    gc_stats_free(m->gc);
    ticky_free(m->ticky);
    run_end_free(m->end);
    cap_stats_free(m->caps);
    for (size_t i = 0; m->phase && i < m->needs.phase_count; i++)
        profile_free(m->phase[i]);
    free(m->phase);
    free(m->phase_gc);
    free(m->phase_active);
    memset(m, 0, sizeof *m);
}

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

/* A census into the phases that hold it, and only those: what lies outside a phase would
 * be copied for a chart's edges, which no phase draws. Censuses come in time order, so
 * the phases begun and not ended are kept as a list (a run of a phase per test case has
 * hundreds, a census falls in one or two); one out of order is looked up among all. */
static int phases_frame(struct run_model *m, const struct census_frame *frame)
{
    uint64_t t = frame->time_ns;
    const struct time_window *w = m->needs.phases;
    if (t < m->phase_last_ns) {
        for (size_t i = 0; i < m->needs.phase_count; i++)
            if (time_window_holds(w[i], t) && profile_add_frame(m->phase[i], frame, m->bands) != 0)
                return no_memory();
        return 0;
    }
    m->phase_last_ns = t;
    while (m->phase_next < m->needs.phase_count && w[m->phase_next].from_ns <= t)
        m->phase_active[m->phase_active_count++] = m->phase_next++;
    size_t kept = 0;
    for (size_t k = 0; k < m->phase_active_count; k++) {
        size_t i = m->phase_active[k];
        if (w[i].to_ns < t)
            continue;   /* ended: later censuses are later still */
        m->phase_active[kept++] = i;
        if (profile_add_frame(m->phase[i], frame, m->bands) != 0)
            return no_memory();
    }
    m->phase_active_count = kept;
    return 0;
}

int run_model_frame(struct run_model *m, const struct census_frame *frame)
{
    m->censuses++;
    bool in = !m->needs.windowed || time_window_holds(m->needs.window, frame->time_ns);
    if ((in && m->track_peak && peak_add(&m->peak, frame) != 0) ||
        (in && m->needs.has_at && peak_add_until(&m->at, frame, m->needs.at_ns) != 0) ||
        (m->profile && profile_add_frame(m->profile, frame, m->bands) != 0) ||
        (m->every && profile_add_frame(m->every, frame, m->bands) != 0) ||
        (m->report && profile_add_frame(m->report, frame, m->bands) != 0) ||
        (m->end && run_end_frame(m->end, frame) != 0))
        return no_memory();
    return m->phase ? phases_frame(m, frame) : 0;
}

/* Every marker for the summary's list, up to SUMMARY_MAX_MARKERS, then counted. */
static int list_marker(struct run_model *m, uint64_t time_ns, const char *text, size_t len)
{
    if (m->marker_count == SUMMARY_MAX_MARKERS) {
        m->markers_not_listed++;
        return 0;
    }
    if (GROW_ARRAY(m->markers, &m->marker_cap, m->marker_count + 1) != 0)
        return no_memory();
    if (len > PROFILE_MAX_MARKER_TEXT)
        len = utf8_boundary(text, PROFILE_MAX_MARKER_TEXT);   /* never inside a character */
    char *copy = text_copy(text, len);
    if (!copy)
        return no_memory();
    m->markers[m->marker_count] = (struct run_marker){ time_ns, m->marker_count, copy };
    m->marker_count++;
    return 0;
}

int run_model_marker(struct run_model *m, uint64_t time_ns, const char *text, size_t len)
{
    if (m->keep_markers && list_marker(m, time_ns, text, len) != 0)
        return -1;
    if ((m->profile && profile_add_marker(m->profile, time_ns, text, len) != 0) ||
        (m->report && profile_add_marker(m->report, time_ns, text, len) != 0) ||
        (m->end && run_end_marker(m->end, time_ns, text, len) != 0))
        return no_memory();
    return 0;
}

int run_model_total(struct run_model *m, enum heap_total kind, uint64_t time_ns,
                    uint64_t bytes)
{
    if ((m->profile && profile_add_total(m->profile, kind, time_ns, bytes) != 0) ||
        (m->report && profile_add_total(m->report, kind, time_ns, bytes) != 0))
        return no_memory();
    if (m->gc)
        gc_stats_total(m->gc, kind, bytes);
    if (m->end && kind == HEAP_TOTAL_SIZE)
        run_end_heap_size(m->end, bytes);
    return 0;
}

/* A collection's pause into the phases it began in. */
static void phase_pause(struct run_model *m, const struct gc_pause *p)
{
    for (size_t i = 0; m->phase_gc && i < m->needs.phase_count; i++) {
        struct time_window w = m->needs.phases[i];
        if (!time_window_holds(w, p->start_ns) || p->gen >= GC_STATS_MAX_GENS)
            continue;
        struct phase_gc *g = &m->phase_gc[i];
        uint64_t end = p->end_ns < w.to_ns ? p->end_ns : w.to_ns;
        g->collections++;
        g->pause_ns += end > p->start_ns ? end - p->start_ns : 0;
        if (p->gen + 1 > g->generations)
            g->generations = p->gen + 1;
        if (p->end_ns - p->start_ns > g->worst_ns[p->gen])
            g->worst_ns[p->gen] = p->end_ns - p->start_ns;
    }
}

int run_model_gc_event(struct run_model *m, const struct gc_event *event)
{
    /* the scheduler's events, most of a busy run's: only the capabilities' shares read
     * them (gcstats and runend take none) */
    if (event->kind == GC_EVENT_RUN || event->kind == GC_EVENT_STOP)
        return m->caps && cap_stats_event(m->caps, event) != 0 ? no_memory() : 0;
    struct gc_pause pause;
    int rc = m->gc ? gc_stats_event(m->gc, event, &pause) : 0;
    if (rc == 1)
        phase_pause(m, &pause);
    if (rc < 0 || (rc == 1 && m->profile &&
                   profile_add_pause(m->profile, pause.gen, pause.start_ns, pause.end_ns) != 0) ||
        (rc == 1 && m->report &&
         profile_add_pause(m->report, pause.gen, pause.start_ns, pause.end_ns) != 0))
        return no_memory();
    if (m->caps && cap_stats_event(m->caps, event) != 0)
        return no_memory();
    if (m->end) {
        if (rc == 1 && run_end_pause(m->end, pause.start_ns, pause.end_ns) != 0)
            return no_memory();
        if (event->kind == GC_EVENT_START)
            run_end_gc_start(m->end, event->cap, event->time_ns);
        else if (event->kind == GC_EVENT_END)
            run_end_gc_end(m->end, event->cap);
    }
    /* HEAP_ALLOCATED counts one capability's allocation: a second capability's counts
     * make the profile's one series of them no rate of the run's */
    if (m->gc && event->kind == GC_EVENT_ALLOCATED && gc_stats_allocating(m->gc) > 1) {
        if (m->profile)
            profile_split_allocation(m->profile);
        if (m->report)
            profile_split_allocation(m->report);
    }
    return 0;
}

int run_model_ticky_event(struct run_model *m, const struct ticky_event *event)
{
    return m->ticky && ticky_event(m->ticky, event) != 0 ? no_memory() : 0;
}

const struct ticky *run_model_ticky(const struct run_model *m)
{
    return ticky_any(m->ticky) ? m->ticky : NULL;
}

bool run_model_gc(const struct run_model *m, struct gc_summary *out)
{
    if (!m->gc)
        return false;
    struct gc_summary s;
    gc_stats_summary(m->gc, m->info ? m->info->end_time_ns : 0, &s);
    if (!s.any)
        return false;
    *out = s;
    return true;
}

bool run_model_end(const struct run_model *m, struct run_end_summary *out)
{
    if (!m->end || !m->info || m->info->ending == RUN_ENDING_NONE)
        return false;
    run_end_summary(m->end, m->info->end_time_ns, out);
    return true;
}

size_t run_model_cap_strips(const struct run_model *m)
{
    return m->info ? cap_stats_strips(m->caps, m->info) : 0;   /* the end is info's */
}

bool run_model_cap_timeline(const struct run_model *m, size_t index, struct cap_timeline *out)
{
    return index < run_model_cap_strips(m) &&
           cap_stats_timeline(m->caps, index, m->info->end_time_ns, out);
}

bool run_model_nonmoving_timeline(const struct run_model *m, struct nonmoving_timeline *out)
{
    return m->info && cap_stats_nonmoving(m->caps, m->info->end_time_ns, out);
}

size_t run_model_caps(const struct run_model *m, struct cap_share *out, size_t cap)
{
    if (!m->caps)
        return 0;
    return cap_stats_shares(m->caps, m->info ? m->info->end_time_ns : 0, out, cap);
}

static int by_time(const void *a, const void *b)
{
    const struct run_marker *x = a, *y = b;
    int c = order_u64(x->time_ns, y->time_ns);
    return c ? c : order_u64(x->seq, y->seq);
}

int run_model_finish(struct run_model *m, struct ev_error *err)
{
    peak_sort(&m->peak);   /* the largest bands first for every reader */
    peak_sort(&m->at);
    if (m->marker_count)   /* an eventlog gives them by capability, not by time */
        qsort(m->markers, m->marker_count, sizeof *m->markers, by_time);
    for (size_t i = 0; m->profile && i < m->needs.resolutions; i++) {
        if (m->reduced[i] || m->needs.columns[i] == profile_columns(m->profile) ||
            (m->needs.live_only >> i & 1))
            continue;
        struct profile_options o = m->needs.chart_feed;
        o.columns = m->needs.columns[i];
        o.band_shapes = false;
        if (!(m->reduced[i] = profile_reduce_borrowing(m->profile, &o, err)))
            return -1;
    }
    return 0;
}

/* A profile's copy: the same options at its own columns (profile_reduce keeps all). */
static struct profile *copy_profile(const struct profile *p, const struct profile_options *feed,
                                    struct ev_error *err)
{
    struct profile_options o = *feed;
    o.columns = profile_columns(p);
    return profile_reduce(p, &o, err);
}

int run_model_copy(const struct run_model *m, struct run_model *copy, unsigned columns,
                   bool summary, struct ev_error *err)
{
    memset(copy, 0, sizeof *copy);
    copy->needs = m->needs;
    copy->needs.report_whole = false;   /* the live server's report is of the window */
    copy->needs.summary = summary && m->needs.summary;
    /* a chart's copy leaves out what only summaries read: the bands' shapes (96 bytes a
     * band) and the summary's own profile */
    copy->needs.chart_feed.band_shapes = summary && m->needs.chart_feed.band_shapes;
    if (columns && m->profile) {   /* one resolution, reduced to at once (exact) */
        struct profile_options o = copy->needs.chart_feed;
        o.columns = columns;
        if (!(copy->profile = profile_reduce(m->profile, &o, err)))
            return -1;
        copy->needs.columns[0] = profile_columns(copy->profile);
        copy->needs.resolutions = 1;
        copy->needs.live_only = 0;
        copy->needs.chart_feed.columns = copy->needs.columns[0];
    }
    copy->track_peak = m->track_peak;
    copy->keep_markers = m->keep_markers;
    copy->censuses = m->censuses;
    copy->markers_not_listed = m->markers_not_listed;
    if ((m->profile && !copy->profile &&
         !(copy->profile = copy_profile(m->profile, &copy->needs.chart_feed, err))) ||
        (m->every && copy->needs.summary &&
         !(copy->every = copy_profile(m->every, &m->needs.summary_feed, err))))
        return -1;
    if (peak_copy(&m->peak, &copy->peak) != 0 || peak_copy(&m->at, &copy->at) != 0 ||
        (m->gc && !(copy->gc = gc_stats_copy(m->gc))) ||
        (m->ticky && !(copy->ticky = ticky_copy(m->ticky))) ||
        (m->end && !(copy->end = run_end_copy(m->end))) ||
        (m->caps && !(copy->caps = cap_stats_copy(m->caps))))
        goto no_memory;
    show_caps(copy);   /* the copy's own, not the original's the profiles were made from */
    if (m->marker_count) {
        if (!(copy->markers = calloc(m->marker_count, sizeof *m->markers)))
            goto no_memory;
        copy->marker_cap = m->marker_count;
        for (size_t i = 0; i < m->marker_count; i++) {
            copy->markers[i] = m->markers[i];
            if (!(copy->markers[i].text = strdup(m->markers[i].text)))
                goto no_memory;
            copy->marker_count = i + 1;
        }
    }
    return 0;
no_memory:
    ev_error_set(err, "out of memory");
    return -1;
}

/* opt's band selection and resolution over feed's filters and window. */
static struct profile_options selection_over(const struct profile_options *opt,
                                             const struct profile_options *feed)
{
    struct profile_options o = *feed;
    o.bands = opt->bands;
    o.trace_percent = opt->trace_percent;
    o.sort = opt->sort;
    o.reverse = opt->reverse;
    o.columns = opt->columns;
    o.shapes_only = opt->shapes_only;
    return o;
}

const struct profile *run_model_chart(const struct run_model *m,
                                      const struct profile_options *opt, struct ev_error *err)
{
    unsigned columns = held_columns(opt->columns);
    if (m->profile && columns == profile_columns(m->profile))
        return m->profile;
    for (size_t i = 0; m->profile && i < m->needs.resolutions; i++)
        if (m->needs.columns[i] == columns && m->reduced[i])
            return m->reduced[i];
    ev_error_set(err, "no chart profile of %u columns was asked of the run", columns);
    return NULL;
}

const struct profile *run_model_report_whole(const struct run_model *m)
{
    return m->report;
}

struct profile *run_model_summary(const struct run_model *m, const struct profile_options *opt,
                                  struct ev_error *err)
{
    const struct profile *p = m->every ? m->every : m->profile;
    if (!p || !m->needs.summary) {
        ev_error_set(err, "no summary profile was asked of the run");
        return NULL;
    }
    struct profile_options o = selection_over(opt, m->every ? &m->needs.summary_feed
                                                            : &m->needs.chart_feed);
    o.columns = PROFILE_MIN_COLUMNS;   /* statistics only: the least to copy */
    o.band_shapes = true;              /* and the sparklines' shapes */
    return profile_reduce_borrowing(p, &o, err);   /* freed before m, which is not fed */
}

const struct profile *run_model_phase(const struct run_model *m, size_t i)
{
    return m->phase && i < m->needs.phase_count ? m->phase[i] : NULL;
}

const struct phase_gc *run_model_phase_gc(const struct run_model *m, size_t i)
{
    return m->phase_gc && i < m->needs.phase_count ? &m->phase_gc[i] : NULL;
}

void run_model_census(const struct run_model *m, struct run_census *out)
{
    const struct peak *p = m->needs.has_at ? &m->at : &m->peak;
    *out = (struct run_census){
        .found = p->kept,
        .at = m->needs.has_at,
        .time_ns = p->time_ns, .bytes = p->bytes,
        .entries = p->entries, .count = p->count,
        .bands = m->bands,
    };
}
