/* cap_summary.c: how each capability spent the run (running Haskell threads, collecting,
 * idle), in text, JSON and Markdown.
 *
 * The figures are model/capstats.h's, from the run model; this module only writes them:
 * one line for people ("cap 0: 61.2 % running, 4.1 % collecting, 34.7 % idle; cap 1:
 * ..."), and JSON `capabilities` (each `cap`, `running`, `gc`, `idle`, fractions of the
 * run summing to 1, and the same in seconds), the keys issue 35 names.
 */
#include "sink/cap_summary.h"

#include <stdlib.h>

#include "base/format.h"
#include "base/json.h"
#include "model/runmodel.h"
#include "sink/textout.h"

/* The capabilities' shares, or NULL (*n 0) without scheduler events or memory. */
static struct cap_share *shares(const struct run_model *run, size_t *n)
{
    *n = run_model_caps(run, NULL, 0);
    struct cap_share *s = *n ? calloc(*n, sizeof *s) : NULL;
    if (!s)
        *n = 0;
    else
        run_model_caps(run, s, *n);
    return s;
}

/* "cap 0: 61.2 % running, 4.1 % collecting, 34.7 % idle; cap 1: ..." */
static void shares_line(FILE *out, const struct cap_share *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        format_fprintf(out, "%scap %u: %.1f %% running, %.1f %% collecting, %.1f %% idle",
                       i ? "; " : "", s[i].cap, 100 * s[i].running, 100 * s[i].gc,
                       100 * s[i].idle);
}

void cap_summary_text(FILE *out, const struct run_model *run)
{
    size_t n;
    struct cap_share *s = shares(run, &n);
    if (!n)
        return;
    fputs("capabilities ", out);
    shares_line(out, s, n);
    fputc('\n', out);
    free(s);
}

void cap_summary_markdown(FILE *out, const struct run_model *run)
{
    size_t n;
    struct cap_share *s = shares(run, &n);
    if (!n)
        return;
    fputs("\nCapabilities (from the scheduler's and the collector's events): ", out);
    shares_line(out, s, n);
    fputs(".\n", out);
    free(s);
}

void cap_summary_json(struct json_writer *w, const struct run_model *run)
{
    size_t n;
    struct cap_share *s = shares(run, &n);
    json_newline(w);
    json_key(w, "capabilities");
    if (!n) {
        json_null(w);
        return;
    }
    json_array_begin(w);
    for (size_t i = 0; i < n; i++) {
        json_object_begin(w);
        json_member_uint(w, "cap", s[i].cap);
        json_key(w, "running");
        json_double(w, s[i].running);
        json_key(w, "gc");
        json_double(w, s[i].gc);
        json_key(w, "idle");
        json_double(w, s[i].idle);
        textout_json_member_seconds(w, "running_s", s[i].running_ns);
        textout_json_member_seconds(w, "gc_s", s[i].gc_ns);
        textout_json_member_seconds(w, "idle_s", s[i].idle_ns);
        json_object_end(w);
    }
    json_array_end(w);
    free(s);
}
