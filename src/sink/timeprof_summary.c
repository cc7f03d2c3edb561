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
 *
 * With --compare of two time profiles, the change: each run's total samples and every
 * cost centre's individual samples in both (the stacks the differential folded output
 * and flame graph show, runstacks.h, so a count is what that run's own folded output
 * says), ranked by the change of samples (or of share, --diff-normalize) both ways.
 * Cost centres are joined by name (Module.label), as the folded stacks name frames: two
 * builds number their cost centres differently.
 */
#include "sink/timeprof_summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json.h"
#include "base/order.h"
#include "census/ccframe.h"
#include "census/timeprof.h"
#include "model/runmodel.h"
#include "model/stacks.h"
#include "facts/summary_facts.h"
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
    int c = order_u64(y->inherited, x->inherited);   /* most first */
    return c ? c : order_u64(x->cc, y->cc);
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

/* --- --compare: the change of each cost centre ------------------------------------- */

double timeprof_share(uint64_t part, uint64_t total)
{
    return total ? (double)part / (double)total : 0;
}

static int by_change(const void *a, const void *b)
{
    const struct cc_change *x = a, *y = b;
    int c = order_double(y->change, x->change);   /* largest first */
    return c ? c : order_bytes(x->name, x->len, y->name, y->len);
}

int timeprof_change_of(const struct sink_context *ctx, bool system_ccs, bool by_share,
                       struct timeprof_change *c)
{
    *c = (struct timeprof_change){ .by_share = by_share };
    const struct run_model *now = ctx->run, *base = ctx->base;
    if (!base || !timeprof_present(now->timeprof) || !timeprof_present(base->timeprof) ||
        now->needs.has_at)
        return 1;
    struct ev_error err;
    if (runstacks_open(ctx, system_ccs, false, &c->rs, &err) != 0)
        return -1;
    /* The tree's nodes hold each stack prefix's samples that end there (self): summed by
     * frame, a frame's individual samples, what the folded lines ending in it add to. */
    struct stacks_tree tree;
    if (stacks_tree(c->rs.stacks, &tree) != 0) {
        runstacks_close(&c->rs);
        return -1;
    }
    uint32_t frames = 0;
    for (uint32_t i = 1; i < tree.count; i++)
        if (tree.nodes[i].frame >= frames)
            frames = tree.nodes[i].frame + 1;
    struct cc_change *all = calloc(frames ? frames : 1, sizeof *all);
    if (!all) {
        stacks_tree_free(&tree);
        runstacks_close(&c->rs);
        return -1;
    }
    for (uint32_t i = 1; i < tree.count; i++) {
        const struct stacks_node *n = &tree.nodes[i];
        all[n->frame].now += n->self[STACKS_NOW];
        all[n->frame].base += n->self[STACKS_BASE];
        all[n->frame].name = "";   /* seen */
    }
    stacks_tree_free(&tree);
    c->now_total = stacks_total(c->rs.stacks, STACKS_NOW);
    c->base_total = stacks_total(c->rs.stacks, STACKS_BASE);
    for (uint32_t f = 0; f < frames; f++) {
        struct cc_change *cc = &all[f];
        if (!cc->name || (!cc->now && !cc->base))   /* only a caller in both runs */
            continue;
        cc->name = stacks_frame_name(c->rs.stacks, f, &cc->len);
        cc->src = stacks_frame_detail(c->rs.stacks, f);
        cc->change = by_share ? timeprof_share(cc->now, c->now_total) -
                                    timeprof_share(cc->base, c->base_total)
                              : (double)cc->now - (double)cc->base;
        all[c->count++] = *cc;
    }
    c->ccs = all;
    if (c->count > 1)
        qsort(c->ccs, c->count, sizeof *c->ccs, by_change);
    while (c->grew_count < c->count && c->grew_count < TIMEPROF_CHANGED_MOST &&
           c->ccs[c->grew_count].change > 0)
        c->grew_count++;
    while (c->shrank_count < c->count - c->grew_count &&
           c->shrank_count < TIMEPROF_CHANGED_MOST &&
           c->ccs[c->count - 1 - c->shrank_count].change < 0)
        c->shrank_count++;
    return 0;
}

void timeprof_change_free(struct timeprof_change *c)
{
    free(c->ccs);
    c->ccs = NULL;
    runstacks_close(&c->rs);
}

const struct cc_change *timeprof_shrank(const struct timeprof_change *c, size_t i)
{
    return &c->ccs[c->count - 1 - i];
}

/* One cost centre's change: samples in each run, the signed change (and in percent of
 * the base's), each run's share, the name and source location. */
static void text_cc_change(FILE *out, const struct timeprof_change *c,
                           const struct cc_change *cc)
{
    char change[32];
    summary_format_percent(cc->base ? summary_percent_change(cc->base, cc->now) : NAN,
                           change, sizeof change);
    int64_t d = (int64_t)cc->now - (int64_t)cc->base;
    format_fprintf(out, "  %8" PRIu64 " -> %8" PRIu64 "  %+9" PRId64 "  %8s  %5.1f %% -> "
                   "%5.1f %%  ", cc->base, cc->now, d, change,
                   100 * timeprof_share(cc->base, c->base_total),
                   100 * timeprof_share(cc->now, c->now_total));
    textout_plain(out, cc->name, cc->len);
    if (*cc->src) {
        fputs("  ", out);
        textout_plain(out, cc->src, strlen(cc->src));
    }
    fputc('\n', out);
}

void timeprof_change_text(FILE *out, const struct timeprof_change *c)
{
    char change[32];
    summary_format_percent(summary_percent_change(c->base_total, c->now_total), change,
                           sizeof change);
    fprintf(out, "  samples  %" PRIu64 ", was %" PRIu64 ": %s\n", c->now_total,
            c->base_total, change);
    const char *by = c->by_share ? "by share of each run's samples" : "by samples";
    if (c->grew_count || c->shrank_count)
        fprintf(out, "  %8s    %8s  %9s  %8s  %-16s  %s\n", "base", "now", "change", "",
                "share of its run", "cost centre");
    fprintf(out, "  cost centres that grew most, %s:%s\n", by, c->grew_count ? "" : " none");
    for (size_t i = 0; i < c->grew_count; i++)
        text_cc_change(out, c, &c->ccs[i]);
    fprintf(out, "  cost centres that shrank most, %s:%s\n", by,
            c->shrank_count ? "" : " none");
    for (size_t i = 0; i < c->shrank_count; i++)
        text_cc_change(out, c, timeprof_shrank(c, i));
}

void timeprof_change_json(struct json_writer *w, const struct timeprof_change *c)
{
    json_newline(w);
    json_member_uint_or_null(w, "base_samples", c != NULL, c ? c->base_total : 0);
    json_member_uint_or_null(w, "samples", c != NULL, c ? c->now_total : 0);
    json_member_cstring(w, "cost_centres_by", !c ? NULL : c->by_share ? "share" : "samples");
    json_key(w, "cost_centres");
    if (!c) {
        json_null(w);
        return;
    }
    json_array_begin(w);
    for (size_t i = 0; i < c->count; i++) {
        const struct cc_change *cc = &c->ccs[i];
        json_newline(w);
        json_object_begin(w);
        json_member_string(w, "name", cc->name, cc->len);
        json_member_cstring(w, "src", *cc->src ? cc->src : NULL);
        json_member_uint(w, "base_samples", cc->base);
        json_member_uint(w, "samples", cc->now);
        json_member_double_fixed(w, "base_share", timeprof_share(cc->base, c->base_total), 6);
        json_member_double_fixed(w, "share", timeprof_share(cc->now, c->now_total), 6);
        json_object_end(w);
    }
    json_array_end(w);
}
