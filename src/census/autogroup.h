/* autogroup.h: the key the default outputs group bands by when OTHER holds the heap.
 *
 * A -hi run of a program built with -fdistinct-constructor-tables has thousands of info
 * tables, each a small share of the heap: the largest --bands of them (15) leave most of
 * the peak in the grey OTHER band, and the chart, the report and the summary show nothing
 * of what the heap holds. The same happens to a -hc run of thousands of stacks. Grouping
 * the bands by a key (grouping.h) shows it: `[]`, `Box`, `Int` instead of twelve 720-byte
 * tables.
 *
 * The rule (doc/DESIGN.md, "Defaults that show the heap"), decided once from the whole
 * run: when OTHER's peak over the kept censuses is above AUTOGROUP_TRIGGER_SHARE of the
 * run's peak, the candidate keys of its breakdown are weighed in a fixed order (-hi: type,
 * closure, module; -hc: cc, module), each by the OTHER the same selection would leave
 * were the bands merged by it (profile_grouped_other, exact over the kept censuses); the
 * first that brings OTHER to at most AUTOGROUP_TARGET_SHARE is chosen, else the one that leaves the
 * least OTHER (the earlier on a tie) when it leaves less than the bands as they are. A
 * key no band has (a .hp, tables without IPE events) is no candidate. Nothing is printed
 * here: the caller regroups (convert.c) and every grouped output says so, with the flag
 * that undoes it (autogroup_note).
 */
#ifndef EV2HP_AUTOGROUP_H
#define EV2HP_AUTOGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "census/grouping.h"
#include "model/profile.h"

/* OTHER above this share of the peak (most of it, as the issue has it) triggers the
 * grouping: a run whose named bands hold half its peak shows the heap already, and is
 * read once, as before. */
#define AUTOGROUP_TRIGGER_SHARE 0.5
/* The chosen key is the first to bring OTHER to at most this share. */
#define AUTOGROUP_TARGET_SHARE 0.25

struct autogroup {
    bool grouped;               /* the default outputs are to be grouped by key */
    enum group_key key;
    bool stacks;                /* the bands are stacks (-hc), else info tables (-hi) */
    uint32_t bands;             /* bands with bytes, as they are */
    unsigned shown;             /* --bands: how many the chart shows besides OTHER */
    double other_share;         /* OTHER's peak / the peak: the bands as they are */
    double grouped_share;       /* and grouped by key */
};

/* Decides from p (a profile of the run fed every band: no --include/--exclude), the
 * charts' selection rule (--bands, --trace; --bands 0 shows every band: never grouped)
 * and what names its bands, whose breakdown is breakdown (enum breakdown). a->grouped false:
 * the bands stay as they are (OTHER small enough, no candidate key, or none better).
 * 0, or -1 when out of memory. */
int autogroup_choose(const struct profile *p, const struct bandselect_rule *rule,
                     const struct group_source *src, uint32_t breakdown, struct autogroup *a);

/* The --group-by value that keeps the bands as they are: "table" (-hi) or "stack" (-hc). */
const char *autogroup_undo(const struct autogroup *a);

/* Why the bands were grouped: "the 15 largest of 13276 info tables left 77 % of the peak
 * in OTHER (16 % grouped)". */
void autogroup_reason(const struct autogroup *a, char *out, size_t size);

/* What every grouped output says, one phrase without a final stop: "grouped by type: "
 * and the reason, then "; --group-by table shows every table". */
#define AUTOGROUP_NOTE_MAX 256
void autogroup_note(const struct autogroup *a, char *out, size_t size);

#endif
