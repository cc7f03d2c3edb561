/* test_peak.c: the exact peak tracker and budget sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/peak.h"

static void keeps_the_largest_census_and_orders_it(void **state)
{
    (void)state;
    struct peak p = { 0 };
    struct census_entry a[] = { { 0, 10 }, { 1, 20 } };
    struct census_entry b[] = { { 0, 5 }, { 1, 40 }, { 2, 40 } };
    struct census_entry c[] = { { 2, 60 } };
    struct census_frame f1 = { 100, 0, 2, a }, f2 = { 200, 0, 3, b }, f3 = { 300, 0, 1, c };
    assert_int_equal(peak_add(&p, &f1), 0);
    assert_int_equal(peak_add(&p, &f2), 0);
    assert_int_equal(peak_add(&p, &f3), 0);
    assert_int_equal(p.censuses, 3);
    assert_int_equal(p.bytes, 85);
    assert_int_equal(p.time_ns, 200);
    assert_int_equal(p.first_ns, 100);
    assert_int_equal(p.last_ns, 300);
    peak_sort(&p);
    assert_int_equal(p.count, 3);
    assert_int_equal(p.entries[0].band, 1);   /* equal bytes: the lower band first */
    assert_int_equal(p.entries[1].band, 2);
    assert_int_equal(p.entries[2].bytes, 5);
    peak_free(&p);
}

static void sizes_take_binary_suffixes(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(peak_parse_size("1000", &v), 0);
    assert_int_equal(v, 1000);
    assert_int_equal(peak_parse_size("512K", &v), 0);
    assert_int_equal(v, 512 * 1024);
    assert_int_equal(peak_parse_size("1.5M", &v), 0);
    assert_int_equal(v, 1536 * 1024);
    assert_int_equal(peak_parse_size("2GiB", &v), 0);
    assert_int_equal(v, 2ull << 30);
    assert_int_equal(peak_parse_size("64MB", &v), 0);
    assert_int_equal(v, 64ull << 20);
    assert_int_equal(peak_parse_size("", &v), -1);
    assert_int_equal(peak_parse_size("-1", &v), -1);
    assert_int_equal(peak_parse_size("12Q", &v), -1);
    assert_int_equal(peak_parse_size("99999999999T", &v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keeps_the_largest_census_and_orders_it),
        cmocka_unit_test(sizes_take_binary_suffixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
