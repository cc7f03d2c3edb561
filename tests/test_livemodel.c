/* test_livemodel.c: the live model: the recent censuses kept exactly, older ones merged
 * into buckets whose per-band maximum and mean are exact however often buckets merge
 * (checked against a brute-force pass over every census fed, at the final width), sums
 * past 2^64, memory that stays flat over 1,000,000 censuses, and memory bounded by
 * entries and records with many bands (the whole census sums still exact). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/livemodel.h"

#define BANDS 5

/* A deterministic census c: band b present unless (c + b) % 4 == 0, with bytes that
 * vary so that maxima and means differ between buckets. The same band may appear twice
 * in one census (its bytes then add). */
static size_t census(uint64_t c, struct census_entry *e)
{
    size_t k = 0;
    for (uint32_t b = 0; b < BANDS; b++)
        if ((c + b) % 4 != 0)
            e[k++] = (struct census_entry){ b, (c * 7919 + b * 104729) % 100003 + 1 };
    if (c % 3 == 0)
        e[k++] = (struct census_entry){ 2, 11 };
    return k;
}

static uint64_t time_of(uint64_t c)
{
    return 50000000ull * c + (c % 5) * 1000;   /* 50 ms apart, not on bucket edges */
}

static void feed(struct live_model *m, uint64_t n)
{
    struct census_entry e[BANDS + 1];
    for (uint64_t c = 0; c < n; c++) {
        struct census_frame f = { time_of(c), c, census(c, e), e };
        assert_int_equal(live_model_add(m, &f), 0);
    }
}

static void recent_exact(void **state)
{
    (void)state;
    struct live_model *m = live_model_new(4, 8);
    assert_non_null(m);
    feed(m, 10);
    assert_int_equal(live_model_censuses(m), 10);
    assert_int_equal(live_model_recent_count(m), 4);
    struct census_entry e[BANDS + 1];
    for (size_t i = 0; i < 4; i++) {
        uint64_t c = 6 + i;
        struct census_frame f = live_model_recent(m, i);
        size_t k = census(c, e);
        assert_int_equal(f.time_ns, time_of(c));
        assert_int_equal(f.era, c);
        assert_int_equal(f.count, k);
        for (size_t j = 0; j < k; j++) {   /* field by field: padding is no value */
            assert_int_equal(f.entries[j].band, e[j].band);
            assert_int_equal(f.entries[j].bytes, e[j].bytes);
        }
    }
    live_model_free(m);
}

/* Every census that left the window, bucketed at the model's final width by brute force:
 * the model's buckets hold exactly their censuses, each band's maximum and mean. */
static void check_merged(struct live_model *m, uint64_t fed, size_t recent)
{
    assert_int_equal(live_model_seal(m), 0);
    uint64_t width = live_model_width_ns(m);
    uint64_t merged = fed - recent;
    size_t buckets = live_model_bucket_count(m);
    assert_true(merged == 0 || buckets > 0);
    uint64_t seen = 0;
    struct census_entry e[BANDS + 1];
    for (size_t i = 0; i < buckets; i++) {
        uint64_t n = 0, first = 0, last = 0, max[BANDS] = { 0 }, sum[BANDS] = { 0 };
        bool present[BANDS] = { false };
        for (uint64_t c = 0; c < merged; c++) {
            if (time_of(c) / width != i)
                continue;
            if (n++ == 0)
                first = time_of(c);
            last = time_of(c);
            uint64_t in[BANDS] = { 0 };
            size_t k = census(c, e);
            for (size_t j = 0; j < k; j++) {
                in[e[j].band] += e[j].bytes;
                present[e[j].band] = true;
            }
            for (size_t b = 0; b < BANDS; b++) {
                if (in[b] > max[b])
                    max[b] = in[b];
                sum[b] += in[b];
            }
        }
        struct live_bucket got = live_model_bucket(m, i);
        assert_int_equal(got.censuses, n);
        seen += n;
        if (!n)
            continue;
        assert_int_equal(got.first_ns, first);
        assert_int_equal(got.last_ns, last);
        size_t bands = 0;
        for (size_t b = 0; b < BANDS; b++)
            bands += present[b];
        assert_int_equal(got.band_count, bands);
        for (size_t k = 0; k < got.band_count; k++) {
            struct live_band lb = live_model_bucket_band(m, i, k);
            assert_true(lb.band < BANDS && present[lb.band]);
            assert_int_equal(lb.max, max[lb.band]);
            assert_true(lb.mean == (double)sum[lb.band] / (double)n);
        }
    }
    assert_int_equal(seen, merged);
}

static void merged_exact(void **state)
{
    (void)state;
    /* 3 recent, 8 buckets: 500 censuses over 25 s make the width double many times */
    struct live_model *m = live_model_new(3, 8);
    assert_non_null(m);
    for (uint64_t fed = 1; fed <= 500; fed++) {
        struct census_entry e[BANDS + 1];
        struct census_frame f = { time_of(fed - 1), fed - 1, census(fed - 1, e), e };
        assert_int_equal(live_model_add(m, &f), 0);
        if (fed % 37 == 0 || fed == 500)
            check_merged(m, fed, fed < 3 ? fed : 3);
    }
    assert_true(live_model_width_ns(m) > LIVE_MODEL_FIRST_WIDTH_NS);
    assert_true(live_model_bucket_count(m) <= 8);
    live_model_free(m);
}

/* Sums past 2^64: the mean stays the mean. */
static void huge_sums(void **state)
{
    (void)state;
    struct live_model *m = live_model_new(1, 2);
    const uint64_t big = UINT64_MAX / 2 + 12345;
    struct census_entry e = { 0, big };
    for (uint64_t c = 0; c < 9; c++) {
        struct census_frame f = { c, c, 1, &e };
        assert_int_equal(live_model_add(m, &f), 0);
    }
    assert_int_equal(live_model_seal(m), 0);
    assert_int_equal(live_model_bucket_count(m), 1);
    struct live_band b = live_model_bucket_band(m, 0, 0);
    assert_int_equal(b.max, big);
    assert_true(b.mean == (double)big);
    live_model_free(m);
}

/* A week of censuses and more: the model's size after 1,000,000 is its size after
 * 100,000 (flat), and under a fixed bound. */
static void memory_flat(void **state)
{
    (void)state;
    struct live_model *m = live_model_new(LIVE_MODEL_RECENT, LIVE_MODEL_BUCKETS);
    assert_non_null(m);
    feed(m, 100000);
    size_t at_100k = live_model_bytes(m);
    struct census_entry e[BANDS + 1];
    for (uint64_t c = 100000; c < 1000000; c++) {
        struct census_frame f = { time_of(c), c, census(c, e), e };
        assert_int_equal(live_model_add(m, &f), 0);
    }
    size_t at_1m = live_model_bytes(m);
    assert_int_equal(live_model_censuses(m), 1000000);
    assert_int_equal(live_model_recent_count(m), LIVE_MODEL_RECENT);
    assert_true(live_model_bucket_count(m) <= LIVE_MODEL_BUCKETS);
    assert_true(at_1m <= at_100k);
    /* the ring's entries, each bucket's bands and the scratch, allocations doubling */
    size_t bound = 4096 + LIVE_MODEL_RECENT * (64 + 2 * 8 * (BANDS + 1) * 16) +
                   (LIVE_MODEL_BUCKETS + 1) * (64 + 2 * 8 * BANDS * 32);
    assert_true(at_1m < bound);
    print_message("live model: %zu bytes after 100,000 censuses, %zu after 1,000,000 "
                  "(bound %zu)\n", at_100k, at_1m, bound);
    live_model_free(m);
}

/* Many bands, small bounds: the censuses kept whole stay within the entry bound (but
 * the last is always kept), the buckets within the record bound, and every census is
 * still counted once with its every byte (the buckets' means times their censuses). */
#define MANY 400
static void many_bands_bounded(void **state)
{
    (void)state;
    struct live_model *m = live_model_new_bounded(600, 256, 1000, 3000);
    assert_non_null(m);
    static struct census_entry e[MANY];
    double total = 0;
    size_t before = 0;
    for (uint64_t c = 0; c < 2000; c++) {
        for (uint32_t b = 0; b < MANY; b++)
            e[b] = (struct census_entry){ b, (c * 31 + b * 7) % 1000 + 1 };
        struct census_frame f = { time_of(c), c, MANY, e };
        assert_int_equal(live_model_add(m, &f), 0);
        for (uint32_t b = 0; b < MANY; b++)
            total += (double)e[b].bytes;
        assert_true(live_model_recent_count(m) >= 1 && live_model_recent_count(m) <= 2);
        if (c == 999)
            before = live_model_bytes(m);
    }
    assert_int_equal(live_model_seal(m), 0);
    size_t records = 0, censuses = live_model_recent_count(m);
    double sum = 0;
    for (size_t i = 0; i < live_model_bucket_count(m); i++) {
        struct live_bucket b = live_model_bucket(m, i);
        records += b.band_count;
        censuses += b.censuses;
        for (size_t k = 0; k < b.band_count; k++)
            sum += live_model_bucket_band(m, i, k).mean * (double)b.censuses;
    }
    for (size_t i = 0; i < live_model_recent_count(m); i++) {
        struct census_frame f = live_model_recent(m, i);
        for (size_t k = 0; k < f.count; k++)
            sum += (double)f.entries[k].bytes;
    }
    assert_int_equal(censuses, 2000);
    assert_true(fabs(sum - total) <= total * 1e-9);
    /* the bound, and the newest bucket's one record a band besides */
    assert_true(records <= 3000 + MANY);
    print_message("many bands: %zu bytes after 1,000 censuses, %zu after 2,000\n", before,
                  live_model_bytes(m));
    assert_true(live_model_bytes(m) < 65536 + 2 * (1000 + MANY) * 16 + 2 * (3000 + MANY) * 32 +
                                      MANY * 48);
    live_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recent_exact),
        cmocka_unit_test(merged_exact),
        cmocka_unit_test(huge_sums),
        cmocka_unit_test(memory_flat),
        cmocka_unit_test(many_bands_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
