/* main.c: ev2hp's entry point: parse the command line, run, print what happened.
 *
 * The only file that prints messages. Every message has one form:
 *     ev2hp: FILE: offset N: what is wrong
 * (the offset where it applies). Warnings use the same form; -q silences them.
 *
 * Progress (progress.h) is printed here too: on a terminal as one line rewritten in place
 * ("\r" and erase to the end of the line) and erased before any warning is printed; on
 * anything else (--progress into a log) as one line per report.
 */

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "convert.h"
#include "read/connect.h"
#include "sink/outfile.h"
#include "sink/textout.h"
#include "chart/trendchart.h"
#include "trendrun.h"

/* One line on standard error: the file name and the message may hold a label's or a
 * marker's bytes, whose control characters are escaped (textout_plain): no escape
 * sequence reaches the terminal, no newline forges a line of its own in a CI log. */
static void print_message(const char *file, const struct ev_error *e)
{
    fputs("ev2hp: ", stderr);
    textout_plain(stderr, file, strlen(file));
    if (e->has_offset)
        fprintf(stderr, ": offset %" PRIu64, e->offset);
    fputs(": ", stderr);
    textout_plain(stderr, e->what, strlen(e->what));
    fputc('\n', stderr);
}

struct progress_printer {
    bool terminal;              /* standard error is a terminal: rewrite one line */
    bool shown;                 /* a line is on the terminal, to be erased */
    const char *input_name;     /* for notices */
};

/* Notices come from --serve's worker thread too (censuses held back) while the reading
 * thread prints progress: one line at a time, and `shown` read and written under it. */
static pthread_mutex_t printing = PTHREAD_MUTEX_INITIALIZER;


static void print_progress(void *ctx, const struct progress_report *report)
{
    struct progress_printer *pp = ctx;
    char line[160];
    progress_format(report, line, sizeof line);
    pthread_mutex_lock(&printing);
    if (pp->terminal) {
        if (!report->done) {
            fprintf(stderr, "\r%s\033[K", line);
            pp->shown = true;
        }
    } else {
        fprintf(stderr, "%s\n", line);
    }
    fflush(stderr);
    pthread_mutex_unlock(&printing);
}

static void erase_progress(struct progress_printer *pp)
{
    if (pp->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        pp->shown = false;
    }
}

/* What a live input says while it is read (waiting for the program, connected again). */
static void print_notice(void *ctx, const char *what)
{
    pthread_mutex_lock(&printing);
    erase_progress(ctx);
    fprintf(stderr, "ev2hp: %s: %s\n", ((struct progress_printer *)ctx)->input_name, what);
    fflush(stderr);
    pthread_mutex_unlock(&printing);
}

/* Whether this run shows progress: see progress_wanted for the default. */
static bool wants_progress(const struct cli_options *cli, bool terminal)
{
    struct stat st;
    int got = cli->input ? stat(cli->input, &st) : fstat(STDIN_FILENO, &st);
    bool regular = got == 0 && S_ISREG(st.st_mode);
    return progress_wanted(cli->progress, terminal, regular, regular ? (uint64_t)st.st_size : 0);
}

/* A live run (--serve): the address, once the server listens. */
static void print_serving(void *ctx, const char *url)
{
    (void)ctx;
    fprintf(stderr, "ev2hp: serving %s\n", url);
    fflush(stderr);
}

static const struct cli_options *cli_of_run;   /* for print_outcome from another thread */

/* What happened, printed; the exit status. */
static int print_outcome(const struct cli_options *cli, const struct convert_options *opt,
                         const struct convert_result *result)
{
    if (!cli->quiet)
        for (size_t i = 0; i < result->base_warning_count; i++)
            print_message(result->base_name, &result->base_warnings[i]);
    if (!cli->quiet)
        for (size_t i = 0; i < result->warning_count; i++)
            print_message(convert_input_name(opt), &result->warnings[i]);
    if (!cli->quiet && result->has_compare_note)
        print_message(convert_input_name(opt), &result->compare_note);
    /* every gate that did not pass, the one that decided the status among them */
    for (size_t i = 0; i < result->gates.count; i++)
        if (result->gates.gates[i].verdict != GATE_PASSED)
            print_message(convert_input_name(opt), &result->gates.gates[i].why);
    for (size_t i = 0; i < result->phase_gate_count; i++)
        print_message(convert_input_name(opt), &result->phase_gates[i]);
    if (result->phase_gates_not_listed) {
        struct ev_error more = { 0 };
        ev_error_set(&more, "%" PRIu64 " more gates of phases did not pass (the summaries "
                     "and --junit list each)", result->phase_gates_not_listed);
        print_message(convert_input_name(opt), &more);
    }
    if (result->exit_status != EXIT_SUCCESS_ && !result->gate_status)
        print_message(result->error_file, &result->error);
    return result->exit_status;
}

/* A live input read without --serve (--follow FILE, unix:, tcp:): SIGINT or SIGTERM ends
 * the input where it is, as if it ended there (input_options.stop), and the outputs are
 * written for what was read, with status 0. A second signal is the usual one (outfile.h:
 * the temporary files removed, the process ended by it), for a run that will not end. */
static volatile sig_atomic_t stop_requested;
static struct sigaction usual[2];
static const int stop_signals[2] = { SIGINT, SIGTERM };

static void on_stop(int sig)
{
    stop_requested = 1;
    for (int i = 0; i < 2; i++)
        sigaction(stop_signals[i], &usual[i], NULL);
    (void)sig;
}

static bool live_input(const struct cli_options *cli)
{
    struct connect_address a;
    struct ev_error err;
    return cli->follow || (connect_parse(cli->input, &a, &err) == 0 && a.kind != CONNECT_NONE);
}

static void stop_on_signals(void)
{
    for (int i = 0; i < 2; i++) {
        if (sigaction(stop_signals[i], NULL, &usual[i]) != 0 || usual[i].sa_handler == SIG_IGN)
            continue;   /* ignored by whoever started us: keep it */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        sigaddset(&sa.sa_mask, SIGINT);
        sigaddset(&sa.sa_mask, SIGTERM);
        sigaction(stop_signals[i], &sa, NULL);
    }
}

/* SIGINT or SIGTERM ended a live run before its input did: the outputs are written. */
static void print_interrupted(void *ctx, const struct convert_result *result)
{
    const struct convert_options *opt = ctx;
    exit(print_outcome(cli_of_run, opt, result));
}

/* --trend FILE...: the summaries left out are said, then the error if any. */
static int run_trend(const struct cli_options *cli)
{
    outfile_catch_signals();
    struct trendrun_options opt = {
        .files = (const char *const *)cli->trend_files,
        .file_count = cli->trend_file_count,
        .outputs = cli->outputs,
        .output_count = cli->output_count,
        .chart = &cli->chart,
        /* --bands 0: all, as for every chart */
        .bands = !cli->bands_given ? TREND_DEFAULT_BANDS
                 : cli->chart.profile.bands ? cli->chart.profile.bands : SIZE_MAX,
        .png_scale = cli->scale,
    };
    struct trendrun_result r;
    trendrun(&opt, &r);
    if (!cli->quiet)
        for (size_t i = 0; i < r.skipped_count; i++)
            print_message(r.skipped[i].file, &r.skipped[i].why);
    if (r.exit_status != EXIT_SUCCESS_)
        print_message(r.error_file, &r.error);
    trendrun_result_free(&r);
    return r.exit_status;
}

int main(int argc, char **argv)
{
    struct cli_options cli;
    cli_parse(argc, argv, &cli);
    cli_source_date_epoch(getenv("SOURCE_DATE_EPOCH"), &cli);
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
    case CLI_TREND:
        return run_trend(&cli);
    case CLI_CONVERT:
        break;
    }
    /* Nobody types an eventlog: reading a terminal would only wait. */
    bool reads_stdin = !cli.input || (cli.compare && strcmp(cli.compare, "-") == 0);
    if (reads_stdin && isatty(STDIN_FILENO)) {
        fputs("ev2hp: standard input is a terminal; name an eventlog or .hp file "
              "(ev2hp prog.eventlog) or pipe one in\n", stderr);
        return EXIT_USAGE;
    }
    /* From here on temporary output files exist: a signal removes them. */
    outfile_catch_signals();
    struct convert_options opt = {
        .input_path = cli.input,
        .ccs_length = cli.ccs_length,
        .group_by = cli.group_by,
        .group_by_default = !cli.group_by_given,
        .strict = cli.strict,
        .stop_at_damage = cli.stop_at_damage,
        .dump = cli.dump ? stdout : NULL,
        .outputs = cli.outputs,
        .output_count = cli.output_count,
        .chart = &cli.chart,
        .window = cli.window,
        .phases = cli.phases,
        .gates = cli.gates,
        .compare_path = cli.compare,
        .binary_path = cli.binary,
        .base_binary_path = cli.base_binary,
        .png_scale = cli.scale,
        .system_ccs = cli.system_ccs,
        .unicode = cli_utf8_locale(getenv("LC_ALL"), getenv("LC_CTYPE"), getenv("LANG")),
        .commit = cli.commit.sha ? &cli.commit : NULL,
        .report_url = cli.report_url,
        .follow = cli.follow || cli.serve.serve,   /* --serve follows a file by default */
        .wait_seconds = cli.wait_seconds,
        .serve = cli.serve.serve || cli.serve.every_seconds > 0 ? &cli.serve : NULL,
        .serving = print_serving,
        .interrupted = print_interrupted,
    };
    opt.serve_ctx = &opt;
    if (!opt.serve && cli.input && live_input(&cli)) {
        stop_on_signals();
        opt.stop = &stop_requested;
    }
    cli_of_run = &cli;
    struct progress_printer progress = { isatty(STDERR_FILENO) == 1, false,
                                         convert_input_name(&opt) };
    if (!cli.quiet) {
        opt.notice = print_notice;
        opt.notice_ctx = &progress;
    }
    if (wants_progress(&cli, progress.terminal)) {
        opt.progress = print_progress;
        opt.progress_ctx = &progress;
    }
    struct convert_result result;
    convert_run(&opt, &result);
    erase_progress(&progress);
    return print_outcome(&cli, &opt, &result);
}
