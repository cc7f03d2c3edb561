/* test_heldback.c: the rules that tell censuses held back in the runtime's buffers (none
 * comes, or all come late at once) from a run that takes them rarely or a file read at
 * full speed (census/heldback.h), on the reader's clock and the run's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "census/heldback.h"

#define S 1000000000ull   /* a second of the run, in ns */

/* Checks h with f at each second from `from` to `to` of the reader's clock; the first
 * second at which it says the censuses wait, or -1. */
static int first_said(struct heldback *h, struct heldback_facts f, int from, int to)
{
    for (int t = from; t <= to; t++) {
        f.now = t;
        enum heldback_verdict v = heldback_check(h, &f);
        if (v != HELDBACK_NO) {
            assert_int_equal(v, HELDBACK_WAITING);
            return t;
        }
    }
    return -1;
}

/* The sentence for h's verdict and f. */
static const char *explained(const struct heldback *h, const struct heldback_facts *f)
{
    static char why[HELDBACK_TEXT];
    heldback_explain(h, f, why, sizeof why);
    return why;
}

/* The real GHC 9.10 case: events to 1.15 s, no census, no HEAP_PROF_BEGIN yet: said once
 * 5 s after the watch began, never again. */
static void no_census_while_the_run_goes_on_is_said_once(void **state)
{
    (void)state;
    struct heldback h = { 0 };
    struct heldback_facts f = { 0, 0, 0, 1150000000ull, 0, false, false };
    assert_int_equal(first_said(&h, f, 0, 30), 5);
    assert_int_equal(first_said(&h, f, 31, 60), -1);
    const char *why = explained(&h, &f);
    assert_non_null(strstr(why, "no census yet, though the program's events have arrived "
                                "up to 1.15 s into its run (censuses may come late, in one "
                                "burst): the GHC runtime buffers its events"));
    assert_non_null(strstr(why, "+RTS --eventlog-flush-interval=1"));
    assert_non_null(strstr(why, "eventlog-socket"));
    /* the burst that follows is not said again */
    f.censuses = 29;
    f.now = 61;
    assert_int_equal(heldback_check(&h, &f), HELDBACK_NO);
}

/* A new census starts the wait again; after censuses the sentence names the last. */
static void a_census_starts_the_wait_again(void **state)
{
    (void)state;
    struct heldback h = { 0 };
    struct heldback_facts f = { 0, 0, 0, 0, 0, false, false };
    assert_int_equal(first_said(&h, f, 0, 3), -1);
    f.censuses = 4;
    f.last_census_ns = 2 * S;
    f.reached_ns = 3 * S;
    assert_int_equal(first_said(&h, f, 4, 8), -1);      /* 5 s from the census at 4 */
    assert_int_equal(first_said(&h, f, 9, 9), 9);
    assert_non_null(strstr(explained(&h, &f), "no census since the one at 2.00 s, though "
                                              "the program's events have arrived up to 3.00 s"));
}

/* Censuses held back 3 s (less than the wait) that then come at once: said at their
 * coming, once, with how many and how long; after the input ended too. */
static void censuses_that_come_late_at_once_are_said(void **state)
{
    (void)state;
    for (int ended = 0; ended < 2; ended++) {
        struct heldback h = { 0 };
        struct heldback_facts f = { 0, 0, 0, 1150000000ull, 0, false, false };
        assert_int_equal(first_said(&h, f, 0, 3), -1);
        f = (struct heldback_facts){ 3, 29, 1121245000ull, 1146617757ull, 20000000ull, ended,
                                     false };
        assert_int_equal(heldback_check(&h, &f), HELDBACK_BURST);
        assert_non_null(strstr(explained(&h, &f), "29 censuses came at once, held back 3 s "
                                                  "while the program's other events arrived: "
                                                  "the GHC runtime buffers its events"));
        f.censuses = 30;
        f.now = 10;
        assert_int_equal(heldback_check(&h, &f), HELDBACK_NO);
    }
}

/* A file read at full speed: its censuses come after its other events, but within the
 * same second; and once the input ended, nothing is waited for. */
static void a_fast_read_or_an_ended_input_is_not_held_back(void **state)
{
    (void)state;
    struct heldback h = { 0 };
    struct heldback_facts f = { 100.0, 0, 0, 1150000000ull, 0, false, false };
    assert_int_equal(heldback_check(&h, &f), HELDBACK_NO);
    f = (struct heldback_facts){ 100.4, 29, 1121245000ull, 1146617757ull, 20000000ull, true,
                                 false };
    assert_int_equal(heldback_check(&h, &f), HELDBACK_NO);
    h = (struct heldback){ 0 };
    f = (struct heldback_facts){ 0, 3, S, 3 * S, 0, true, false };   /* trailing events */
    assert_int_equal(first_said(&h, f, 0, 60), -1);
}

/* Events that reach no further than the last census (an idle program), or not past
 * three census intervals (+RTS -i10), are no sign of buffering. */
static void a_run_that_is_idle_or_takes_censuses_rarely_is_not_held_back(void **state)
{
    (void)state;
    struct heldback h = { 0 };
    struct heldback_facts f = { 0, 2, 5 * S, 5 * S + HELDBACK_RUN_NS, 0, false, false };
    assert_int_equal(first_said(&h, f, 0, 60), -1);
    h = (struct heldback){ 0 };
    f = (struct heldback_facts){ 0, 2, 10 * S, 35 * S, 10 * S, false, false };
    assert_int_equal(first_said(&h, f, 0, 60), -1);
    f.reached_ns = 41 * S;   /* past three intervals: said */
    assert_int_equal(first_said(&h, f, 61, 70), 61);
}

/* A runtime that flushes on a timer: --eventlog-flush-interval among its +RTS options
 * (a real GHC 9.10.3 run's JOB line), or GHC 9.16 and later. Nothing is said for it,
 * even when no census comes (a program idle on the CPU takes none). */
static void a_runtime_that_flushes_is_never_held_back(void **state)
{
    (void)state;
    const char *job = "steady 12000 +RTS -hT -i0.1 -l -olev.fifo --eventlog-flush-interval=1";
    assert_true(heldback_runtime_flushes(job, "GHC-9.10.3 rts"));
    assert_false(heldback_runtime_flushes("steady 12000 +RTS -hT -i0.1 -l", "GHC-9.10.3 rts"));
    assert_false(heldback_runtime_flushes("prog --eventlog-flush-interval=1", NULL));
    assert_true(heldback_runtime_flushes(NULL, "GHC-9.16.1 rts_thr"));
    assert_true(heldback_runtime_flushes(NULL, "GHC-10.2.1 rts"));
    assert_false(heldback_runtime_flushes(NULL, "GHC-9.14.1 rts_thr"));
    assert_false(heldback_runtime_flushes(NULL, NULL));
    struct heldback h = { 0 };
    struct heldback_facts f = { 0, 0, 0, 5 * S, 100000000ull, false, true };
    assert_int_equal(first_said(&h, f, 0, 60), -1);
    f = (struct heldback_facts){ 61, 30, 5 * S, 5 * S, 100000000ull, true, true };
    assert_int_equal(heldback_check(&h, &f), HELDBACK_NO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_census_while_the_run_goes_on_is_said_once),
        cmocka_unit_test(a_census_starts_the_wait_again),
        cmocka_unit_test(a_run_that_is_idle_or_takes_censuses_rarely_is_not_held_back),
        cmocka_unit_test(censuses_that_come_late_at_once_are_said),
        cmocka_unit_test(a_fast_read_or_an_ended_input_is_not_held_back),
        cmocka_unit_test(a_runtime_that_flushes_is_never_held_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
