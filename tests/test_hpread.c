/* test_hpread.c: the .hp reader: the grammar (quoted strings with "" escapes, samples,
 * MARK), errors that name the line, truncation, and round trips eventlog -> .hp -> .hp
 * (byte for byte) and .hp -> SVG. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "charttest.h"
#include "read/hpread.h"
#include "read/source.h"

struct collected {
    size_t frames, entries, markers;
    uint64_t times[16];
    uint64_t bytes_sum;
    uint64_t marker_ns;
};

static int on_frame(void *ctx, const struct census_frame *f)
{
    struct collected *c = ctx;
    if (c->frames < 16)
        c->times[c->frames] = f->time_ns;
    c->frames++;
    c->entries += f->count;
    for (size_t i = 0; i < f->count; i++)
        c->bytes_sum += f->entries[i].bytes;
    return 0;
}

static int on_marker(void *ctx, uint64_t t, const char *text, size_t len)
{
    struct collected *c = ctx;
    c->markers++;
    c->marker_ns = t;
    return 0;
}

static enum hp_status read_text(const char *text, size_t slice, struct collected *c,
                                struct ev_error *err, struct hp_reader **keep)
{
    static struct source_memory mem;
    mem = (struct source_memory){ (const unsigned char *)text, strlen(text), 0, slice };
    struct census_events ev = { on_frame, on_marker, NULL, c, NULL, NULL };
    memset(c, 0, sizeof *c);
    struct hp_reader *r = hp_reader_new((struct ev_source){ source_memory_read, &mem, NULL }, &ev);
    assert_non_null(r);
    enum hp_status st = hp_reader_run(r, err);
    if (keep)
        *keep = r;
    else
        hp_reader_free(r);
    return st;
}

static const char good[] =
    "JOB \"prog \"\"quoted\"\" arg\"\n"
    "DATE \"Sun Nov 22 03:30 2026\"\n"
    "SAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.000000\n"
    "END_SAMPLE 0.000000\n"
    "BEGIN_SAMPLE 0.023724\n"
    "(151)PINNED\t36816\n"
    "a label with spaces\t16\n"
    "END_SAMPLE 0.023724\n"
    "MARK 0.03\n"
    "BEGIN_SAMPLE 0.05\r\n"
    "(151)PINNED\t100\r\n"
    "END_SAMPLE 0.05\r\n"
    "BEGIN_SAMPLE 1.500000\n"
    "END_SAMPLE 1.500000\n";

static void grammar(void **state)
{
    for (size_t slice = 0; slice < 8; slice += 7) {   /* whole, then 7 bytes at a time */
        struct collected c;
        struct ev_error err;
        struct hp_reader *r;
        assert_int_equal(read_text(good, slice, &c, &err, &r), HP_OK);
        const struct run_info *info = hp_reader_run_info(r);
        assert_string_equal(info->program, "prog \"quoted\" arg");
        assert_true(info->has_start_time);
        /* the runtime's empty samples: the first dropped, the last the end of the run */
        assert_int_equal(c.frames, 2);
        assert_int_equal(c.times[0], 23724000);
        assert_int_equal(c.times[1], 50000000);
        assert_int_equal(info->end_time_ns, 1500000000);
        assert_int_equal(c.entries, 3);
        assert_int_equal(c.bytes_sum, 36816 + 16 + 100);
        assert_int_equal(c.markers, 1);
        assert_int_equal(c.marker_ns, 30000000);
        assert_int_equal(bands_count(hp_reader_bands(r)), 2);
        size_t len;
        const char *label = bands_label(hp_reader_bands(r), 1, &len);
        assert_int_equal(len, strlen("a label with spaces"));
        assert_memory_equal(label, "a label with spaces", len);
        hp_reader_free(r);
    }
}

static void error_lines(void **state)
{
    static const struct {
        const char *text;
        const char *what;
    } cases[] = {
        { "JOB \"x\"\nBEGIN_SAMPLE 0.1\nnobytes\nEND_SAMPLE 0.1\n", "line 3: expected a label" },
        { "JOB \"x\"\nDATE \"unterminated\nBEGIN_SAMPLE 0\n", "line 2: expected a quoted" },
        { "JOB \"x\"\nBEGIN_SAMPLE soon\n", "line 2: expected a time" },
        { "JOB \"x\"\nSAMPLE_UNIT \"s\"\nEND_SAMPLE 1\n", "line 3: END_SAMPLE without" },
        { "JOB \"x\"\n\nwhat is this\n", "line 3: expected a header line" },
        { "JOB \"x\"\nBEGIN_SAMPLE 1\nlabel\t12x\n", "line 3: expected a label" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct collected c;
        struct ev_error err;
        assert_int_equal(read_text(cases[i].text, 0, &c, &err, NULL), HP_BAD);
        if (!strstr(err.what, cases[i].what))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.what, cases[i].what);
    }
}

static void truncated(void **state)
{
    struct collected c;
    struct ev_error err;
    const char *text = "JOB \"x\"\nBEGIN_SAMPLE 0.1\na\t1\nEND_SAMPLE 0.1\nBEGIN_SAMPLE 0.2\na\t2\nb\t3";
    assert_int_equal(read_text(text, 0, &c, &err, NULL), HP_TRUNCATED);
    assert_int_equal(c.frames, 1);
    assert_non_null(strstr(err.what, "line 7"));
    assert_non_null(strstr(err.what, "kept 1 census"));
}

static const char *example(char *buf, size_t size)
{
    const char *srcdir = getenv("SRCDIR");
    snprintf(buf, size, "%s/share/examples/leak-hc.eventlog", srcdir ? srcdir : ".");
    return buf;
}

/* eventlog -> .hp -> .hp: the second .hp is the first, byte for byte. */
static void round_trip(void **state)
{
    char ev[512], hp1[256], hp2[256], svg[256];
    setenv("TZ", "UTC", 1);
    example(ev, sizeof ev);
    assert_int_equal(convert_to(ev, temp_path(hp1, sizeof hp1, "rt1.hp"), FORMAT_HP, NULL), 0);
    assert_int_equal(convert_to(hp1, temp_path(hp2, sizeof hp2, "rt2.hp"), FORMAT_HP, NULL), 0);
    size_t n1, n2;
    char *a = testkit_slurp(hp1, &n1), *b = testkit_slurp(hp2, &n2);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(n1 > 1000);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
    /* and the .hp draws */
    assert_int_equal(convert_to(hp1, temp_path(svg, sizeof svg, "rt.svg"), FORMAT_SVG, NULL), 0);
    xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlFreeDoc(doc);
}

static void kind_by_content(void **state)
{
    assert_true(hp_looks_like((const unsigned char *)"JOB ", 4));
    assert_false(hp_looks_like((const unsigned char *)"hdrb", 4));
    assert_false(hp_looks_like((const unsigned char *)"", 0));
    assert_false(hp_looks_like((const unsigned char *)"\x00\x01", 2));
    assert_false(hp_looks_like((const unsigned char *)"ZR\x9fk", 4));   /* noise */
    assert_true(hp_looks_like((const unsigned char *)"BEGI", 4));
    /* a .hp with an unusual name is still read as .hp; its errors name the line */
    char bad[256], out[256];
    const char *text = "JOB \"x\"\nBEGIN_SAMPLE 0\nEND_SAMPLE zero\n";
    testkit_write(temp_path(bad, sizeof bad, "weird.eventlog"), text, strlen(text));
    struct convert_result res;
    assert_int_equal(testkit_convert(bad, temp_path(out, sizeof out, "weird.hp"), FORMAT_HP,
                                     (struct convert_options){ 0 }, &res),
                     EXIT_BAD_INPUT);
    assert_non_null(strstr(res.error.what, "line 3:"));
    assert_int_equal(access(out, F_OK), -1);   /* no half output */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grammar),
        cmocka_unit_test(error_lines),
        cmocka_unit_test(truncated),
        cmocka_unit_test(round_trip),
        cmocka_unit_test(kind_by_content),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
