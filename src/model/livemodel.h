/* livemodel.h: a run's censuses as a live view keeps them, in memory that stays flat.
 *
 * A service profiled once a second for a week makes 600,000 censuses; watching it, the
 * last minutes matter at full resolution and the rest as a trend. The live model keeps:
 *
 *   - the most recent censuses whole and exact (every band's bytes), `recent` of them;
 *   - every older census merged into a time bucket: buckets of equal width, at most
 *     `buckets` of them, each holding its number of censuses, the time of its first and
 *     last, and for every band seen in it the largest bytes and the sum of its bytes over
 *     the bucket's censuses (the mean is sum / censuses: a census the band is absent from
 *     counts as 0). When a census falls past the last bucket, neighbours merge pairwise
 *     and the width doubles; the maximum of a merged bucket is the larger maximum and the
 *     sums add, so both stay exact however often buckets merge (sums are 128-bit).
 *
 * Censuses come in time order (the assembler's rule). Memory is bounded whatever the
 * number of censuses and of bands (live_model_bytes):
 *
 *   - the censuses kept whole hold at most `recent_entries` entries between them (and at
 *     least the last census, whatever its size): a run of 100,000 bands keeps the last
 *     few censuses whole, not the last 600;
 *   - the merged buckets hold at most `bucket_records` band records between them
 *     (allocated, after the last bucket sealed: the newest may add one a band): past
 *     that, buckets merge pairwise (the width doubles) until they fit or one is left, so
 *     a run with many bands has fewer, wider buckets, each still exact for every band;
 *   - the newest bucket, while it takes censuses, one record per band of the run (40
 *     bytes a band: the per-band part, like the run's band table).
 *
 * Together about 16 x recent_entries + 32 x (bucket_records + bands) + 44 x bands bytes,
 * plus the largest census when it alone is over recent_entries.
 *
 * This is the live view's model (serve/live.c, `/live.json`). The drawing outputs (-o,
 * /chart.*, the report) draw from the run model (runmodel.h) as in any run, so that a
 * live run's outputs are the bytes a batch run writes.
 */
#ifndef EV2HP_LIVEMODEL_H
#define EV2HP_LIVEMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

#define LIVE_MODEL_RECENT 600       /* censuses kept whole: ten minutes at one a second */
#define LIVE_MODEL_BUCKETS 256      /* merged buckets of older censuses */
#define LIVE_MODEL_FIRST_WIDTH_NS 1000000u   /* 1 ms, doubled as the run goes on */
#define LIVE_MODEL_RECENT_ENTRIES 500000u   /* entries of the censuses kept whole: 8 MB */
#define LIVE_MODEL_BUCKET_RECORDS 500000u   /* band records of the buckets: 16 MB */

struct live_model;

/* recent >= 1, buckets >= 2 (tests use small ones), with the entry and record bounds
 * LIVE_MODEL_RECENT_ENTRIES and LIVE_MODEL_BUCKET_RECORDS. NULL when out of memory. */
struct live_model *live_model_new(size_t recent, size_t buckets);
/* The same with bounds of one's own (each >= 1). */
struct live_model *live_model_new_bounded(size_t recent, size_t buckets,
                                          size_t recent_entries, size_t bucket_records);
void live_model_free(struct live_model *m);

/* One census, later than (or as late as) the ones before: 0, or -1 when out of memory
 * (errno ENOMEM; the model is then only to be freed: the run fails). */
int live_model_add(struct live_model *m, const struct census_frame *frame);

/* Censuses fed so far, kept whole now, and merged into buckets. */
uint64_t live_model_censuses(const struct live_model *m);
size_t live_model_recent_count(const struct live_model *m);
/* The i-th census kept whole, oldest first (i < live_model_recent_count); its entries
 * are the model's, valid until the next live_model_add. */
struct census_frame live_model_recent(const struct live_model *m, size_t i);

/* Before the buckets are read (below): the newest bucket, kept by band number while it
 * takes censuses, written back as a list. 0, or -1 when out of memory (errno ENOMEM). */
int live_model_seal(struct live_model *m);

/* The merged buckets, oldest first (a bucket may hold no census: a gap in the run);
 * valid after live_model_seal, until the next live_model_add. */
struct live_band {
    uint32_t band;
    uint64_t max;                   /* the largest bytes in any of the bucket's censuses */
    double mean;                    /* sum / the bucket's censuses */
};

struct live_bucket {
    uint64_t censuses;
    uint64_t first_ns, last_ns;     /* its first and last census */
    size_t band_count;              /* bands seen in it, by band number */
};

size_t live_model_bucket_count(const struct live_model *m);
struct live_bucket live_model_bucket(const struct live_model *m, size_t i);
struct live_band live_model_bucket_band(const struct live_model *m, size_t i, size_t k);
/* The width of a bucket now (nanoseconds). */
uint64_t live_model_width_ns(const struct live_model *m);

/* The bytes the model holds (allocated, not only used): what stays flat. */
size_t live_model_bytes(const struct live_model *m);

#endif
