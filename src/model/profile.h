/* profile.h: censuses kept compactly for charts, with exact per-band statistics.
 *
 * A chart needs, for every band, what it looked like over time at the resolution of the
 * picture, and numbers to choose and order the bands by. The profile gets censuses as
 * they are read and keeps memory bounded whatever the number of censuses. It joins three
 * modules, each with its own header:
 *
 *   - model/buckets.h: the censuses, markers, heap totals and collections kept per time
 *     bucket (at most two censuses whole per bucket, 2 x columns buckets);
 *   - model/bandstats.h: per band, exact statistics over ALL censuses in the time window
 *     (area, peak, mean, standard deviation, growth), streamed;
 *   - model/bandselect.h: the label filters (--include / --exclude), decided once per
 *     band, and the choice of the bands shown, the others folded into OTHER.
 *
 * An excluded band is not in any kept census, total or statistic. The time window
 * (--from / --to) drops censuses, markers and totals outside it.
 *
 * profile_view then selects the bands to show (hp2pretty / eventlog2html style): bands
 * under trace_percent of the total area, and those past the first `bands` by area, fold
 * into one OTHER band, which at every kept census equals the sum of the folded bands.
 */
#ifndef EV2HP_PROFILE_H
#define EV2HP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/limits.h"
#include "model/bands.h"
#include "model/bandselect.h"
#include "model/bandstats.h"
#include "model/buckets.h"
#include "model/capstats.h"
#include "model/frame.h"


struct profile_options {
    unsigned bands;                 /* bands shown besides OTHER; 0 = all */
    double trace_percent;           /* bands under this % of the total area fold into OTHER */
    enum profile_sort sort;
    bool reverse;
    const char *include[PROFILE_MAX_FILTERS];   /* keep only bands matching one of these */
    size_t include_count;
    const char *exclude[PROFILE_MAX_FILTERS];   /* then drop bands matching any of these */
    size_t exclude_count;
    bool has_from, has_to;
    double from_seconds, to_seconds;
    unsigned columns;               /* horizontal resolution: 2 x columns buckets */
    /* Bytes of kept censuses held in memory before they go to disk (censusstore.h):
     * 0 = PROFILE_KEPT_MEMORY. Whatever it is, every output is the same. */
    uint64_t kept_memory;
    /* Keep every band's shape (bandstats.h) for the summaries' sparklines. */
    bool band_shapes;
    /* The view leaves out each band's bytes at each point (values stays NULL) when every
     * band it shows has its shape and none is folded: the summaries, which list every band
     * and draw sparklines from the shapes, then hold no points x bands matrix (53 MB for
     * 100,000 bands). */
    bool shapes_only;
};

/* The window --from and --to give, in nanoseconds, both ends inclusive: from_ns 0 and
 * to_ns UINT64_MAX where an end is not given. The one conversion of the window's seconds,
 * so that the charts, the exports, the peak and the gates keep the same censuses. */
struct time_window {
    uint64_t from_ns, to_ns;
};
struct time_window profile_window(const struct profile_options *opt);
/* A time as a window's seconds (from_seconds, to_seconds) that profile_window gives back
 * to the nanosecond: half a nanosecond on, as its conversion truncates, so that a marker
 * a window starts or ends at is in it. */
double time_window_seconds(uint64_t ns);
/* Whether a census (marker, sample) at time_ns is in w. */
bool time_window_holds(struct time_window w, uint64_t time_ns);

/* --bands 15, no --trace (0), --sort size, 1280 columns. */
void profile_options_default(struct profile_options *opt);

/* Every band, none folded into OTHER, at the finest resolution: for summaries. */
void profile_options_every_band(struct profile_options *opt);

struct profile;

/* NULL with err set (a bad pattern, or out of memory). */
struct profile *profile_new(const struct profile_options *opt, struct ev_error *err);
void profile_free(struct profile *p);

/* Each returns 0, or -1 when out of memory. bands names the entries' bands. */
int profile_add_frame(struct profile *p, const struct census_frame *frame,
                      const struct bands *bands);
int profile_add_marker(struct profile *p, uint64_t time_ns, const char *text, size_t len);
int profile_add_total(struct profile *p, enum heap_total kind, uint64_t time_ns,
                      uint64_t bytes);
/* A collection of generation gen paused the program from start_ns to end_ns (the
 * collector's figures pair them: model/gcstats.h); kept when it began in the window.
 * 0, or -1 when out of memory. */
int profile_add_pause(struct profile *p, unsigned gen, uint64_t start_ns, uint64_t end_ns);
/* The run's allocation counts (HEAP_ALLOCATED) are several capabilities' own, each
 * cumulative apart: no rate can be drawn from them as one series (profile_view's
 * allocation_split). */
void profile_split_allocation(struct profile *p);

/* Each capability's time along the run (capstats.h), which the heap view draws as a
 * strip per capability: borrowed, not owned (the run model keeps it), handed on to the
 * profile's views and reductions; NULL (the default) when the run model keeps none. */
void profile_show_caps(struct profile *p, const struct cap_stats *caps);

/* Garbage collections begun in the window, by generation lane (0, 1, 2 and older): per
 * time bucket the longest pause and how many began there (buckets.h), and per lane the
 * collections and their pauses in all. */
struct profile_gc {
    size_t count;                   /* buckets; 0 when no collection was seen */
    uint64_t width_ns;              /* the width of a bucket */
    struct gc_mark *marks[PROFILE_GC_LANES]; /* per bucket, or NULL: none in the lane */
    uint64_t collections[PROFILE_GC_LANES];
    uint64_t total_ns[PROFILE_GC_LANES];
};

/* What a chart draws: the shown bands in stack order (bottom first; OTHER last, on top)
 * and the kept censuses in time order, values[point * band_count + band]. Where the
 * window (--from / --to) cuts between two censuses, a point at the edge interpolated
 * between them starts or ends the points, so bands reach the window's edges. */
struct profile_view {
    size_t band_count;
    struct profile_band *bands;
    size_t point_count;
    uint64_t *time_ns;
    uint64_t *values;
    uint64_t *point_totals;         /* the sum of the shown bands at each point */
    uint64_t censuses;              /* censuses in the window (all, not only kept) */
    uint64_t first_ns, last_ns;     /* times of the first and last census in the window */
    uint64_t run_censuses;          /* censuses of the whole run, window or not */
    uint64_t run_first_ns, run_last_ns; /* the run's extent (its first and last census) */
    double total_area;
    uint32_t bands_seen;            /* bands with bytes in the window, after filters */
    uint32_t bands_filtered;        /* bands dropped by --include / --exclude */
    struct profile_series totals[PROFILE_TOTALS]; /* by enum heap_total, with ALLOCATED */
    struct profile_gc gc;           /* garbage collections, per bucket and lane */
    bool allocation_split;          /* totals[HEAP_TOTAL_ALLOCATED] are several
                                     * capabilities' counts: no rate of the run */
    const struct cap_stats *caps;   /* profile_show_caps: borrowed, or NULL */
    uint64_t peak_total;            /* the largest census total (every band) in the window */
    /* The bands' shapes (bandstats.h), borrowed from the profile, slot by slot: band b's
     * value in slot c at shapes[c x shape_bands + b], for b below shape_bands; NULL when
     * the profile keeps none (band_shapes). Their slots start at first_ns, each
     * shape_width_ns wide, shape_slots of them; bit i of shape_filled: slot i has a
     * census. */
    const float *shapes;
    size_t shape_bands;
    unsigned shape_slots;
    uint64_t shape_width_ns;
    uint32_t shape_filled;
    size_t marker_count;
    const struct profile_marker *markers; /* owned by the profile */
    bool has_from, has_to;
    uint64_t from_ns, to_ns;
};

/* 0, or -1 when out of memory. The view borrows the markers from p. */
int profile_view(const struct profile *p, const struct bands *bands, struct profile_view *v);
void profile_view_free(struct profile_view *v);

/* profile_view, also showing every band keep wants (after the others, in rank order). */
int profile_view_keep(const struct profile *p, const struct bands *bands,
                      const struct profile_keep *keep, struct profile_view *v);

/* Every band of a profile, for a table that lists them all (the report): the shown ones
 * and those folded into OTHER, each with its exact statistics, and for each folded band
 * its bytes at some of the kept censuses (all of them while folded bands x kept censuses
 * stay within the budget given and there are no more than max_points; else an even
 * subset of at least two), so that a folded band can be drawn too. Memory: one record per
 * band and at most budget values. */
struct profile_table {
    size_t count;                   /* bands with bytes in the window, largest area first */
    struct profile_band *bands;     /* labels owned here */
    int32_t *shown;                 /* per band: its index in the view's bands, or -1 */
    size_t points;                  /* kept censuses sampled */
    uint64_t *time_ns;              /* their times */
    size_t folded;                  /* bands folded into OTHER */
    uint64_t *values;               /* per folded band (in table order), points values */
};

/* The table of p's bands for its view v (made by profile_view of p with bands), at most
 * max_points values per folded band: 0, or -1 when out of memory. */
int profile_table(const struct profile *p, const struct bands *bands,
                  const struct profile_view *v, size_t budget, size_t max_points,
                  struct profile_table *t);
void profile_table_free(struct profile_table *t);

/* How many suspects the summary and the report list (facts/suspects.h finds them). */
#define PROFILE_SUSPECTS_LISTED 10

/* The profile p would be had it been fed at opt's resolution: opt names the same filters
 * and window as p's options (they decide what is fed) and at most p's columns (0, or
 * more, mean p's); its band selection (bands, trace, sort, reverse) is the copy's. Every
 * kept census, heap total, collection and marker is what a profile of opt fed the same
 * input keeps (buckets of either are FIRST_BUCKET_NS times a power of two, so each of
 * the copy's buckets is whole buckets of p's, and what a bucket keeps can be decided over
 * what finer buckets kept), so a chart drawn from it is the chart a profile of its own
 * gives. One profile at the finest resolution any output needs serves every output.
 * NULL with err set when out of memory. */
struct profile *profile_reduce(const struct profile *p, const struct profile_options *opt,
                               struct ev_error *err);
/* profile_reduce whose copy reads p's band statistics (and shapes, when opt asks for
 * them) instead of copying them, 136 to 232 bytes a band: for a copy that lives no longer
 * than p, while p is fed no more (the run model's coarser charts and its summary, at the
 * end of input). */
struct profile *profile_reduce_borrowing(const struct profile *p,
                                         const struct profile_options *opt,
                                         struct ev_error *err);
/* The horizontal resolution p keeps (its options' columns, held to the limits). */
unsigned profile_columns(const struct profile *p);

/* OTHER's peak over p's kept censuses (what a view's OTHER gives, window edges aside)
 * were p's bands merged into groups and shown by rule (--bands, --trace):
 * group_of[b] is band b's group, below groups, for every band p has seen (NULL: each
 * band its own group). Groups are ranked as bands are (bandselect_rank), by their
 * members' summed area. What the default grouping (census/autogroup.h) weighs keys by,
 * from one read of the input. 0, or -1 when out of memory or the census store cannot
 * be read. */
int profile_grouped_other(const struct profile *p, const struct bandselect_rule *rule,
                          const uint32_t *group_of, size_t groups, uint64_t *other_peak);
/* No less than profile_grouped_other(p, rule, NULL, 0): the peaks of the bands the rule
 * would fold into OTHER, summed, from the bands' statistics alone (no census read).
 * 0, or -1 when out of memory. */
int profile_other_peak_bound(const struct profile *p, const struct bandselect_rule *rule,
                             uint64_t *bound);
/* The largest census total p was fed (in its window). */
uint64_t profile_peak_total(const struct profile *p);
/* The number of band records p's statistics hold: band ids below it. */
size_t profile_band_cap(const struct profile *p);

/* For tests and tools: the exact statistics of a band (zeros if never seen). */
struct profile_band_stats profile_stats(const struct profile *p, uint32_t band);
/* The number of kept censuses now: bounded by 4 x columns. */
size_t profile_kept(const struct profile *p);

#endif
