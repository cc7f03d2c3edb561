/* summary_facts.h: what every summary format says, worked out once.
 *
 * The text and JSON summaries (sink_summary.c), the Markdown one (summary_markdown.c)
 * and the --max-increase gate (gates.h) say the same things: the bands of the run in the
 * order in force, and with --compare this run's peak against the base's, the change in
 * bytes and as a signed percentage, every band of both runs paired with its change, and
 * the largest changes both ways (growth.h). This
 * module is where that is decided, so the formats only differ in how they write it.
 */
#ifndef EV2HP_SUMMARY_FACTS_H
#define EV2HP_SUMMARY_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/peak.h"
#include "model/profile.h"
#include "facts/growth.h"

struct run_model;   /* runmodel.h */
struct chart_options;   /* chart.h */
struct ev_error;   /* base/error.h */
struct trend_commit;   /* model/trend.h */

/* Settings of --summary (and of --junit's text summary). */
struct summary_settings {
    const struct chart_options *chart; /* the window, the order of bands and (Markdown)
                                        * their number; NULL = defaults */
    bool system_ccs;            /* the time profile part */
    bool unicode;               /* text: a sparkline per band (a UTF-8 locale) */
    const struct trend_commit *commit;  /* JSON: the run's commit (--commit); NULL: none */
    const char *report_url;     /* Markdown: each band links to it (sink/reportlink.h) */
};

/* The profile options of a summary's view: every band, none folded into OTHER, in the
 * order of --sort and --reverse (the window is the run model's: growth is over it). */
void summary_view_options(const struct summary_settings *settings,
                          struct profile_options *out);

/* A summary's view of a run: the bands of the profile the run kept for summaries
 * (run_model_summary), selected by the options asked for; view points into profile. */
struct summary_view {
    struct profile *profile;
    struct profile_view view;
};

/* Opens run's summary view under opt: 0, or -1 with err set (out of memory, or the run
 * was not asked for a summary profile), errno ENOMEM, and nothing to close. */
int summary_view_open(struct summary_view *sv, const struct run_model *run,
                      const struct profile_options *opt, struct ev_error *err);
void summary_view_close(struct summary_view *sv);

#define SUMMARY_GREW_MOST 10    /* bands listed as grown most, and as shrunk most */

struct summary_change {
    const struct run_model *base;
    int64_t bytes;               /* this peak minus the base's, held to what int64 says */
    double percent;              /* of the base's peak; NAN when the base peak is 0 */
    /* Every band of both runs, paired (growth.h), the largest growth first, the largest
     * shrinkage last; NULL (count 0) when out of memory (no_memory set). */
    struct band_change *bands;
    size_t band_count;
    bool no_memory;
    size_t grew_count;           /* bands[0 .. grew_count-1]: grew most (now > base) */
    size_t shrank_count;         /* the last shrank_count bands, largest shrinkage last */
    /* what the views of both runs own: the labels bands point to */
    struct summary_view base_view;
    bool has_base_view;
};

/* The change from base to this run (its exact peak pk, its information now_info and
 * bands now_bands, and now: its summary's view, which owns the labels of its bands).
 * Free with summary_change_free. */
void summary_change_of(const struct run_model *base, const struct peak *pk,
                       const struct run_info *now_info, const struct bands *now_bands,
                       const struct profile_view *now, struct summary_change *c);
void summary_change_free(struct summary_change *c);

/* The i-th band that shrank most (i < c->shrank_count), the largest shrinkage first. */
const struct band_change *summary_shrank(const struct summary_change *c, size_t i);

/* The change of peak in percent of the base's peak (NAN when that is 0). */
double summary_percent_change(uint64_t base_bytes, uint64_t now_bytes);

/* A signed percentage as the summaries print it: "+100 %", "-12.5 %", "0 %"; "new" for
 * NAN (nothing to compare with). */
void summary_format_percent(double percent, char *out, size_t size);

/* With --compare, when the run and the base are broken down differently (both known):
 * true, the words in out (breakdown_mismatch). The summaries say it in their comparison:
 * it is why the bands do not match, no damage to either run. */
struct run_info;   /* model/frame.h */
bool summary_breakdown_mismatch(const struct run_info *now, const struct run_model *base,
                                char *out, size_t size);

/* Whether the run has no heap census (a time profile, or a heap profile that ended
 * before its first census): the summaries then write no peak, band table or suspects of
 * it (none of them has anything true to say), whatever the base has. */
bool summary_heapless(const struct run_model *run);

/* The heap's growth over the run (the window): the least-squares slope of the census
 * totals against time, in bytes per second, as the sum of every band's slope in the
 * summary's view (exact: slopes add, every band counted 0 where absent). The JSON
 * summary's `growth_bytes_per_s`, --summary=benchmark's "heap growth" and --trend's. */
double summary_heap_growth(const struct profile_view *v);

/* With --compare, when only one of the two runs has a heap census (a heap run beside a
 * time profile): which one lacks it, in words ("the base has no heap census"), for the
 * summaries to say instead of a change of peak from or to 0 B; NULL when both have
 * censuses or neither. */
const char *summary_heap_one_sided(const struct run_model *run, const struct run_model *base);

/* The run's warnings (*warnings) and how many of them are notes (*notes; error.h) among the count in list: the
 * summaries list the damage, then the notes. */
void summary_warning_counts(const struct ev_error *list, const size_t *count,
                            size_t *warnings, size_t *notes);

/* --from/--to (settings' chart options): whether the summary's figures (census count,
 * peak, bands, suspects, gates) are of a window of the run, with its words into out
 * ("0.394826 s to 1.667976 s", "... to the end"): the summaries say so beside the run's
 * duration. */
bool summary_window(const struct summary_settings *settings, char *out, size_t size);

/* --diff-normalize (settings' chart options): the time profiles' change ranked by share. */
bool summary_by_share(const struct summary_settings *settings);

#endif
