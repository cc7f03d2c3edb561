/* runend.h: what a run was doing when its eventlog ended, for a run killed or crashed
 * before the runtime wrote the end-of-data marker (issue 35, "What led up to the end").
 *
 * Streamed in bounded memory while the input is read, so that whatever the end turns out
 * to be the figures are there: the last RUN_END_CENSUSES complete censuses whole (their
 * time, total and bands: the heap's growth over them and the bands that grew fastest),
 * the last RUN_END_MARKERS markers, the last heap size (HEAP_SIZE) and the collector's
 * pauses of the last second (each collection's pause as model/gcstats.h pairs it: the
 * leading capability's GC_START to its GC_END; a collection the end cut short counts
 * from its GC_START to the last event). The end itself (whether the marker was seen, the
 * last event's time) is run_info's. Nothing here prints; sink/end_summary.c writes it.
 */
#ifndef EV2HP_RUNEND_H
#define EV2HP_RUNEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

#define RUN_END_CENSUSES 5      /* the censuses the growth at the end is measured over */
#define RUN_END_MARKERS 3       /* the last markers said */
#define RUN_END_BANDS 3         /* the bands that grew fastest, said */
#define RUN_END_WINDOW_NS 1000000000ull   /* "the last second" */

struct run_end;

struct run_end *run_end_new(void);
/* A deep copy (the live server summarises a copy), or NULL when out of memory. */
struct run_end *run_end_copy(const struct run_end *e);
void run_end_free(struct run_end *e);

/* Feeding, in the input's order: 0, or -1 when out of memory. */
int run_end_frame(struct run_end *e, const struct census_frame *frame);
int run_end_marker(struct run_end *e, uint64_t time_ns, const char *text, size_t len);
void run_end_heap_size(struct run_end *e, uint64_t bytes);
/* A collection's pause (gcstats.h's), and a GC_START of a leader not yet ended. */
int run_end_pause(struct run_end *e, uint64_t start_ns, uint64_t end_ns);
void run_end_gc_start(struct run_end *e, uint16_t cap, uint64_t time_ns);
void run_end_gc_end(struct run_end *e, uint16_t cap);

struct run_end_band {
    uint32_t band;
    uint64_t bytes;                /* at the last census */
    double growth_bytes_per_s;     /* from the first of the last censuses to the last */
};

struct run_end_marker {
    uint64_t time_ns;
    const char *text;              /* owned by the run_end */
};

/* The figures at end_ns (run_info.end_time_ns, the last event). */
struct run_end_summary {
    size_t censuses;               /* of the last censuses kept (0 .. RUN_END_CENSUSES) */
    uint64_t first_census_ns;      /* the first of them */
    uint64_t first_census_bytes;
    uint64_t last_census_ns;       /* the last complete census */
    uint64_t last_census_bytes;
    bool has_growth;               /* two censuses at different times */
    double growth_bytes_per_s;     /* (last - first) / their time apart */
    bool has_heap_size;
    uint64_t heap_size_bytes;      /* the last HEAP_SIZE */
    bool has_gc;                   /* the input had collection events (GC_START) */
    uint64_t window_ns;            /* the last second, or the whole run when shorter */
    uint64_t gc_in_window_ns;      /* the pauses' time inside it */
    double gc_share;               /* gc_in_window / window (0 .. 1) */
    size_t markers;                /* marker[0 .. markers), oldest first */
    struct run_end_marker marker[RUN_END_MARKERS];
    size_t bands;                  /* band[0 .. bands), fastest growth first (> 0 only) */
    struct run_end_band band[RUN_END_BANDS];
};

void run_end_summary(const struct run_end *e, uint64_t end_ns, struct run_end_summary *out);

#endif
