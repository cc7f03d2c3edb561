/* test_trend.c: model/trend and read/summaryread: a summary read back into a trend
 * (--trend), a table of summaries, each row a file's text and what the read gives: the
 * status, the message and its offset, the run's figures.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/trend.h"
#include "read/summaryread.h"
#include "testkit.h"

struct row {
    const char *name;
    const char *text;
    enum summary_read_status status;
    const char *what;             /* the message begins so (NULL: no check) */
    int64_t offset;               /* -1: none */
    uint64_t peak;
    double growth;
    size_t gates, failed;
    const char *sha, *run_name;
};

static const struct row rows[] = {
    { "whole", "{\"commit\": {\"sha\": \"0123456789abcdef\", \"time\": null, \"subject\": \"s\"},"
      " \"peak\": {\"bytes\": 300, \"time_s\": 1.5}, \"growth_bytes_per_s\": 2.5,"
      " \"bands\": [{\"label\": \"(1)a\", \"peak\": 200, \"growth_bytes_per_s\": 1}],"
      " \"gates\": [{\"gate\": \"max-peak\", \"verdict\": \"failed\"},"
      " {\"gate\": \"max-growth\", \"verdict\": \"passed\"}]}",
      SUMMARY_READ_OK, NULL, -1, 300, 2.5, 2, 1, "0123456789abcdef", "0123456" },
    { "older: growth of the bands", "{\"peak\": {\"bytes\": 10}, \"bands\": [{\"label\": \"a\","
      " \"peak\": 4, \"growth_bytes_per_s\": 1.25}, {\"label\": \"b\", \"peak\": 6,"
      " \"growth_bytes_per_s\": -0.25}]}",
      SUMMARY_READ_OK, NULL, -1, 10, 1.0, 0, 0, NULL, "older: growth of the bands" },
    { "no census", "{\"peak\": null, \"bands\": []}", SUMMARY_READ_SKIPPED,
      "skipped: the run had no heap census", -1, 0, 0, 0, 0, NULL, NULL },
    /* jansson's offset: where it stopped, past the token it could not take */
    { "not JSON", "peak", SUMMARY_READ_FAILED, "not JSON (line 1, column 4): '[' or '{' expected near 'peak'",
      4, 0, 0, 0, 0, NULL, NULL },
    { "cut short", "{\"peak\": {\"bytes\": 1", SUMMARY_READ_FAILED,
      "not JSON (line 1, column 20): '}' expected near end of file", 20, 0, 0, 0, 0, NULL,
      NULL },
    { "a duplicate key", "{\"peak\": null, \"peak\": null}", SUMMARY_READ_FAILED,
      "not JSON", -1, 0, 0, 0, 0, NULL, NULL },
    { "an array", "[]", SUMMARY_READ_FAILED,
      "not a summary of ev2hp --summary=json: an array, not an object", -1, 0, 0, 0, 0, NULL,
      NULL },
    { "no bands", "{\"peak\": {\"bytes\": 1}}", SUMMARY_READ_FAILED,
      "not a summary of ev2hp --summary=json: \"bands\" is missing, not an array", -1, 0, 0, 0,
      0, NULL, NULL },
    { "a peak of text", "{\"peak\": {\"bytes\": \"1\"}, \"bands\": []}", SUMMARY_READ_FAILED,
      "not a summary of ev2hp --summary=json: peak's \"bytes\" is of another kind, not an "
      "integer", -1, 0, 0, 0, 0, NULL, NULL },
    { "a band without a peak", "{\"peak\": {\"bytes\": 1}, \"bands\": [{\"label\": \"a\"}]}",
      SUMMARY_READ_FAILED, "not a summary of ev2hp --summary=json: band 1 has no", -1, 0, 0,
      0, 0, NULL, NULL },
    { "a commit without a sha", "{\"commit\": {\"time\": null}, \"peak\": null}",
      SUMMARY_READ_FAILED, "not a summary of ev2hp --summary=json: \"commit\" is not", -1, 0,
      0, 0, 0, NULL, NULL },
};

static void reads_a_row(void **state)
{
    const struct row *r = *state;
    const char *path = testkit_path(r->name);
    testkit_write(path, r->text, strlen(r->text));
    struct trend *t = trend_new();
    assert_non_null(t);
    struct ev_error err = { 0 };
    enum summary_read_status st = summary_read(t, path, &err);
    assert_int_equal(st, r->status);
    if (r->what)
        assert_memory_equal(err.what, r->what, strlen(r->what));
    if (r->offset >= 0) {
        assert_true(err.has_offset);
        assert_int_equal(err.offset, r->offset);
    }
    assert_int_equal(t->count, st == SUMMARY_READ_OK);
    if (st == SUMMARY_READ_OK) {
        const struct trend_run *run = &t->runs[0];
        assert_int_equal(run->peak, r->peak);
        assert_true(fabs(run->growth - r->growth) < 1e-9);
        assert_int_equal(run->gates, r->gates);
        assert_int_equal(run->gates_failed, r->failed);
        if (r->sha)
            assert_string_equal(run->sha, r->sha);
        else
            assert_null(run->sha);
        assert_string_equal(run->name, r->run_name);
    }
    trend_free(t);
}

/* A band is one across runs by its label without "(n)"; one label twice in a run keeps
 * the larger peak; the bands drawn are the largest in any run, ties by label. */
static void bands_across_runs(void **state)
{
    (void)state;
    struct trend *t = trend_new();
    struct trend_run *a = trend_add_run(t, "dir/a.json");
    assert_string_equal(a->name, "a");
    assert_int_equal(trend_run_add_band(t, a, "(3)x", 4, 10), 0);
    assert_int_equal(trend_run_add_band(t, a, "(4)x", 4, 30), 0);
    assert_int_equal(trend_run_add_band(t, a, "(12)y", 5, 20), 0);
    assert_int_equal(trend_run_add_band(t, a, "(z)", 3, 25), 0);   /* not a number: kept */
    struct trend_run *b = trend_add_run(t, "b");
    assert_int_equal(trend_run_add_band(t, b, "(1)y", 4, 40), 0);
    assert_int_equal(trend_run_add_band(t, b, "w", 1, 25), 0);
    assert_int_equal(trend_band_count(t), 4);
    uint32_t top[4];
    assert_int_equal(trend_top_bands(t, 4, top), 4);
    const char *want[] = { "y", "x", "(z)", "w" };   /* 40, 30, 25 and 25 by label */
    for (int i = 0; i < 4; i++) {
        size_t len;
        const char *label = trend_band_label(t, top[i], &len);
        assert_int_equal(len, strlen(want[i]));
        assert_memory_equal(label, want[i], len);
    }
    assert_int_equal(trend_run_band_peak(&t->runs[0], top[1]), 30);
    assert_int_equal(trend_run_band_peak(&t->runs[1], top[1]), 0);   /* absent: none */
    assert_int_equal(trend_top_bands(t, 2, top), 2);
    trend_free(t);
}

int main(void)
{
    struct CMUnitTest tests[sizeof rows / sizeof *rows + 1];
    size_t n = 0;
    for (; n < sizeof rows / sizeof *rows; n++)
        tests[n] = (struct CMUnitTest){ rows[n].name, reads_a_row, NULL, NULL,
                                        (void *)&rows[n] };
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(bands_across_runs);
    return _cmocka_run_group_tests("trend", tests, n, testkit_setup_dir, testkit_teardown_dir);
}
