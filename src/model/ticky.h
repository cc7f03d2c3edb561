/* ticky.h: a -ticky program's counters (TICKY_COUNTER_DEF/BEGIN_SAMPLE/SAMPLE), each
 * counter's totals over the run, in memory bounded by the number of counters.
 *
 * The runtime writes a counter's counts since its previous sample (it zeroes each counter
 * as it writes it, and writes only those that moved) and defines the counters (name,
 * arity, argument kinds, info table) once, at the end of the run, after the samples. So a
 * counter is kept by its id from its first sample or definition, and its totals are the
 * sums of its samples. Those are the runtime's own `-r` report's figures only for a
 * counter whose work ended before the last sample: what it did after the last sample is
 * in the report but in no event (the runtime writes no sample at exit). Nothing of the
 * eventlog's encoding is here: census.c decodes, model/frame.h's ticky callback carries
 * the fields.
 *
 * Each counter is also kept over time, on columns every counter shares: a column holds
 * the counts of per_col consecutive samples (summed, so exact whatever the merging), at
 * most TICKY_SERIES_COLUMNS of them; when the samples pass the last column, neighbouring
 * columns merge pairwise (per_col doubles). Memory stays within TICKY_SERIES_CELLS points
 * in all: with more counters the columns merge down to TICKY_SERIES_MIN_COLUMNS, and a
 * counter past that has totals but no series (series_cut says how many).
 */
#ifndef EV2HP_TICKY_H
#define EV2HP_TICKY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "model/frame.h"

struct ticky;

/* One column of a counter over time: its counts in those samples. */
struct ticky_point {
    uint64_t entries, allocs;
};

/* One counter's definition and totals. */
struct ticky_counter {
    uint64_t id;
    bool defined;               /* its TICKY_COUNTER_DEF was seen (else name and kinds "") */
    char *name, *kinds;         /* as the eventlog has them (escape before showing) */
    unsigned arity;
    uint64_t info;              /* its info table's address */
    char *table;                /* that table as an IPE event named it, or NULL */
    uint64_t entries, allocs, allocd;   /* summed over its samples; bytes */
    uint64_t samples;           /* samples that named it */
    uint64_t last_sample_ns;    /* the time of the last of them (0: none) */
    uint64_t last_round;        /* the BEGIN_SAMPLEs before the last of them */
    struct ticky_point *series; /* ticky_series's columns, or NULL (series_cut) */
};

/* The run's counters, in the order the summary lists them (see ticky_sorted). */
struct ticky_totals {
    size_t count;               /* counters kept */
    uint64_t dropped;           /* counters past TICKY_MAX_COUNTERS, not kept */
    uint64_t samples;           /* TICKY_COUNTER_BEGIN_SAMPLE events */
    uint64_t last_sample_ns;    /* the last of them (0: none) */
    uint64_t entries, allocs, allocd;   /* every kept counter's, summed */
    uint64_t series_cut;        /* counters kept without a series */
    size_t moving;              /* counters the last sample had: at work when it was taken,
                                 * so what they did after it is in no event */
};

/* The columns of the counters' series: column i holds samples [i * per_col, (i + 1) *
 * per_col) and ends at end_ns[i] (the last of its TICKY_COUNTER_BEGIN_SAMPLE). */
struct ticky_columns {
    size_t used;
    uint64_t per_col;
    const uint64_t *end_ns;
};

struct ticky *ticky_new(void);
/* A deep copy (the live server summarises a copy), or NULL when out of memory. */
struct ticky *ticky_copy(const struct ticky *t);
void ticky_free(struct ticky *t);

/* Feeding, in the input's order: 0, or -1 when out of memory. */
int ticky_event(struct ticky *t, const struct ticky_event *e);

/* Whether the input had a ticky event at all. */
bool ticky_any(const struct ticky *t);
void ticky_totals(const struct ticky *t, struct ticky_totals *out);
void ticky_columns(const struct ticky *t, struct ticky_columns *out);
/* The counters, most allocating first (then most entered, then by name and id: the same
 * input gives the same order), in a malloc'd array the caller frees, its pointers valid
 * until the next ticky_event or ticky_free; *count says how many. NULL when out of memory
 * or when there is no counter (*count 0). */
const struct ticky_counter **ticky_sorted(const struct ticky *t, size_t *count);

#endif
