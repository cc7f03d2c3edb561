/* test_export.c: the CSV and JSON exports on a built eventlog with awkward labels, and
 * labels escaped for the text formats.
 *
 * Labels with commas, quotes, newlines, non-ASCII and bytes that are not UTF-8 must come
 * out as one field / one JSON string each; every census is one row / one record, and
 * bands keep one column each even when they first appear in a later census. The same
 * labels in Markdown and in Prometheus label values (textout_escaped's formats) come out
 * as text of that format that says the label and nothing more.
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
#include "serve/metrics.h"
#include "sink/textout.h"
#include "testkit.h"

static void write_log(const char *path)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_TYPE_DESCR, 10000000);
    evw_two_band_census(w, 500000000, "Map, \"k\"\nv", 100, "Ĉaro", 7);
    evw_marker(w, 600000000, "phase \"two\"");
    evw_heap_size(w, 50, 600000001, 4194304);
    evw_two_band_census(w, 1000000000, "bad \xff byte", 3, "Ĉaro", 8);
    testkit_finish(w, path);
}

/* The run of write_log converted to the file name in format: its text. */
static const char *exported(const char *name, enum output_format format)
{
    const char *in = testkit_path("in.eventlog");
    write_log(in);
    struct convert_result res;
    const char *text = testkit_converted(in, name, format, (struct convert_options){ 0 }, &res);
    assert_int_equal(res.censuses, 2);
    return text;
}

static void csv_has_a_column_per_band_and_a_row_per_census(void **state)
{
    (void)state;
    assert_string_equal(exported("out.csv", FORMAT_CSV),
                        "time_s,\"Map, \"\"k\"\"\nv\",Ĉaro,bad \xef\xbf\xbd byte\r\n"
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

/* ---- text escaped one ASCII byte at a time (textout_escaped) ---- */

typedef void (*text_writer)(FILE *out, const char *s, size_t len);

/* What write makes of in[0..len), malloc'd. */
static char *written(text_writer write, const char *in, size_t len)
{
    struct testkit_memout m;
    write(testkit_memout_open(&m), in, len);
    return testkit_memout_text(&m);
}

/* Markdown (textout_markdown) and Prometheus label values (metrics_label_value): each
 * byte string and what it becomes. */
static void labels_are_escaped_for_markdown_and_prometheus(void **state)
{
    (void)state;
    static const struct {
        text_writer write;
        const char *in;
        size_t len;               /* 0: strlen(in) */
        const char *out;
    } cases[] = {
        { textout_markdown, "plain text 123", 0, "plain text 123" },
        { textout_markdown, "<script>&\"x\"", 0, "&lt;script&gt;&amp;&quot;x&quot;" },
        { textout_markdown, "a|b", 0, "a\\|b" },
        { textout_markdown, "\\`*_[]|~!#@$:", 0,
          "\\\\\\`\\*\\_\\[\\]\\|\\~\\!\\#\xe2\x81\xa0\\@\\$\\:" },
        /* nothing GitHub's autolink extension links: a WORD JOINER before '@', www.'s dot */
        { textout_markdown, "x@example.org", 0, "x\xe2\x81\xa0\\@example.org" },
        { textout_markdown, "see www.example.org/a WWW.x.org awww.b", 0,
          "see www\\.example.org/a WWW\\.x.org awww\\.b" },
        { textout_markdown, "line\nbreak\ttab\x7f" "end", 0, "line break tab end" },
        { textout_markdown, "nul\0byte", 8, "nul byte" },
        { textout_markdown, "caf\xc3\xa9 \xe2\x86\x92", 0, "caf\xc3\xa9 \xe2\x86\x92" },
        { textout_markdown, "bad\xff" "byte", 0, "bad\xef\xbf\xbd" "byte" },
        { textout_markdown, "cut\xe2\x86", 0, "cut\xef\xbf\xbd\xef\xbf\xbd" },
        { textout_markdown, "(){}+-.", 0, "(){}+-." },
        { metrics_label_value, "Main.leak", 0, "Main.leak" },
        { metrics_label_value, "a\\b", 0, "a\\\\b" },
        { metrics_label_value, "say \"hi\"", 0, "say \\\"hi\\\"" },
        { metrics_label_value, "two\nlines", 0, "two\\nlines" },
        { metrics_label_value, "<tag>&|\t", 0, "<tag>&|\t" },
        { metrics_label_value, "\xc3\xa9t\xc3\xa9", 0, "\xc3\xa9t\xc3\xa9" },
        { metrics_label_value, "\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd" },   /* an overlong '/' */
        { metrics_label_value, "end\xf0\x9f", 0, "end\xef\xbf\xbd\xef\xbf\xbd" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = written(cases[i].write, cases[i].in,
                            cases[i].len ? cases[i].len : strlen(cases[i].in));
        if (strcmp(got, cases[i].out) != 0)
            fail_msg("case %zu: \"%s\" gave \"%s\", not \"%s\"", i, cases[i].in, got,
                     cases[i].out);
        free(got);
    }
}

/* An escape that records every byte it is asked about, and replaces 'x'. */
static char asked[64];
static size_t asked_count;

static const char *record_escape(unsigned char c)
{
    if (asked_count < sizeof asked - 1)
        asked[asked_count++] = (char)c;
    return c == 'x' ? "[x]" : NULL;
}

static void write_recorded(FILE *out, const char *s, size_t len)
{
    textout_escaped(out, s, len, record_escape);
}

/* The walk itself: only ASCII bytes are offered to the escape; U+FFFD for a byte that
 * starts no character. */
static void escapes_are_asked_about_ascii_bytes_only(void **state)
{
    (void)state;
    memset(asked, 0, sizeof asked);
    asked_count = 0;
    /* x, e-acute (2 bytes), a stray continuation byte, then ASCII */
    const char *in = "x\xc3\xa9\x80" "ax";
    char *got = written(write_recorded, in, strlen(in));
    assert_string_equal(got, "[x]\xc3\xa9\xef\xbf\xbd" "a[x]");
    free(got);
    assert_string_equal(asked, "xax");

    asked_count = 0;
    got = written(write_recorded, "", 0);
    assert_string_equal(got, "");
    free(got);
    assert_int_equal(asked_count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_has_a_column_per_band_and_a_row_per_census),
        cmocka_unit_test(json_has_censuses_bands_markers_and_totals),
        cmocka_unit_test(labels_are_escaped_for_markdown_and_prometheus),
        cmocka_unit_test(escapes_are_asked_about_ascii_bytes_only),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
