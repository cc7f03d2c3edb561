/* profile.h: censuses kept compactly for charts, with exact per-band statistics.
 *
 * A chart needs, for every band, what it looked like over time at the resolution of the
 * picture, and numbers to choose and order the bands by. The profile gets censuses as
 * they are read and keeps memory bounded whatever the number of censuses:
 *
 *   - Time is cut into buckets of equal width, at most 2 x columns of them (columns is
 *     the picture width). When a census falls past the last bucket, neighbouring buckets
 *     are merged pairwise and the width doubles, so the whole run always fits.
 *   - A bucket keeps at most two censuses whole (their band entries): the one with the
 *     largest total and the one with the smallest total, in time order. So each pixel
 *     column keeps its extremes: a spike or a dip between two pixels is still drawn, and
 *     every kept point is a census that really happened (a sum of band maxima would draw
 *     a heap that never existed).
 *   - Per band, statistics are exact over ALL censuses in the time window, streamed:
 *     area (trapezoids between consecutive censuses, byte-seconds), peak, mean and
 *     standard deviation (Welford, with the censuses a band is absent from counted as 0).
 *   - Markers are kept each with its text up to PROFILE_MARKERS_WHOLE (or one per bucket
 *     if there are more buckets); past that, one marker per bucket (the first; the others
 *     counted). Heap totals (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE) are bucketed: per bucket
 *     the largest and smallest total.
 *
 * Label filters (--include / --exclude, POSIX extended regular expressions) are decided
 * once per band: an excluded band is not in any kept census, total or statistic. The
 * time window (--from / --to) drops censuses, markers and totals outside it.
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

#include "base/limits.h"
#include "model/bands.h"
#include "model/frame.h"
#include "base/error.h"

enum profile_sort { PROFILE_SORT_SIZE, PROFILE_SORT_STDDEV, PROFILE_SORT_NAME, PROFILE_SORT_GROWTH };


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
};

/* --bands 15, --trace 1, --sort size, 1280 columns. */
void profile_options_default(struct profile_options *opt);

/* Every band, none folded into OTHER, at the finest resolution: for summaries. */
void profile_options_every_band(struct profile_options *opt);

/* Which sort a name (size, stddev, name) means; false when none. */
bool profile_sort_from_name(const char *name, enum profile_sort *sort);

/* Checks a --include/--exclude pattern; 0, or -1 with err set to what regcomp says. */
int profile_check_pattern(const char *pattern, struct ev_error *err);

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

/* Exact statistics of one band over every census in the window. */
struct profile_band_stats {
    double area;                    /* byte-seconds */
    uint64_t peak;
    double mean, stddev;            /* bytes, over all censuses (absent = 0) */
    /* Growth: the least-squares line through the band's bytes at every census in the
     * window (absent = 0) against the census times: its slope in bytes per second and
     * its R^2 (the share of the band's variance the line explains, 0 to 1). Both 0 with
     * fewer than two censuses at distinct times; R^2 is 0 for a constant band. For OTHER
     * the slope is the sum of the folded bands' (exact: slopes add) and R^2 is NAN (the
     * fit of a sum is not a sum of fits). */
    double growth, growth_r2;
    /* The rise: the same fit from the window's first census up to the census of the
     * band's peak (the first, if the peak repeats), over rise_censuses censuses; what
     * suspects are judged on (below). peak_ns: the time of that census. */
    double rise, rise_r2;
    uint64_t rise_censuses, peak_ns;
};

/* Suspects: the bands that grew steadily to their peak, the likely leak. A leak is what
 * drives the heap to its peak; what a program does after (tearing down, the census at
 * exit) would hide it from a fit over the whole run, so the rule judges each band's rise:
 * the least-squares line through its bytes from the window's first census up to the
 * census of its own peak. A band is a suspect when that rise spans at least
 * PROFILE_SUSPECT_CENSUSES censuses, its slope is positive, its fit good (R^2 >=
 * PROFILE_SUSPECT_R2) and the rise it gives (slope x time from the first census to the
 * band's peak) is at least PROFILE_SUSPECT_RISE of the heap profile's peak (the largest
 * census total), so a small band that grows steadily does not count. Suspects are
 * ordered by the slope of their rise, largest first. */
#define PROFILE_SUSPECT_CENSUSES 4
#define PROFILE_SUSPECT_R2 0.8
#define PROFILE_SUSPECT_RISE 0.1

struct profile_marker {
    uint64_t time_ns;
    char *text;                     /* UTF-8, at most PROFILE_MAX_MARKER_TEXT bytes */
    uint32_t merged;                /* further markers in the same bucket, not kept */
};

#define PROFILE_OTHER UINT32_MAX    /* the band id of OTHER in a view */

struct profile_band {
    uint32_t band;                  /* the band, or PROFILE_OTHER */
    const char *label;              /* "OTHER" for OTHER; owned by the view */
    struct profile_band_stats stats; /* for OTHER: area and mean exact, peak over kept
                                        censuses, stddev 0 */
    uint32_t folded;                /* for OTHER: how many bands it holds */
    uint32_t stack_number;          /* a stack band's "(n)" in the .hp; 0 for others */
};

struct profile_series {
    size_t count;
    uint64_t *time_ns;
    uint64_t *bytes;
};

#define PROFILE_TOTALS 4            /* size, live, blocks, allocated (cumulative) */

/* Garbage collections (GC_START to GC_END) in the window: per time bucket, the time spent
 * collecting, so a strip can show where the collector ran and how much. */
struct profile_gc {
    size_t count;                   /* buckets; 0 when no collection was seen */
    uint64_t origin_ns, width_ns;   /* bucket i covers origin + i * width, width long */
    double *busy_ns;                /* per bucket: nanoseconds spent collecting */
    uint64_t collections;           /* collections ended in the window */
    double total_ns;                /* their whole duration */
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
    struct profile_gc gc;           /* garbage collections, per bucket */
    uint64_t peak_total;            /* the largest census total (every band) in the window */
    size_t marker_count;
    const struct profile_marker *markers; /* owned by the profile */
    bool has_from, has_to;
    uint64_t from_ns, to_ns;
};

/* 0, or -1 when out of memory. The view borrows the markers from p. */
int profile_view(const struct profile *p, const struct bands *bands, struct profile_view *v);
void profile_view_free(struct profile_view *v);

/* Bands to show whatever their rank (--compare shows the union of two runs' largest):
 * wants says yes for a label (len bytes, not NUL-terminated). */
struct profile_keep {
    bool (*wants)(void *ctx, const char *label, size_t len);
    void *ctx;
};

/* profile_view, also showing every band keep wants (after the others, in rank order). */
int profile_view_keep(const struct profile *p, const struct bands *bands,
                      const struct profile_keep *keep, struct profile_view *v);

/* How many suspects the summary and the report list. */
#define PROFILE_SUSPECTS_LISTED 10

/* The suspects of a view (the rule above): up to max indices into v->bands, by slope,
 * largest first; OTHER is never one. Returns how many. */
size_t profile_suspects(const struct profile_view *v, size_t *out, size_t max);
/* Whether one band's statistics make it a suspect in a window whose first census was at
 * first_ns and whose heap peaked at peak_total bytes. */
bool profile_is_suspect(const struct profile_band_stats *s, uint64_t first_ns,
                        uint64_t peak_total);

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
/* The horizontal resolution p keeps (its options' columns, held to the limits). */
unsigned profile_columns(const struct profile *p);

/* For tests and tools: the exact statistics of a band (zeros if never seen). */
struct profile_band_stats profile_stats(const struct profile *p, uint32_t band);
/* The number of kept censuses now: bounded by 4 x columns. */
size_t profile_kept(const struct profile *p);

#endif
