/* test_growth.c: the summary's --compare ranking (growth.h): bands matched across runs by
 * the label charts show, a hash join that must give what comparing every pair would:
 * labels in only one run, a label twice in the base, a .hp's "(n)" prefix, OTHER, ties,
 * and the bound on how many are listed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sink/growth.h"

/* A view of n bands with these labels and peaks (OTHER when the label is NULL). */
static struct profile_view view_of(struct profile_band *bands, const char *const *labels,
                                   const uint64_t *peaks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memset(&bands[i], 0, sizeof bands[i]);
        bands[i].band = labels[i] ? (uint32_t)i : PROFILE_OTHER;
        bands[i].label = labels[i] ? labels[i] : "OTHER";
        bands[i].stats.peak = peaks[i];
    }
    return (struct profile_view){ .band_count = n, .bands = bands };
}

/* What every pair gives: for each band of now, the first base band of the same shown
 * label (the oracle the hash join replaces). */
static uint64_t scan_base(const struct profile_view *base, const char *label)
{
    size_t len, blen;
    const char *l = bands_shown_label(label, strlen(label), &len);
    for (size_t i = 0; i < base->band_count; i++) {
        if (base->bands[i].band == PROFILE_OTHER)
            continue;
        const char *b = bands_shown_label(base->bands[i].label, strlen(base->bands[i].label), &blen);
        if (blen == len && memcmp(b, l, len) == 0)
            return base->bands[i].stats.peak;
    }
    return 0;
}

static void only_in_one_run_and_duplicates(void **state)
{
    (void)state;
    struct profile_band bb[6], nb[6];
    /* base: "(3) Main.go" and "Main.go" are one label shown; the first (by rank) counts;
     * "gone" is only in the base, "new" only in this run */
    const char *bl[] = { "(3) Main.go", "gone", "Main.go", "same", "shrank", NULL };
    const uint64_t bp[] = { 100, 5000, 900, 70, 800, 99999 };
    const char *nl[] = { "(12) Main.go", "new", "same", "shrank", NULL, "tie" };
    const uint64_t np[] = { 400, 250, 70, 10, 1, 0 };
    struct profile_view base = view_of(bb, bl, bp, 6), now = view_of(nb, nl, np, 6);
    struct band_growth out[8];
    long n = growth_rank(&base, &now, out, 8);
    assert_int_equal(n, 2);
    /* Main.go: 100 -> 400 (+300, against the first "(3) Main.go", not the 900 of the
     * second); new: 0 -> 250 (+250). same did not grow, shrank shrank, OTHER never. */
    assert_string_equal(out[0].label, "(12) Main.go");
    assert_int_equal(out[0].base, 100);
    assert_int_equal(out[0].now, 400);
    assert_string_equal(out[1].label, "new");
    assert_int_equal(out[1].base, 0);
    assert_int_equal(out[1].now, 250);
    for (long i = 0; i < n; i++)
        assert_int_equal(out[i].base, scan_base(&base, out[i].label));
}

static void ties_by_label_and_bound(void **state)
{
    (void)state;
    enum { N = 300 };
    static struct profile_band bb[N], nb[N];
    static char names[N][16];
    static const char *bl[N], *nl[N];
    static uint64_t bp[N], np[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "band%03zu", i);
        /* the base lists them in another order, and lacks every third one */
        size_t j = (i * 7) % N;
        bl[j] = j % 3 ? names[j] : "elsewhere";
        bp[j] = j * 10;
        nl[i] = names[i];
        np[i] = i * 10 + (i % 4 == 0 ? 1000 : 0);   /* band i grew by 1000 if i % 4 == 0 */
    }
    struct profile_view base = view_of(bb, bl, bp, N), now = view_of(nb, nl, np, N);
    struct band_growth out[10];
    long n = growth_rank(&base, &now, out, 10);
    assert_int_equal(n, 10);
    for (long i = 0; i < n; i++) {
        assert_int_equal(out[i].base, scan_base(&base, out[i].label));
        if (i)
            assert_true(out[i - 1].now - out[i - 1].base > out[i].now - out[i].base ||
                        (out[i - 1].now - out[i - 1].base == out[i].now - out[i].base &&
                         strcmp(out[i - 1].label, out[i].label) < 0));
    }
    /* the largest growth by brute force: band288, missing from the base (288 % 3 == 0)
     * and grown by 1000 besides (288 % 4 == 0): 0 -> 3880 */
    uint64_t best = 0;
    for (size_t i = 0; i < N; i++) {
        uint64_t was = scan_base(&base, nl[i]);
        if (np[i] > was && np[i] - was > best)
            best = np[i] - was;
    }
    assert_int_equal(out[0].now - out[0].base, best);
    assert_string_equal(out[0].label, "band288");
    assert_int_equal(out[0].base, 0);
}

static void empty_runs(void **state)
{
    (void)state;
    struct profile_band nb[1];
    const char *nl[] = { "x" };
    const uint64_t np[] = { 5 };
    struct profile_view none = { 0 }, now = view_of(nb, nl, np, 1);
    struct band_growth out[2];
    assert_int_equal(growth_rank(&none, &none, out, 2), 0);
    assert_int_equal(growth_rank(&none, &now, out, 2), 1);
    assert_int_equal(out[0].base, 0);
    assert_int_equal(growth_rank(&now, &now, out, 2), 0);
    assert_int_equal(growth_rank(&none, &now, out, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(only_in_one_run_and_duplicates),
        cmocka_unit_test(ties_by_label_and_bound),
        cmocka_unit_test(empty_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
