/* metrics.h: the live run in Prometheus' text exposition format (version 0.0.4).
 *
 * One family per fact, each with its HELP and TYPE: the bytes of the shown bands at the
 * last census (ghc_heap_profile_bytes{band="LABEL",id="N"}: N the band's number, as
 * /events names it, -1 for OTHER, so that bands of the same text (two cost-centre stacks
 * cut or named alike, labels that differ only in bytes that are not UTF-8) stay series of
 * their own, the same from scrape to scrape; the bands a chart of the run's
 * options shows, --bands, and OTHER for the rest, so the number of series stays bounded
 * whatever the program does), the census count and the last census's time and total, the
 * runtime's heap totals when the eventlog has them, markers, censuses lost to damage,
 * whether the stream has ended, and a time profile's samples; and, once a collection is
 * read, the collector's figures as --summary=json's gc has them (model/gcstats.h): the
 * pauses per generation as a histogram (ghc_gc_pause_seconds{gen}, bounds 2^k - 1 ns,
 * each an exact edge of gcstats' histogram, so every bucket's count is exact), the
 * collections, bytes copied and bytes allocated as counters, productivity as a gauge. Label values are escaped
 * as the format says (backslash, double quote, line feed); bytes that are not UTF-8
 * become U+FFFD, so a label is always one valid string whatever the program named its
 * cost centres.
 */
#ifndef EV2HP_METRICS_H
#define EV2HP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/frame.h"
#include "model/gcstats.h"

struct metrics_band {
    const char *label;             /* as charts show it */
    size_t len;
    int64_t id;                    /* the band's number (as /events gives it), -1: OTHER */
    uint64_t bytes;                /* at the last census */
};

struct live_metrics {
    uint64_t censuses;
    uint64_t last_census_ns;       /* since the program started; with censuses > 0 */
    uint64_t last_total;           /* the last census's total, every band */
    const struct metrics_band *bands; /* the shown bands, then OTHER when it holds any */
    size_t band_count;
    bool has_total[HEAP_TOTAL_RUNTIME]; /* HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE seen */
    uint64_t totals[HEAP_TOTAL_RUNTIME]; /* their latest values */
    uint64_t markers;
    uint64_t lost_to_damage;       /* censuses dropped for damage so far */
    bool ended;                    /* the input has ended */
    unsigned long sse_dropped;     /* /events clients dropped for reading too slowly */
    bool has_time_profile;         /* the input has a time profile (+RTS -p -l) */
    uint64_t time_samples;         /* its samples read so far */
    const struct gc_stats *gc;     /* the collector's figures so far (model/gcstats.h), or
                                    * NULL: none kept */
    uint64_t end_ns;               /* the latest time read (for productivity) */
};

/* Writes the exposition; the caller checks ferror. */
void metrics_write(FILE *out, const struct live_metrics *m);

/* A label value as the exposition format escapes it (no quotes around it). */
void metrics_label_value(FILE *out, const char *s, size_t len);

#endif
