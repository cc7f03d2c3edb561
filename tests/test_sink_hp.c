/* test_sink_hp.c: the .hp writer's header, sample lines and numbering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sink/formats.h"
#include "model/bands.h"
#include "testkit.h"

static void writes_the_runtime_layout(void **state)
{
    (void)state;
    setenv("TZ", "UTC", 1);
    struct bands *b = bands_new();
    uint32_t thunk, stack, main_stack;
    int is_new;
    assert_int_equal(bands_string(b, "THUNK", 5, &thunk), TABLE_OK);
    const unsigned char ids[4] = { 0, 0, 0, 7 };
    assert_int_equal(bands_stack(b, ids, 4, &stack, &is_new), TABLE_OK);
    assert_int_equal(bands_name_stack(b, stack, "go/main", 7, 1), TABLE_OK);
    assert_int_equal(bands_stack(b, ids, 0, &main_stack, &is_new), TABLE_OK);
    assert_int_equal(bands_name_stack(b, main_stack, "MAIN", 4, 0), TABLE_OK);

    struct run_info info = { 0 };
    info.program = "prog 10 +RTS -hc \"x\"";
    info.has_start_time = true;
    info.start_time = 1795317913;   /* Sun Nov 22 03:25:13 2026 UTC */
    info.end_time_ns = 3500000000u;

    struct testkit_memout m;
    FILE *out = testkit_memout_open(&m);
    struct sink_context ctx = { .info = &info, .bands = b, .input_name = "in.eventlog" };
    struct sink *s = sink_new(FORMAT_HP, out, &ctx, &(struct sink_settings){ 0 });
    assert_non_null(s);
    struct census_entry e[] = { { thunk, 48 }, { stack, 1234567890123ull }, { main_stack, 16 } };
    struct census_frame f = { 1500000499u, 0, 3, e };
    assert_int_equal(s->ops->frame(s, &f), 0);
    struct census_frame g = { 2000000500u, 0, 0, NULL };
    assert_int_equal(s->ops->frame(s, &g), 0);
    assert_int_equal(s->ops->finish(s), 0);
    s->ops->destroy(s);
    char *text = testkit_memout_text(&m);
    assert_string_equal(text,
                        "JOB \"prog 10 +RTS -hc \"\"x\"\"\"\n"
                        "DATE \"Sun Nov 22 03:25 2026\"\n"
                        "SAMPLE_UNIT \"seconds\"\n"
                        "VALUE_UNIT \"bytes\"\n"
                        "BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n"
                        "BEGIN_SAMPLE 1.500000\n"
                        "THUNK\t48\n(1)go/main\t1234567890123\nMAIN\t16\n"
                        "END_SAMPLE 1.500000\n"
                        "BEGIN_SAMPLE 2.000001\nEND_SAMPLE 2.000001\n"
                        "BEGIN_SAMPLE 3.500000\nEND_SAMPLE 3.500000\n");
    free(text);
    bands_free(b);
}

static void an_empty_run_still_has_a_header(void **state)
{
    (void)state;
    struct bands *b = bands_new();
    struct run_info info = { 0 };
    struct testkit_memout m;
    FILE *out = testkit_memout_open(&m);
    struct sink_context ctx = { .info = &info, .bands = b, .input_name = "in" };
    struct sink *s = sink_new(FORMAT_HP, out, &ctx, &(struct sink_settings){ 0 });
    assert_int_equal(s->ops->finish(s), 0);
    s->ops->destroy(s);
    char *text = testkit_memout_text(&m);
    assert_string_equal(text, "JOB \"\"\nDATE \"\"\nSAMPLE_UNIT \"seconds\"\n"
                              "VALUE_UNIT \"bytes\"\n"
                              "BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n"
                              "BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n");
    free(text);
    bands_free(b);
}

static void formats_by_name_and_extension(void **state)
{
    (void)state;
    assert_int_equal(format_from_name("hp"), FORMAT_HP);
    assert_int_equal(format_from_name("bmp"), FORMAT_NONE);
    assert_int_equal(format_from_path("out/x.hp"), FORMAT_HP);
    assert_int_equal(format_from_path("x.hp/file"), FORMAT_NONE);
    assert_int_equal(format_from_path("noext"), FORMAT_NONE);
    /* pprof: by its name, and by .pprof or .pb (x.pb.gz, as pprof's own files are named) */
    assert_int_equal(format_from_name("pprof"), FORMAT_PPROF);
    assert_int_equal(format_from_name("pb"), FORMAT_NONE);
    assert_int_equal(format_from_path("x.pb.gz"), FORMAT_PPROF);
    assert_int_equal(format_from_path("x.PPROF"), FORMAT_PPROF);
    assert_int_equal(format_from_path("x.pb"), FORMAT_PPROF);
    assert_true(format_uses_time_profile(FORMAT_PPROF));
    assert_false(format_is_chart(FORMAT_PPROF));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_the_runtime_layout),
        cmocka_unit_test(an_empty_run_still_has_a_header),
        cmocka_unit_test(formats_by_name_and_extension),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
