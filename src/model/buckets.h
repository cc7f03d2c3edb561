/* buckets.h: a run's censuses, markers, heap totals and collections kept in bounded
 * memory, at the resolution of a picture.
 *
 * Time is cut into buckets of equal width, `count` of them (2 x the picture's columns).
 * When something falls past the last bucket, neighbouring buckets are merged pairwise and
 * the width doubles, so the whole run always fits. Widths are FIRST_BUCKET_NS times a
 * power of two, which is what lets buckets_reduce make a coarser copy exactly.
 *
 *   - A bucket keeps at most two censuses whole (their band entries): the one with the
 *     largest total and the one with the smallest total, in time order. So each pixel
 *     column keeps its extremes: a spike or a dip between two pixels is still drawn, and
 *     every kept point is a census that really happened (a sum of band maxima would draw
 *     a heap that never existed).
 *   - Heap totals (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE, allocated): per bucket the largest
 *     and the smallest value, with their times.
 *   - Collections: per bucket and generation lane (0, 1, 2 and older), the longest pause
 *     that began in it (its start and length) and how many began in it: a picture draws
 *     each pause as a mark as long as it lasted, and a dense run's longest in each column.
 *   - Markers are kept each with its text up to PROFILE_MARKERS_WHOLE (or one per bucket
 *     if there are more buckets); past that, one marker per bucket (the first; the others
 *     counted).
 *
 * What a census holds (which bands, after filters) is the caller's: it fills the spare
 * census and places it (buckets_place_spare).
 */
#ifndef EV2HP_BUCKETS_H
#define EV2HP_BUCKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/censusstore.h"
#include "model/frame.h"

#define PROFILE_TOTALS 4            /* size, live, blocks, allocated (cumulative) */

struct profile_marker {
    uint64_t time_ns;
    char *text;                     /* UTF-8, at most PROFILE_MAX_MARKER_TEXT bytes */
    uint32_t merged;                /* further markers in the same bucket, not kept */
};

struct profile_series {
    size_t count;
    uint64_t *time_ns;
    uint64_t *bytes;
};

/* One census as kept: its entries (the caller's choice of bands) and their total. The
 * entries are in memory, or (stored, with a census store) on disk: then entries is NULL
 * and stored is where they lie + 1 (buckets_entries reads them). */
struct kept_census {
    uint64_t time_ns;
    uint64_t total;
    uint32_t count, cap;
    struct census_entry *entries;
    uint64_t stored;
};

struct census_bucket {
    unsigned reps;                  /* kept censuses: 0, 1 or 2, in time order */
    struct kept_census rep[2];
};

#define PROFILE_GC_LANES 3           /* generations 0, 1, and 2 and older */

/* A bucket's collections of one lane: the longest pause begun in it (the earlier of
 * equals), and the count of all begun in it (0: none). */
struct gc_mark {
    uint64_t start_ns, pause_ns;
    uint64_t count;
};

struct total_bucket {
    bool used;
    uint64_t lo_ns, lo, hi_ns, hi;  /* the smallest and the largest value, with times */
};

struct buckets {
    size_t count;                   /* 2 x columns */
    uint64_t origin_ns;             /* the start of bucket 0 */
    uint64_t width_ns;              /* the width of a bucket */
    uint64_t room_ns;               /* the latest time buckets were made to hold: with
                                     * count it decides width_ns (buckets_reduce) */
    struct census_bucket *census;
    struct kept_census spare;       /* where the next census is filled before it is placed */
    struct census_store *store;     /* NULL: kept censuses in memory; else on disk */
    uint64_t kept_entries;          /* entries of the kept censuses held in memory */
    struct total_bucket *totals[PROFILE_TOTALS];
    struct gc_mark *gc_marks[PROFILE_GC_LANES]; /* per bucket; NULL before any in the lane */
    struct profile_marker *markers;
    size_t marker_count;
    bool markers_merging;           /* past the bound: one marker per bucket */
    uint64_t markers_seen;          /* markers given, kept or merged */
};

/* Buckets for `columns` columns (held to the limits) starting at origin_ns; 0, or -1
 * when out of memory. buckets_free frees what it holds (also after a failed init). */
int buckets_init(struct buckets *g, unsigned columns, uint64_t origin_ns);
void buckets_free(struct buckets *g);

/* The bucket time_ns falls in (past the last one until buckets_make_room). */
static inline uint64_t buckets_index(const struct buckets *g, uint64_t time_ns)
{
    return time_ns <= g->origin_ns ? 0 : (time_ns - g->origin_ns) / g->width_ns;
}

/* Doubles the bucket width until time_ns falls in a bucket. */
void buckets_make_room(struct buckets *g, uint64_t time_ns);

/* Room for count entries in k; 0, or -1 when out of memory. */
int kept_census_reserve(struct kept_census *k, size_t count);
/* A deep copy sized exactly (to's entries must be empty); 0, or -1 when out of memory. */
int kept_census_copy(struct kept_census *to, const struct kept_census *from);

/* Places the spare census (filled, its time within room) in its bucket; what the bucket
 * drops becomes the spare. With a store, a census the bucket keeps is written to it and
 * only its place is kept. 0, or -1 with errno set (a failed write). */
int buckets_place_spare(struct buckets *g);

/* From now on, kept censuses on disk: the ones kept so far are written to a new store.
 * 0, or -1 with errno set. */
int buckets_use_store(struct buckets *g);

/* The entries of kept census k of g: in memory, or read from g's store into *scratch
 * (grown as needed, *cap entries). NULL with errno set when the store cannot be read. */
const struct census_entry *buckets_entries(const struct buckets *g, const struct kept_census *k,
                                           struct census_entry **scratch, size_t *cap);

/* Each returns 0, or -1 when out of memory. */
int buckets_add_marker(struct buckets *g, uint64_t time_ns, const char *text, size_t len);
int buckets_add_total(struct buckets *g, enum heap_total kind, uint64_t time_ns,
                      uint64_t bytes);
/* A collection of lane's generations from start_ns to end_ns, to the bucket it began in. */
int buckets_add_collection(struct buckets *g, unsigned lane, uint64_t start_ns,
                           uint64_t end_ns);

/* The number of kept censuses: at most 2 x count. */
size_t buckets_kept(const struct buckets *g);

/* q (initialised, no more buckets than p, same origin) made to hold what it would hold
 * had it been fed what p was: 0, -1 when out of memory, -2 when q would be finer. */
int buckets_reduce(struct buckets *q, const struct buckets *p);

/* A heap total's kept values in time order (both ends of each bucket); 0, or -1 when out
 * of memory. */
int buckets_series(const struct buckets *g, enum heap_total kind, struct profile_series *s);

#endif
