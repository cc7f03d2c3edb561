/* ticky_summary.c: the ticky counters' part of --summary, in text, JSON and Markdown.
 *
 * The figures are model/ticky.h's (each counter's samples summed); this module only
 * writes them. A counter's share of allocation is its allocation over all the run's
 * allocation (the capabilities' last HEAP_ALLOCATED, model/gcstats.h), and the counters'
 * coverage is their allocation together over the same, as eventlog2html gives them; both
 * are left out (null) when the eventlog has no HEAP_ALLOCATED. The text and Markdown list
 * the TICKY_SUMMARY_LINES most allocating counters and say how many more there are; the
 * JSON lists every counter, and the TICKY_SERIES_SHOWN largest over time (their counts at
 * each point of model/ticky.h's columns). Names come from the eventlog: escaped for each
 * format.
 */
#include "sink/summary_parts.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json.h"
#include "model/gcstats.h"
#include "model/runmodel.h"
#include "model/ticky.h"
#include "sink/textout.h"

#define TICKY_SUMMARY_LINES 20
#define TICKY_SERIES_SHOWN 8

/* What every format writes: the counters in order and the run's allocation. */
struct ticky_view {
    struct ticky_totals totals;
    const struct ticky_counter **sorted;
    size_t count;
    bool has_allocated;
    uint64_t allocated_bytes;
};

/* false when there is nothing to write (no ticky event) or memory is out. */
static bool view_open(const struct run_model *run, struct ticky_view *v)
{
    const struct ticky *t = run_model_ticky(run);
    if (!t)
        return false;
    memset(v, 0, sizeof *v);
    ticky_totals(t, &v->totals);
    v->sorted = ticky_sorted(t, &v->count);
    if (v->totals.count && !v->sorted)
        return false;
    /* HEAP_ALLOCATED, even in a run that never collected (the gc summary has none) */
    if (run->gc && gc_stats_allocating(run->gc)) {
        v->has_allocated = true;
        v->allocated_bytes = gc_stats_allocated(run->gc);
    }
    return true;
}

static double share(const struct ticky_view *v, uint64_t bytes)
{
    return v->allocated_bytes ? (double)bytes / (double)v->allocated_bytes : 0;
}

static const char *name_of(const struct ticky_counter *c)
{
    return c->defined ? c->name : "";
}

static void ticky_summary_text(FILE *out, const struct run_model *run)
{
    struct ticky_view v;
    if (!view_open(run, &v))
        return;
    format_fprintf(out, "ticky      %zu counters, %" PRIu64 " samples", v.totals.count,
                   v.totals.samples);
    if (v.has_allocated)
        format_fprintf(out, "; they allocated %.1f%% of the run's allocation",
                       100 * share(&v, v.totals.allocs));
    fputs(" (totals: their samples summed)\n", out);
    fputs("     entries        allocs        allocd  alloc%  arity kinds  name\n", out);
    for (size_t i = 0; i < v.count && i < TICKY_SUMMARY_LINES; i++) {
        const struct ticky_counter *c = v.sorted[i];
        format_fprintf(out, "  %10" PRIu64 " %13" PRIu64 " %13" PRIu64 " ", c->entries,
                       c->allocs, c->allocd);
        if (v.has_allocated)
            format_fprintf(out, "%6.1f%%", 100 * share(&v, c->allocs));
        else
            fputs("      ?", out);
        fprintf(out, " %6u ", c->arity);
        size_t kinds = c->kinds ? strlen(c->kinds) : 0;
        textout_plain(out, c->kinds ? c->kinds : "", kinds);
        fprintf(out, "%*s", kinds < 6 ? (int)(6 - kinds) : 1, "");
        if (c->defined)
            textout_plain(out, c->name, strlen(c->name));
        else
            fprintf(out, "(undefined counter 0x%" PRIx64 ")", c->id);
        if (c->table) {
            fputs("  [", out);
            textout_plain(out, c->table, strlen(c->table));
            fputc(']', out);
        }
        fputc('\n', out);
    }
    if (v.count > TICKY_SUMMARY_LINES)
        fprintf(out, "  ... %zu more counters (--summary=json lists them all)\n",
                v.count - TICKY_SUMMARY_LINES);
    if (v.totals.moving)
        format_fprintf(out, "  %zu %s at work at the last sample (%.2f s): what %s did "
                       "after it is in no event (the runtime writes none at exit)\n",
                       v.totals.moving, v.totals.moving == 1 ? "counter was" : "counters were",
                       v.totals.last_sample_ns / 1e9, v.totals.moving == 1 ? "it" : "they");
    if (v.totals.dropped)
        fprintf(out, "  %" PRIu64 " events of counters past the first %u were not counted\n",
                v.totals.dropped, TICKY_MAX_COUNTERS);
    free(v.sorted);
}

static void json_share(struct json_writer *w, const char *key, const struct ticky_view *v,
                       uint64_t bytes)
{
    json_member_double_or_null(w, key, v->has_allocated, share(v, bytes));
}

static void json_counter(struct json_writer *w, const struct ticky_view *v,
                         const struct ticky_counter *c)
{
    json_newline(w);
    json_object_begin(w);
    json_member_cstring(w, "name", name_of(c));
    json_member_uint(w, "arity", c->arity);
    json_member_cstring(w, "kinds", c->kinds ? c->kinds : "");
    json_member_uint(w, "entries", c->entries);
    json_member_uint(w, "allocs", c->allocs);
    json_member_uint(w, "allocd", c->allocd);
    json_member_bool(w, "defined", c->defined);
    char info[24];
    snprintf(info, sizeof info, "0x%" PRIx64, c->info);
    json_member_cstring(w, "info", info);
    json_key(w, "info_table");
    if (c->table)
        json_cstring(w, c->table);
    else
        json_null(w);
    json_share(w, "alloc_share", v, c->allocs);
    json_member_uint(w, "samples", c->samples);
    textout_json_member_seconds(w, "last_sample_s", c->last_sample_ns);
    json_object_end(w);
}

/* The largest counters over time: "series", with the columns' end times, the samples
 * each point sums, and per counter its entries and allocation at each point. */
static void json_series(struct json_writer *w, const struct run_model *run,
                        const struct ticky_view *v)
{
    struct ticky_columns cols;
    ticky_columns(run_model_ticky(run), &cols);
    json_newline(w);
    json_key(w, "series");
    json_object_begin(w);
    json_member_uint(w, "samples_per_point", cols.per_col);
    json_key(w, "times_s");
    json_array_begin(w);
    for (size_t i = 0; i < cols.used; i++)
        textout_json_seconds(w, cols.end_ns[i]);
    json_array_end(w);
    json_key(w, "counters");
    json_array_begin(w);
    size_t shown = 0;
    for (size_t i = 0; i < v->count && shown < TICKY_SERIES_SHOWN; i++) {
        const struct ticky_counter *c = v->sorted[i];
        if (!c->series)
            continue;
        shown++;
        json_newline(w);
        json_object_begin(w);
        json_member_cstring(w, "name", name_of(c));
        json_key(w, "entries");
        json_array_begin(w);
        for (size_t k = 0; k < cols.used; k++)
            json_uint(w, c->series[k].entries);
        json_array_end(w);
        json_key(w, "allocs");
        json_array_begin(w);
        for (size_t k = 0; k < cols.used; k++)
            json_uint(w, c->series[k].allocs);
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

static void ticky_summary_json(struct json_writer *w, const struct run_model *run)
{
    struct ticky_view v;
    if (!textout_json_section(w, "ticky", view_open(run, &v)))
        return;
    json_member_uint(w, "samples", v.totals.samples);
    textout_json_member_seconds(w, "last_sample_s", v.totals.last_sample_ns);
    json_member_uint_or_null(w, "allocated_bytes", v.has_allocated, v.allocated_bytes);
    json_share(w, "covered", &v, v.totals.allocs);
    json_member_uint(w, "dropped_events", v.totals.dropped);
    json_member_uint(w, "moving_at_last_sample", v.totals.moving);
    json_key(w, "counters");
    json_array_begin(w);
    for (size_t i = 0; i < v.count; i++)
        json_counter(w, &v, v.sorted[i]);
    json_array_end(w);
    json_member_uint(w, "series_cut", v.totals.series_cut);
    json_series(w, run, &v);
    json_object_end(w);
    free(v.sorted);
}

bool ticky_summary_csv(FILE *out, const struct run_model *run)
{
    struct ticky_view v;
    if (!view_open(run, &v))
        return false;
    fputs("name,arity,kinds,entries,allocs,allocd,alloc_share,info,info_table\r\n", out);
    for (size_t i = 0; i < v.count; i++) {
        const struct ticky_counter *c = v.sorted[i];
        textout_csv_field(out, name_of(c), strlen(name_of(c)));
        fprintf(out, ",%u,", c->arity);
        textout_csv_field(out, c->kinds ? c->kinds : "", c->kinds ? strlen(c->kinds) : 0);
        fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", c->entries, c->allocs, c->allocd);
        if (v.has_allocated)
            format_fprintf(out, "%.6f", share(&v, c->allocs));
        fprintf(out, ",0x%" PRIx64 ",", c->info);
        if (c->table)
            textout_csv_field(out, c->table, strlen(c->table));
        fputs("\r\n", out);
    }
    free(v.sorted);
    return true;
}

static void ticky_summary_markdown(FILE *out, const struct run_model *run)
{
    struct ticky_view v;
    if (!view_open(run, &v))
        return;
    fputs("\n#### Ticky counters\n\n| Counter | Arity | Kinds | Entries | Allocs | Allocd "
          "| Share |\n| :--- | ---: | :--- | ---: | ---: | ---: | ---: |\n", out);
    for (size_t i = 0; i < v.count && i < TICKY_SUMMARY_LINES; i++) {
        const struct ticky_counter *c = v.sorted[i];
        fputs("| ", out);
        textout_markdown(out, name_of(c), strlen(name_of(c)));
        fprintf(out, " | %u | ", c->arity);
        textout_markdown(out, c->kinds ? c->kinds : "", c->kinds ? strlen(c->kinds) : 0);
        fprintf(out, " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | ", c->entries, c->allocs,
                c->allocd);
        if (v.has_allocated)
            format_fprintf(out, "%.1f %%", 100 * share(&v, c->allocs));
        else
            fputs("?", out);
        fputs(" |\n", out);
    }
    format_fprintf(out, "\n%zu counters, %" PRIu64 " samples", v.count, v.totals.samples);
    if (v.count > TICKY_SUMMARY_LINES)
        fprintf(out, " (the %d most allocating shown)", TICKY_SUMMARY_LINES);
    if (v.has_allocated)
        format_fprintf(out, "; the counters allocated %.1f %% of the run's allocation",
                       100 * share(&v, v.totals.allocs));
    fputs(".\n", out);
    free(v.sorted);
}

const struct summary_part ticky_summary_part = {
    .text = ticky_summary_text,
    .json = ticky_summary_json,
    .markdown = ticky_summary_markdown,
};
