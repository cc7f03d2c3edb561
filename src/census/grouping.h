/* grouping.h: bands merged by a key of their own (--group-by), exactly.
 *
 * A -hi run of a program built with -fdistinct-constructor-tables has tens of thousands of
 * bands, one per info table; what a person asks is often by type, by module or by source
 * file. Grouping sits between the census assembler (or the .hp reader) and everything
 * that consumes censuses: each band is mapped once to its group, and each census is
 * passed on with one entry per group, the sum of its members' bytes in that census. So
 * every output (the .hp, whose labels are then the groups, CSV, JSON, charts, the report,
 * the summary, the live server) sees the groups as its bands, and a group's bytes in a
 * census are exactly its members'.
 *
 * Keys: for an info-table profile (-hi), an IPE field of the table (type, closure type,
 * module, source file, source location); for a cost-centre-stack profile (-hc), the
 * innermost cost centre ("Module.label") or its module. A band the key says nothing of
 * (an info table without an IPE event, a stack in a .hp, which names no cost centre)
 * stays a band of its own, under its own label and description. That rule is one function,
 * grouping_band_key, which the HTML report also asks to write each band's groups for its
 * grouping control (sink_html.c), so the page regroups exactly as --group-by does.
 */
#ifndef EV2HP_GROUPING_H
#define EV2HP_GROUPING_H

#include <stdbool.h>
#include <stdint.h>

#include "census/costcentres.h"
#include "census/ipe.h"
#include "model/bands.h"
#include "model/frame.h"

enum group_key {
    GROUP_NONE,                 /* table (-hi), stack (-hc): every band its own */
    GROUP_TYPE, GROUP_CLOSURE, GROUP_MODULE, GROUP_FILE, GROUP_LOCATION, /* -hi; module also -hc */
    GROUP_CC,                   /* -hc: the innermost cost centre */
};

/* The key a --group-by name means (table, type, closure, module, file, location; stack,
 * cc, module; none, for either breakdown); false when none. */
bool group_key_from_name(const char *name, enum group_key *key);
/* The names, for messages: "table, type, ...". */
extern const char group_key_names[];
/* The --group-by name of a key ("type", "cc", ...); for GROUP_NONE, "table" when the
 * profile's bands are info tables, "stack" when stacks (stacks true). */
const char *group_key_name(enum group_key key, bool stacks);

/* What names a profile's bands: their table, and what names them (ipe, ccs: either may
 * be NULL). */
struct group_source {
    const struct bands *bands;
    const struct ipe_names *ipe;
    const struct costcentres *ccs;
    /* the run's information, read when a key is asked (RTS_IDENTIFIER names a closure
     * type's number for its GHC version); NULL: the number is said as one */
    const struct run_info *info;
};

/* Room for a key text grouping_band_key makes (a cost centre "Module.label"). */
#define GROUP_KEY_TEXT 512

/* The one rule of grouping: the group band belongs to under key, as its key text (*len
 * bytes, not NUL-terminated; in text or in what names the band, valid while both are),
 * or NULL when the key says nothing of the band (no IPE event or an empty field, a stack
 * whose innermost cost centre is not known, GROUP_NONE): it stays a group of its own,
 * under its own label. Grouping (below) and the report's grouping control (sink_html.c)
 * both ask it. */
const char *grouping_band_key(enum group_key key, const struct group_source *src, uint32_t band,
                              char text[GROUP_KEY_TEXT], size_t *len);

struct grouping;

/* Passes censuses on to out grouped by key; NULL when out of memory. */
struct grouping *grouping_new(enum group_key key, const struct census_events *out);
void grouping_free(struct grouping *g);

/* Where bands come from: their table, and what names them (either may be NULL). Set
 * before the first census. */
void grouping_source(struct grouping *g, const struct group_source *src);

/* The callbacks the reader is given: censuses grouped, markers and totals as they are. */
struct census_events grouping_events(struct grouping *g);

/* The groups, as bands: what the consumers of out read labels from. */
const struct bands *grouping_bands(const struct grouping *g);

/* Maps a source band (named by the source) to its group, as censuses are: 0 and *group
 * (a band of grouping_bands), or -1 when out of memory (or the table is full). */
int grouping_map_band(struct grouping *g, uint32_t band, uint32_t *group);

/* Whether some band had a key (false: the key does not apply to this profile). */
bool grouping_applied(const struct grouping *g);

#endif
