/* test_capstats.c: each capability's shares of the run (model/capstats.h) and the
 * histogram counts /metrics reads (gc_stats_pauses_below_pow2), at their edges:
 * a capability left running or collecting at the run's end keeps that state to the end;
 * one with only collection events (no scheduler event) is not listed; events of no
 * capability are counted as dropped; the shares sum to 1 and cover the whole run from 0;
 * a time gone back counts nothing;
 * a pause of exactly 2^k ns is not below 2^k, one of 2^k - 1 ns is. The timeline (the
 * heap view's strip per capability): slots add up to the shares exactly, through the
 * slots' widening (a run past CAP_TIMELINE_SLOTS first widths), an interval across many
 * slots, the state left at the end carried to the run's end, and in the live server's
 * copy. The nonmoving collector's timeline (its strip): none without its phases; a
 * synchronisation written twice (GHC 9.10) counted once, and over the marks inside it;
 * an END without its BEGIN nothing; its slots adding up to its totals through the
 * widening, the sweeps' and synchronisations' totals model/nonmoving's; and copied.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/capstats.h"
#include "model/gcstats.h"
#include "model/nonmoving.h"

static void feed(struct cap_stats *s, enum gc_event_kind kind, uint16_t cap, uint64_t t)
{
    struct gc_event e = { .kind = kind, .cap = cap, .time_ns = t };
    assert_int_equal(cap_stats_event(s, &e), 0);
}

static void states_to_the_end(void **state)
{
    (void)state;
    struct cap_stats *s = cap_stats_new();
    assert_non_null(s);
    feed(s, GC_EVENT_RUN, 0, 100);      /* idle 0..100 */
    feed(s, GC_EVENT_STOP, 0, 400);     /* running 100..400 */
    feed(s, GC_EVENT_START, 0, 500);    /* idle 400..500 */
    feed(s, GC_EVENT_END, 0, 600);      /* gc 500..600 */
    feed(s, GC_EVENT_RUN, 0, 900);      /* idle 600..900; running 900..1000 (the end) */
    feed(s, GC_EVENT_STOP, 1, 200);     /* cap 1: idle 0..200, then idle */
    feed(s, GC_EVENT_START, 1, 700);    /* collecting 700..1000 (the end) */
    feed(s, GC_EVENT_START, 2, 300);    /* cap 2: collections only: not listed */
    feed(s, GC_EVENT_END, 2, 350);
    feed(s, GC_EVENT_RUN, GC_CAP_NONE, 10);
    struct cap_share out[4];
    assert_int_equal(cap_stats_shares(s, 1000, out, 4), 2);
    assert_int_equal(out[0].cap, 0);
    assert_int_equal(out[0].running_ns, 400);
    assert_int_equal(out[0].gc_ns, 100);
    assert_int_equal(out[0].idle_ns, 500);
    assert_true(out[0].running == 0.4 && out[0].gc == 0.1);
    assert_int_equal(out[1].cap, 1);
    assert_int_equal(out[1].running_ns, 0);
    assert_int_equal(out[1].gc_ns, 300);
    assert_int_equal(out[1].idle_ns, 700);
    for (int i = 0; i < 2; i++)
        assert_true(out[i].running + out[i].gc + out[i].idle == 1.0);
    assert_int_equal(cap_stats_dropped(s), 1);
    struct cap_stats *c = cap_stats_copy(s);   /* the live server's copy: the same */
    struct cap_share again[4];
    assert_int_equal(cap_stats_shares(c, 1000, again, 4), 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(again[i].cap, out[i].cap);
        assert_int_equal(again[i].running_ns, out[i].running_ns);
        assert_int_equal(again[i].gc_ns, out[i].gc_ns);
        assert_int_equal(again[i].idle_ns, out[i].idle_ns);
    }
    cap_stats_free(c);
    cap_stats_free(s);
}

/* A first event at the run's very start, and a time gone back (damage): nothing is
 * counted twice or backwards, and the capability's clock stays at its latest time. */
static void time_zero_and_going_back(void **state)
{
    (void)state;
    struct cap_stats *s = cap_stats_new();
    assert_non_null(s);
    feed(s, GC_EVENT_RUN, 0, 0);        /* running from 0 */
    feed(s, GC_EVENT_STOP, 0, 500);     /* running 0..500 */
    feed(s, GC_EVENT_RUN, 0, 300);      /* back in time: nothing; running from 500 */
    feed(s, GC_EVENT_STOP, 0, 800);     /* running 500..800; idle to the end */
    struct cap_share out[1];
    assert_int_equal(cap_stats_shares(s, 1000, out, 1), 1);
    assert_int_equal(out[0].running_ns, 800);
    assert_int_equal(out[0].gc_ns, 0);
    assert_int_equal(out[0].idle_ns, 200);
    cap_stats_free(s);
}

static void pause_counts_at_powers_of_two(void **state)
{
    (void)state;
    struct gc_stats *g = gc_stats_new();
    assert_non_null(g);
    const uint64_t pauses[] = { 4095, 4096, 16383, 16384, 100000 };
    for (size_t i = 0; i < sizeof pauses / sizeof *pauses; i++) {
        uint64_t t = 1000000 * (i + 1);
        struct gc_event e = { .kind = GC_EVENT_START, .cap = 0, .time_ns = t };
        assert_true(gc_stats_event(g, &e, NULL) >= 0);
        e = (struct gc_event){ .kind = GC_EVENT_STATS, .cap = 0, .time_ns = t, .threads = 1 };
        assert_true(gc_stats_event(g, &e, NULL) >= 0);
        e = (struct gc_event){ .kind = GC_EVENT_END, .cap = 0, .time_ns = t + pauses[i] };
        assert_int_equal(gc_stats_event(g, &e, NULL), 1);
    }
    assert_int_equal(gc_stats_pauses_below_pow2(g, 0, 12), 1);   /* 4095 */
    assert_int_equal(gc_stats_pauses_below_pow2(g, 0, 13), 2);   /* and 4096 */
    assert_int_equal(gc_stats_pauses_below_pow2(g, 0, 14), 3);   /* and 16383 */
    assert_int_equal(gc_stats_pauses_below_pow2(g, 0, 17), 5);
    assert_int_equal(gc_stats_pauses_below_pow2(g, 1, 17), 0);   /* no such generation */
    gc_stats_free(g);
}

static void timeline_sums_to_shares(void **state)
{
    (void)state;
    struct cap_stats *s = cap_stats_new();
    assert_non_null(s);
    const uint64_t w = CAP_TIMELINE_FIRST_WIDTH_NS;
    feed(s, GC_EVENT_RUN, 0, w / 2);              /* running across many slots */
    feed(s, GC_EVENT_STOP, 0, 37 * w + 5);
    feed(s, GC_EVENT_START, 0, 100 * w);
    feed(s, GC_EVENT_END, 0, 100 * w + 3);        /* within one slot */
    feed(s, GC_EVENT_RUN, 1, 3 * w);
    feed(s, GC_EVENT_START, 1, 700 * w + 11);     /* past the first slots: widened, twice */
    feed(s, GC_EVENT_END, 1, 701 * w);
    feed(s, GC_EVENT_RUN, 0, 900 * w);            /* running to the run's end */
    uint64_t end = 1000 * w + 17;
    struct cap_share shares[2];
    assert_int_equal(cap_stats_shares(s, end, shares, 2), 2);
    struct cap_stats *c = cap_stats_copy(s);
    assert_non_null(c);
    static struct cap_timeline tl;
    for (int copy = 0; copy < 2; copy++) {
        for (size_t i = 0; i < 2; i++) {
            assert_true(cap_stats_timeline(copy ? c : s, i, end, &tl));
            assert_int_equal(tl.cap, i);
            assert_int_equal(tl.width_ns, 4 * w);
            assert_int_equal(tl.slots, (end - 1) / tl.width_ns + 1);
            uint64_t run = 0, gc = 0;
            for (size_t k = 0; k < CAP_TIMELINE_SLOTS; k++) {
                assert_true(tl.running_ns[k] + tl.gc_ns[k] <= tl.width_ns);
                assert_true(k < tl.slots || tl.running_ns[k] + tl.gc_ns[k] == 0);
                run += tl.running_ns[k];
                gc += tl.gc_ns[k];
            }
            assert_int_equal(run, shares[i].running_ns);
            assert_int_equal(gc, shares[i].gc_ns);
        }
        assert_false(cap_stats_timeline(copy ? c : s, 2, end, &tl));
    }
    /* the slot of cap 0's collection: 3 ns of it */
    assert_true(cap_stats_timeline(s, 0, end, &tl));
    assert_int_equal(tl.gc_ns[100 * w / (4 * w)], 3);
    /* a later end widens the timeline it gives, not the one kept */
    assert_true(cap_stats_timeline(s, 0, 3000 * w, &tl));
    assert_int_equal(tl.width_ns, 16 * w);
    assert_true(cap_stats_timeline(s, 0, end, &tl));
    assert_int_equal(tl.width_ns, 4 * w);
    cap_stats_free(c);
    cap_stats_free(s);
}

static void nonmoving_phases(void **state)
{
    (void)state;
    struct cap_stats *s = cap_stats_new();
    assert_non_null(s);
    static struct nonmoving_timeline nm;
    feed(s, GC_EVENT_RUN, 0, 10);
    assert_false(cap_stats_nonmoving(s, 1000, &nm));   /* no phase: no strip */
    assert_false(cap_stats_nonmoving(NULL, 1000, &nm));
    const uint64_t w = CAP_TIMELINE_FIRST_WIDTH_NS;
    static const struct { enum gc_event_kind kind; uint64_t t; } ev[] = {
        { GC_EVENT_CONC_SYNC_END, 5 },                  /* no BEGIN: nothing */
        { GC_EVENT_CONC_MARK_BEGIN, 100 },              /* marking 100..600 */
        { GC_EVENT_CONC_MARK_END, 600 },
        { GC_EVENT_CONC_SYNC_BEGIN, 700 },              /* synchronising 700..1500, */
        { GC_EVENT_CONC_SYNC_BEGIN, 710 },              /* written twice */
        { GC_EVENT_CONC_MARK_BEGIN, 800 },              /* a mark inside it: sync's */
        { GC_EVENT_CONC_MARK_END, 900 },
        { GC_EVENT_CONC_SYNC_END, 1490 },
        { GC_EVENT_CONC_SYNC_END, 1500 },
        { GC_EVENT_CONC_SWEEP_BEGIN, 2000 },            /* sweeping 2000..700w+3, */
        { GC_EVENT_CONC_SWEEP_END, 700 * w + 3 },       /* past the first slots */
    };
    struct nonmoving_stats counts = { 0 };
    for (size_t i = 0; i < sizeof ev / sizeof *ev; i++) {
        struct gc_event e = { .kind = ev[i].kind, .cap = GC_CAP_NONE, .time_ns = ev[i].t };
        assert_int_equal(cap_stats_event(s, &e), 0);
        nonmoving_event(&counts, &e);
    }
    assert_int_equal(cap_stats_dropped(s), 0);   /* no capability: not a dropped event */
    struct cap_stats *c = cap_stats_copy(s);
    assert_non_null(c);
    uint64_t end = 1000 * w;
    for (int copy = 0; copy < 2; copy++) {
        assert_true(cap_stats_nonmoving(copy ? c : s, end, &nm));
        assert_int_equal(nm.total_ns[NM_MARK], 500);
        assert_int_equal(nm.total_ns[NM_SYNC], 800);
        assert_int_equal(nm.total_ns[NM_SYNC], counts.sync.total_ns);
        assert_int_equal(nm.total_ns[NM_SWEEP], 700 * w + 3 - 2000);
        assert_int_equal(nm.total_ns[NM_SWEEP], counts.sweep.total_ns);
        assert_int_equal(counts.mark.total_ns, 600);   /* the marks' own count */
        assert_int_equal(nm.width_ns, 4 * w);
        assert_int_equal(nm.slots, (end - 1) / nm.width_ns + 1);
        for (size_t p = 0; p < NM_PHASES; p++) {
            uint64_t sum = 0;
            for (size_t k = 0; k < CAP_TIMELINE_SLOTS; k++)
                sum += nm.ns[p][k];
            assert_int_equal(sum, nm.total_ns[p]);
        }
        for (size_t k = 0; k < CAP_TIMELINE_SLOTS; k++)
            assert_true(nm.ns[NM_SYNC][k] + nm.ns[NM_MARK][k] + nm.ns[NM_SWEEP][k] <=
                        nm.width_ns);
    }
    cap_stats_free(c);
    cap_stats_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(states_to_the_end),
        cmocka_unit_test(time_zero_and_going_back),
        cmocka_unit_test(pause_counts_at_powers_of_two),
        cmocka_unit_test(timeline_sums_to_shares),
        cmocka_unit_test(nonmoving_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
