/* timeprof_summary.c: the time profile's part of --summary, in text and in JSON.
 *
 * What the .prof's header and first table say: the total ticks, the tick interval and
 * the time they make (ticks x interval / capabilities, as the runtime computes "total
 * time"), then the cost centres with the largest individual share (samples with the cost
 * centre innermost) and the largest inherited share (samples with it anywhere in the
 * stack, once per sample). Percentages are of the samples kept: the runtime's own cost
 * centres are left out unless --system-ccs, as in the .prof. The summary sink calls these
 * after its heap part; without a time profile the text says nothing and the JSON key is
 * null.
 */
#include "sink/timeprof_summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "census/timeprof.h"
#include "sink/textout.h"

#define TOP_TEXT 10
#define TOP_JSON 20

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

static int by_inherited(const void *a, const void *b)
{
    const struct timeprof_cc_total *x = a, *y = b;
    if (x->inherited != y->inherited)
        return x->inherited > y->inherited ? -1 : 1;
    return x->cc < y->cc ? -1 : x->cc > y->cc;
}

struct tp_facts {
    uint64_t kept, left_out, outside;
    uint32_t caps;
    double interval_s, time_s;
};

static void facts(const struct timeprof *tp, bool system, struct tp_facts *f)
{
    f->kept = timeprof_kept_samples(tp, system);
    f->left_out = timeprof_samples(tp) - f->kept;
    f->outside = timeprof_outside(tp);
    f->caps = timeprof_cap_count(tp);
    f->interval_s = timeprof_interval_ns(tp) / 1e9;
    f->time_s = f->kept * f->interval_s / (f->caps ? f->caps : 1);
}

static void text_rows(FILE *out, const struct timeprof *tp, const struct timeprof_cc_total *t,
                      size_t n, uint64_t kept)
{
    fprintf(out, "  %10s  %10s  %s\n", "individual", "inherited", "cost centre");
    for (size_t i = 0; i < n && i < TOP_TEXT; i++) {
        struct timeprof_cc cc;
        char scratch[16];
        timeprof_cc_names(tp, t[i].cc, &cc, scratch);
        format_fprintf(out, "  %8.1f %%  %8.1f %%  %.*s.%.*s  %s\n", percent(t[i].individual, kept),
                       percent(t[i].inherited, kept), (int)cc.module_len, cc.module,
                       (int)cc.label_len, cc.label, cc.srcloc);
    }
}

int timeprof_summary_text(FILE *out, const struct timeprof *tp, bool system_ccs)
{
    if (!timeprof_present(tp))
        return 0;
    struct tp_facts f;
    facts(tp, system_ccs, &f);
    format_fprintf(out, "time       %" PRIu64 " %s @ %g ms, %.2f s on %" PRIu32 " capabilit%s\n",
                   f.kept, format_plural(f.kept, "tick", "ticks"), f.interval_s * 1e3, f.time_s, f.caps, f.caps == 1 ? "y" : "ies");
    if (f.left_out)
        fprintf(out, "  %" PRIu64 " %s of the runtime's own cost centres (GC, SYSTEM, "
                "...) left out; --system-ccs keeps them\n", f.left_out,
                format_plural(f.left_out, "sample", "samples"));
    if (f.outside)
        fprintf(out, "  %" PRIu64 " %s outside --from/--to left out\n", f.outside,
                format_plural(f.outside, "sample", "samples"));
    struct timeprof_cc_total *t;
    size_t n;
    if (timeprof_cc_totals(tp, system_ccs, &t, &n) != 0)
        return -1;
    fprintf(out, "by individual time:\n");
    text_rows(out, tp, t, n, f.kept);
    if (n > 1)
        qsort(t, n, sizeof *t, by_inherited);
    fprintf(out, "by inherited time:\n");
    text_rows(out, tp, t, n, f.kept);
    free(t);
    return 0;
}

static void json_rows(FILE *out, const struct timeprof *tp, const struct timeprof_cc_total *t,
                      size_t n, uint64_t kept)
{
    for (size_t i = 0; i < n && i < TOP_JSON; i++) {
        struct timeprof_cc cc;
        char scratch[16];
        timeprof_cc_names(tp, t[i].cc, &cc, scratch);
        fputs(i ? ",\n   {\"label\": " : "\n   {\"label\": ", out);
        textout_json_string(out, cc.label, cc.label_len);
        fputs(", \"module\": ", out);
        textout_json_string(out, cc.module, cc.module_len);
        fputs(", \"src\": ", out);
        textout_json_string(out, cc.srcloc, strlen(cc.srcloc));
        format_fprintf(out, ", \"individual_ticks\": %" PRIu64 ", \"individual_percent\": %.2f, "
                       "\"inherited_ticks\": %" PRIu64 ", \"inherited_percent\": %.2f}",
                       t[i].individual, percent(t[i].individual, kept), t[i].inherited,
                       percent(t[i].inherited, kept));
    }
}

int timeprof_summary_json(FILE *out, const struct timeprof *tp, bool system_ccs)
{
    fputs(",\n \"time_profile\": ", out);
    if (!timeprof_present(tp)) {
        fputs("null", out);
        return 0;
    }
    struct tp_facts f;
    facts(tp, system_ccs, &f);
    format_fprintf(out, "{\"ticks\": %" PRIu64 ", \"interval_s\": %g, \"time_s\": %.6f, "
                   "\"system_ticks_left_out\": %" PRIu64 ", \"outside_window\": %" PRIu64
                   ", \"stacks\": %" PRIu32 ", \"capabilities\": [", f.kept, f.interval_s, f.time_s,
                   f.left_out, f.outside, timeprof_stack_count(tp));
    uint32_t caps;
    const uint64_t *per_cap = timeprof_cap_samples(tp, &caps);
    for (uint32_t i = 0; i < caps; i++)
        fprintf(out, i ? ", %" PRIu64 : "%" PRIu64, per_cap[i]);
    struct timeprof_cc_total *t;
    size_t n;
    if (timeprof_cc_totals(tp, system_ccs, &t, &n) != 0)
        return -1;
    fputs("],\n  \"top\": [", out);
    json_rows(out, tp, t, n, f.kept);
    if (n > 1)
        qsort(t, n, sizeof *t, by_inherited);
    fputs("],\n  \"top_inherited\": [", out);
    json_rows(out, tp, t, n, f.kept);
    fputs("]}", out);
    free(t);
    return 0;
}
