/* main.c: ev2hp's entry point: parse the command line, run, print what happened.
 *
 * The only file that prints messages. Every message has one form:
 *     ev2hp: FILE: offset N: what is wrong
 * (the offset where it applies). Warnings use the same form; -q silences them.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "convert.h"

static void print_message(const char *file, const struct ev_error *e)
{
    if (e->has_offset)
        fprintf(stderr, "ev2hp: %s: offset %" PRIu64 ": %s\n", file, e->offset, e->what);
    else
        fprintf(stderr, "ev2hp: %s: %s\n", file, e->what);
}

int main(int argc, char **argv)
{
    struct cli_options cli;
    cli_parse(argc, argv, &cli);
    switch (cli.action) {
    case CLI_HELP:
        fputs(cli_usage, stdout);
        return fflush(stdout) == 0 ? EXIT_SUCCESS_ : EXIT_WRITE;
    case CLI_VERSION:
        printf("ev2hp %s\n", PACKAGE_VERSION);
        return fflush(stdout) == 0 ? EXIT_SUCCESS_ : EXIT_WRITE;
    case CLI_USAGE_ERROR:
        fprintf(stderr, "ev2hp: %s\nTry 'ev2hp --help' for more information.\n", cli.message);
        return EXIT_USAGE;
    case CLI_CONVERT:
        break;
    }
    struct convert_options opt = {
        .input_path = cli.input,
        .ccs_length = cli.ccs_length,
        .strict = cli.strict,
        .dump = cli.dump ? stdout : NULL,
        .outputs = cli.outputs,
        .output_count = cli.output_count,
        .chart = &cli.chart,
        .has_max_peak = cli.has_max_peak,
        .max_peak = cli.max_peak,
        .png_scale = cli.scale,
    };
    struct convert_result result;
    convert_run(&opt, &result);
    if (!cli.quiet)
        for (size_t i = 0; i < result.warning_count; i++)
            print_message(convert_input_name(&opt), &result.warnings[i]);
    if (result.exit_status != EXIT_SUCCESS_)
        print_message(result.error_file, &result.error);
    return result.exit_status;
}
