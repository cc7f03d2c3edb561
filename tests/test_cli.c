/* test_cli.c: the command-line contract of ev2hp(1), parsed without running. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

/* Parses argv (NULL-terminated) into o. */
static void parse(struct cli_options *o, const char *const *argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    cli_parse(argc, (char **)argv, o);
}

static void defaults_read_stdin_and_write_hp_to_stdout(void **state)
{
    (void)state;
    struct cli_options o;
    parse(&o, (const char *[]){ "ev2hp", NULL });
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
    parse(&o, (const char *[]){ "ev2hp", "-o", "a.hp", "x.eventlog", "--output", "b.hp", "-L",
                                "40", "-q", "--strict", NULL });
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
    parse(&o, (const char *[]){ "ev2hp", "-f", "hp", "-o", "profile.txt", "in", NULL });
    assert_int_equal(o.action, CLI_CONVERT);
    assert_int_equal(o.outputs[0].format, FORMAT_HP);
    parse(&o, (const char *[]){ "ev2hp", "-o", "profile.txt", "in", NULL });
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_non_null(strstr(o.message, "profile.txt"));
    parse(&o,
          (const char *[]){ "ev2hp", "-o", "/dev/stdout", "-o", "dir.d/fifo", "in", NULL });
    assert_int_equal(o.action, CLI_CONVERT);   /* no extension: the default, .hp */
    assert_int_equal(o.outputs[0].format, FORMAT_HP);
    assert_int_equal(o.outputs[1].format, FORMAT_HP);
    parse(&o, (const char *[]){ "ev2hp", "-f", "gif", NULL });
    assert_int_equal(o.action, CLI_USAGE_ERROR);
}

static void usage_errors(void **state)
{
    (void)state;
    const char *const *bad[] = {
        (const char *[]){ "ev2hp", "--no-such", NULL },
        (const char *[]){ "ev2hp", "-L", "3", NULL },
        (const char *[]){ "ev2hp", "-L", "x", NULL },
        (const char *[]){ "ev2hp", "a", "b", NULL },
        (const char *[]){ "ev2hp", "--dump", "-o", "-", NULL },
    };
    struct cli_options o;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        parse(&o, bad[i]);
        assert_int_equal(o.action, CLI_USAGE_ERROR);
    }
    parse(&o, (const char *[]){ "ev2hp", "-o", NULL });
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    assert_non_null(strstr(o.message, "needs an argument"));
}

static void dump_alone_writes_no_hp(void **state)
{
    (void)state;
    struct cli_options o;
    parse(&o, (const char *[]){ "ev2hp", "--dump", "in", NULL });
    assert_int_equal(o.action, CLI_CONVERT);
    assert_true(o.dump);
    assert_int_equal(o.output_count, 0);
}

static void help_and_version(void **state)
{
    (void)state;
    struct cli_options o;
    parse(&o, (const char *[]){ "ev2hp", "--help", NULL });
    assert_int_equal(o.action, CLI_HELP);
    parse(&o, (const char *[]){ "ev2hp", "-V", NULL });
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
                        "--width", "640", "--height", "480", "--y-max", "64M", NULL };
    parse(&o, a);
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
    parse(&o, (const char *[]){ "ev2hp", "in", "-o", "a.svg", NULL });
    assert_int_equal(o.chart.profile.bands, 15);
    assert_int_equal(o.chart.profile.sort, PROFILE_SORT_SIZE);
    assert_false(o.chart.profile.reverse || o.chart.profile.has_from || o.chart.profile.has_to);
    assert_false(o.chart.no_markers || o.chart.totals || o.chart.has_y_max);
    assert_null(o.chart.title);
    parse(&o, (const char *[]){ "ev2hp", "in", "--sort", "name", "--bands", "0", NULL });
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
        parse(&o, (const char *[]){ "ev2hp", "in", bad[i][0], bad[i][1], NULL });
        assert_int_equal(o.action, CLI_USAGE_ERROR);
        assert_non_null(strstr(o.message, bad[i][2]));
    }
    struct cli_options o;
    const char *many[2 + 2 * 17 + 1] = { 0 };
    many[0] = "ev2hp";
    many[1] = "in";
    for (int i = 0; i < 17; i++) {
        many[2 + 2 * i] = "--include";
        many[3 + 2 * i] = "x";
    }
    parse(&o, many);
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
                        "--compare", "base.hp", "in.eventlog", NULL };
    parse(&o, a);
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
    parse(&o, (const char *[]){ "ev2hp", "--junit", "g.xml", "in.eventlog", NULL });
    assert_int_equal(o.output_count, 1);
    assert_int_equal(o.outputs[0].format, FORMAT_JUNIT);
    parse(&o,
          (const char *[]){ "ev2hp", "--junit", "-", "--summary", "in.eventlog", NULL });
    assert_int_equal(o.action, CLI_USAGE_ERROR);
    const char *bad[][4] = {   /* each ends with NULL */ { "ev2hp", "--max-increase", "-1" },
                             { "ev2hp", "--max-increase", "1e400" },
                             { "ev2hp", "--max-increase", "%" },
                             { "ev2hp", "--max-growth", "1M" },
                             { "ev2hp", "--max-growth", "M/s" },
                             { "ev2hp", "--summary=yaml", "x" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        parse(&o, bad[i]);
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
