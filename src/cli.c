/* cli.c: getopt_long over the options of ev2hp(1) (see cli.h). */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccslabel.h"
#include "png_render.h"

/* getopt_long codes of options without a short form, past every character. */
enum { OPT_SCALE = 0x100 };

const char cli_usage[] =
    "Usage: ev2hp [OPTION]... [INPUT]\n"
    "Turn the heap censuses of a GHC eventlog (+RTS -h -l) into a .hp heap profile.\n"
    "INPUT is an eventlog; none or - reads standard input. Without -o the .hp goes to\n"
    "standard output.\n"
    "\n"
    "  -o, --output FILE      write FILE, its format from its extension (.hp);\n"
    "                         may repeat: one read, every output\n"
    "  -f, --format FMT       write FMT (hp) whatever the extension\n"
    "  -L, --ccs-length N     cut cost-centre stack names to N characters as the runtime\n"
    "                         does (default: the -L the program ran with, or 25)\n"
    "      --scale F          PNG: F times the pixels in each direction, the same\n"
    "                         layout (1 to 8, fractions allowed; default 1)\n"
    "      --dump             print every event, one line each, to standard output\n"
    "      --strict           fail (status 1) on a damaged or truncated eventlog\n"
    "  -q, --quiet            do not print warnings\n"
    "  -h, --help             show this help and exit\n"
    "  -V, --version          show the version and exit\n"
    "\n"
    "Exit status: 0 success (warnings allowed), 1 unusable or damaged input,\n"
    "2 usage error, 4 an output could not be written.\n"
    "Full documentation: man ev2hp\n";

static void usage_error(struct cli_options *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->message, sizeof o->message, fmt, ap);
    va_end(ap);
    o->action = CLI_USAGE_ERROR;
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

void cli_parse(int argc, char **argv, struct cli_options *o)
{
    static const struct option longs[] = {
        { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },
        { "ccs-length", required_argument, NULL, 'L' },
        { "scale", required_argument, NULL, OPT_SCALE },
        { "dump", no_argument, NULL, 'D' },
        { "strict", no_argument, NULL, 'S' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    o->scale = 1;
    enum output_format forced = FORMAT_NONE;
    unsigned long n;
    int c;
    opterr = 0;
    optind = 0;   /* a fresh scan: tests call cli_parse many times */
    while ((c = getopt_long(argc, argv, "o:f:L:qhV", longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (o->output_count == CLI_MAX_OUTPUTS)
                return usage_error(o, "at most %d outputs", CLI_MAX_OUTPUTS);
            o->outputs[o->output_count++].path = strcmp(optarg, "-") ? optarg : NULL;
            break;
        case 'f':
            forced = format_from_name(optarg);
            if (forced == FORMAT_NONE)
                return usage_error(o, "unknown format '%s' (known: hp)", optarg);
            break;
        case 'L':
            if (!parse_unsigned(optarg, CCS_LENGTH_MAX, &n) || n < CCS_LENGTH_MIN)
                return usage_error(o, "-L wants a number from %u to %u, not '%s'",
                                   CCS_LENGTH_MIN, CCS_LENGTH_MAX, optarg);
            o->ccs_length = (unsigned)n;
            break;
        case OPT_SCALE:
            if (!parse_scale(optarg, &o->scale))
                return usage_error(o, "--scale wants a number from %g to %g, not '%s'",
                                   PNG_SCALE_MIN, PNG_SCALE_MAX, optarg);
            break;
        case 'D':
            o->dump = true;
            break;
        case 'S':
            o->strict = true;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'h':
            o->action = CLI_HELP;
            return;
        case 'V':
            o->action = CLI_VERSION;
            return;
        default:
            /* getopt_long sets optopt to a long-only option's code (OPT_*) when its
             * argument is missing; strchr would match that code's low byte, NUL. */
            if (optopt >= 0x100)
                return usage_error(o, "option '%s' needs an argument", argv[optind - 1]);
            if (optopt && strchr("ofL", optopt))
                return usage_error(o, "option -%c needs an argument", optopt);
            if (optopt)
                return usage_error(o, "unknown option -%c", optopt);
            return usage_error(o, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc - 1)
        return usage_error(o, "one input at a time ('%s' and '%s')", argv[optind],
                           argv[optind + 1]);
    if (optind < argc && strcmp(argv[optind], "-") != 0)
        o->input = argv[optind];
    if (o->output_count == 0 && !o->dump)
        o->outputs[o->output_count++].path = NULL;
    for (size_t i = 0; i < o->output_count; i++) {
        struct output_request *r = &o->outputs[i];
        r->format = forced;
        if (r->format == FORMAT_NONE)
            r->format = r->path ? format_from_path(r->path) : FORMAT_HP;
        if (r->format == FORMAT_NONE)
            return usage_error(o, "cannot tell the format of '%s' from its name; use -f",
                               r->path);
        if (!r->path && o->dump)
            return usage_error(o, "--dump and an output to standard output both want it");
    }
    o->action = CLI_CONVERT;
}
