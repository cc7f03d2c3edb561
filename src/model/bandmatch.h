/* bandmatch.h: which band of one run is which band of another (--compare).
 *
 * Two runs of one program name their bands alike but rarely identically: the runtime
 * numbers cost-centre stacks ("(8)buildTable/main" in one build, "(12)buildTable/main" in
 * the next; ev2hp numbers an eventlog's stacks itself), a .hp cuts a stack's name at the
 * -L the program ran with ("buildMap.\/buildMap/m...") where an eventlog has it whole, and
 * with -hi an info table's name carries a compiler's unique ("sat_s4yo_info") that the
 * next build renames while the closure stays where it was. This module is the one rule
 * every output that reads a base goes through (the summaries, the charts, the report,
 * the folded stacks), so they all agree on which bands correspond:
 *
 *   1. same: the labels are equal.
 *   2. renumbered: the labels are equal once each one's leading "(n)" stack number is
 *      dropped (bands_shown_label), and the numbers differ: the "(n)" a .hp prints, or
 *      the cost-centre numbers an eventlog's stack is made of.
 *   3. cut: one run's labels are a .hp's, cut at -L, and the other's are whole (an
 *      eventlog's): the cut label "P..." stands for a whole label that starts with P and
 *      is longer than -L (L = length of P + 4, the runtime's arithmetic, ccslabel.c), and
 *      a label the runtime did not cut for the whole label equal to it. Every pair of
 *      such runs is "cut", also where the label was short enough to stay whole: the
 *      runs' labels were compared in the cut form.
 *   4. location (-hi only): "name :: type at file:span" descriptions whose type and
 *      source location agree, and whose closure types (the band's kind, from its IPE
 *      event) agree where both runs know them, the table names differing.
 *   5. none: a band only one run shows (new, or gone).
 *
 * Each band is in at most one pair. When several bands of one run have the same key (two
 * stacks cut to the same text), they pair in the order given with the other run's bands
 * of that key: callers list bands largest first, so the largest pairs with the largest.
 * Rules 1-3 are tried before 4, and a band paired by an earlier rule is not paired again.
 * The join is a hash join (base/intern): the cost is one look-up per band, not a scan of
 * the other run per band.
 */
#ifndef EV2HP_BANDMATCH_H
#define EV2HP_BANDMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

struct bands;   /* bands.h */

enum band_match {
    BAND_MATCH_NONE,
    BAND_MATCH_SAME,
    BAND_MATCH_RENUMBERED,
    BAND_MATCH_CUT,
    BAND_MATCH_LOCATION,
};

/* "none", "same", "renumbered", "cut", "location": the words the summaries write. */
const char *band_match_name(enum band_match how);

/* One run's bands as matching reads them. */
struct bandmatch_run {
    const char *const *labels;     /* count NUL-terminated labels, "(n)" prefix and all */
    size_t count;
    /* Or NULL: per band, the cost-centre numbers of its stack (bands_stack_ids; NULL for
     * a string band); labels equal with numbers that differ are renumbered. */
    const unsigned char *const *ids;
    const size_t *ids_len;
    bool cut;                      /* stack labels cut at -L (a .hp of -hc) */
    bool located;                  /* -hi descriptions: rule 4 applies */
    /* Or NULL: per band, its kind (bands_attr BAND_KIND: an info table's closure type;
     * NULL when not known), kind_lens[i] bytes; rule 4 wants it equal where both runs
     * know it. */
    const char *const *kinds;
    const size_t *kind_lens;
};

/* Every band of a band table (band ids as indices), for matching whole runs: labels as
 * people are shown them (bands_display_label) with the stacks' cost-centre numbers, of the
 * kind info says. 0, or -1 when out of memory; free with bandmatch_run_free. */
int bandmatch_run_of_bands(const struct bands *bands, const struct run_info *info,
                           struct bandmatch_run *run);
void bandmatch_run_free(struct bandmatch_run *run);

#define BANDMATCH_ABSENT SIZE_MAX

/* A band of both runs, or of one (the other index BANDMATCH_ABSENT, how NONE). */
struct bandmatch_pair {
    size_t base, now;              /* indices into the runs' labels */
    enum band_match how;
};

/* Every band of both runs, each in exactly one pair: first now's bands in their order
 * (each with its base band, if any), then the base's bands no band of now matched, in
 * their order. *pairs is malloc'd (the caller frees it), *count pairs long. 0, or -1
 * when out of memory (nothing to free). */
int bandmatch(const struct bandmatch_run *base, const struct bandmatch_run *now,
              struct bandmatch_pair **pairs, size_t *count);

/* One run's view of its bands (profile.h), for pairing what two views show: the band
 * table naming them (for the stacks' cost-centre numbers; NULL: not compared) and the
 * run's information (what it says of the labels: cut, located). */
struct profile_view;   /* profile.h */
struct bandmatch_view {
    const struct profile_view *view;
    const struct bands *bands;
    const struct run_info *info;
};

/* bandmatch over the bands two views show, OTHER left out in both: the pairs' indices
 * are the views' band indices. 0, or -1 when out of memory; *pairs as bandmatch's. */
int bandmatch_views(const struct bandmatch_view *base, const struct bandmatch_view *now,
                    struct bandmatch_pair **pairs, size_t *count);

#endif
