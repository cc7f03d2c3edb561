/* bandstats.c: exact per-band statistics, streamed (bandstats.h).
 *
 * Hot path: bandstats_add (inline, in the header) touches one record per entry; the
 * rarer corrections (a band absent from censuses, a band twice in one) are here.
 */
#include "model/bandstats.h"

#include "base/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bandstats_keep_shapes(struct bandstats *s)
{
    s->shapes = true;
}

int bandstats_grow(struct bandstats *s, size_t needed)
{
    size_t old = s->cap;
    if (GROW_ARRAY_TIGHT(s->band, &s->cap, needed) != 0)   /* a record a band: no slack of a half */
        return -1;
    /* the areas and shapes follow the records; when they cannot, cap goes back to what
     * every array holds (the records' extra room is then merely unused) */
    if (s->cap != old) {
        double *area = realloc(s->area, s->cap * sizeof *area);
        if (!area) {
            s->cap = old;
            return -1;
        }
        s->area = area;
        for (size_t i = old; i < s->cap; i++)
            area[i] = 0;
    }
    if (!s->shapes || (s->cap == old && s->shape))
        return 0;
    size_t had = s->shape ? old : 0;   /* bands each row held */
    float *shape = realloc(s->shape, (s->cap ? s->cap : 1) * BAND_SHAPE_SLOTS * sizeof *shape);
    if (!shape) {
        s->cap = old;
        return -1;
    }
    s->shape = shape;
    /* the rows spread to their new width, the last first (none lands on a row not yet
     * moved), each row's new bands zero */
    for (size_t j = BAND_SHAPE_SLOTS; j-- > 0;) {
        if (j && had)
            memmove(shape + j * s->cap, shape + j * had, had * sizeof *shape);
        for (size_t b = had; b < s->cap; b++)
            shape[j * s->cap + b] = 0;
    }
    return 0;
}

/* Records up to the last band seen, no further: a copy is only read (a reduced profile,
 * a snapshot of a live run), and the records past it, and the room to grow, are a third
 * of the records for 100,000 bands. */
int bandstats_copy(struct bandstats *to, const struct bandstats *from, bool shapes)
{
    *to = *from;
    to->band = NULL;
    to->area = NULL;
    to->shape = NULL;
    to->shapes = shapes && from->shapes;
    size_t n = from->cap;
    while (n > 0 && !from->band[n - 1].seen)
        n--;
    to->cap = n;
    if (!n)
        return 0;
    to->band = copy_array(from->band, n, sizeof *to->band);
    to->area = copy_array(from->area, n, sizeof *to->area);
    if (to->band && to->shapes && from->shape &&
        (to->shape = malloc(n * BAND_SHAPE_SLOTS * sizeof *to->shape)))
        for (size_t j = 0; j < BAND_SHAPE_SLOTS; j++)   /* each row cut to n bands */
            memcpy(to->shape + j * n, from->shape + j * from->cap, n * sizeof *to->shape);
    if (!to->band || !to->area || (to->shapes && from->shape && !to->shape)) {
        free(to->band);
        free(to->area);
        free(to->shape);
        to->band = NULL;
        to->area = NULL;
        to->shape = NULL;
        to->cap = 0;
        return -1;
    }
    return 0;
}

void bandstats_free(struct bandstats *s)
{
    free(s->band);
    free(s->area);
    free(s->shape);
    memset(s, 0, sizeof *s);
}

void band_state_add_zeros(struct band_state *b, uint64_t zeros)
{
    if (!zeros)
        return;
    double n = (double)b->counted, m = (double)zeros, total = n + m;
    b->m2 += b->mean * b->mean * n * m / total;
    b->mean = b->mean * n / total;
    b->counted += zeros;
}

/* Welford in reverse. */
void band_state_remove_last(struct band_state *b)
{
    double x = (double)b->last, n = (double)b->counted;
    b->counted--;
    if (b->counted == 0) {
        b->mean = b->m2 = 0;
        return;
    }
    double mean = (n * b->mean - x) / (n - 1);
    b->m2 -= (x - mean) * (x - b->mean);
    if (b->m2 < 0)
        b->m2 = 0;
    b->mean = mean;
}

/* The shape's slots made 2^k times wider: each new slot the largest of the 2^k it
 * covers, for every band and for the filled mask. */
static void shape_widen(struct bandstats *s, unsigned k)
{
    /* old slot j falls in new slot j >> k (0 for every j once k is 5 or more); new row i
     * reads old rows i << sh and up, which no earlier new row has written over */
    unsigned sh = k < 5 ? k : 5;
    for (size_t i = 0; s->shape && i < BAND_SHAPE_SLOTS; i++) {
        size_t from = i << sh, to = (i + 1) << sh;
        if (to > BAND_SHAPE_SLOTS)
            to = BAND_SHAPE_SLOTS;
        float *row = s->shape + i * s->cap;
        for (size_t b = 0; b < s->cap; b++) {
            float wide = 0;
            for (size_t j = from; j < to; j++)
                if (s->shape[j * s->cap + b] > wide)
                    wide = s->shape[j * s->cap + b];
            row[b] = wide;
        }
    }
    uint32_t filled = 0;
    for (unsigned j = 0; j < BAND_SHAPE_SLOTS; j++)
        if (s->shape_filled & (1u << j))
            filled |= 1u << (j >> sh);
    s->shape_filled = filled;
    s->shape_width_ns <<= k;
}

/* The slot of a census at time_ns, the slots widened until it has one. */
static void shape_place(struct bandstats *s, uint64_t time_ns)
{
    if (s->censuses == 0) {
        s->shape_width_ns = 1;
        s->shape_filled = 0;
        s->shape_slot = 0;
    } else {
        uint64_t offset = time_ns - s->first_ns;
        unsigned k = 0;
        while (offset / (s->shape_width_ns << k) >= BAND_SHAPE_SLOTS)
            k++;
        if (k)
            shape_widen(s, k);
        s->shape_slot = (unsigned)(offset / s->shape_width_ns);
    }
    s->shape_filled |= 1u << s->shape_slot;
}

unsigned bandstats_shape_slots(const struct bandstats *s)
{
    if (!s->censuses)
        return 0;
    return (unsigned)((s->t_ns - s->first_ns) / s->shape_width_ns) + 1;
}

void bandstats_begin(struct bandstats *s, uint64_t time_ns)
{
    s->half_dt = s->censuses ? (double)(time_ns - s->t_ns) / 2e9 : 0;
    shape_place(s, time_ns);
    /* growth: times in seconds after the window's first census, so the sums stay small */
    double t = s->censuses ? (double)(time_ns - s->first_ns) / 1e9 : 0;
    double dt = t - s->t_mean;
    s->t_mean += dt / (double)(s->censuses + 1);
    s->t_m2 += dt * (t - s->t_mean);
    s->t = t;
    s->t_ns = time_ns;
}

void bandstats_end(struct bandstats *s)
{
    if (s->censuses == 0)
        s->first_ns = s->t_ns;
    s->censuses++;
}

void bandstats_add_before(struct bandstats *s, const struct census_entry *before,
                          size_t before_count)
{
    for (size_t i = 0; i < before_count; i++)
        s->area[before[i].band] += (double)before[i].bytes * s->half_dt;
}

/* Least squares over n censuses: slope = Sty / Stt, R^2 = Sty^2 / (Stt Syy), the absent
 * censuses counted as 0 like the mean; Sty = sum (t - tbar) y = sum t y - n tbar ybar. */
static void fit(uint64_t n, double t_mean, double t_m2, double y_mean, double y_m2,
                long double sum_ty, double *slope, double *r2)
{
    *slope = *r2 = 0;
    if (n < 2 || !(t_m2 > 0))
        return;
    double sty = (double)(sum_ty - (long double)n * t_mean * y_mean);
    *slope = sty / t_m2;
    *r2 = y_m2 > 0 ? sty * sty / (t_m2 * y_m2) : 0;
    if (*r2 > 1)
        *r2 = 1;   /* rounding */
}

struct profile_band_stats bandstats_of(const struct bandstats *s, uint32_t band)
{
    struct profile_band_stats st = { 0 };
    if (!bandstats_seen(s, band))
        return st;
    struct band_state b = s->band[band];
    band_state_add_zeros(&b, s->censuses - b.counted);
    st.area = s->area[band];
    st.peak = b.peak;
    st.mean = b.mean;
    st.stddev = b.counted ? sqrt(b.m2 / (double)b.counted) : 0;
    fit(s->censuses, s->t_mean, s->t_m2, b.mean, b.m2, b.sty, &st.growth, &st.growth_r2);
    st.rise_censuses = b.pk_n;
    st.peak_ns = b.pk_ns;
    fit(b.pk_n, b.pk_tmean, b.pk_tm2, b.pk_mean, b.pk_m2, b.pk_sty, &st.rise, &st.rise_r2);
    return st;
}

bool profile_is_suspect(const struct profile_band_stats *s, uint64_t first_ns,
                        uint64_t peak_total)
{
    double span = s->peak_ns > first_ns ? (double)(s->peak_ns - first_ns) / 1e9 : 0;
    return s->rise_censuses >= PROFILE_SUSPECT_CENSUSES && s->rise > 0 &&
           s->rise_r2 >= PROFILE_SUSPECT_R2 && peak_total > 0 &&
           s->rise * span >= PROFILE_SUSPECT_RISE * (double)peak_total;
}
