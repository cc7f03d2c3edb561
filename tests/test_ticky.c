/* test_ticky.c: ticky counters' totals (model/ticky.h) and the summary's `ticky`.
 *
 * The model alone: a counter's totals are its samples summed, whether its definition
 * comes before or after them (the runtime writes definitions at the end); a counter
 * never defined is kept by its id, one never sampled has zeros, a second definition of
 * a counter changes nothing; thousands of counters keep every total (the index grows).
 * Series: 300 samples merge into 75 columns of 4, each the exact sum of its samples and
 * ending at its last sample's time; 20,000 counters halve the columns (to 32) to stay
 * within the points' bound and keep every series exact; past the least columns a
 * counter keeps totals but no series.
 * Through the conversion a user runs (written eventlogs, --summary in JSON, text and
 * Markdown): a run without ticky events says "ticky": null; a ticky run without a heap
 * profile gives each counter's exact figures and its share of HEAP_ALLOCATED; a name
 * from the eventlog with control characters and Markdown punctuation does nothing; a
 * killed run (the runtime defines its counters only at exit: no definition, no end
 * marker) keeps its counters' samples, each listed by its id as undefined.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "convert.h"
#include "evwriter.h"
#include "model/breakdown.h"
#include "model/ticky.h"
#include "read/evdefs.h"
#include "read/evdecode.h"
#include "testkit.h"

#define MS 1000000u

static void define(struct ticky *t, uint64_t id, const char *name, const char *kinds)
{
    struct ticky_event e = { .kind = TICKY_EVENT_DEF, .id = id, .arity = (unsigned)strlen(kinds),
                             .name = name, .name_len = strlen(name), .kinds = kinds,
                             .kinds_len = strlen(kinds), .info = id + 1 };
    assert_int_equal(ticky_event(t, &e), 0);
}

static void sample(struct ticky *t, uint64_t time, uint64_t id, uint64_t entries,
                   uint64_t allocs, uint64_t allocd)
{
    struct ticky_event e = { .kind = TICKY_EVENT_SAMPLE, .time_ns = time, .id = id,
                             .entries = entries, .allocs = allocs, .allocd = allocd };
    assert_int_equal(ticky_event(t, &e), 0);
}

static void begin(struct ticky *t, uint64_t time)
{
    struct ticky_event e = { .kind = TICKY_EVENT_BEGIN_SAMPLE, .time_ns = time };
    assert_int_equal(ticky_event(t, &e), 0);
}

static const struct ticky_counter *find(const struct ticky_counter **v, size_t n, uint64_t id)
{
    for (size_t i = 0; i < n; i++)
        if (v[i]->id == id)
            return v[i];
    fail_msg("counter %llu not listed", (unsigned long long)id);
    return NULL;
}

/* check of t, then of its copy (the live server's) once t is freed: the copy is whole
 * and owns all it holds. Frees both. */
static void and_of_its_copy(struct ticky *t, void (*check)(const struct ticky *t))
{
    check(t);
    struct ticky *copy = ticky_copy(t);
    assert_non_null(copy);
    ticky_free(t);
    check(copy);
    ticky_free(copy);
}

/* totals_are_samples_summed's three counters, the first named. */
static void three_counters_f_named(const struct ticky *t)
{
    size_t n;
    const struct ticky_counter **v = ticky_sorted(t, &n);
    assert_int_equal(n, 3);
    assert_string_equal(find(v, n, 0x1000)->name, "Main.f{v r1} (fun)");
    free(v);
}

static void totals_are_samples_summed(void **state)
{
    (void)state;
    struct ticky *t = ticky_new();
    assert_false(ticky_any(t));
    begin(t, 10);
    sample(t, 11, 0x1000, 5, 80, 16);
    sample(t, 12, 0x2000, 1, 0, 0);          /* never defined */
    begin(t, 20);
    sample(t, 21, 0x1000, 7, 40, 0);
    define(t, 0x1000, "Main.f{v r1} (fun)", "ii");   /* after its samples, as GHC writes */
    define(t, 0x3000, "Main.g{v r2} (fun)", "");      /* never sampled */
    define(t, 0x1000, "another name", "");            /* a copy: ignored */
    assert_true(ticky_any(t));
    struct ticky_totals tot;
    ticky_totals(t, &tot);
    assert_int_equal(tot.count, 3);
    assert_int_equal(tot.samples, 2);
    assert_int_equal(tot.last_sample_ns, 20);
    assert_int_equal(tot.entries, 13);
    assert_int_equal(tot.allocs, 120);
    assert_int_equal(tot.allocd, 16);
    size_t n;
    const struct ticky_counter **v = ticky_sorted(t, &n);
    assert_int_equal(n, 3);
    assert_int_equal(v[0]->id, 0x1000);       /* the most allocating first */
    const struct ticky_counter *f = find(v, n, 0x1000);
    assert_string_equal(f->name, "Main.f{v r1} (fun)");
    assert_string_equal(f->kinds, "ii");
    assert_int_equal(f->arity, 2);
    assert_int_equal(f->info, 0x1001);
    assert_int_equal(f->entries, 12);
    assert_int_equal(f->allocs, 120);
    assert_int_equal(f->allocd, 16);
    assert_int_equal(f->samples, 2);
    assert_int_equal(f->last_sample_ns, 21);
    assert_false(find(v, n, 0x2000)->defined);
    assert_int_equal(find(v, n, 0x2000)->entries, 1);
    assert_true(find(v, n, 0x3000)->defined);
    assert_int_equal(find(v, n, 0x3000)->entries, 0);
    free(v);
    and_of_its_copy(t, three_counters_f_named);
}

static void thousands_of_counters(void **state)
{
    (void)state;
    enum { N = 5000 };
    struct ticky *t = ticky_new();
    for (int round = 0; round < 3; round++) {
        begin(t, round * 100);
        for (uint64_t i = 0; i < N; i++)
            sample(t, round * 100 + 1, 0x400000 + 8 * i, i, 16 * i, round);
    }
    size_t n;
    const struct ticky_counter **v = ticky_sorted(t, &n);
    assert_int_equal(n, N);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = (v[i]->id - 0x400000) / 8;
        assert_int_equal(v[i]->entries, 3 * k);
        assert_int_equal(v[i]->allocs, 48 * k);
        assert_int_equal(v[i]->allocd, 3);
        assert_int_equal(v[i]->samples, 3);
    }
    assert_int_equal(v[0]->id, 0x400000 + 8 * (N - 1));
    free(v);
    ticky_free(t);
}

/* Every counter's series sums to its totals. */
static void series_sum_to_totals(const struct ticky *t)
{
    struct ticky_columns cols;
    ticky_columns(t, &cols);
    size_t n;
    const struct ticky_counter **v = ticky_sorted(t, &n);
    for (size_t i = 0; i < n; i++) {
        if (!v[i]->series)
            continue;
        uint64_t e = 0, a = 0;
        for (size_t k = 0; k < cols.used; k++)
            e += v[i]->series[k].entries, a += v[i]->series[k].allocs;
        assert_int_equal(e, v[i]->entries);
        assert_int_equal(a, v[i]->allocs);
    }
    free(v);
}

static void series_merge_exactly(void **state)
{
    (void)state;
    struct ticky *t = ticky_new();
    for (uint64_t i = 0; i < 300; i++) {
        begin(t, 1000 * (i + 1));
        sample(t, 1000 * (i + 1) + 1, 0x10, i, 8 * i, 0);
        if (i % 2)
            sample(t, 1000 * (i + 1) + 2, 0x20, 1, 0, 0);
    }
    struct ticky_columns cols;
    ticky_columns(t, &cols);
    assert_int_equal(cols.per_col, 4);        /* 128 columns of 2 held 256 samples */
    assert_int_equal(cols.used, 75);
    size_t n;
    const struct ticky_counter **v = ticky_sorted(t, &n);
    const struct ticky_counter *c = find(v, n, 0x10), *d = find(v, n, 0x20);
    for (size_t k = 0; k < cols.used; k++) {
        uint64_t s = 4 * k;                   /* samples 4k .. 4k + 3 */
        assert_int_equal(c->series[k].entries, 4 * s + 6);
        assert_int_equal(c->series[k].allocs, 8 * (4 * s + 6));
        assert_int_equal(d->series[k].entries, 2);
        assert_int_equal(cols.end_ns[k], 1000 * (s + 4));
    }
    free(v);
    and_of_its_copy(t, series_sum_to_totals);
}

static void series_within_their_bound(void **state)
{
    (void)state;
    enum { N = 20000 };
    struct ticky *t = ticky_new();
    for (int round = 0; round < 200; round++) {
        begin(t, 100 * (round + 1));
        for (uint64_t i = 0; i < N; i += 1 + (uint64_t)round % 7)
            sample(t, 100 * (round + 1) + 1, 0x800000 + 16 * i, 1, i + round, 0);
    }
    struct ticky_totals tot;
    ticky_totals(t, &tot);
    assert_int_equal(tot.count, N);
    assert_int_equal(tot.series_cut, 0);
    struct ticky_columns cols;
    ticky_columns(t, &cols);
    assert_int_equal(cols.per_col, 8);        /* 32 columns: 20,000 x 32 within 2^20 */
    assert_int_equal(cols.used, 25);
    series_sum_to_totals(t);
    /* past TICKY_SERIES_CELLS / TICKY_SERIES_MIN_COLUMNS counters: totals, no series */
    for (uint64_t i = N; i < TICKY_SERIES_CELLS / TICKY_SERIES_MIN_COLUMNS + 10; i++)
        sample(t, 30000, 0x800000 + 16 * i, 1, 1, 0);
    ticky_totals(t, &tot);
    assert_int_equal(tot.series_cut, 10);
    ticky_columns(t, &cols);
    assert_int_equal(cols.per_col, 16);       /* 16 columns of 16 samples */
    assert_int_equal(cols.used, 13);
    series_sum_to_totals(t);
    ticky_free(t);
}

/* --- through the conversion -------------------------------------------------------- */

static void ticky_def(struct evw *w, uint64_t t, uint64_t id, uint16_t arity,
                      const char *kinds, const char *name)
{
    struct evw_payload p = { 0 };
    evw_p_u64(&p, id);
    evw_p_u16(&p, arity);
    evw_p_str(&p, kinds);
    evw_p_str(&p, name);
    evw_p_u64(&p, id + 0x10);
    evw_p_str(&p, "{}");
    evw_event(w, EV_TICKY_COUNTER_DEF, t, &p);
}

static void ticky_sample(struct evw *w, uint64_t t, uint64_t id, uint64_t entries,
                         uint64_t allocs, uint64_t allocd)
{
    struct evw_payload p = { 0 };
    evw_p_u64(&p, id);
    evw_p_u64(&p, entries);
    evw_p_u64(&p, allocs);
    evw_p_u64(&p, allocd);
    evw_event(w, EV_TICKY_COUNTER_SAMPLE, t, &p);
}

/* s is in out; else out is printed, to see what was written instead. */
static void has(const char *out, const char *s)
{
    if (!strstr(out, s))
        fail_msg("lacks %s in:\n%s", s, out);
}

static const char *summary_of(const struct evw *w, enum output_format format)
{
    const char *in = testkit_path("ticky.eventlog");
    testkit_save(w, in);
    return testkit_converted(in, "ticky.out", format, (struct convert_options){ 0 }, NULL);
}

#define ODD_NAME "Main.x|*y*\x1b[31m{v r9} (fun)"

/* Two samples of two counters, not defined yet (the runtime defines them at exit). */
static struct evw *ticky_samples(void)
{
    static const struct evw_payload empty;
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_event(w, EV_TICKY_COUNTER_BEGIN_SAMPLE, 10 * MS, &empty);
    ticky_sample(w, 10 * MS, 0x500, 3, 800, 0);
    ticky_sample(w, 10 * MS, 0x600, 1, 0, 48);
    evw_event(w, EV_TICKY_COUNTER_BEGIN_SAMPLE, 20 * MS, &empty);
    ticky_sample(w, 20 * MS, 0x500, 2, 400, 0);
    return w;
}

/* ticky_samples' counters defined at the end; 2000 bytes allocated in all. */
static struct evw *ticky_run(void)
{
    struct evw *w = ticky_samples();
    evw_heap_size(w, EV_HEAP_ALLOCATED, 30 * MS, 2000);
    ticky_def(w, 30 * MS, 0x500, 2, "iL", "Main.f{v r1} (fun)");
    ticky_def(w, 30 * MS, 0x600, 1, "i", ODD_NAME);
    evw_data_end(w);
    return w;
}

static void no_ticky_events_say_null(void **state)
{
    (void)state;
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_TYPE_DESCR, 10 * MS);
    evw_two_band_census(w, 100 * MS, "a", 10, "b", 20);
    evw_data_end(w);
    assert_non_null(strstr(summary_of(w, FORMAT_SUMMARY_JSON), "\n \"ticky\": null"));
    evw_free(w);
}

static void counters_exactly(void **state)
{
    (void)state;
    struct evw *w = ticky_run();
    const char *json = summary_of(w, FORMAT_SUMMARY_JSON);
    has(json, "\"ticky\": {\"samples\": 2, \"last_sample_s\": 0.020000, "
                                 "\"allocated_bytes\": 2000, \"covered\": 0.6, \"dropped_events\": 0, "
              "\"moving_at_last_sample\": 1");
    has(json, "{\"name\": \"Main.f{v r1} (fun)\", \"arity\": 2, "
                                 "\"kinds\": \"iL\", \"entries\": 5, \"allocs\": 1200, "
                                 "\"allocd\": 0, \"defined\": true, \"info\": \"0x510\", \"info_table\": null, "
                                 "\"alloc_share\": 0.6, \"samples\": 2, "
                                 "\"last_sample_s\": 0.020000}");
    has(json, "{\"name\": \"Main.x|*y*\\u001b[31m{v r9} (fun)\", "
                                 "\"arity\": 1, \"kinds\": \"i\", \"entries\": 1, "
                                 "\"allocs\": 0, \"allocd\": 48");
    const char *text = summary_of(w, FORMAT_SUMMARY_TEXT);
    has(text, "ticky      2 counters, 2 samples; they allocated 60.0% of "
                                 "the run's allocation");
    has(text, "           5          1200             0   60.0%      2 iL"
                                 "    Main.f{v r1} (fun)\n");
    assert_null(strchr(text, '\x1b'));               /* the escape does not act */
    has(text, "Main.x|*y*\\x1b[31m{v r9}");
    has(text, "  1 counter was at work at the last sample (0.02 s): what it did after it is "
              "in no event");
    const char *md = summary_of(w, FORMAT_SUMMARY_MARKDOWN);
    has(md, "#### Ticky counters");
    has(md, "| Main.f{v r1} (fun) | 2 | iL | 5 | 1200 | 0 | 60.0 % |");
    assert_null(strstr(md, "x|*y*"));                 /* no cell cut, no emphasis */
    assert_null(strchr(md, '\x1b'));
    evw_free(w);
}

static void a_killed_run_lists_undefined_counters(void **state)
{
    (void)state;
    /* cut before the definitions and the end marker: as a killed program leaves it */
    struct evw *k = ticky_samples();
    const char *json = summary_of(k, FORMAT_SUMMARY_JSON);
    has(json, "{\"name\": \"\", \"arity\": 0, \"kinds\": \"\", \"entries\": 5, "
              "\"allocs\": 1200, \"allocd\": 0, \"defined\": false");
    has(json, "\"entries\": 1, \"allocs\": 0, \"allocd\": 48, \"defined\": false");
    const char *text = summary_of(k, FORMAT_SUMMARY_TEXT);
    has(text, "ticky      2 counters, 2 samples (totals: their samples summed)\n");
    has(text, "(undefined counter 0x500)\n");
    has(text, "(undefined counter 0x600)\n");
    evw_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(totals_are_samples_summed),
        cmocka_unit_test(thousands_of_counters),
        cmocka_unit_test(series_merge_exactly),
        cmocka_unit_test(series_within_their_bound),
        cmocka_unit_test(no_ticky_events_say_null),
        cmocka_unit_test(counters_exactly),
        cmocka_unit_test(a_killed_run_lists_undefined_counters),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
