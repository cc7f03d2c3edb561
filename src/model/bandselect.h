/* bandselect.h: which bands count and which are shown.
 *
 * Label filters (--include / --exclude, POSIX extended regular expressions) are decided
 * once per band: an excluded band is not in any kept census, total or statistic.
 *
 * Of the bands that count, a chart shows some (hp2pretty / eventlog2html style): bands
 * are ranked by area (byte-seconds; by peak when there is no area); those under
 * trace_percent of the total area, and those past the first `bands`, fold into one OTHER
 * band; the shown ones are then ordered by the chosen sort.
 */
#ifndef EV2HP_BANDSELECT_H
#define EV2HP_BANDSELECT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/limits.h"
#include "model/bands.h"
#include "model/bandstats.h"

enum profile_sort { PROFILE_SORT_SIZE, PROFILE_SORT_STDDEV, PROFILE_SORT_NAME, PROFILE_SORT_GROWTH };

/* Which sort a name (size, stddev, name, growth) means; false when none. */
bool profile_sort_from_name(const char *name, enum profile_sort *sort);

/* Checks a --include/--exclude pattern; 0, or -1 with err set to what regcomp says. */
int profile_check_pattern(const char *pattern, struct ev_error *err);

/* --- filters ----------------------------------------------------------------------- */

struct bandfilter {
    regex_t include[PROFILE_MAX_FILTERS];
    regex_t exclude[PROFILE_MAX_FILTERS];
    size_t include_count, exclude_count;
    signed char *decided;           /* per band: 0 not yet, 1 kept, -1 dropped */
    size_t cap;
};

/* NULL-free patterns; 0, or -1 with err set (a bad pattern). bandfilter_free frees what
 * it holds, also after a failed init. */
int bandfilter_init(struct bandfilter *f, const char *const *include, size_t include_count,
                    const char *const *exclude, size_t exclude_count, struct ev_error *err);
void bandfilter_free(struct bandfilter *f);
/* Room for bands below needed; 0, or -1 when out of memory. */
int bandfilter_grow(struct bandfilter *f, size_t needed);
/* The decisions of from (same patterns) copied into to; 0, or -1 when out of memory. */
int bandfilter_copy_decisions(struct bandfilter *to, const struct bandfilter *from);
/* Decides a band not decided yet (its label, from bands). */
bool bandfilter_decide(struct bandfilter *f, uint32_t band, const struct bands *bands);

/* Whether a band (below the grown size) passes the filters. Inline: once per entry. */
static inline bool bandfilter_kept(struct bandfilter *f, uint32_t band, const struct bands *bands)
{
    if (!f->include_count && !f->exclude_count)
        return true;
    if (f->decided[band])
        return f->decided[band] > 0;
    return bandfilter_decide(f, band, bands);
}

/* How many bands the filters dropped. */
uint32_t bandfilter_dropped(const struct bandfilter *f);

/* --- the shown bands --------------------------------------------------------------- */

#define PROFILE_OTHER UINT32_MAX    /* the band id of OTHER in a view */

struct profile_band {
    uint32_t band;                  /* the band, or PROFILE_OTHER */
    const char *label;              /* "OTHER" for OTHER; owned by the view */
    struct profile_band_stats stats; /* for OTHER: area and mean exact, peak over kept
                                        censuses, stddev 0 */
    uint32_t folded;                /* for OTHER: how many bands it holds */
    uint32_t stack_number;          /* a stack band's "(n)" in the .hp; 0 for others */
};

/* Bands to show whatever their rank (--compare shows the union of two runs' largest):
 * wants says yes for a label (len bytes, not NUL-terminated). */
struct profile_keep {
    bool (*wants)(void *ctx, const char *label, size_t len);
    void *ctx;
};

struct bandselect_rule {
    unsigned bands;                 /* bands shown besides OTHER; 0 = all */
    double trace_percent;           /* bands under this % of the total area fold */
    enum profile_sort sort;
    bool reverse;
};

/* The choice: every band with bytes, the shown ones first (in the sort's order, each with
 * its label, NUL-terminated and owned here), then the folded ones by rank. */
struct band_selection {
    struct profile_band *band;      /* count of them; folded, stack_number 0 */
    size_t count, shown;
    double total_area;              /* of every band with bytes */
};

/* Ranks r (n bands or groups, by stats.area, then stats.peak, then band) and returns how
 * many of the first the rule shows (before any kept ones); *total_area: their sum. The one
 * ranking rule: bandselect_choose ranks bands by it, and the default grouping
 * (profile_grouped_other) groups. */
size_t bandselect_rank(struct profile_band *r, size_t n, const struct bandselect_rule *rule,
                       double *total_area);

/* 0, or -1 when out of memory. */
int bandselect_choose(const struct bandstats *s, const struct bands *bands,
                      const struct bandselect_rule *rule, const struct profile_keep *keep,
                      struct band_selection *sel);
void band_selection_free(struct band_selection *sel);

#endif
