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

/* Every chart option, through the parser, into the field the chart reads. */
static void chart_options_reach_their_fields(void **state)
{
    (void)state;
    struct cli_options o;
    const char *a[] = { "ev2hp", "in", "-o", "a.svg", "--bands", "7", "--trace", "2.5",
                        "--sort", "stddev", "--reverse", "--include", "^Main\\.",
                        "--include", "CAF", "--exclude", "PINNED", "--from", "0.5",
                        "--to", "3.25", "--title", "my run", "--no-markers", "--totals",
                        "--width", "640", "--height", "480", "--y-max", "64M" };
    parse(&o, (int)(sizeof a / sizeof *a), a);
    assert_int_equal(o.action, CLI_CONVERT);
    const struct profile_options *pr = &o.chart.profile;
    assert_int_equal(pr->bands, 7);
    assert_true(pr->trace_percent == 2.5);
    assert_int_equal(pr->sort, PROFILE_SORT_STDDEV);
    assert_true(pr->reverse);
    assert_int_equal(pr->include_count, 2);
    assert_string_equal(pr->include[0], "^Main\\.");
    assert_string_equal(pr->include[1], "CAF");
    assert_int_equal(pr->exclude_count, 1);
    assert_string_equal(pr->exclude[0], "PINNED");
    assert_true(pr->has_from && pr->from_seconds == 0.5);
    assert_true(pr->has_to && pr->to_seconds == 3.25);
    assert_string_equal(o.chart.title, "my run");
    assert_true(o.chart.no_markers);
    assert_true(o.chart.totals);
    assert_int_equal(o.chart.width, 640);
    assert_int_equal(o.chart.height, 480);
    assert_true(o.chart.has_y_max);
    assert_true(o.chart.y_max == 64u << 20);

    /* Without them: the documented defaults. */
    const char *b[] = { "ev2hp", "in", "-o", "a.svg" };
    parse(&o, 4, b);
    assert_int_equal(o.chart.profile.bands, 15);
    assert_int_equal(o.chart.profile.sort, PROFILE_SORT_SIZE);
    assert_false(o.chart.profile.reverse || o.chart.profile.has_from || o.chart.profile.has_to);
    assert_false(o.chart.no_markers || o.chart.totals || o.chart.has_y_max);
    assert_null(o.chart.title);
    const char *c[] = { "ev2hp", "in", "--sort", "name", "--bands", "0" };
    parse(&o, 6, c);
    assert_int_equal(o.chart.profile.sort, PROFILE_SORT_NAME);
    assert_int_equal(o.chart.profile.bands, 0);
}

/* Each chart option refuses what it cannot mean, naming the option. */
static void chart_options_refuse_bad_values(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        { "--bands", "many", "--bands" },   { "--bands", "-1", "--bands" },
        { "--trace", "101", "--trace" },    { "--trace", "x", "--trace" },
        { "--sort", "colour", "--sort" },   { "--include", "(", "" },
        { "--exclude", "[a", "" },          { "--from", "soon", "--from" },
        { "--to", "-", "--to" },            { "--width", "10", "--width" },
        { "--height", "99999", "--height" }, { "--y-max", "0", "--y-max" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct cli_options o;
        const char *argv[] = { "ev2hp", "in", bad[i][0], bad[i][1] };
        parse(&o, 4, argv);
        assert_int_equal(o.action, CLI_USAGE_ERROR);
        assert_non_null(strstr(o.message, bad[i][2]));
    }
    struct cli_options o;
    const char *many[2 + 2 * 17];
    many[0] = "ev2hp";
    many[1] = "in";
    for (int i = 0; i < 17; i++) {
        many[2 + 2 * i] = "--include";
        many[3 + 2 * i] = "x";
    }
    parse(&o, 2 + 2 * 17, many);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_non_null(strstr(o.message, "--include"));
}

/* --summary=markdown, the gates and --junit reach their fields; --junit alone writes no
 * .hp to standard output. */
static void gates_and_junit(void **state)
{
    (void)state;
    struct cli_options o;
    const char *a[] = { "ev2hp", "--summary=markdown", "--max-increase", "12.5%",
                        "--max-growth", "512K/s", "--max-peak", "1G", "--junit", "g.xml",
                        "--compare", "base.hp", "in.eventlog" };
    parse(&o, (int)(sizeof a / sizeof *a), a);
    assert_int_equal(o.action, CLI_CONVERT);
    assert_true(o.gates.has_max_increase && o.gates.has_max_growth && o.gates.has_max_peak);
    assert_true(o.gates.max_increase == 12.5);
    assert_true(o.gates.max_growth == 512.0 * 1024);
    assert_int_equal(o.gates.max_peak, 1024ull * 1024 * 1024);
    assert_int_equal(o.output_count, 2);
    assert_int_equal(o.outputs[0].format, FORMAT_SUMMARY_MARKDOWN);
    assert_null(o.outputs[0].path);
    assert_int_equal(o.outputs[1].format, FORMAT_JUNIT);
    assert_string_equal(o.outputs[1].path, "g.xml");
    const char *b[] = { "ev2hp", "--junit", "g.xml", "in.eventlog" };
    parse(&o, 4, b);
    assert_int_equal(o.output_count, 1);
    assert_int_equal(o.outputs[0].format, FORMAT_JUNIT);
    const char *c[] = { "ev2hp", "--junit", "-", "--summary", "in.eventlog" };
    parse(&o, 5, c);
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    const char *bad[][3] = { { "ev2hp", "--max-increase", "-1" },
                             { "ev2hp", "--max-increase", "1e400" },
                             { "ev2hp", "--max-increase", "%" },
                             { "ev2hp", "--max-growth", "1M" },
                             { "ev2hp", "--max-growth", "M/s" },
                             { "ev2hp", "--summary=yaml", "x" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        parse(&o, 3, bad[i]);
        assert_int_equal(o.action, CLI_USAGE_ERROR);
    }
}

/* The locale the environment names, as setlocale would pick it. */
static void utf8_locale_from_the_environment(void **state)
{
    (void)state;
    assert_true(cli_utf8_locale(NULL, NULL, "C.UTF-8"));
    assert_true(cli_utf8_locale(NULL, NULL, "en_US.utf8"));
    assert_true(cli_utf8_locale("", "de_DE.UTF-8", "C"));
    assert_false(cli_utf8_locale("C", NULL, "C.UTF-8"));       /* LC_ALL wins */
    assert_false(cli_utf8_locale(NULL, "POSIX", "C.UTF-8"));   /* then LC_CTYPE */
    assert_false(cli_utf8_locale(NULL, NULL, NULL));
    assert_false(cli_utf8_locale(NULL, NULL, "en_US.ISO-8859-1"));
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
        cmocka_unit_test(chart_options_reach_their_fields),
        cmocka_unit_test(chart_options_refuse_bad_values),
        cmocka_unit_test(gates_and_junit),
        cmocka_unit_test(utf8_locale_from_the_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
