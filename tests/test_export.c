/* test_export.c: the CSV and JSON exports on a built eventlog with awkward labels.
 *
 * Labels with commas, quotes, newlines, non-ASCII and bytes that are not UTF-8 must come
 * out as one field / one JSON string each; every census is one row / one record, and
 * bands keep one column each even when they first appear in a later census.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/breakdown.h"
#include "convert.h"
#include "evwriter.h"
#include "testkit.h"

static void convert_to(const char *input, const char *output, enum output_format format)
{
    struct convert_result res;
    assert_int_equal(testkit_convert(input, output, format, (struct convert_options){ 0 }, &res),
                     0);
    assert_int_equal(res.censuses, 2);
}

static void write_log(const char *path)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_TYPE_DESCR, 10000000);
    evw_two_band_census(w, 500000000, "Map, \"k\"\nv", 100, "Ĉaro", 7);
    evw_marker(w, 600000000, "phase \"two\"");
    evw_heap_size(w, 50, 600000001, 4194304);
    evw_two_band_census(w, 1000000000, "bad \xff byte", 3, "Ĉaro", 8);
    evw_data_end(w);
    testkit_save(w, path);
    evw_free(w);
}

/* The run of write_log converted to the file name in format: its text. */
static const char *exported(const char *name, enum output_format format)
{
    const char *in = testkit_path("in.eventlog"), *out = testkit_path(name);
    write_log(in);
    convert_to(in, out, format);
    return testkit_read(out);
}

static void csv_has_a_column_per_band_and_a_row_per_census(void **state)
{
    (void)state;
    assert_string_equal(exported("out.csv", FORMAT_CSV),
                        "time_s,\"Map, \"\"k\"\"\nv\",Ĉaro,bad \xff byte\r\n"
                        "0.500000,100,7,0\r\n"
                        "1.000000,0,8,3\r\n");
}

static void json_has_censuses_bands_markers_and_totals(void **state)
{
    (void)state;
    const char *text = exported("out.json", FORMAT_JSON);
    assert_non_null(strstr(text, "\"breakdown\": \"by type\""));
    assert_non_null(strstr(text, "{\"time_s\": 0.500000, \"entries\": [[0, 100], [1, 7]]}"));
    assert_non_null(strstr(text, "{\"time_s\": 1.000000, \"entries\": [[2, 3], [1, 8]]}"));
    /* a string band's .hp label is its label; no stack */
    assert_non_null(strstr(text, "{\"id\": 0, \"label\": \"Map, \\\"k\\\"\\u000av\", "
                                 "\"hp_label\": \"Map, \\\"k\\\"\\u000av\"}"));
    assert_non_null(strstr(text, "{\"id\": 1, \"label\": \"Ĉaro\", \"hp_label\": \"Ĉaro\"}"));
    assert_non_null(strstr(text, "{\"id\": 2, \"label\": \"bad \\ufffd byte\", "
                                 "\"hp_label\": \"bad \\ufffd byte\"}"));
    assert_non_null(strstr(text, "\"markers\": [\n  {\"time_s\": 0.600000, \"text\": "
                                 "\"phase \\\"two\\\"\"}]"));
    assert_non_null(strstr(text, "{\"kind\": \"heap_size\", \"time_s\": 0.600000, "
                                 "\"bytes\": 4194304}"));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_has_a_column_per_band_and_a_row_per_census),
        cmocka_unit_test(json_has_censuses_bands_markers_and_totals),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
