/* test_cli.c: the command-line contract of ev2hp(1), parsed without running. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

static void parse(struct cli_options *o, int argc, const char **argv)
{
    cli_parse(argc, (char **)argv, o);
}

static void defaults_read_stdin_and_write_hp_to_stdout(void **state)
{
    (void)state;
    struct cli_options o;
    const char *argv[] = { "ev2hp" };
    parse(&o, 1, argv);
    assert_int_equal(o.action, CLI_CONVERT);
    assert_null(o.input);
    assert_int_equal(o.output_count, 1);
    assert_null(o.outputs[0].path);
    assert_int_equal(o.outputs[0].format, FORMAT_HP);
}

static void outputs_repeat_and_formats_follow_extensions(void **state)
{
    (void)state;
    struct cli_options o;
    const char *argv[] = { "ev2hp", "-o", "a.hp", "x.eventlog", "--output", "b.hp", "-L", "40",
                           "-q", "--strict" };
    parse(&o, 10, argv);
    assert_int_equal(o.action, CLI_CONVERT);
    assert_string_equal(o.input, "x.eventlog");
    assert_int_equal(o.output_count, 2);
    assert_string_equal(o.outputs[1].path, "b.hp");
    assert_int_equal(o.ccs_length, 40);
    assert_true(o.quiet);
    assert_true(o.strict);
}

static void format_forced_or_refused(void **state)
{
    (void)state;
    struct cli_options o;
    const char *a[] = { "ev2hp", "-f", "hp", "-o", "profile.txt", "in" };
    parse(&o, 6, a);
    assert_int_equal(o.action, CLI_CONVERT);
    assert_int_equal(o.outputs[0].format, FORMAT_HP);
    const char *b[] = { "ev2hp", "-o", "profile.txt", "in" };
    parse(&o, 4, b);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_non_null(strstr(o.message, "profile.txt"));
    const char *d[] = { "ev2hp", "-o", "/dev/stdout", "-o", "dir.d/fifo", "in" };
    parse(&o, 6, d);
    assert_int_equal(o.action, CLI_CONVERT);   /* no extension: the default, .hp */
    assert_int_equal(o.outputs[0].format, FORMAT_HP);
    assert_int_equal(o.outputs[1].format, FORMAT_HP);
    const char *c[] = { "ev2hp", "-f", "gif" };
    parse(&o, 3, c);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
}

static void usage_errors(void **state)
{
    (void)state;
    struct cli_options o;
    const char *a[] = { "ev2hp", "--no-such" };
    parse(&o, 2, a);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    const char *b[] = { "ev2hp", "-L", "3" };
    parse(&o, 3, b);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    const char *c[] = { "ev2hp", "-L", "x" };
    parse(&o, 3, c);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    const char *d[] = { "ev2hp", "a", "b" };
    parse(&o, 3, d);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    const char *e[] = { "ev2hp", "-o" };
    parse(&o, 2, e);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_non_null(strstr(o.message, "needs an argument"));
    const char *f[] = { "ev2hp", "--dump", "-o", "-" };
    parse(&o, 4, f);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
}

static void dump_alone_writes_no_hp(void **state)
{
    (void)state;
    struct cli_options o;
    const char *a[] = { "ev2hp", "--dump", "in" };
    parse(&o, 3, a);
    assert_int_equal(o.action, CLI_CONVERT);
    assert_true(o.dump);
    assert_int_equal(o.output_count, 0);
}

static void help_and_version(void **state)
{
    (void)state;
    struct cli_options o;
    const char *a[] = { "ev2hp", "--help" };
    parse(&o, 2, a);
    assert_int_equal(o.action, CLI_HELP);
    const char *b[] = { "ev2hp", "-V" };
    parse(&o, 2, b);
    assert_int_equal(o.action, CLI_VERSION);
    assert_non_null(strstr(cli_usage, "--dump"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_read_stdin_and_write_hp_to_stdout),
        cmocka_unit_test(outputs_repeat_and_formats_follow_extensions),
        cmocka_unit_test(format_forced_or_refused),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(dump_alone_writes_no_hp),
        cmocka_unit_test(help_and_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
