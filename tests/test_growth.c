/* test_growth.c: the one band matching rule (model/bandmatch.h) and the summary's
 * changes built on it (facts/growth.h). Each rule is a row: two runs' labels, their
 * kinds, and the pairs the rule must give; the hash join must give what comparing every
 * pair by the rule would (a brute-force oracle over many bands); and the changes hold
 * every band of both runs once, ordered by change, shrinking and vanished ones too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/bandmatch.h"
#include "model/breakdown.h"
#include "facts/growth.h"

#define MAX_BANDS 8

/* One case: two runs and, for each band of now, the index of its base band (-1: none)
 * and how they match. */
struct match_case {
    const char *name;
    const char *base[MAX_BANDS], *now[MAX_BANDS];
    bool base_cut, now_cut, located;
    int partner[MAX_BANDS];
    enum band_match how[MAX_BANDS];
};

static size_t count_of(const char *const *labels)
{
    size_t n = 0;
    while (n < MAX_BANDS && labels[n])
        n++;
    return n;
}

static const struct match_case cases[] = {
    { "same and none",
      { "main", "gone", "lazySum/main" }, { "lazySum/main", "main", "new" },
      false, false, false, { 2, 0, -1 },
      { BAND_MATCH_SAME, BAND_MATCH_SAME, BAND_MATCH_NONE } },
    { ".hp stack numbers differ: renumbered",
      { "(8)buildTable/main", "(3)main" }, { "(12)buildTable/main", "(3)main" },
      true, true, false, { 0, 1 }, { BAND_MATCH_RENUMBERED, BAND_MATCH_SAME } },
    { "a .hp's cut label against the whole one, short ones too",
      { "(303)buildMap.\\/buildMap/m...", "(299)main", "(151)PINNED" },
      { "PINNED", "buildMap.\\/buildMap/main.m/main", "main", "buildMap.\\/buildMap/z" },
      true, false, false, { 2, 0, 1, -1 },
      { BAND_MATCH_CUT, BAND_MATCH_CUT, BAND_MATCH_CUT, BAND_MATCH_NONE } },
    { "the whole run as base, the .hp as now",
      { "buildMap.\\/buildMap/main.m/main", "main" },
      { "(1)main", "(2)buildMap.\\/buildMap/m..." },
      false, true, false, { 1, 0 }, { BAND_MATCH_CUT, BAND_MATCH_CUT } },
    { "two stacks cut to one text pair in order",
      { "(5)abcdefghijklmnopqrstu...", "(6)abcdefghijklmnopqrstu..." },
      { "abcdefghijklmnopqrstuvwxyz/one", "abcdefghijklmnopqrstuvwxyz/two", "abcdefghijklmnopqrstu" },
      true, false, false, { 0, 1, -1 }, { BAND_MATCH_CUT, BAND_MATCH_CUT, BAND_MATCH_NONE } },
    { "-hi: the table renamed, type and location kept",
      { "sat_s4yo_info :: [Int] at leak.hs:14:35-56", "Rec_Main_3_con_info :: Rec at leak.hs:17:37",
        "x_info :: Int" },
      { "Rec_Main_3_con_info :: Rec at leak.hs:17:37", "sat_s9zz_info :: [Int] at leak.hs:14:35-56",
        "y_info :: Int", "0x410840" },
      false, false, true, { 1, 0, -1, -1 },
      { BAND_MATCH_SAME, BAND_MATCH_LOCATION, BAND_MATCH_NONE, BAND_MATCH_NONE } },
    { "location only for -hi",
      { "a :: T at f.hs:1:1" }, { "b :: T at f.hs:1:1" },
      false, false, false, { -1 }, { BAND_MATCH_NONE } },
};

static void one_case(void **state)
{
    const struct match_case *c = *state;
    struct bandmatch_run base = { .labels = c->base, .count = count_of(c->base),
                                  .cut = c->base_cut, .located = c->located };
    struct bandmatch_run now = { .labels = c->now, .count = count_of(c->now), .cut = c->now_cut,
                                 .located = c->located };
    struct bandmatch_pair *pairs;
    size_t n;
    assert_int_equal(bandmatch(&base, &now, &pairs, &n), 0);
    /* every band of both runs exactly once */
    size_t paired = 0;
    bool seen[MAX_BANDS] = { false };
    for (size_t k = 0; k < n; k++) {
        if (pairs[k].now != BANDMATCH_ABSENT) {
            size_t j = pairs[k].now;
            assert_int_equal(j, k);   /* now's bands first, in order */
            int want = c->partner[j];
            if (want < 0) {
                assert_true(pairs[k].base == BANDMATCH_ABSENT);
            } else {
                assert_int_equal(pairs[k].base, (size_t)want);
                paired++;
            }
            assert_int_equal(pairs[k].how, c->how[j]);
        } else {
            assert_int_equal(pairs[k].how, BAND_MATCH_NONE);
        }
        if (pairs[k].base != BANDMATCH_ABSENT) {
            assert_false(seen[pairs[k].base]);
            seen[pairs[k].base] = true;
        }
    }
    assert_int_equal(n, now.count + base.count - paired);
    free(pairs);
}

/* Cost-centre numbers decide same and renumbered between eventlogs (no "(n)" there). */
static void stack_ids(void **state)
{
    (void)state;
    static const unsigned char a[] = { 0, 0, 0, 8, 0, 0, 0, 1 }, b[] = { 0, 0, 0, 12, 0, 0, 0, 1 };
    const char *labels[] = { "buildTable/main", "main" };
    const unsigned char *bids[] = { a, a + 4 }, *nids[] = { b, a + 4 };
    size_t lens[] = { 8, 4 };
    struct bandmatch_run base = { .labels = labels, .count = 2, .ids = bids, .ids_len = lens };
    struct bandmatch_run now = { .labels = labels, .count = 2, .ids = nids, .ids_len = lens };
    struct bandmatch_pair *pairs;
    size_t n;
    assert_int_equal(bandmatch(&base, &now, &pairs, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(pairs[0].how, BAND_MATCH_RENUMBERED);
    assert_int_equal(pairs[1].how, BAND_MATCH_SAME);
    free(pairs);
}

/* -hi: the closure type (the band's kind) must agree too where both runs know it. */
static void location_kinds(void **state)
{
    (void)state;
    const char *bl[] = { "sat_s1_info :: [Int] at a.hs:1:1", "con_A_info :: T at a.hs:2:2" };
    const char *nl[] = { "sat_s9_info :: [Int] at a.hs:1:1", "con_B_info :: T at a.hs:2:2" };
    const char *bk[] = { "15", "1" }, *nk[] = { "15", "2" };   /* THUNK; CONSTR vs CONSTR_1_0 */
    const size_t bkl[] = { 2, 1 }, nkl[] = { 2, 1 };
    struct bandmatch_run base = { .labels = bl, .count = 2, .located = true, .kinds = bk,
                                  .kind_lens = bkl };
    struct bandmatch_run now = { .labels = nl, .count = 2, .located = true, .kinds = nk,
                                 .kind_lens = nkl };
    struct bandmatch_pair *pairs;
    size_t n;
    assert_int_equal(bandmatch(&base, &now, &pairs, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(pairs[0].how, BAND_MATCH_LOCATION);
    assert_int_equal(pairs[0].base, 0);
    assert_int_equal(pairs[1].how, BAND_MATCH_NONE);   /* another closure type */
    assert_int_equal(pairs[2].base, 1);
    free(pairs);
}

/* The join against brute force: 300 bands, the base in another order, every third band
 * renamed, renumbered "(n)"s; each pair is the first unpaired base band of equal shown
 * label. */
static void join_is_brute_force(void **state)
{
    (void)state;
    enum { N = 300 };
    static char bnames[N][24], nnames[N][24];
    static const char *bl[N], *nl[N];
    for (size_t i = 0; i < N; i++) {
        size_t j = (i * 7) % N;
        if (j % 3)
            snprintf(bnames[j], sizeof bnames[j], "(%zu)band%03zu", j + 5, j % 200);
        else
            snprintf(bnames[j], sizeof bnames[j], "elsewhere%zu", j);
        bl[j] = bnames[j];
        snprintf(nnames[i], sizeof nnames[i], "(%zu)band%03zu", i, i % 200);
        nl[i] = nnames[i];
    }
    struct bandmatch_run base = { .labels = bl, .count = N, .cut = true };
    struct bandmatch_run now = { .labels = nl, .count = N, .cut = true };
    struct bandmatch_pair *pairs;
    size_t n;
    assert_int_equal(bandmatch(&base, &now, &pairs, &n), 0);
    bool used[N] = { false };
    for (size_t k = 0; k < N; k++) {
        size_t want = BANDMATCH_ABSENT;
        const char *shown = strchr(nl[k], ')') + 1;
        for (size_t i = 0; i < N && want == BANDMATCH_ABSENT; i++) {
            const char *b = strchr(bl[i], ')');
            if (!used[i] && b && strcmp(b + 1, shown) == 0)
                want = i;
        }
        if (want != BANDMATCH_ABSENT)
            used[want] = true;
        assert_true(pairs[k].base == want);
    }
    free(pairs);
}

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

/* Both ways: a band doubled, one halved, one new, one gone; OTHER never listed; the
 * order is by change, growth first. */
static void changes_both_ways(void **state)
{
    (void)state;
    struct profile_band bb[5], nb[5];
    const char *bl[] = { "(3)lazySum/main", "(4)insertT/main", "(5)gone", "(6)same", NULL };
    const uint64_t bp[] = { 1000, 800, 300, 70, 5 };
    const char *nl[] = { "(13)lazySum/main", "(14)insertT/main", "(15)new", "(6)same", NULL };
    const uint64_t np[] = { 2000, 400, 250, 70, 99 };
    struct profile_view base = view_of(bb, bl, bp, 5), now = view_of(nb, nl, np, 5);
    struct run_info hp = { .labels_cut = true, .breakdown = BREAKDOWN_COST_CENTRE };
    struct bandmatch_view b = { &base, NULL, &hp }, n = { &now, NULL, &hp };
    struct band_change *c;
    size_t count;
    assert_int_equal(growth_changes(&b, &n, &c, &count), 0);
    assert_int_equal(count, 5);
    const char *order[] = { "(13)lazySum/main", "(15)new", "(6)same", "(5)gone", "(14)insertT/main" };
    for (size_t i = 0; i < count; i++)
        assert_string_equal(c[i].label, order[i]);
    assert_int_equal(c[0].base, 1000);
    assert_int_equal(c[0].now, 2000);
    assert_int_equal(c[0].how, BAND_MATCH_RENUMBERED);
    assert_false(c[1].in_base);
    assert_int_equal(c[1].how, BAND_MATCH_NONE);
    assert_int_equal(c[2].how, BAND_MATCH_SAME);
    assert_false(c[3].in_now);
    assert_int_equal(band_change_bytes(&c[3]), -300);
    assert_int_equal(c[4].now, 400);
    assert_int_equal(band_change_bytes(&c[4]), -400);
    free(c);
    /* empty runs */
    struct profile_view none = { 0 };
    struct bandmatch_view e = { &none, NULL, NULL };
    assert_int_equal(growth_changes(&e, &e, &c, &count), 0);
    assert_int_equal(count, 0);
    free(c);
}

int main(void)
{
    struct CMUnitTest tests[sizeof cases / sizeof cases[0] + 4];
    size_t n = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        tests[n++] = (struct CMUnitTest){ cases[i].name, one_case, NULL, NULL, (void *)&cases[i] };
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(stack_ids);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(location_kinds);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(join_is_brute_force);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(changes_both_ways);
    return _cmocka_run_group_tests("growth", tests, n, NULL, NULL);
}
