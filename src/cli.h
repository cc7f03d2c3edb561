/* cli.h: the command line, parsed into options without side effects.
 *
 * cli_parse turns argv into a cli_options (or a usage error message) so the whole
 * contract of ev2hp(1) can be tested without running a conversion. The one thing it
 * looks at besides argv is whether standard output is a terminal, and only when PNG is
 * to be written there (refused). (main refuses a terminal on standard input.)
 */
#ifndef EV2HP_CLI_H
#define EV2HP_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/limits.h"
#include "chart/chart.h"
#include "convert.h"
#include "facts/gates.h"
#include "model/trend.h"


/* CLI_TREND: --trend FILE..., the heap across commits (trendrun.h). */
enum cli_action { CLI_CONVERT, CLI_TREND, CLI_HELP, CLI_VERSION, CLI_USAGE_ERROR };

struct cli_options {
    enum cli_action action;
    char message[512];             /* the usage error, for CLI_USAGE_ERROR */
    const char *input;             /* NULL = standard input */
    struct output_request outputs[CLI_MAX_OUTPUTS];
    size_t output_count;
    unsigned ccs_length;
    enum group_key group_by;       /* --group-by */
    bool group_by_given;           /* --group-by was given (else a default may group) */
    bool dump;
    bool quiet;
    enum progress_mode progress;   /* --progress, --no-progress; AUTO by default */
    bool strict;
    bool stop_at_damage;           /* --stop-at-damage: no recovery */
    enum output_format summary;    /* --summary: FORMAT_SUMMARY_TEXT, _JSON, _MARKDOWN, or
                                    * NONE */
    struct gate_limits gates;      /* --max-peak, --max-increase, --max-growth */
    const char *junit;             /* --junit FILE; NULL without ("-": standard output) */
    const char *report_url;        /* --report-url URL (checked); NULL without */
    const char *compare;           /* --compare BASE; NULL without */
    const char *binary;            /* --binary PROG: names -hi tables; NULL without */
    const char *base_binary;       /* --base-binary PROG: the same for BASE */
    struct chart_options chart;    /* --bands, --width, --include, ... */
    struct marker_window window;   /* --from/--to marker:TEXT (convert.c reads the times) */
    const char *phases;            /* --phases marker|REGEX (census/phases.h); NULL without */
    double scale;                  /* --scale: PNG pixels per layout unit, 1 to 8 */
    bool system_ccs;               /* --system-ccs: time profiles keep GC, SYSTEM, ... */
    struct serve_options serve;    /* --serve [HOST:]PORT, --every SECONDS */
    char serve_host[256];          /* --serve's host, when one is given */
    bool follow;                   /* --follow: follow a regular file as it grows */
    double wait_seconds;           /* --wait: for a unix:/tcp: program to listen */
    bool bands_given;              /* --bands was given (--trend's default is its own) */
    /* --trend FILE...: the summaries (argv's), in commit order */
    bool trend;
    char *const *trend_files;
    size_t trend_file_count;
    /* --commit, --commit-time, --commit-subject: written into --summary=json */
    struct trend_commit commit;
};

void cli_parse(int argc, char **argv, struct cli_options *out);

/* The environment's SOURCE_DATE_EPOCH (value, or NULL when unset), the date PDF and
 * PostScript outputs carry (chart.has_date, chart.date): Unix seconds, digits only, up to
 * the year 9999. Unset or empty: no date. Anything else is a usage error, as the
 * reproducible-builds specification asks. */
void cli_source_date_epoch(const char *value, struct cli_options *out);

/* Whether the locale the environment names is UTF-8 (the text summary then draws
 * sparklines): the first of LC_ALL, LC_CTYPE and LANG that is set and not empty, as
 * setlocale would choose, names a UTF-8 codeset ("C.UTF-8", "en_US.utf8"). ev2hp never
 * calls setlocale (base/format.h), so it asks the environment the same way. */
bool cli_utf8_locale(const char *lc_all, const char *lc_ctype, const char *lang);

/* The --help text. */
extern const char cli_usage[];

#endif
