/* test_textout.c: text escaped for the formats that escape one ASCII byte at a time
 * (sink/textout.h's textout_escaped): Markdown (textout_markdown) and Prometheus label
 * values (serve/metrics.h's metrics_label_value), each as a table of byte strings and
 * what each becomes, and the walk itself with an escape of the test's own: which bytes
 * it is asked about, and U+FFFD for every byte that starts no UTF-8 character. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serve/metrics.h"
#include "sink/textout.h"

typedef void (*text_writer)(FILE *out, const char *s, size_t len);

/* What write makes of in[0..len) (len 0: strlen), malloc'd. */
static char *written(text_writer write, const char *in, size_t len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    write(f, in, len ? len : strlen(in));
    assert_int_equal(fclose(f), 0);
    return buf;
}

struct escape_case {
    const char *in;
    size_t len;               /* 0: strlen(in) */
    const char *out;
};

static void check_cases(text_writer write, const struct escape_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *got = written(write, cases[i].in, cases[i].len);
        if (strcmp(got, cases[i].out) != 0)
            fail_msg("case %zu: \"%s\" gave \"%s\", not \"%s\"", i, cases[i].in, got,
                     cases[i].out);
        free(got);
    }
}

static void test_markdown(void **state)
{
    (void)state;
    static const struct escape_case cases[] = {
        { "plain text 123", 0, "plain text 123" },
        { "<script>&\"x\"", 0, "&lt;script&gt;&amp;&quot;x&quot;" },
        { "a|b", 0, "a\\|b" },
        { "\\`*_[]|~!#@$:", 0, "\\\\\\`\\*\\_\\[\\]\\|\\~\\!\\#\\@\\$\\:" },
        { "line\nbreak\ttab\x7f" "end", 0, "line break tab end" },
        { "nul\0byte", 8, "nul byte" },
        { "caf\xc3\xa9 \xe2\x86\x92", 0, "caf\xc3\xa9 \xe2\x86\x92" },
        { "bad\xff" "byte", 0, "bad\xef\xbf\xbd" "byte" },
        { "cut\xe2\x86", 0, "cut\xef\xbf\xbd\xef\xbf\xbd" },
        { "(){}+-.", 0, "(){}+-." },
    };
    check_cases(textout_markdown, cases, sizeof cases / sizeof *cases);
}

static void test_prometheus_label_value(void **state)
{
    (void)state;
    static const struct escape_case cases[] = {
        { "Main.leak", 0, "Main.leak" },
        { "a\\b", 0, "a\\\\b" },
        { "say \"hi\"", 0, "say \\\"hi\\\"" },
        { "two\nlines", 0, "two\\nlines" },
        { "<tag>&|\t", 0, "<tag>&|\t" },
        { "\xc3\xa9t\xc3\xa9", 0, "\xc3\xa9t\xc3\xa9" },
        { "\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd" },   /* an overlong '/' */
        { "end\xf0\x9f", 0, "end\xef\xbf\xbd\xef\xbf\xbd" },
    };
    check_cases(metrics_label_value, cases, sizeof cases / sizeof *cases);
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

static void test_escaped_asks_about_ascii_only(void **state)
{
    (void)state;
    memset(asked, 0, sizeof asked);
    asked_count = 0;
    /* é (2 bytes), a stray continuation byte, then ASCII */
    char *got = written(write_recorded, "x\xc3\xa9\x80" "ax", 0);
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
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_prometheus_label_value),
        cmocka_unit_test(test_escaped_asks_about_ascii_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
