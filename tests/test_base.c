/* test_base.c: the shared helpers of base/: the growable array (grow.h), the intern
 * table's exact copy (intern.h), number formatting (format.h), the latter under a locale
 * whose decimal point is a comma, and text made fit for XML (utf8.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/error.h"
#include "base/format.h"
#include "base/grow.h"
#include "base/intern.h"
#include "base/textcopy.h"
#include "base/utf8.h"
#include "testlocale.h"
#include "testkit.h"

static void grows_to_at_least_need_and_keeps_contents(void **state)
{
    (void)state;
    int *a = NULL;
    size_t cap = 0;
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(GROW_ARRAY(a, &cap, (size_t)i + 1), 0);
        assert_true(cap >= (size_t)i + 1);
        a[i] = i;
    }
    for (int i = 0; i < 1000; i++)
        assert_int_equal(a[i], i);
    size_t before = cap;
    assert_int_equal(GROW_ARRAY(a, &cap, 10), 0);   /* room already: nothing changes */
    assert_int_equal(cap, before);
    free(a);
}

/* A record per band: grown by an eighth past what is needed, zeroed, and still few
 * reallocations for a million appends (linear copying). */
static void tight_growth_leaves_an_eighth_and_zeroes(void **state)
{
    (void)state;
    uint64_t *a = NULL;
    size_t cap = 0, changes = 0, last = 0;
    for (size_t i = 1; i <= 1000000; i++) {
        assert_int_equal(GROW_ARRAY_TIGHT(a, &cap, i), 0);
        assert_true(cap >= i && (cap <= i + i / 8 || cap == 8));
        if (cap != last) {
            for (size_t k = last; k < cap; k++)
                assert_int_equal(a[k], 0);
            changes++;
        }
        a[i - 1] = i;
        last = cap;
    }
    assert_true(changes <= 120);   /* 1.125^120 > 10^6 */
    for (size_t i = 0; i < 1000000; i++)
        assert_int_equal(a[i], i + 1);
    free(a);
}

/* The copy has every key at its number, finds them, and grows on its own. */
static void an_intern_copy_keeps_every_key_and_grows_apart(void **state)
{
    (void)state;
    struct intern *t = intern_new(100000, 1 << 20);
    assert_non_null(t);
    char key[16];
    uint32_t id;
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        assert_int_equal(intern_get(t, key, (size_t)n, &id, NULL), TABLE_OK);
        assert_int_equal(id, (uint32_t)i);
    }
    struct intern *c = intern_copy(t);
    assert_non_null(c);
    assert_int_equal(intern_count(c), 3000);
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        size_t len;
        const char *k = intern_key(c, (uint32_t)i, &len);
        assert_int_equal(len, (size_t)n);
        assert_memory_equal(k, key, len);
        assert_int_equal(intern_find(c, key, (size_t)n, &id), 0);
        assert_int_equal(id, (uint32_t)i);
    }
    bool added;
    assert_int_equal(intern_get(c, "new", 3, &id, &added), TABLE_OK);
    assert_true(added);
    assert_int_equal(id, 3000);
    assert_int_equal(intern_find(t, "new", 3, &id), -1);   /* the original is untouched */
    intern_free(t);
    assert_int_equal(intern_find(c, "k2999", 5, &id), 0);   /* nothing of it borrowed */
    intern_free(c);
}

static void doubling_keeps_appends_linear(void **state)
{
    (void)state;
    char *a = NULL;
    size_t cap = 0, changes = 0, last = 0;
    for (size_t i = 1; i <= 1 << 20; i++) {
        assert_int_equal(GROW_ARRAY(a, &cap, i), 0);
        if (cap != last)
            changes++;
        last = cap;
    }
    assert_true(changes <= 20);   /* 8, 16, ..., 2^20: at most one per doubling */
    free(a);
}

static void a_size_past_size_max_is_refused_and_leaves_the_array(void **state)
{
    (void)state;
    uint64_t *a = NULL;
    size_t cap = 0;
    assert_int_equal(GROW_ARRAY(a, &cap, 4), 0);
    uint64_t *kept = a;
    a[3] = 42;
    /* need * 8 wraps around: without the check this would allocate a few bytes */
    assert_int_equal(GROW_ARRAY(a, &cap, SIZE_MAX / 8 + 2), -1);
    assert_ptr_equal(a, kept);
    assert_int_equal(a[3], 42);
    assert_true(cap >= 4 && cap < 16);
    assert_int_equal(GROW_ARRAY(a, &cap, SIZE_MAX), -1);
    free(a);
}

/* A copy sized exactly, apart from the original; an empty one is still an allocation (NULL
 * means failure alone); a size that would wrap is refused, not allocated short. */
static void an_array_copy_is_exact_and_refuses_a_wrapping_size(void **state)
{
    (void)state;
    const uint64_t from[3] = { 7, 8, 9 };
    uint64_t *c = copy_array(from, 3, sizeof *from);
    assert_non_null(c);
    assert_ptr_not_equal(c, from);
    assert_memory_equal(c, from, sizeof from);
    free(c);
    void *empty = copy_array(NULL, 0, sizeof *from);
    assert_non_null(empty);
    free(empty);
    assert_null(copy_array(from, SIZE_MAX / 8 + 2, sizeof *from));
    assert_null(copy_array(from, (size_t)PTRDIFF_MAX / 8 + 1, sizeof *from));
}

static void doubling_near_the_limit_does_not_wrap(void **state)
{
    (void)state;
    /* a capacity past half the limit cannot double; a need past the largest object C
     * allows (PTRDIFF_MAX bytes) is refused before realloc is asked */
    struct big { char b[1 << 12]; } *a = NULL;
    size_t cap = PTRDIFF_MAX / sizeof *a / 2 + 1;  /* pretend: never dereferenced */
    assert_int_equal(GROW_ARRAY(a, &cap, PTRDIFF_MAX / sizeof *a + 1), -1);
    assert_null(a);
    assert_int_equal(cap, PTRDIFF_MAX / sizeof *a / 2 + 1);
    char *c = NULL;
    size_t ccap = 0;
    assert_int_equal(GROW_ARRAY(c, &ccap, (size_t)PTRDIFF_MAX + 1), -1);
    assert_int_equal(ccap, 0);
}

static void bytes_take_binary_units_and_three_digits(void **state)
{
    (void)state;
    char s[32];
    format_bytes(96, s, sizeof s);
    assert_string_equal(s, "96 B");
    format_bytes(1536, s, sizeof s);
    assert_string_equal(s, "1.50 KiB");
    format_bytes(412.4 * 1048576, s, sizeof s);
    assert_string_equal(s, "412 MiB");
    format_bytes(12.34 * 1073741824.0, s, sizeof s);
    assert_string_equal(s, "12.3 GiB");
    format_bytes(3.0 * 1099511627776.0 * 1024, s, sizeof s);
    assert_string_equal(s, "3072 TiB");   /* no unit past TiB */
    assert_string_equal(format_unit_name(2), "MiB");
}

static void tenths_drop_a_zero_decimal(void **state)
{
    (void)state;
    char s[FORMAT_TENTHS_MAX];
    assert_int_equal(format_tenths(12.04, s), 2);
    assert_string_equal(s, "12");
    format_tenths(-3.45, s);
    assert_string_equal(s, "-3.5");
    format_tenths(0.96, s);
    assert_string_equal(s, "1");
    format_tenths(-0.04, s);
    assert_string_equal(s, "0");
}

/* Under LC_NUMERIC=de_DE printf writes "1,50": the module must not. */
static void numbers_keep_the_point_under_a_comma_locale(void **state)
{
    (void)state;
    assert_int_equal(set_comma_locale(), 0);
    char s[64], plain[64];
    snprintf(plain, sizeof plain, "%.2f", 1.5);
    assert_string_equal(plain, "1,50");   /* the locale is in force ... */
    format_snprintf(s, sizeof s, "%.2f %g %.1e", 1.5, 0.25, 12345.0);
    assert_string_equal(s, "1.50 0.25 1.2e+04");   /* ... and the module ignores it */
    format_bytes(1536, s, sizeof s);
    assert_string_equal(s, "1.50 KiB");
    format_seconds(1250000000, 2, s, sizeof s);
    assert_string_equal(s, "1.25");
    struct ev_error err;
    ev_error_set(&err, "at %.2f s", 2.5);   /* messages too */
    assert_string_equal(err.what, "at 2.50 s");
    struct testkit_memout m;
    format_fprintf(testkit_memout_open(&m), "%.3f", 0.125);
    char *buf = testkit_memout_text(&m);
    assert_string_equal(buf, "0.125");
    free(buf);
    /* the caller's locale is back after each call */
    snprintf(plain, sizeof plain, "%.1f", 0.5);
    assert_string_equal(plain, "0,5");
    reset_locale();
}

/* What XML 1.0 cannot carry is marked with U+FFFD, one per byte or character, and what it
 * can carries through: text, tab, newline, carriage return, any valid character. */
/* text_copy keeps every byte of the slice, a NUL inside too (strndup would stop there and
 * leave the caller's length longer than the copy), and ends it with a NUL. */
static void text_copy_keeps_every_byte(void **state)
{
    (void)state;
    char *c = text_copy("a\0bcdef", 4);
    assert_non_null(c);
    assert_memory_equal(c, "a\0bc", 4);
    assert_int_equal(c[4], '\0');
    free(c);
    c = text_copy("", 0);
    assert_non_null(c);
    assert_string_equal(c, "");
    free(c);
    assert_null(text_copy("x", SIZE_MAX));   /* len + 1 would wrap */
}

static void xml_text_marks_what_xml_cannot_carry(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        { "plain <a> & \"b\"", "plain <a> & \"b\"" },   /* markup is the writer's job */
        { "tab\tnl\ncr\r", "tab\tnl\ncr\r" },
        { "bell\a esc\x1b", "bell\xef\xbf\xbd esc\xef\xbf\xbd" },
        { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x91",
          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x91" },
        { "cut \xc3", "cut \xef\xbf\xbd" },                     /* a character cut short */
        { "\xff\xfe", "\xef\xbf\xbd\xef\xbf\xbd" },              /* no character at all */
        { "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },   /* a surrogate */
        { "nc \xef\xbf\xbe \xef\xbf\xbf", "nc \xef\xbf\xbd \xef\xbf\xbd" },
        { "del \x7f \xef\xbf\xbd", "del \x7f \xef\xbf\xbd" },   /* allowed in XML 1.0 */
        { "", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[64];
        assert_true(strlen(cases[i].in) * 3 + 1 <= sizeof out);
        size_t n = utf8_xml_text(cases[i].in, out);
        assert_string_equal(out, cases[i].out);
        assert_int_equal(n, strlen(cases[i].out));
    }
}

/* A text snprintf cut ends where a character ends: the cut "é" (2 bytes), "€" (3) and
 * "😀" (4) go whole; a character the cut leaves whole stays, and an uncut text is left. */
static void a_printed_text_cut_ends_where_a_character_ends(void **state)
{
    (void)state;
    static const struct { const char *text; size_t size; const char *want; } cases[] = {
        { "ab\xc3\xa9", 4, "ab" },                 /* é cut after its lead byte */
        { "ab\xc3\xa9", 5, "ab\xc3\xa9" },         /* not cut */
        { "ab\xc3\xa9z", 5, "ab\xc3\xa9" },        /* cut after a whole é */
        { "a\xe2\x82\xac", 4, "a" },               /* € cut after two of its three bytes */
        { "a\xf0\x9f\x98\x80", 5, "a" },           /* 😀 cut after three of four */
        { "a\xf0\x9f\x98\x80", 3, "a" },           /* ... and after one */
        { "abcdef", 4, "abc" },                     /* ASCII: cut where snprintf cut */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[16];
        utf8_end_printed(out, cases[i].size, snprintf(out, cases[i].size, "%s", cases[i].text));
        assert_string_equal(out, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_to_at_least_need_and_keeps_contents),
        cmocka_unit_test(doubling_keeps_appends_linear),
        cmocka_unit_test(tight_growth_leaves_an_eighth_and_zeroes),
        cmocka_unit_test(an_intern_copy_keeps_every_key_and_grows_apart),
        cmocka_unit_test(a_size_past_size_max_is_refused_and_leaves_the_array),
        cmocka_unit_test(doubling_near_the_limit_does_not_wrap),
        cmocka_unit_test(an_array_copy_is_exact_and_refuses_a_wrapping_size),
        cmocka_unit_test(bytes_take_binary_units_and_three_digits),
        cmocka_unit_test(tenths_drop_a_zero_decimal),
        cmocka_unit_test(numbers_keep_the_point_under_a_comma_locale),
        cmocka_unit_test(text_copy_keeps_every_byte),
        cmocka_unit_test(xml_text_marks_what_xml_cannot_carry),
        cmocka_unit_test(a_printed_text_cut_ends_where_a_character_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
