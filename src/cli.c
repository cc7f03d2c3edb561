/* cli.c: getopt_long over the options of ev2hp(1) (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cliadvice.h"
#include "base/format.h"   /* EV_PRINTF */
#include "base/limits.h"
#include "census/ccslabel.h"
#include "model/peak.h"
#include "read/connect.h"
#include "trendrun.h"
#include "sink/reportlink.h"

const char cli_usage[] =
    "Usage: ev2hp [OPTION]... [INPUT]\n"
    "Turn the heap censuses of a GHC eventlog (+RTS -h -l) into a .hp heap profile\n"
    "or a chart (SVG, PNG, PDF, PostScript, EPS), or an interactive HTML report.\n"
    "INPUT is an eventlog or a .hp file (told apart by content); none or - reads\n"
    "standard input; unix:PATH or tcp:HOST:PORT connects to a program streaming its\n"
    "eventlog (eventlog-socket). Without -o the .hp goes to standard output.\n"
    "\n"
    "  -o, --output FILE      write FILE, its format from its extension (.hp, .svg,\n"
    "                         .png, .pdf, .ps, .eps, .html, .csv, .json, .folded,\n"
    "                         .pprof, .pb.gz; x.hp.gz: gzip-compressed); may repeat:\n"
    "                         one read, every output\n"
    "  -f, --format FMT       write FMT (hp, svg, png, pdf, ps, eps, html, csv, json,\n"
    "                         folded, pprof) whatever the extension (png, pdf: not\n"
    "                         to a terminal)\n"
    "  -L, --ccs-length N     cut cost-centre stack names to N characters as the runtime\n"
    "                         does (default: the -L the program ran with, or 25)\n"
    "      --dump             print every event, one line each, to standard output\n"
    "      --strict           fail (status 1) on a damaged or truncated eventlog\n"
    "      --stop-at-damage   keep only what precedes the first damage instead of\n"
    "                         skipping damaged regions and reading on\n"
    "      --summary[=FMT]    print what the run shows (peak, largest bands, markers,\n"
    "                         damage) as text, json or markdown on standard output;\n"
    "                         benchmark: the peak, the heap's growth and the\n"
    "                         collector's figures as github-action-benchmark's\n"
    "                         customSmallerIsBetter JSON\n"
    "      --commit SHA       --summary=json names the commit the run was made at (its\n"
    "                         \"commit\" object, which --trend reads); with it\n"
    "      --commit-time TIME its time, ISO 8601 (git log -1 --format=%%cI)\n"
    "      --commit-subject TEXT  its subject (git log -1 --format=%%s)\n"
    "      --report-url URL   --summary=markdown: link each band to that view of the\n"
    "                         HTML report at URL (http://, https:// or relative)\n"
    "      --compare BASE     draw BASE (an eventlog or .hp of an earlier run) above\n"
    "                         INPUT on the same scales, and report the change of peak in\n"
    "                         --summary; .folded outputs and the flame views become\n"
    "                         differential (stack base now); .hp, CSV, JSON and pprof\n"
    "                         outputs are of INPUT only\n"
    "      --binary PROG      -hi: name the info tables the eventlog has no IPE event\n"
    "                         for from PROG's symbol table (the program's executable,\n"
    "                         not stripped): ghc-prim:GHC.Types.:, STACK, ...\n"
    "      --base-binary PROG the same for --compare's BASE (its own executable)\n"
    "      --follow           read a file as it grows, until its end-of-data marker\n"
    "                         (a program still writing it); pipes and sockets are\n"
    "                         always read live; censuses the runtime holds back in\n"
    "                         its buffers are said once (+RTS --eventlog-flush-interval=1)\n"
    "      --wait SECONDS     INPUT unix:PATH or tcp:HOST:PORT (a program streaming its\n"
    "                         eventlog): wait this long for it to listen, at the start\n"
    "                         and after a dropped connection (default 30; inf: no\n"
    "                         limit; 0: try once)\n"
    "  -q, --quiet            do not print warnings\n"
    "      --progress         report progress on standard error, even when it is not a\n"
    "                         terminal (default: on a terminal, for inputs of 64 MiB+)\n"
    "      --no-progress      never report progress\n"
    "\n"
    "Gates (each evaluated and reported; status 3 when one fails, 1 when one cannot\n"
    "be checked; outputs are written either way):\n"
    "      --max-peak SIZE    the peak residency is at most SIZE (bytes, or K, M, G:\n"
    "                         powers of 1024)\n"
    "      --max-increase PCT with --compare: the peak is at most PCT % above BASE's\n"
    "      --max-growth RATE  no leak suspect grows faster than RATE (512K/s, 1M/s)\n"
    "      --max-pause DURATION  no garbage collection pause is longer than DURATION\n"
    "                         (50ms, 0.1s, 250us; genN:50ms for generation N alone)\n"
    "      --min-productivity PCT  the mutator has at least PCT % of the run's elapsed\n"
    "                         time (as +RTS -s reports it; needs +RTS -l)\n"
    "      --junit FILE       write the gates' verdicts as JUnit XML, one test case\n"
    "                         per gate (and per phase and gate), the text summary as\n"
    "                         its output\n"
    "      --phases marker|REGEX  the summaries list each phase (start, length, peak,\n"
    "                         growth, suspects) and every gate but --max-increase\n"
    "                         judges each too: marker: every marker starts a phase\n"
    "                         the next ends; REGEX (POSIX extended): the markers it\n"
    "                         matches, \"X start\" and the next \"X end\" bounding\n"
    "                         phase X (the input must be a file)\n"
    "\n"
    "Charts:\n"
    "      --bands N          show the N largest bands, the rest as OTHER (default 15;\n"
    "                         0 = all); the rows of the Markdown summary's table\n"
    "      --trace PCT        fold bands under PCT % of the total area into OTHER\n"
    "                         (default 0: only --bands decides)\n"
    "      --group-by KEY     merge bands by KEY, every output: -hi: table, type,\n"
    "                         closure, module, file, location; -hc: stack, cc\n"
    "                         (innermost cost centre), module; none (or table,\n"
    "                         stack): the bands as they are. Default: as they are,\n"
    "                         but when the largest --bands leave most of the peak in\n"
    "                         OTHER, charts, report and summaries of a file are\n"
    "                         grouped (-hi by type, -hc by cc or module) and say so\n"
    "      --view VIEW        area (the heap chart), normalized (shares, %), stream\n"
    "                         (streamgraph), lines (a line per band), heap (the\n"
    "                         runtime's totals, allocation and collections, a\n"
    "                         strip per capability of a -threaded run, and one of\n"
    "                         the nonmoving collector's phases), detail\n"
    "                         (a row per band: sparkline, peak, mean, growth), diff\n"
    "                         (--compare: this run minus BASE, band by band; with\n"
    "                         -o x.csv or x.json, its lines as data), flame\n"
    "                         or icicle (the time profile of +RTS -p -l, or a -hc/-hi\n"
    "                         heap census); default:\n"
    "                         area, or flame for an eventlog with a time profile and\n"
    "                         no heap censuses\n"
    "      --sort KEY         stack order: size (default), stddev, name or growth\n"
    "      --reverse          reverse the stack order\n"
    "      --include REGEX    only bands whose label matches (POSIX extended; repeatable)\n"
    "      --exclude REGEX    drop bands whose label matches (repeatable)\n"
    "      --from WHEN        start every output at this time: SECONDS, or\n"
    "                         marker:TEXT, the first marker whose text begins with\n"
    "                         TEXT (the input must then be a file)\n"
    "      --to WHEN          end every output at this time: SECONDS, or marker:TEXT,\n"
    "                         the first such marker after the start\n"
    "      --at SECONDS       a heap census as a flame graph, folded stacks or a\n"
    "                         pprof profile: the last census at or before this time\n"
    "                         (default: the peak's)\n"
    "      --align time|progress  --view diff (its picture, CSV and JSON) and the\n"
    "                         report's Diff tab: align the runs by time or by share\n"
    "                         of each run (default: by share when one run is more\n"
    "                         than a fifth longer, else by time)\n"
    "      --diff-normalize   --compare of time profiles (or stack censuses): colour\n"
    "                         the differential flame graph and rank --summary's cost\n"
    "                         centres by the change of each one's share of its run's\n"
    "                         total, not of its samples (default)\n"
    "      --title TEXT       the chart's title (default: the program and its arguments)\n"
    "      --width N          chart width in px (default 1280)\n"
    "      --height N         chart height in px (default 720)\n"
    "      --scale F          PNG: F times the pixels in each direction, the same\n"
    "                         layout (1 to 8, fractions allowed; default 1)\n"
    "      --no-markers       do not draw traceMarker markers\n"
    "      --totals           draw heap totals (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE)\n"
    "      --y-max SIZE       fix the top of the memory scale (as --max-peak); values\n"
    "                         above it are clipped, and the chart says so\n"
    "\n"
    "The heap across commits:\n"
    "      --trend FILE...    draw the runs' --summary=json FILEs, given in commit\n"
    "                         order: the peak, the --bands largest bands' peaks\n"
    "                         (default 5; 0: all) and the heap's growth per commit,\n"
    "                         commits where a gate failed marked; -o x.svg, .png,\n"
    "                         .pdf, .ps, .eps or .html (default: SVG on standard\n"
    "                         output); a commit is named by its summary's \"commit\"\n"
    "                         (--commit), else by the file's name; summaries without\n"
    "                         a heap census are left out, and said so\n"
    "\n"
    "Watching a running program (ev2hp(1), \"WATCHING A RUNNING PROGRAM\"):\n"
    "      --serve [HOST:]PORT  serve the run live over HTTP while it is read: the\n"
    "                         report at /, /metrics (Prometheus), /events, /chart.svg,\n"
    "                         /chart.png, /profile.hp, /summary.json, /debug/pprof/heap\n"
    "                         and /debug/pprof/profile (pprof); HOST defaults to\n"
    "                         127.0.0.1, PORT 0 picks a free port; a file is followed\n"
    "                         as it grows (--follow); at the end of input\n"
    "                         the -o outputs are written and serving goes on until\n"
    "                         SIGINT or SIGTERM (status 0); no -o: no file is written\n"
    "      --allow-host NAME  --serve also answers requests for the host NAME (a\n"
    "                         name it is reached by through DNS or a proxy); it\n"
    "                         answers only its address and localhost otherwise\n"
    "                         (421: a defence against DNS rebinding); repeatable\n"
    "      --every SECONDS    rewrite the -o outputs (drawings, summary, .hp) every\n"
    "                         SECONDS while the input is read\n"
    "\n"
    "Time profiles (+RTS -p -l): -o FILE.folded writes folded stacks; --view flame;\n"
    "--summary adds the total ticks and the top cost centres.\n"
    "      --system-ccs       keep the runtime's own cost centres (GC, SYSTEM, IDLE,\n"
    "                         OVERHEAD_of, DONT_CARE), which the .prof leaves out\n"
    "  -h, --help             show this help and exit\n"
    "  -V, --version          show the version and exit\n"
    "\n"
    "Exit status: 0 success (warnings allowed), 1 unusable or damaged input, or a\n"
    "gate that cannot be checked (no census, no --compare base, no collection\n"
    "events), 2 usage error, 3 a gate failed (--max-peak, --max-increase,\n"
    "--max-growth, --max-pause, --min-productivity), 4 an output could not be\n"
    "written or --serve cannot serve (a port in use), 128+N stopped by signal N\n"
    "(temporary files removed).\n"
    "Full documentation: man ev2hp\n";

static void usage_error(struct cli_options *o, const char *fmt, ...) EV_PRINTF(2, 3);
static void usage_error(struct cli_options *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->message, sizeof o->message, fmt, ap);
    va_end(ap);
    o->action = CLI_USAGE_ERROR;
}

static bool parse_seconds(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

/* A --scale: a plain decimal number from PNG_SCALE_MIN to PNG_SCALE_MAX. */
static bool parse_scale(const char *s, double *out)
{
    char *end;
    if (!*s || *s == ' ' || strchr(s, 'x') || strchr(s, 'X'))   /* no hexadecimal floats */
        return false;
    double v = strtod(s, &end);
    if (*end || !(v >= PNG_SCALE_MIN && v <= PNG_SCALE_MAX))
        return false;
    *out = v;
    return true;
}

static bool parse_unsigned(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return false;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v > max)
        return false;
    *out = v;
    return true;
}

/* Long-only options. */
enum {
    OPT_BANDS = 256, OPT_TRACE, OPT_SORT, OPT_REVERSE, OPT_INCLUDE, OPT_EXCLUDE, OPT_FROM,
    OPT_TO, OPT_TITLE, OPT_WIDTH, OPT_HEIGHT, OPT_NO_MARKERS, OPT_TOTALS,
    OPT_SUMMARY, OPT_MAX_PEAK, OPT_COMPARE, OPT_BINARY, OPT_BASE_BINARY, OPT_Y_MAX, OPT_SCALE, OPT_PROGRESS,
    OPT_NO_PROGRESS, OPT_VIEW, OPT_SYSTEM_CCS, OPT_STOP_AT_DAMAGE, OPT_MAX_INCREASE,
    OPT_MAX_GROWTH, OPT_MAX_PAUSE, OPT_MIN_PRODUCTIVITY, OPT_JUNIT, OPT_REPORT_URL, OPT_FOLLOW, OPT_WAIT,
    OPT_SERVE, OPT_EVERY, OPT_ALLOW_HOST, OPT_GROUP_BY, OPT_AT, OPT_ALIGN,
    OPT_DIFF_NORMALIZE, OPT_TREND, OPT_COMMIT, OPT_COMMIT_TIME, OPT_COMMIT_SUBJECT,
    OPT_PHASES,
};

/* Whether s is all hexadecimal digits, from min to max of them. */
static bool hex_digits(const char *s, size_t min, size_t max)
{
    size_t n = strspn(s, "0123456789abcdefABCDEF");
    return !s[n] && n >= min && n <= max;
}

/* An ISO 8601 date and time with its zone, as git's %cI prints it:
 * 2026-11-28T09:30:00+01:00, or with Z, or with a fraction of a second. */
static bool iso_time(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    size_t i = 0;
    for (; shape[i]; i++)
        if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
            return false;
    if (s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9')
        for (i++; s[i] >= '0' && s[i] <= '9'; i++)
            ;
    if (strcmp(s + i, "Z") == 0)
        return true;
    static const char zone[] = "dd:dd";
    if (s[i] != '+' && s[i] != '-')
        return false;
    for (size_t k = 0; zone[k]; k++)
        if (zone[k] == 'd' ? !(s[i + 1 + k] >= '0' && s[i + 1 + k] <= '9') : s[i + 1 + k] != ':')
            return false;
    return s[i + 6] == '\0';
}

/* --commit, --commit-time, --commit-subject; false after a usage error. */
static bool commit_option(struct cli_options *o, int c, const char *arg)
{
    if (c == OPT_COMMIT) {
        if (!hex_digits(arg, 4, 64))
            return usage_error(o, "--commit wants a commit's sha (4 to 64 hexadecimal "
                               "digits), not '%s'", arg), false;
        o->commit.sha = arg;
    } else if (c == OPT_COMMIT_TIME) {
        if (!iso_time(arg))
            return usage_error(o, "--commit-time wants an ISO 8601 time with its zone, as "
                               "git log -1 --format=%%cI prints it "
                               "(2026-11-28T09:30:00+01:00), not '%s'", arg), false;
        o->commit.time = arg;
    } else {
        o->commit.subject = arg;
    }
    return true;
}

/* The first option given that a trend cannot honour (its chart has no time, no view to
 * choose and no band filters; gates and summaries belong to the runs), or NULL. */
static const char *not_for_trend(const struct cli_options *o)
{
    const struct profile_options *pr = &o->chart.profile;
    const char *chart = o->chart.view != CHART_VIEW_AUTO ? "--view"
                        : pr->has_from || o->window.from ? "--from"
                        : pr->has_to || o->window.to ? "--to"
                        : o->chart.has_at ? "--at"
                        : pr->include_count ? "--include" : pr->exclude_count ? "--exclude"
                        : o->chart.has_y_max ? "--y-max"
                        : o->group_by_given ? "--group-by" : NULL;
    return chart ? chart : o->summary ? "--summary" : o->junit ? "--junit"
                        : o->compare ? "--compare" : o->dump ? "--dump"
                        : o->serve.serve ? "--serve" : o->follow ? "--follow"
                        : o->binary ? "--binary" : o->commit.sha ? "--commit"
                        : o->phases ? "--phases"
                        : o->gates.has_max_peak || o->gates.has_max_increase ||
                          o->gates.has_max_growth || o->gates.has_max_pause ||
                          o->gates.has_min_productivity ? "a gate" : NULL;
}

/* --trend FILE...: what applies to it, its outputs (SVG by default). */
static void trend_command(struct cli_options *o, int argc, char **argv,
                          enum output_format forced)
{
    const char *other = not_for_trend(o);
    if (other)
        return usage_error(o, "--trend draws summaries already made: %s does not apply "
                           "to it", other);
    if (argc - optind < 2)
        return usage_error(o, "--trend wants two summaries or more (each commit's "
                           "--summary=json), in commit order");
    o->trend_files = argv + optind;
    o->trend_file_count = (size_t)(argc - optind);
    if (o->output_count == 0)
        o->outputs[o->output_count++].path = NULL;
    for (size_t i = 0; i < o->output_count; i++) {
        struct output_request *r = &o->outputs[i];
        r->format = forced;
        if (r->format == FORMAT_NONE)
            r->format = r->path && format_path_has_extension(r->path)
                            ? format_from_path(r->path) : FORMAT_SVG;
        if (!trendrun_writes(r->format))
            return usage_error(o, "--trend draws .svg, .png, .pdf, .ps, .eps or .html, not "
                               "'%s'", r->path ? r->path : "(standard output)");
        if (!r->path && (r->format == FORMAT_PNG || r->format == FORMAT_PDF) &&
            isatty(STDOUT_FILENO))
            return usage_error(o, "refusing to write %s to a terminal",
                               r->format == FORMAT_PNG ? "PNG" : "PDF");
        int w, h;
        struct ev_error err;
        if (r->format == FORMAT_PNG &&
            png_pixel_size(o->chart.width, o->chart.height, o->scale, &w, &h, &err) != 0)
            return usage_error(o, "--width, --height and --scale: %s", err.what);
    }
    o->action = CLI_TREND;
}

/* A --wait: seconds, or inf for no limit. */
static bool parse_wait(const char *s, double *out)
{
    if (strcmp(s, "inf") == 0) {
        *out = INFINITY;
        return true;
    }
    return parse_seconds(s, out);
}


/* A chart option; false after a usage error. */
static bool chart_option(struct cli_options *o, int c, const char *arg)
{
    struct chart_options *ch = &o->chart;
    struct profile_options *pr = &ch->profile;
    unsigned long n;
    struct ev_error err;
    switch (c) {
    case OPT_BANDS:
        if (!parse_unsigned(arg, BANDS_MAX, &n))
            return usage_error(o, "--bands wants a number (0 = all), not '%s'", arg), false;
        pr->bands = (unsigned)n;
        o->bands_given = true;
        return true;
    case OPT_TRACE:
        if (!parse_seconds(arg, &pr->trace_percent) || pr->trace_percent > 100)
            return usage_error(o, "--trace wants a percentage from 0 to 100, not '%s'", arg),
                   false;
        return true;
    case OPT_SORT:
        if (!profile_sort_from_name(arg, &pr->sort))
            return usage_error(o, "--sort wants size, stddev, name or growth, not '%s'", arg),
                   false;
        return true;
    case OPT_REVERSE:
        pr->reverse = true;
        return true;
    case OPT_INCLUDE:
    case OPT_EXCLUDE: {
        const char **list = c == OPT_INCLUDE ? pr->include : pr->exclude;
        size_t *count = c == OPT_INCLUDE ? &pr->include_count : &pr->exclude_count;
        if (*count == PROFILE_MAX_FILTERS)
            return usage_error(o, "at most %d --include and %d --exclude", PROFILE_MAX_FILTERS,
                               PROFILE_MAX_FILTERS), false;
        if (profile_check_pattern(arg, &err) != 0)
            return usage_error(o, "%s", err.what), false;
        list[(*count)++] = arg;
        return true;
    }
    case OPT_FROM:
    case OPT_TO: {
        const char *name = c == OPT_FROM ? "from" : "to";
        const char **marker = c == OPT_FROM ? &o->window.from : &o->window.to;
        bool *has = c == OPT_FROM ? &pr->has_from : &pr->has_to;
        /* marker:TEXT: its time is known once the input is read (markerwindow.h) */
        if (strncmp(arg, MARKER_WINDOW_PREFIX, strlen(MARKER_WINDOW_PREFIX)) == 0) {
            *marker = arg + strlen(MARKER_WINDOW_PREFIX);
            if (!**marker)
                return usage_error(o, "--%s marker: wants the text the marker begins with",
                                   name), false;
            *has = false;
            return true;
        }
        if (!parse_seconds(arg, c == OPT_FROM ? &pr->from_seconds : &pr->to_seconds))
            return usage_error(o, "--%s wants seconds or marker:TEXT, not '%s'", name,
                               arg), false;
        *marker = NULL;
        *has = true;
        return true;
    }
    case OPT_ALIGN:
        if (strcmp(arg, "time") != 0 && strcmp(arg, "progress") != 0)
            return usage_error(o, "--align wants time or progress, not '%s'", arg), false;
        ch->align = strcmp(arg, "progress") == 0 ? DIFF_ALIGN_PROGRESS : DIFF_ALIGN_TIME;
        return true;
    case OPT_AT:
        if (!parse_seconds(arg, &ch->at_seconds))
            return usage_error(o, "--at wants seconds, not '%s'", arg), false;
        ch->has_at = true;
        return true;
    case OPT_TITLE:
        ch->title = arg;
        return true;
    case OPT_WIDTH:
    case OPT_HEIGHT:
        if (!parse_unsigned(arg, CHART_MAX_SIZE, &n) || n < CHART_MIN_SIZE)
            return usage_error(o, "--%s wants a number of px from %d to %d, not '%s'",
                               c == OPT_WIDTH ? "width" : "height", CHART_MIN_SIZE,
                               CHART_MAX_SIZE, arg), false;
        *(c == OPT_WIDTH ? &ch->width : &ch->height) = (unsigned)n;
        ch->height_given |= c == OPT_HEIGHT;
        return true;
    case OPT_NO_MARKERS:
        ch->no_markers = true;
        return true;
    case OPT_DIFF_NORMALIZE:
        ch->diff_normalize = true;
        return true;
    case OPT_TOTALS:
        ch->totals = true;
        return true;
    case OPT_Y_MAX:
        if (peak_parse_size(arg, &ch->y_max) != 0 || ch->y_max == 0)
            return usage_error(o, "--y-max wants a size above 0 such as 512M or 2G, not '%s'",
                               arg), false;
        ch->has_y_max = true;
        return true;
    }
    return false;
}

/* A flag of the GHC runtime typed where ev2hp's belong (ev2hp -hc prog.eventlog: getopt
 * would take -hc for -h, the help, and exit 0): a usage error saying where it goes. */
static bool rts_flag_error(struct cli_options *o, int argc, char **argv,
                           const struct option *longs, const char *shorts)
{
    const char *rts = cliadvice_rts_flag(argc, argv, longs, shorts);
    if (!rts)
        return false;
    /* the example runs the program with the flag given, when it is one to pass on */
    bool passable = rts[0] == '-' && strcmp(rts, "-RTS") != 0 && strcmp(rts, "--RTS") != 0 &&
                    strcmp(rts, "-l") != 0;
    usage_error(o, "'%s' is a flag of the GHC runtime, not of ev2hp: give it to the "
                "program between +RTS and -RTS (prog +RTS %s -l -RTS writes "
                "prog.eventlog), then run ev2hp prog.eventlog", rts, passable ? rts : "-hT");
    return true;
}

void cli_source_date_epoch(const char *value, struct cli_options *o)
{
    if (!value || !*value || o->action != CLI_CONVERT)
        return;
    int64_t seconds = 0;
    for (const char *c = value; *c; c++) {
        /* 9999-12-31T23:59:59Z: a date every reader of PDF dates can write */
        if (*c < '0' || *c > '9' || (seconds = seconds * 10 + (*c - '0')) > 253402300799) {
            usage_error(o, "SOURCE_DATE_EPOCH wants Unix seconds up to the year 9999, not "
                        "'%.40s'", value);
            return;
        }
    }
    o->chart.has_date = true;
    o->chart.date = seconds;
}

void cli_parse(int argc, char **argv, struct cli_options *o)
{
    static const struct option longs[] = {
        { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },
        { "ccs-length", required_argument, NULL, 'L' },
        { "dump", no_argument, NULL, 'D' },
        { "strict", no_argument, NULL, 'S' },
        { "stop-at-damage", no_argument, NULL, OPT_STOP_AT_DAMAGE },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { "bands", required_argument, NULL, OPT_BANDS },
        { "trace", required_argument, NULL, OPT_TRACE },
        { "group-by", required_argument, NULL, OPT_GROUP_BY },
        { "sort", required_argument, NULL, OPT_SORT },
        { "reverse", no_argument, NULL, OPT_REVERSE },
        { "include", required_argument, NULL, OPT_INCLUDE },
        { "exclude", required_argument, NULL, OPT_EXCLUDE },
        { "from", required_argument, NULL, OPT_FROM },
        { "at", required_argument, NULL, OPT_AT },
        { "align", required_argument, NULL, OPT_ALIGN },
        { "to", required_argument, NULL, OPT_TO },
        { "title", required_argument, NULL, OPT_TITLE },
        { "width", required_argument, NULL, OPT_WIDTH },
        { "height", required_argument, NULL, OPT_HEIGHT },
        { "no-markers", no_argument, NULL, OPT_NO_MARKERS },
        { "diff-normalize", no_argument, NULL, OPT_DIFF_NORMALIZE },
        { "totals", no_argument, NULL, OPT_TOTALS },
        { "summary", optional_argument, NULL, OPT_SUMMARY },
        { "max-peak", required_argument, NULL, OPT_MAX_PEAK },
        { "max-increase", required_argument, NULL, OPT_MAX_INCREASE },
        { "max-growth", required_argument, NULL, OPT_MAX_GROWTH },
        { "max-pause", required_argument, NULL, OPT_MAX_PAUSE },
        { "min-productivity", required_argument, NULL, OPT_MIN_PRODUCTIVITY },
        { "junit", required_argument, NULL, OPT_JUNIT },
        { "phases", required_argument, NULL, OPT_PHASES },
        { "report-url", required_argument, NULL, OPT_REPORT_URL },
        { "compare", required_argument, NULL, OPT_COMPARE },
        { "binary", required_argument, NULL, OPT_BINARY },
        { "base-binary", required_argument, NULL, OPT_BASE_BINARY },
        { "y-max", required_argument, NULL, OPT_Y_MAX },
        { "scale", required_argument, NULL, OPT_SCALE },
        { "progress", no_argument, NULL, OPT_PROGRESS },
        { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
        { "view", required_argument, NULL, OPT_VIEW },
        { "system-ccs", no_argument, NULL, OPT_SYSTEM_CCS },
        { "serve", required_argument, NULL, OPT_SERVE },
        { "every", required_argument, NULL, OPT_EVERY },
        { "allow-host", required_argument, NULL, OPT_ALLOW_HOST },
        { "follow", no_argument, NULL, OPT_FOLLOW },
        { "wait", required_argument, NULL, OPT_WAIT },
        { "trend", no_argument, NULL, OPT_TREND },
        { "commit", required_argument, NULL, OPT_COMMIT },
        { "commit-time", required_argument, NULL, OPT_COMMIT_TIME },
        { "commit-subject", required_argument, NULL, OPT_COMMIT_SUBJECT },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    chart_options_default(&o->chart);
    o->scale = 1;
    o->wait_seconds = CLI_WAIT_DEFAULT;
    bool has_wait = false;
    enum output_format forced = FORMAT_NONE;
    unsigned long n;
    int c;
    opterr = 0;
    optind = 0;   /* a fresh scan: tests call cli_parse many times */
    static const char shorts[] = "o:f:L:qhV";
    if (rts_flag_error(o, argc, argv, longs, shorts))
        return;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (o->output_count == CLI_MAX_OUTPUTS)
                return usage_error(o, "at most %d outputs", CLI_MAX_OUTPUTS);
            o->outputs[o->output_count++].path = strcmp(optarg, "-") ? optarg : NULL;
            break;
        case 'f':
            forced = format_from_name(optarg);
            if (forced == FORMAT_NONE)
                return usage_error(o, "unknown format '%s' (known: hp, svg, png, pdf, ps, eps, "
                                   "html, csv, json, folded, pprof)",
                                   optarg);
            break;
        case 'L':
            if (!parse_unsigned(optarg, CCS_LENGTH_MAX, &n) || n < CCS_LENGTH_MIN)
                return usage_error(o, "-L wants a number from %u to %u, not '%s'",
                                   CCS_LENGTH_MIN, CCS_LENGTH_MAX, optarg);
            o->ccs_length = (unsigned)n;
            break;
        case 'D':
            o->dump = true;
            break;
        case OPT_GROUP_BY:
            if (!group_key_from_name(optarg, &o->group_by))
                return usage_error(o, "--group-by wants %s, not '%s'", group_key_names, optarg);
            o->group_by_given = true;
            break;
        case OPT_SUMMARY:
            if (!optarg || strcmp(optarg, "text") == 0)
                o->summary = FORMAT_SUMMARY_TEXT;
            else if (strcmp(optarg, "json") == 0)
                o->summary = FORMAT_SUMMARY_JSON;
            else if (strcmp(optarg, "markdown") == 0)
                o->summary = FORMAT_SUMMARY_MARKDOWN;
            else if (strcmp(optarg, "benchmark") == 0)
                o->summary = FORMAT_SUMMARY_BENCHMARK;
            else
                return usage_error(o, "--summary is text, json, markdown or benchmark, not "
                                   "'%s'", optarg);
            break;
        case OPT_MAX_PEAK:
            if (peak_parse_size(optarg, &o->gates.max_peak) != 0)
                return usage_error(o, "--max-peak wants a size such as 512M or 2G, not '%s'",
                                   optarg);
            o->gates.has_max_peak = true;
            break;
        case OPT_MAX_INCREASE:
            if (gates_parse_percent(optarg, &o->gates.max_increase) != 0)
                return usage_error(o, "--max-increase wants a percentage such as 10 or 2.5, "
                                   "not '%s'", optarg);
            o->gates.has_max_increase = true;
            break;
        case OPT_MAX_GROWTH:
            if (gates_parse_rate(optarg, &o->gates.max_growth) != 0)
                return usage_error(o, "--max-growth wants a rate such as 512K/s or 1M/s, "
                                   "not '%s'", optarg);
            o->gates.has_max_growth = true;
            break;
        case OPT_MAX_PAUSE:
            if (gates_parse_pause(optarg, &o->gates.max_pause_ns, &o->gates.max_pause_gen) != 0)
                return usage_error(o, "--max-pause wants a duration such as 50ms, 0.1s or "
                                   "gen1:50ms, not '%s'", optarg);
            o->gates.has_max_pause = true;
            break;
        case OPT_MIN_PRODUCTIVITY: {
            double pct;
            if (gates_parse_percent(optarg, &pct) != 0 || pct > 100)
                return usage_error(o, "--min-productivity wants a percentage from 0 to 100 "
                                   "such as 80, not '%s'", optarg);
            o->gates.min_productivity = pct;
            o->gates.has_min_productivity = true;
            break;
        }
        case OPT_REPORT_URL: {
            const char *why = reportlink_refused(optarg);
            if (why)   /* (the URL not echoed: it may hold control characters) */
                return usage_error(o, "--report-url: the URL %s", why);
            o->report_url = optarg;
            break;
        }
        case OPT_JUNIT:
            o->junit = optarg;
            break;
        case OPT_COMPARE:
            o->compare = optarg;
            break;
        case OPT_BINARY:
            o->binary = optarg;
            break;
        case OPT_BASE_BINARY:
            o->base_binary = optarg;
            break;
        case 'S':
            o->strict = true;
            break;
        case OPT_STOP_AT_DAMAGE:
            o->stop_at_damage = true;
            break;
        case 'q':
            o->quiet = true;
            break;
        case OPT_PROGRESS:
        case OPT_NO_PROGRESS:
            o->progress = c == OPT_PROGRESS ? PROGRESS_ON : PROGRESS_OFF;
            break;
        case 'h':
            o->action = CLI_HELP;
            return;
        case 'V':
            o->action = CLI_VERSION;
            return;
        case OPT_BANDS: case OPT_TRACE: case OPT_SORT: case OPT_REVERSE: case OPT_INCLUDE:
        case OPT_EXCLUDE: case OPT_FROM: case OPT_TO: case OPT_TITLE: case OPT_WIDTH:
        case OPT_HEIGHT: case OPT_NO_MARKERS: case OPT_TOTALS: case OPT_Y_MAX: case OPT_AT:
        case OPT_ALIGN: case OPT_DIFF_NORMALIZE:
            if (!chart_option(o, c, optarg))
                return;
            break;
        case OPT_PHASES:
            if (!*optarg)
                return usage_error(o, "--phases wants marker or a regular expression");
            o->phases = optarg;
            break;
        case OPT_VIEW:
            if (!chart_view_from_name(optarg, &o->chart.view))
                return usage_error(o, "--view wants %s, not '%s'", chart_view_names(), optarg);
            break;
        case OPT_SYSTEM_CCS:
            o->system_ccs = true;
            break;
        case OPT_SERVE:
            if (!serve_parse_address(optarg, o->serve_host, sizeof o->serve_host,
                                     &o->serve.host, &o->serve.port))
                return usage_error(o, "--serve wants [HOST:]PORT (a port from 0 to 65535; "
                                   "an IPv6 host in brackets), not '%s'", optarg);
            o->serve.serve = true;
            break;
        case OPT_ALLOW_HOST:
            if (!hosts_valid_name(optarg))
                return usage_error(o, "--allow-host wants a host name (letters, digits, "
                                   "'-' and '.'), not '%s'", optarg);
            if (o->serve.allow_host_count == HOSTS_MAX)
                return usage_error(o, "--allow-host: at most %d names", HOSTS_MAX);
            o->serve.allow_hosts[o->serve.allow_host_count++] = optarg;
            break;
        case OPT_EVERY:
            if (!parse_seconds(optarg, &o->serve.every_seconds) ||
                o->serve.every_seconds < 0.1 || o->serve.every_seconds > 86400 * 365)
                return usage_error(o, "--every wants seconds (0.1 or more), not '%s'", optarg);
            break;
        case OPT_FOLLOW:
            o->follow = true;
            break;
        case OPT_TREND:
            o->trend = true;
            break;
        case OPT_COMMIT:
        case OPT_COMMIT_TIME:
        case OPT_COMMIT_SUBJECT:
            if (!commit_option(o, c, optarg))
                return;
            break;
        case OPT_WAIT:
            if (!parse_wait(optarg, &o->wait_seconds))
                return usage_error(o, "--wait wants seconds or inf, not '%s'", optarg);
            has_wait = true;
            break;
        case OPT_SCALE:
            if (!parse_scale(optarg, &o->scale))
                return usage_error(o, "--scale wants a number from %g to %g, not '%s'",
                                   PNG_SCALE_MIN, PNG_SCALE_MAX, optarg);
            break;
        default:
            /* getopt_long sets optopt to a long-only option's code (OPT_*) when its
             * argument is missing; strchr would match that code's low byte, NUL. */
            if (optopt >= OPT_BANDS)
                return usage_error(o, "option '%s' needs an argument", argv[optind - 1]);
            if (optopt && strchr("ofL", optopt))
                return usage_error(o, "option -%c needs an argument", optopt);
            if (optopt)
                return usage_error(o, "unknown option -%c", optopt);
            const char *near = cliadvice_nearest_option(argv[optind - 1], longs);
            if (near)
                return usage_error(o, "unknown option '%s'; did you mean --%s?",
                                   argv[optind - 1], near);
            return usage_error(o, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (o->trend)
        return trend_command(o, argc, argv, forced);
    if (o->commit.sha && o->summary != FORMAT_SUMMARY_JSON)
        return usage_error(o, "--commit is written into --summary=json: give it too");
    if ((o->commit.time || o->commit.subject) && !o->commit.sha)
        return usage_error(o, "--%s describes the commit --commit SHA names: give it too",
                           o->commit.time ? "commit-time" : "commit-subject");
    if (o->chart.profile.has_from && o->chart.profile.has_to &&
        o->chart.profile.to_seconds <= o->chart.profile.from_seconds)
        return usage_error(o, "--to must be after --from");
    if (o->serve.allow_host_count && !o->serve.serve)
        return usage_error(o, "--allow-host is for --serve");
    if (o->chart.view == CHART_VIEW_DIFF && !o->compare)
        return usage_error(o, "--view diff draws this run minus a base: give one with "
                           "--compare BASE");
    if (optind < argc - 1)
        return usage_error(o, "one input at a time ('%s' and '%s')", argv[optind],
                           argv[optind + 1]);
    if (optind < argc && strcmp(argv[optind], "-") != 0)
        o->input = argv[optind];
    /* A program's socket (read/connect.h) rather than a file: its address is checked now. */
    struct connect_address address;
    struct ev_error address_err;
    if (connect_parse(o->input, &address, &address_err) != 0)
        return usage_error(o, "%s: %s", o->input, address_err.what);
    if (has_wait && address.kind == CONNECT_NONE)
        return usage_error(o, "--wait is for an input unix:PATH or tcp:HOST:PORT");
    if (o->base_binary && !o->compare)
        return usage_error(o, "--base-binary names BASE's info tables: it needs --compare BASE");
    if (o->compare && strcmp(o->compare, "-") == 0 && !o->input)
        return usage_error(o, "--compare - and the input both want standard input");
    if (o->output_count == 0 && !o->dump && !o->summary && !o->junit && !o->serve.serve)
        o->outputs[o->output_count++].path = NULL;
    for (size_t i = 0; i < o->output_count; i++) {
        struct output_request *r = &o->outputs[i];
        r->format = forced;
        if (r->format == FORMAT_NONE)
            r->format = r->path && format_path_has_extension(r->path) ? format_from_path(r->path)
                                                          : FORMAT_HP;
        if (r->format == FORMAT_NONE)
            return usage_error(o, "cannot tell the format of '%s' from its name: ev2hp "
                               "writes %s (and .hp.gz, .pb.gz); name the file so, or give "
                               "the format with -f", r->path, format_extensions());
        if (!r->path && (o->dump || o->summary))
            return usage_error(o, "--%s and an output to standard output both want it",
                               o->dump ? "dump" : "summary");
        /* Binary data would garble the terminal. The only look outside argv: whether
         * standard output is a terminal is part of the command line's meaning here. */
        const char *binary = r->format == FORMAT_PNG ? "PNG"
                             : r->format == FORMAT_PDF ? "PDF"
                             : r->format == FORMAT_PPROF ? "a pprof profile" : NULL;
        if (!r->path && binary && isatty(STDOUT_FILENO))
            return usage_error(o, "refusing to write %s to a terminal", binary);
        /* Said now rather than after the whole input is read. */
        int w, h;
        struct ev_error err;
        if (r->format == FORMAT_PNG &&
            png_pixel_size(o->chart.width, o->chart.height, o->scale, &w, &h, &err) != 0)
            return usage_error(o, "--width, --height and --scale: %s", err.what);
    }
    if (o->summary) {
        if (o->dump)
            return usage_error(o, "--dump and --summary both want standard output");
        if (o->output_count == CLI_MAX_OUTPUTS)
            return usage_error(o, "at most %d outputs", CLI_MAX_OUTPUTS);
        o->outputs[o->output_count++] = (struct output_request){ NULL, o->summary };
    }
    if (o->report_url && o->summary != FORMAT_SUMMARY_MARKDOWN)
        return usage_error(o, "--report-url links the bands of --summary=markdown: give that too");
    if (o->junit) {
        bool to_stdout = strcmp(o->junit, "-") == 0;
        if (to_stdout && (o->dump || o->summary))
            return usage_error(o, "--junit - and --%s both want standard output",
                               o->dump ? "dump" : "summary");
        for (size_t i = 0; to_stdout && i < o->output_count; i++)
            if (!o->outputs[i].path)
                return usage_error(o, "--junit - and an output to standard output both "
                                   "want it");
        if (o->output_count == CLI_MAX_OUTPUTS)
            return usage_error(o, "at most %d outputs", CLI_MAX_OUTPUTS);
        o->outputs[o->output_count++] =
            (struct output_request){ to_stdout ? NULL : o->junit, FORMAT_JUNIT };
    }
    o->action = CLI_CONVERT;
}

/* "UTF-8", "utf8", any case, in a locale name. */
static bool names_utf8(const char *name)
{
    for (const char *p = name; *p; p++)
        if (strncasecmp(p, "utf-8", 5) == 0 || strncasecmp(p, "utf8", 4) == 0)
            return true;
    return false;
}

bool cli_utf8_locale(const char *lc_all, const char *lc_ctype, const char *lang)
{
    const char *chosen = lc_all && *lc_all ? lc_all : lc_ctype && *lc_ctype ? lc_ctype : lang;
    return chosen && *chosen && names_utf8(chosen);
}
