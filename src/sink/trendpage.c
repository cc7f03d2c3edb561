/* trendpage.c: the heap across commits as one HTML page (see trendpage.h). */
#include "sink/trendpage.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "render/svg.h"
#include "sink/textout.h"

static const char page_css[] =
    "body{font-family:\"DejaVu Sans\",Verdana,sans-serif;color:#222;margin:16px}\n"
    "figure{margin:0 0 16px 0}figure svg{max-width:100%;height:auto}\n"
    "table{border-collapse:collapse;font-size:13px}\n"
    "th,td{padding:3px 10px;text-align:left;border-bottom:1px solid #e8e8e8;"
    "vertical-align:top}\n"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "tr.failed td{background:#f6dede}tr.failed td.gates{color:#b22222}\n"
    "code{font-size:12px}\n";

static void html_text(FILE *out, const char *s)
{
    if (s)
        textout_html(out, s, strlen(s));
}

/* The chart's SVG inline: the document svg_write makes, without its XML declaration
 * (in HTML a processing instruction is a bogus comment). */
static int inline_svg(FILE *out, const struct display_list *chart)
{
    char *svg = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&svg, &len);
    if (!mem)
        return -1;
    int rc = svg_write(mem, chart);
    if (fclose(mem) != 0)
        rc = -1;
    if (rc == 0) {
        const char *start = strstr(svg, "<svg");
        if (!start) {
            errno = EINVAL;
            rc = -1;
        } else {
            fwrite(start, 1, len - (size_t)(start - svg), out);
        }
    }
    free(svg);
    return rc;
}

static void gates_cell(FILE *out, const struct trend_run *r)
{
    if (!r->gates)
        fputs("none checked", out);
    else if (!r->gates_failed)
        fprintf(out, "%zu passed", r->gates);
    else {
        fprintf(out, "%zu of %zu failed: ", r->gates_failed, r->gates);
        html_text(out, r->failed);
    }
}

static void run_row(FILE *out, size_t i, const struct trend_run *r)
{
    char peak[32], growth[40];
    format_bytes((double)r->peak, peak, sizeof peak);
    format_rate(r->growth, growth, sizeof growth);
    fprintf(out, "<tr%s><td class=\"num\">%zu</td><td><code title=\"", r->gates_failed
            ? " class=\"failed\"" : "", i + 1);
    html_text(out, r->sha ? r->sha : r->name);
    fputs("\">", out);
    html_text(out, r->name);
    fputs("</code></td><td>", out);
    html_text(out, r->time);
    fputs("</td><td>", out);
    html_text(out, r->subject);
    fputs("</td><td><code>", out);
    html_text(out, r->file);
    fprintf(out, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
            "<td class=\"gates\">", peak, growth);
    gates_cell(out, r);
    fputs("</td></tr>\n", out);
}

int trendpage_write(FILE *out, const char *title, const struct trend *t,
                    const struct display_list *chart, const struct trend_skip *skipped,
                    size_t skipped_count)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"ev2hp " PACKAGE_VERSION "\">\n<title>", out);
    html_text(out, title);
    fprintf(out, " – ev2hp trend</title>\n<style>\n%s</style>\n</head>\n<body>\n<figure>\n",
            page_css);
    if (inline_svg(out, chart) != 0)
        return -1;
    fputs("\n</figure>\n<table id=\"commits\">\n<thead><tr><th>#</th><th>commit</th>"
          "<th>time</th><th>subject</th><th>summary</th><th>peak</th><th>growth</th>"
          "<th>gates</th></tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < t->count; i++)
        run_row(out, i, &t->runs[i]);
    fputs("</tbody>\n</table>\n", out);
    if (skipped_count) {
        fputs("<p>Left out:</p>\n<ul id=\"skipped\">\n", out);
        for (size_t i = 0; i < skipped_count; i++) {
            fputs("<li><code>", out);
            html_text(out, skipped[i].file);
            fputs("</code>: ", out);
            html_text(out, skipped[i].why.what);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}
