/* test_ccslabel.c: stack names exactly as the runtime's fprint_ccs() writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "census/ccslabel.h"

#define NAME(l, m) { l, sizeof(l) - 1, m, sizeof(m) - 1 }

static const char *format(unsigned max, const struct ccs_name *names, unsigned depth)
{
    static char out[CCS_LENGTH_MAX + 1];
    size_t len = ccs_label_format(out, max, names, depth);
    assert_int_equal(len, strlen(out));
    return out;
}

static void empty_stack_is_main(void **state)
{
    (void)state;
    assert_string_equal(format(25, NULL, 0), "MAIN");
}

static void innermost_first_joined_by_slash(void **state)
{
    (void)state;
    struct ccs_name s[] = { NAME("insert", "Data.Map"), NAME("go", "Main"), NAME("main", "Main") };
    assert_string_equal(format(25, s, 3), "insert/go/main");
}

static void caf_prints_with_its_module(void **state)
{
    (void)state;
    struct ccs_name s[] = { NAME("CAF", "GHC.IO.Encoding") };
    assert_string_equal(format(25, s, 1), "GHC.IO.Encoding.CAF");
}

/* From leak-hc.hp: "(303)buildMap.\/buildMap/m..." with the default -L25. */
static void long_names_are_cut_to_l_minus_four_and_dots(void **state)
{
    (void)state;
    struct ccs_name s[] = { NAME("buildMap.\\", "Leak"), NAME("buildMap", "Leak"),
                            NAME("main", "Leak"), NAME("main", "Leak") };
    assert_string_equal(format(25, s, 4), "buildMap.\\/buildMap/m...");
    assert_int_equal(strlen(format(25, s, 4)), 24);
}

static void exactly_l_characters_stay_whole(void **state)
{
    (void)state;
    struct ccs_name s[] = { NAME("abcdefghij", "M") };
    assert_string_equal(format(10, s, 1), "abcdefghij");
    struct ccs_name t[] = { NAME("abcdefghijk", "M") };
    assert_string_equal(format(10, t, 1), "abcdef...");
}

/* A separator that lands on the limit makes the name too long, as in the runtime. */
static void a_slash_crossing_the_limit_cuts(void **state)
{
    (void)state;
    struct ccs_name s[] = { NAME("abcdefghij", "M"), NAME("k", "M") };
    assert_string_equal(format(10, s, 2), "abcdef...");
    struct ccs_name t[] = { NAME("abcdefgh", "M"), NAME("k", "M") };
    assert_string_equal(format(10, t, 2), "abcdefgh/k");
}

static void tiny_limits_are_raised_to_four(void **state)
{
    (void)state;
    struct ccs_name s[] = { NAME("abcdef", "M") };
    assert_string_equal(format(1, s, 1), "...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_stack_is_main),
        cmocka_unit_test(innermost_first_joined_by_slash),
        cmocka_unit_test(caf_prints_with_its_module),
        cmocka_unit_test(long_names_are_cut_to_l_minus_four_and_dots),
        cmocka_unit_test(exactly_l_characters_stay_whole),
        cmocka_unit_test(a_slash_crossing_the_limit_cuts),
        cmocka_unit_test(tiny_limits_are_raised_to_four),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
