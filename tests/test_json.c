/* test_json.c: the JSON writer (base/json.h): escaping (a table of byte strings and what
 * each becomes, plain and script-safe), numbers (integers in full, doubles that read back
 * exactly in as few digits as possible, whatever the locale), commas, nesting and line
 * breaks, and the sticky error state: every misuse and a failing stream. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>

#include "base/json.h"
#include "testlocale.h"
#include "testkit.h"

/* A writer onto memory, and what it wrote. */
struct capture {
    struct testkit_memout out;
    struct json_writer *w;
};

static void capture_open(struct capture *c, unsigned flags)
{
    c->w = json_writer_new(testkit_memout_open(&c->out), flags);
    assert_non_null(c->w);
}

/* Closes the stream and returns the text (valid until capture_free). */
static const char *capture_text(struct capture *c)
{
    json_writer_free(c->w);
    c->w = NULL;
    return testkit_memout_text(&c->out);
}

static void capture_free(struct capture *c)
{
    free(c->out.text);
}

/* The writer finished without error, having written exactly want; c freed. */
static void assert_wrote(struct capture *c, const char *want)
{
    assert_int_equal(json_writer_finish(c->w), 0);
    assert_string_equal(capture_text(c), want);
    capture_free(c);
}

/* ---- escaping ---- */

static const struct escape_case {
    const char *in;
    size_t len;               /* 0: strlen(in) */
    unsigned flags;
    const char *out;
} escapes[] = {
    { "", 0, 0, "\"\"" },
    { "plain text", 0, 0, "\"plain text\"" },
    { "say \"hi\"", 0, 0, "\"say \\\"hi\\\"\"" },
    { "back\\slash", 0, 0, "\"back\\\\slash\"" },
    { "a\nb\tc\rd", 0, 0, "\"a\\u000ab\\u0009c\\u000dd\"" },
    { "\x01\x1f\x7f", 0, 0, "\"\\u0001\\u001f\\u007f\"" },
    { "nul\0byte", 8, 0, "\"nul\\u0000byte\"" },
    { "slash / stays", 0, 0, "\"slash / stays\"" },
    /* valid UTF-8 passes through: 2, 3 and 4 bytes */
    { "\xc4\x88" "aro \xe2\x82\xac \xf0\x9f\x98\x80", 0, 0,
      "\"\xc4\x88" "aro \xe2\x82\xac \xf0\x9f\x98\x80\"" },
    /* each byte that starts no character is U+FFFD; the rest is kept */
    { "bad \xff byte", 0, 0, "\"bad \\ufffd byte\"" },
    { "\xc0\xaf", 0, 0, "\"\\ufffd\\ufffd\"" },                  /* overlong '/' */
    { "\xed\xa0\x80", 0, 0, "\"\\ufffd\\ufffd\\ufffd\"" },       /* a surrogate */
    { "cut \xe2\x82", 0, 0, "\"cut \\ufffd\\ufffd\"" },          /* cut short */
    { "\xf4\x90\x80\x80", 0, 0, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* past U+10FFFF */
    /* markup stays in plain JSON, and is escaped when script-safe */
    { "</script><!--&", 0, 0, "\"</script><!--&\"" },
    { "</script><!--&", 0, JSON_SCRIPT_SAFE,
      "\"\\u003c/script\\u003e\\u003c!--\\u0026\"" },
    /* the line and paragraph separators, which JavaScript strings could not hold */
    { "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", 0, 0, "\"a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\"" },
    { "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", 0, JSON_SCRIPT_SAFE, "\"a\\u2028b\\u2029c\"" },
    { "\xe2\x80\xaa", 0, JSON_SCRIPT_SAFE, "\"\xe2\x80\xaa\"" },  /* U+202A: a neighbour */
    { "\"<\xff\n", 0, JSON_SCRIPT_SAFE, "\"\\\"\\u003c\\ufffd\\u000a\"" },
};

static void strings_are_escaped_as_the_table_says(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
        const struct escape_case *e = &escapes[i];
        struct capture c;
        capture_open(&c, e->flags);
        json_string(c.w, e->in, e->len ? e->len : strlen(e->in));
        assert_int_equal(json_writer_finish(c.w), 0);
        const char *got = capture_text(&c);
        if (strcmp(got, e->out) != 0)
            fail_msg("case %zu: got %s, want %s", i, got, e->out);
        capture_free(&c);
    }
}

static void keys_are_escaped_and_a_null_cstring_is_null(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, 0);
    json_object_begin(c.w);
    json_key(c.w, "a\"<b");
    json_cstring(c.w, NULL);
    json_key(c.w, "c");
    json_cstring(c.w, "d");
    json_object_end(c.w);
    assert_wrote(&c, "{\"a\\\"<b\":null,\"c\":\"d\"}");
}

/* ---- numbers ---- */

static const char *one_value(struct capture *c, void (*write)(struct json_writer *, void *),
                             void *arg)
{
    capture_open(c, 0);
    write(c->w, arg);
    assert_int_equal(json_writer_finish(c->w), 0);
    return capture_text(c);
}

static void write_double(struct json_writer *w, void *arg)
{
    json_double(w, *(double *)arg);
}

/* The text json_double gives x. */
static char *double_text(double x)
{
    struct capture c;
    char *text = strdup(one_value(&c, write_double, &x));
    capture_free(&c);
    return text;
}

static void integers_are_written_in_full(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, 0);
    json_array_begin(c.w);
    json_uint(c.w, 0);
    json_uint(c.w, UINT64_MAX);
    json_int(c.w, INT64_MIN);
    json_int(c.w, INT64_MAX);
    json_int(c.w, -1);
    json_int(c.w, 0);
    json_array_end(c.w);
    assert_wrote(&c, "[0,18446744073709551615,-9223372036854775808,"
                     "9223372036854775807,-1,0]");
}

static void decimals_are_exact(void **state)
{
    (void)state;
    static const struct {
        uint64_t units;
        unsigned decimals;
        const char *out;
    } cases[] = {
        { 12000345, 6, "12.000345" }, { 5, 6, "0.000005" },  { 0, 6, "0.000000" },
        { 0, 0, "0" },                { 7, 0, "7" },         { 1000000, 6, "1.000000" },
        { UINT64_MAX, 19, "1.8446744073709551615" },
        { UINT64_MAX, 0, "18446744073709551615" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct capture c;
        capture_open(&c, 0);
        json_decimal(c.w, cases[i].units, cases[i].decimals);
        assert_wrote(&c, cases[i].out);
    }
}

static void doubles_take_the_fewest_digits_that_read_back(void **state)
{
    (void)state;
    static const struct {
        double x;
        const char *out;
    } cases[] = {
        { 0.1, "0.1" },                               /* 15 digits suffice */
        { 1.0 / 3, "0.3333333333333333" },            /* 16 */
        { 0.1 + 0.2, "0.30000000000000004" },         /* 17 */
        { 1e300, "1e+300" },
        { -2.5, "-2.5" },
        { 0.0, "0" },
        { 123456789012345680.0, "1.2345678901234568e+17" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = double_text(cases[i].x);
        assert_string_equal(text, cases[i].out);
        free(text);
    }
    /* many doubles of every magnitude: each reads back exactly, in the fewest of 15, 16
     * or 17 significant digits that do */
    uint64_t bits = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 20000; i++) {
        bits ^= bits << 13, bits ^= bits >> 7, bits ^= bits << 17;
        double x;
        memcpy(&x, &bits, sizeof x);
        if (x != x || x - x != 0)
            continue;   /* NaN and infinities: below */
        char *text = double_text(x);
        assert_true(strtod(text, NULL) == x);
        char want[40];
        for (int p = 15; p <= 17; p++) {
            snprintf(want, sizeof want, "%.*g", p, x);
            if (strtod(want, NULL) == x)
                break;
        }
        assert_string_equal(text, want);
        free(text);
    }
}

static void a_double_that_is_not_finite_is_null(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, 0);
    json_array_begin(c.w);
    json_double(c.w, NAN);
    json_double(c.w, INFINITY);
    json_double_fixed(c.w, -INFINITY, 2);
    json_double_digits(c.w, NAN, 10);
    json_array_end(c.w);
    assert_wrote(&c, "[null,null,null,null]");
}

static void rounded_doubles_and_literals(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, 0);
    json_array_begin(c.w);
    json_double_fixed(c.w, 2.0 / 3, 3);
    json_double_fixed(c.w, 12.0, 1);
    json_double_fixed(c.w, 1.5, 0);
    json_double_digits(c.w, 2.0 / 3, 10);
    json_double_digits(c.w, 0.001, 6);
    json_double_digits(c.w, 1234567.0, 3);
    json_bool(c.w, true);
    json_bool(c.w, false);
    json_null(c.w);
    json_array_end(c.w);
    assert_int_equal(json_writer_finish(c.w), 0);
    assert_string_equal(capture_text(&c),
                        "[0.667,12.0,2,0.6666666667,0.001,1.23e+06,true,false,null]");
    capture_free(&c);
}

static void numbers_ignore_the_locale(void **state)
{
    (void)state;
    assert_int_equal(set_comma_locale(), 0);
    struct capture c;
    capture_open(&c, 0);
    json_array_begin(c.w);
    json_double(c.w, 1.5);
    json_double(c.w, 1.0 / 3);   /* read back in the C locale too: still shortest */
    json_double_fixed(c.w, 1.5, 2);
    json_double_digits(c.w, 1.5, 3);
    json_array_end(c.w);
    assert_wrote(&c, "[1.5,0.3333333333333333,1.50,1.5]");
    setlocale(LC_NUMERIC, "C");
}

/* ---- commas, nesting, layout ---- */

static void write_document(struct json_writer *w)
{
    json_object_begin(w);
    json_key(w, "a");
    json_uint(w, 1);
    json_newline(w);
    json_key(w, "list");
    json_array_begin(w);
    json_newline(w);
    json_object_begin(w);
    json_key(w, "x");
    json_array_begin(w);
    json_array_end(w);
    json_key(w, "y");
    json_object_begin(w);
    json_object_end(w);
    json_object_end(w);
    json_newline(w);
    json_string(w, "s", 1);
    json_newline(w);   /* nothing follows: no line break */
    json_array_end(w);
    json_key(w, "z");
    json_bool(w, false);
    json_object_end(w);
}

static void commas_nesting_and_line_breaks(void **state)
{
    (void)state;
    static const struct {
        unsigned flags;
        const char *out;
    } layouts[] = {
        { 0, "{\"a\":1,\n\"list\":[\n{\"x\":[],\"y\":{}},\n\"s\"],\"z\":false}" },
        { JSON_PRETTY,
          "{\"a\": 1,\n \"list\": [\n  {\"x\": [], \"y\": {}},\n  \"s\"], \"z\": false}" },
    };
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        struct capture c;
        capture_open(&c, layouts[i].flags);
        write_document(c.w);
        assert_int_equal(json_writer_status(c.w), JSON_OK);
        assert_wrote(&c, layouts[i].out);
    }
}

/* json_member_*: a key and its value in one call, exactly as json_key and the value's
 * own function write them; and a member outside an object is misuse like a key. */
static void members_are_a_key_and_its_value(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, JSON_PRETTY);
    json_object_begin(c.w);
    json_member_uint(c.w, "u", UINT64_MAX);
    json_member_int(c.w, "i", -5);
    json_member_string(c.w, "s", "a\"b\0c", 5);
    json_member_cstring(c.w, "c", "<x>");
    json_member_cstring(c.w, "none", NULL);
    json_member_double_fixed(c.w, "d", 2.0 / 3.0, 3);
    json_member_bool(c.w, "b", true);
    json_object_end(c.w);
    assert_int_equal(json_writer_finish(c.w), 0);
    assert_string_equal(capture_text(&c),
                        "{\"u\": 18446744073709551615, \"i\": -5, \"s\": \"a\\\"b\\u0000c\", "
                        "\"c\": \"<x>\", \"none\": null, \"d\": 0.667, \"b\": true}");
    capture_free(&c);

    capture_open(&c, 0);
    json_array_begin(c.w);
    json_member_uint(c.w, "k", 1);
    assert_int_equal(json_writer_status(c.w), JSON_MISUSE);
    assert_string_equal(capture_text(&c), "[");
    capture_free(&c);
}

static void nesting_goes_to_the_depth_limit(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, 0);
    for (int i = 0; i < JSON_DEPTH_MAX; i++)
        json_array_begin(c.w);
    assert_int_equal(json_writer_status(c.w), JSON_OK);
    for (int i = 0; i < JSON_DEPTH_MAX; i++)
        json_array_end(c.w);
    assert_int_equal(json_writer_finish(c.w), 0);
    const char *text = capture_text(&c);
    assert_int_equal(strlen(text), 2 * JSON_DEPTH_MAX);
    assert_int_equal(strspn(text, "["), JSON_DEPTH_MAX);
    capture_free(&c);
}

/* ---- errors ---- */

enum op { END_OF_OPS, OBJ, END_OBJ, ARR, END_ARR, KEY, NUM, NEWLINE, DEEP, BAD_FIXED,
          BAD_DIGITS, BAD_DECIMAL };

static void run_op(struct json_writer *w, enum op op)
{
    switch (op) {
    case END_OF_OPS: break;
    case OBJ: json_object_begin(w); break;
    case END_OBJ: json_object_end(w); break;
    case ARR: json_array_begin(w); break;
    case END_ARR: json_array_end(w); break;
    case KEY: json_key(w, "k"); break;
    case NUM: json_uint(w, 7); break;
    case NEWLINE: json_newline(w); break;
    case DEEP:
        for (int i = 0; i < JSON_DEPTH_MAX + 1; i++)
            json_array_begin(w);
        break;
    case BAD_FIXED: json_double_fixed(w, 1, 18); break;
    case BAD_DIGITS: json_double_digits(w, 1, 0); break;
    case BAD_DECIMAL: json_decimal(w, 1, 20); break;
    }
}

static void each_misuse_stops_the_writer(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        enum op ops[6];
        const char *written;     /* what came out before the misuse, and nothing after */
    } cases[] = {
        { "a key outside an object", { ARR, KEY }, "[" },
        { "a key at the top", { KEY }, "" },
        { "a value without its key", { OBJ, NUM }, "{" },
        { "two keys in a row", { OBJ, KEY, KEY }, "{\"k\":" },
        { "an object closed with its key's value missing", { OBJ, KEY, END_OBJ }, "{\"k\":" },
        { "an array closed as an object", { ARR, END_OBJ }, "[" },
        { "an object closed as an array", { OBJ, END_ARR }, "{" },
        { "an end with nothing open", { END_ARR }, "" },
        { "a second top-level value", { NUM, NUM }, "7" },
        { "a line break at the top", { NEWLINE }, "" },
        { "a line break between a key and its value", { OBJ, KEY, NEWLINE }, "{\"k\":" },
        { "nesting past the limit", { DEEP }, NULL },
        { "too many decimals", { BAD_FIXED }, "" },
        { "no significant digit", { BAD_DIGITS }, "" },
        { "a decimal past 19 places", { BAD_DECIMAL }, "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct capture c;
        capture_open(&c, 0);
        for (size_t k = 0; cases[i].ops[k] != END_OF_OPS; k++)
            run_op(c.w, cases[i].ops[k]);
        if (json_writer_status(c.w) != JSON_MISUSE)
            fail_msg("%s: not reported", cases[i].what);
        /* sticky: nothing more is written, and finish fails with EINVAL */
        json_array_begin(c.w);
        json_uint(c.w, 1);
        json_array_end(c.w);
        assert_int_equal(json_writer_status(c.w), JSON_MISUSE);
        errno = 0;
        assert_int_equal(json_writer_check(c.w), -1);
        assert_int_equal(errno, EINVAL);
        errno = 0;
        assert_int_equal(json_writer_finish(c.w), -1);
        assert_int_equal(errno, EINVAL);
        const char *text = capture_text(&c);
        if (cases[i].written)
            assert_string_equal(text, cases[i].written);
        else
            assert_int_equal(strlen(text), JSON_DEPTH_MAX);   /* the brackets that fit */
        capture_free(&c);
    }
}

static void an_unfinished_value_or_unknown_flag_is_not_finished(void **state)
{
    (void)state;
    struct capture c;
    capture_open(&c, 0);
    assert_int_equal(json_writer_finish(c.w), -1);   /* nothing written */
    json_object_begin(c.w);
    assert_int_equal(json_writer_check(c.w), 0);     /* nothing failed so far */
    errno = 0;
    assert_int_equal(json_writer_finish(c.w), -1);   /* still open */
    assert_int_equal(errno, EINVAL);
    assert_int_equal(json_writer_status(c.w), JSON_OK);
    json_object_end(c.w);
    assert_int_equal(json_writer_finish(c.w), 0);
    capture_text(&c);
    capture_free(&c);

    capture_open(&c, 4);
    assert_int_equal(json_writer_status(c.w), JSON_MISUSE);
    json_null(c.w);
    assert_string_equal(capture_text(&c), "");
    capture_free(&c);
}

static void a_failed_write_is_reported_with_its_errno(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    setvbuf(full, NULL, _IONBF, 0);   /* each write reaches the device and fails */
    struct json_writer *w = json_writer_new(full, 0);
    assert_non_null(w);
    json_array_begin(w);
    assert_int_equal(json_writer_status(w), JSON_WRITE_FAILED);
    json_uint(w, 1);
    json_array_end(w);
    assert_int_equal(json_writer_status(w), JSON_WRITE_FAILED);
    errno = 0;
    assert_int_equal(json_writer_check(w), -1);
    assert_int_equal(errno, ENOSPC);
    errno = 0;
    assert_int_equal(json_writer_finish(w), -1);
    assert_int_equal(errno, ENOSPC);
    json_writer_free(w);
    fclose(full);
}

static ssize_t failing_write(void *cookie, const char *buf, size_t size)
{
    (void)cookie, (void)buf, (void)size;
    errno = EIO;
    return -1;
}

static void a_stream_error_seen_only_at_finish_fails_it(void **state)
{
    (void)state;
    /* buffered: the writer's calls succeed into the buffer; a flush between two calls
     * (by the caller, or a full buffer) is where the stream fails */
    FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = failing_write });
    assert_non_null(f);
    struct json_writer *w = json_writer_new(f, 0);
    json_null(w);
    assert_int_equal(json_writer_status(w), JSON_OK);
    assert_int_equal(fflush(f), EOF);
    errno = 0;
    assert_int_equal(json_writer_finish(w), -1);
    assert_int_equal(errno, EIO);
    assert_int_equal(json_writer_status(w), JSON_WRITE_FAILED);
    json_writer_free(w);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_are_escaped_as_the_table_says),
        cmocka_unit_test(keys_are_escaped_and_a_null_cstring_is_null),
        cmocka_unit_test(integers_are_written_in_full),
        cmocka_unit_test(decimals_are_exact),
        cmocka_unit_test(doubles_take_the_fewest_digits_that_read_back),
        cmocka_unit_test(a_double_that_is_not_finite_is_null),
        cmocka_unit_test(rounded_doubles_and_literals),
        cmocka_unit_test(numbers_ignore_the_locale),
        cmocka_unit_test(commas_nesting_and_line_breaks),
        cmocka_unit_test(members_are_a_key_and_its_value),
        cmocka_unit_test(nesting_goes_to_the_depth_limit),
        cmocka_unit_test(each_misuse_stops_the_writer),
        cmocka_unit_test(an_unfinished_value_or_unknown_flag_is_not_finished),
        cmocka_unit_test(a_failed_write_is_reported_with_its_errno),
        cmocka_unit_test(a_stream_error_seen_only_at_finish_fails_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
