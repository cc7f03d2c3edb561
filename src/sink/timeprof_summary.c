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
#include "base/json.h"
#include "census/ccframe.h"
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

/* The top rows, each cost centre named as its frames are (ccframe_name): 0, or -1 when
 * out of memory. */
static int text_rows(FILE *out, const struct timeprof *tp, const struct timeprof_cc_total *t,
                     size_t n, uint64_t kept)
{
    fprintf(out, "  %10s  %10s  %s\n", "individual", "inherited", "cost centre");
    for (size_t i = 0; i < n && i < TOP_TEXT; i++) {
        struct cc_frame cc;
        char scratch[16];
        timeprof_cc_names(tp, t[i].cc, &cc, scratch);
        size_t len = ccframe_name(&cc, NULL, 0);
        char *name = malloc(len + 1);
        if (!name)
            return -1;
        ccframe_name(&cc, name, len + 1);
        /* names and locations are the program's bytes: control characters escaped, as
         * every name in the text summary (textout_plain) */
        format_fprintf(out, "  %8.1f %%  %8.1f %%  ", percent(t[i].individual, kept),
                       percent(t[i].inherited, kept));
        textout_plain(out, name, len);
        fputs("  ", out);
        textout_plain(out, cc.srcloc, strlen(cc.srcloc));
        fputc('\n', out);
        free(name);
    }
    return 0;
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
    int rc = text_rows(out, tp, t, n, f.kept);
    if (n > 1)
        qsort(t, n, sizeof *t, by_inherited);
    if (rc == 0) {
        fprintf(out, "by inherited time:\n");
        rc = text_rows(out, tp, t, n, f.kept);
    }
    free(t);
    return rc;
}

static void json_rows(struct json_writer *w, const struct timeprof *tp,
                      const struct timeprof_cc_total *t, size_t n, uint64_t kept)
{
    json_array_begin(w);
    for (size_t i = 0; i < n && i < TOP_JSON; i++) {
        struct cc_frame cc;
        char scratch[16];
        timeprof_cc_names(tp, t[i].cc, &cc, scratch);
        json_newline(w);
        json_object_begin(w);
        json_member_string(w, "label", cc.label, cc.label_len);
        json_member_string(w, "module", cc.module, cc.module_len);
        json_member_cstring(w, "src", cc.srcloc);
        json_member_uint(w, "individual_ticks", t[i].individual);
        json_member_double_fixed(w, "individual_percent", percent(t[i].individual, kept), 2);
        json_member_uint(w, "inherited_ticks", t[i].inherited);
        json_member_double_fixed(w, "inherited_percent", percent(t[i].inherited, kept), 2);
        json_object_end(w);
    }
    json_array_end(w);
}

int timeprof_summary_json(struct json_writer *w, const struct timeprof *tp, bool system_ccs)
{
    struct timeprof_cc_total *t = NULL;
    size_t n = 0;
    bool present = timeprof_present(tp);
    if (present && timeprof_cc_totals(tp, system_ccs, &t, &n) != 0)
        return -1;
    json_newline(w);
    json_key(w, "time_profile");
    if (!present) {
        json_null(w);
        return 0;
    }
    struct tp_facts f;
    facts(tp, system_ccs, &f);
    json_object_begin(w);
    json_member_uint(w, "ticks", f.kept);
    json_key(w, "interval_s");
    json_double_digits(w, f.interval_s, 6);
    json_member_double_fixed(w, "time_s", f.time_s, 6);
    json_member_uint(w, "system_ticks_left_out", f.left_out);
    json_member_uint(w, "outside_window", f.outside);
    json_member_uint(w, "stacks", timeprof_stack_count(tp));
    json_key(w, "capabilities");
    json_array_begin(w);
    uint32_t caps;
    const uint64_t *per_cap = timeprof_cap_samples(tp, &caps);
    for (uint32_t i = 0; i < caps; i++)
        json_uint(w, per_cap[i]);
    json_array_end(w);
    json_newline(w);
    json_key(w, "top");
    json_rows(w, tp, t, n, f.kept);
    if (n > 1)
        qsort(t, n, sizeof *t, by_inherited);
    json_newline(w);
    json_key(w, "top_inherited");
    json_rows(w, tp, t, n, f.kept);
    json_object_end(w);
    free(t);
    return 0;
}
