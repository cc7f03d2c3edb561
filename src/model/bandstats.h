/* bandstats.h: exact statistics of every band over every census, streamed.
 *
 * Per band: area (trapezoids between consecutive censuses, byte-seconds), peak, mean and
 * standard deviation (Welford, with the censuses a band is absent from counted as 0), and
 * the least-squares growth over the censuses and up to the band's peak (what leak
 * suspects are judged on). Memory is one fixed-size record per band, whatever the number
 * of censuses.
 *
 * A census is fed as bandstats_begin (its time), bandstats_add_before (the entries of the
 * census before it: their halves of the trapezoids between the two), bandstats_add for
 * each of its entries (which adds their halves, in the pass that touches their records
 * anyway), bandstats_end.
 */
#ifndef EV2HP_BANDSTATS_H
#define EV2HP_BANDSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

/* A band's shape over the window, for its sparkline (kept only when asked: the summaries
 * need it, the charts do not): the window's time, from its first census, cut into
 * BAND_SHAPE_SLOTS slots of one width, each holding the band's largest bytes at a census
 * in it (0 where it was absent), from every census. The width is the smallest power of
 * two nanoseconds that puts every census fed in a slot: when a census falls past the last
 * slot, neighbouring slots merge (the larger value) and the width doubles, as often as
 * needed. So a run of any length takes between 13 and 24 slots (fewer only when every
 * census falls in fewer), and memory stays fixed per band: 96 bytes, as floats, whose
 * 24-bit mantissa is exact where a sparkline looks (the largest value of a band maps to
 * the same float as its peak; an eighth of the peak cannot round below it). They are
 * kept slot by slot (slot-major: slot c's value of band b at c x cap + b), so a census,
 * which falls in one slot, writes one row in band order rather than a cell in each
 * band's 96 bytes. */
#define BAND_SHAPE_SLOTS 24

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

/* Whether one band's statistics make it a suspect in a window whose first census was at
 * first_ns and whose heap peaked at peak_total bytes. */
bool profile_is_suspect(const struct profile_band_stats *s, uint64_t first_ns,
                        uint64_t peak_total);

/* A band's running sums (its area is in bandstats.area). What every entry touches (up
 * to sty) is in the first 64 bytes: one cache line a band per census. */
struct band_state {
    bool seen;
    uint64_t peak;
    uint64_t counted;               /* censuses accounted for in mean and m2 */
    double mean, m2;
    uint64_t last;                  /* the band's bytes in the last census it was in */
    long double sty;                /* sum of (t - first census) x bytes, t in seconds */
    /* the fit's sums when the band reached its peak (suspects judge the rise to it) */
    uint64_t pk_n, pk_ns;
    double pk_tmean, pk_tm2, pk_mean, pk_m2;
    long double pk_sty;
};

struct bandstats {
    struct band_state *band;
    size_t cap;                     /* bands 0..cap-1 have a record */
    double *area;                   /* per band (cap of them), byte-seconds: apart from the
                                     * records, so the pass over the census before
                                     * (bandstats_add_before) touches 8 bytes a band */
    uint64_t censuses;              /* censuses fed */
    uint64_t first_ns;              /* the time of the first */
    double t_mean, t_m2;            /* census times (s after the first): Welford, for growth */
    double t;                       /* the census being fed: seconds after the first */
    uint64_t t_ns;                  /* and its time */
    double half_dt;                 /* half the seconds since the census before it (0 for
                                     * the first): each entry's share of a trapezoid */
    float *shape;                   /* BAND_SHAPE_SLOTS rows of cap, slot by slot (above);
                                     * NULL: not kept */
    bool shapes;                    /* keep them (bandstats_keep_shapes) */
    uint64_t shape_width_ns;        /* the shape's slots: their width, a power of two */
    unsigned shape_slot;            /* the slot of the census being fed */
    uint32_t shape_filled;          /* bit i: slot i has a census */
};

/* Keep the bands' shapes from now on; before the first census. */
void bandstats_keep_shapes(struct bandstats *s);
/* Records for bands below needed; 0, or -1 when out of memory. */
int bandstats_grow(struct bandstats *s, size_t needed);
/* A copy of every record and sum up to the last band seen (cap: that band + 1), the
 * shapes only when shapes (and from has them); for reading, not feeding. 0, or -1 when
 * out of memory. */
int bandstats_copy(struct bandstats *to, const struct bandstats *from, bool shapes);
void bandstats_free(struct bandstats *s);

/* Starts a census at time_ns (not before the previous one). */
void bandstats_begin(struct bandstats *s, uint64_t time_ns);
/* Counts `zeros` censuses without the band into its mean and m2 (Chan et al.). */
void band_state_add_zeros(struct band_state *b, uint64_t zeros);
/* Takes the last observation back out of mean and m2 (the band twice in one census). */
void band_state_remove_last(struct band_state *b);

/* One entry of the census begun (band below cap; a band twice counts as its sum).
 * Inline: it runs once per entry of every census. */
static inline void bandstats_add(struct bandstats *s, uint32_t band, uint64_t bytes)
{
    struct band_state *b = &s->band[band];
    uint64_t old_peak = b->peak;
    s->area[band] += (double)bytes * s->half_dt;   /* its half of the trapezoid before it */
    b->sty += (long double)s->t * (long double)bytes;
    if (b->counted > s->censuses) {
        /* the band twice in one census: one observation of the sum */
        band_state_remove_last(b);
        bytes += b->last;
    }
    if (b->counted < s->censuses)
        band_state_add_zeros(b, s->censuses - b->counted);
    b->counted++;
    b->last = bytes;
    double x = (double)bytes, d = x - b->mean;
    b->mean += d / (double)b->counted;
    b->m2 += d * (x - b->mean);
    if (bytes > b->peak)
        b->peak = bytes;
    if (s->shape) {
        float *cell = &s->shape[(size_t)s->shape_slot * s->cap + band];
        if ((float)bytes > *cell)
            *cell = (float)bytes;
    }
    b->seen = true;
    if (b->peak > old_peak) {
        /* every census so far is in mean and m2 (the band is in this one) */
        b->pk_n = s->censuses + 1;
        b->pk_ns = s->t_ns;
        b->pk_tmean = s->t_mean, b->pk_tm2 = s->t_m2;
        b->pk_mean = b->mean, b->pk_m2 = b->m2, b->pk_sty = b->sty;
    }
}
/* Ends the census begun. */
void bandstats_end(struct bandstats *s);
/* The census before the one begun (its entries as fed): their halves of the trapezoids
 * between the two censuses; after bandstats_begin, before bandstats_add (each band's
 * area then adds up in the order it always has: the earlier census's half first). */
void bandstats_add_before(struct bandstats *s, const struct census_entry *before,
                          size_t before_count);

/* Whether the band had bytes in a census fed. */
static inline bool bandstats_seen(const struct bandstats *s, uint32_t band)
{
    return band < s->cap && s->band[band].seen;
}

/* The number of shape slots the censuses fed span (0 before the first). */
unsigned bandstats_shape_slots(const struct bandstats *s);

/* The statistics of a band over every census fed (zeros if never seen). */
struct profile_band_stats bandstats_of(const struct bandstats *s, uint32_t band);

#endif
