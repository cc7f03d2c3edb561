/* test_base.c: the shared helpers of base/: the growable array (grow.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/grow.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_to_at_least_need_and_keeps_contents),
        cmocka_unit_test(doubling_keeps_appends_linear),
        cmocka_unit_test(a_size_past_size_max_is_refused_and_leaves_the_array),
        cmocka_unit_test(doubling_near_the_limit_does_not_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
