/* cap_summary.c: how each capability spent the run (running Haskell threads, collecting,
 * idle), in text, JSON and Markdown.
 *
 * The figures are model/capstats.h's, from the run model; this module only writes them:
 * one line for people ("cap 0: 61.2 % running, 4.1 % collecting, 34.7 % idle; cap 1:
 * ..."), and JSON `capabilities` (each `cap`, `running`, `gc`, `idle`, fractions of the
 * run summing to 1, and the same in seconds), the keys issue 35 names; and for the
 * report, each capability's time along the run (`cap_timeline`), which the page draws as
 * the heap view's strips do.
 */
#include "sink/summary_parts.h"

#include <stdlib.h>

#include "base/format.h"
#include "base/json.h"
#include "chart/colors.h"
#include "chart/display.h"
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

/* "cap 0: 61.2 % running, 4.1 % collecting, 34.7 % idle; cap 1: ...", between lead and
 * tail; nothing without scheduler events. */
static void shares_line(FILE *out, const struct run_model *run, const char *lead,
                        const char *tail)
{
    size_t n;
    struct cap_share *s = shares(run, &n);
    if (!n)
        return;
    fputs(lead, out);
    for (size_t i = 0; i < n; i++)
        format_fprintf(out, "%scap %u: %.1f %% running, %.1f %% collecting, %.1f %% idle",
                       i ? "; " : "", s[i].cap, 100 * s[i].running, 100 * s[i].gc,
                       100 * s[i].idle);
    fputs(tail, out);
    free(s);
}

static void cap_summary_text(FILE *out, const struct run_model *run)
{
    shares_line(out, run, "capabilities ", "\n");
}

static void cap_summary_markdown(FILE *out, const struct run_model *run)
{
    shares_line(out, run, "\nCapabilities (from the scheduler's and the collector's events): ",
                ".\n");
}

static void cap_summary_json(struct json_writer *w, const struct run_model *run)
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

/* A slot series in seconds. */
static void slot_seconds(struct json_writer *w, const char *key, const uint64_t *ns, size_t n)
{
    json_key(w, key);
    json_array_begin(w);
    for (size_t k = 0; k < n; k++)
        json_double(w, (double)ns[k] / 1e9);
    json_array_end(w);
}

static void member_ink(struct json_writer *w, const char *key, struct dl_color c)
{
    char hex[8];
    dl_color_hex(c, hex);
    json_member_cstring(w, key, hex);
}

/* A strip's object opens alike for the capabilities and the nonmoving collector: its
 * slots' width and the run's end, in seconds, then its "inks", left open for the strip's
 * own colours (the caller closes it). */
static void strip_begin(struct json_writer *w, uint64_t width_ns, const struct run_model *run)
{
    json_object_begin(w);
    json_key(w, "width_s");
    json_double(w, (double)width_ns / 1e9);
    json_key(w, "end_s");
    json_double(w, (double)run->info->end_time_ns / 1e9);
    json_key(w, "inks");
    json_object_begin(w);
}

void cap_summary_timeline_json(struct json_writer *w, const struct run_model *run)
{
    size_t n = run_model_cap_strips(run);
    struct cap_timeline *tl = n ? malloc(sizeof *tl) : NULL;
    json_newline(w);
    json_key(w, "cap_timeline");
    if (!tl || !run_model_cap_timeline(run, 0, tl)) {
        json_null(w);   /* no strip (out of memory: none rather than a wrong one) */
        free(tl);
        return;
    }
    strip_begin(w, tl->width_ns, run);
    member_ink(w, "running", COLOR_CAP_RUNNING);
    member_ink(w, "gc", COLOR_CAP_GC);
    member_ink(w, "idle", COLOR_CAP_IDLE);
    json_object_end(w);
    json_key(w, "caps");
    json_array_begin(w);
    for (size_t i = 0; i < n && run_model_cap_timeline(run, i, tl); i++) {
        json_newline(w);
        json_object_begin(w);
        json_member_uint(w, "cap", tl->cap);
        slot_seconds(w, "running_s", tl->running_ns, tl->slots);
        slot_seconds(w, "gc_s", tl->gc_ns, tl->slots);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
    free(tl);
}

void cap_summary_nonmoving_json(struct json_writer *w, const struct run_model *run)
{
    struct nonmoving_timeline *nm = malloc(sizeof *nm);
    if (!nm || !run_model_nonmoving_timeline(run, nm)) {
        free(nm);   /* (out of memory: no strip rather than a wrong one) */
        return;
    }
    static const char *const totals[NM_PHASES] = { "sync_total_s", "mark_total_s",
                                                   "sweep_total_s" };
    static const char *const slots[NM_PHASES] = { "sync_s", "mark_s", "sweep_s" };
    json_newline(w);
    json_key(w, "nonmoving_timeline");
    strip_begin(w, nm->width_ns, run);
    member_ink(w, "sync", COLOR_NM_SYNC);
    member_ink(w, "mark", COLOR_NM_MARK);
    member_ink(w, "sweep", COLOR_NM_SWEEP);
    member_ink(w, "ground", COLOR_CAP_IDLE);
    json_object_end(w);
    for (size_t p = 0; p < NM_PHASES; p++) {
        json_key(w, totals[p]);
        json_double(w, (double)nm->total_ns[p] / 1e9);
    }
    for (size_t p = 0; p < NM_PHASES; p++)
        slot_seconds(w, slots[p], nm->ns[p], nm->slots);
    json_object_end(w);
    free(nm);
}

const struct summary_part cap_summary_part = {
    .text = cap_summary_text,
    .json = cap_summary_json,
    .markdown = cap_summary_markdown,
};
