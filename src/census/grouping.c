/* grouping.c: bands merged by a key (grouping.h).
 *
 * Each source band is mapped to its group the first time a census holds it (the reader
 * names a band before any census holding it is passed on: IPE events and cost centres
 * come first). A census is then one pass over its entries: the entry's group, and the
 * group's running sum in this census, found through a per-group slot reset after the
 * census.
 */
#include "census/grouping.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/utf8.h"
#include "census/ccframe.h"
#include "census/closuretypes.h"
#include "read/evdecode.h"

const char group_key_names[] = "table, type, closure, module, file, location (-hi); "
                               "stack, cc, module (-hc); none (either: the bands as they are)";

bool group_key_from_name(const char *name, enum group_key *key)
{
    static const struct { const char *name; enum group_key key; } keys[] = {
        { "table", GROUP_NONE }, { "stack", GROUP_NONE }, { "none", GROUP_NONE },
        { "type", GROUP_TYPE }, { "closure", GROUP_CLOSURE }, { "module", GROUP_MODULE },
        { "file", GROUP_FILE }, { "location", GROUP_LOCATION }, { "cc", GROUP_CC },
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(name, keys[i].name) == 0) {
            *key = keys[i].key;
            return true;
        }
    return false;
}

const char *group_key_name(enum group_key key, bool stacks)
{
    switch (key) {
    case GROUP_TYPE: return "type";
    case GROUP_CLOSURE: return "closure";
    case GROUP_MODULE: return "module";
    case GROUP_FILE: return "file";
    case GROUP_LOCATION: return "location";
    case GROUP_CC: return "cc";
    case GROUP_NONE: break;
    }
    return stacks ? "stack" : "table";
}

struct grouping {
    enum group_key key;
    struct census_events out;
    struct group_source src;
    struct bands *groups;
    uint32_t *group_of;          /* per source band: its group + 1; 0 not mapped yet */
    size_t group_of_cap;
    uint32_t *slot;              /* per group: its entry in this census + 1; 0 none */
    size_t slot_cap;
    struct census_entry *entries;
    size_t entries_cap;
    bool applied;
    char text[GROUP_KEY_TEXT];
};

struct grouping *grouping_new(enum group_key key, const struct census_events *out)
{
    struct grouping *g = calloc(1, sizeof *g);
    if (!g || !(g->groups = bands_new())) {
        free(g);
        return NULL;
    }
    g->key = key;
    g->out = *out;
    return g;
}

void grouping_free(struct grouping *g)
{
    if (!g)
        return;
    bands_free(g->groups);
    free(g->group_of);
    free(g->slot);
    free(g->entries);
    free(g);
}

void grouping_source(struct grouping *g, const struct group_source *src)
{
    g->src = *src;
}

const struct bands *grouping_bands(const struct grouping *g)
{
    return g->groups;
}

bool grouping_applied(const struct grouping *g)
{
    return g->applied;
}

/* The key text of an info table (the band labelled by its address), from its IPE event
 * (or its symbol: ipe.h);
 * NULL when it has none or the event leaves that part out. A closure type the runtime
 * writes as a number (GHC 9.4 and later) is said to be one. */
static const char *table_key(enum group_key k, const struct group_source *src,
                             const char *label, size_t len, char text[GROUP_KEY_TEXT],
                             size_t *key_len)
{
    const struct ipe_info *info = src->ipe ? ipe_names_info(src->ipe, label, len) : NULL;
    const char *key = NULL;
    if (!info)
        return NULL;
    switch (k) {
    /* a table named from its symbol (--binary) has no type: the constructor or closure
     * it names stands for it, so that its tables (one per -fdistinct-constructor-tables
     * module) join */
    case GROUP_TYPE: key = info->from_symbol ? info->table_name : info->type_desc; break;
    case GROUP_MODULE: key = info->module; break;
    case GROUP_FILE: key = info->file; break;
    case GROUP_LOCATION: key = info->location; break;
    case GROUP_CLOSURE:
        key = info->closure_desc;
        if (*key && strspn(key, "0123456789") == strlen(key) && strlen(key) < 9) {
            /* named as the run's GHC numbers them (pprof's frames say the same) */
            const char *name = closure_type_name(key, src->info ? src->info->rts_version : NULL);
            if (name)
                key = name;
            else {
                snprintf(text, GROUP_KEY_TEXT, "closure type %s", key);
                key = text;
            }
        }
        break;
    case GROUP_NONE:
    case GROUP_CC:
        break;
    }
    if (!key || !*key)
        return NULL;
    *key_len = strlen(key);
    return key;
}

/* The key text of a stack band (its innermost cost centre, or that one's module), or
 * NULL. */
static const char *stack_key(enum group_key k, const struct group_source *src, uint32_t band,
                             char text[GROUP_KEY_TEXT], size_t *len)
{
    size_t ids_len;
    const unsigned char *ids = bands_stack_ids(src->bands, band, &ids_len);
    struct ccs_name name;
    if (!ids || ids_len < 4 || !src->ccs)
        return NULL;
    struct ev_ccs ccs = { (unsigned)(ids_len / 4), ids };
    if (!costcentres_lookup(src->ccs, ev_ccs_id(&ccs, 0), &name))
        return NULL;
    if (k == GROUP_MODULE) {
        *len = name.module_len;
        return name.module_len ? name.module : NULL;
    }
    /* the frame name folded stacks and pprof give it; one too long for text is cut
     * where a character ends, never inside one (the byte past the cut tells: full
     * holds it) */
    struct cc_frame frame = { name.label, name.label_len, name.module, name.module_len, "" };
    char full[GROUP_KEY_TEXT + 1];
    size_t n = ccframe_name(&frame, full, sizeof full);
    *len = n < GROUP_KEY_TEXT ? n : utf8_boundary(full, GROUP_KEY_TEXT - 1);
    memcpy(text, full, *len);
    return text;
}

const char *grouping_band_key(enum group_key key, const struct group_source *src, uint32_t band,
                              char text[GROUP_KEY_TEXT], size_t *len)
{
    size_t label_len = 0;
    const char *found = NULL, *label = bands_label(src->bands, band, &label_len);
    if (key == GROUP_NONE)
        return NULL;
    if (key != GROUP_CC && label)
        found = table_key(key, src, label, label_len, text, len);
    if (!found && (key == GROUP_CC || key == GROUP_MODULE))
        found = stack_key(key, src, band, text, len);
    return found;
}

int grouping_map_band(struct grouping *g, uint32_t band, uint32_t *group)
{
    if (band >= g->group_of_cap &&
        GROW_ARRAY_ZEROED(g->group_of, &g->group_of_cap, (size_t)band + 1) != 0)
        return -1;
    if (g->group_of[band]) {
        *group = g->group_of[band] - 1;
        return 0;
    }
    size_t len = 0, desc_len;
    const char *label, *key = grouping_band_key(g->key, &g->src, band, g->text, &len);
    enum table_status st;
    if (key) {
        g->applied = true;
        st = bands_string(g->groups, key, len, group);
    } else {
        /* a band of its own: its label (the .hp's), its description (what people read) */
        label = bands_label(g->src.bands, band, &len);
        st = bands_string(g->groups, label ? label : "", label ? len : 0, group);
        const char *desc = bands_display_label(g->src.bands, band, &desc_len);
        if (st == TABLE_OK && desc && (desc_len != len || memcmp(desc, label, len) != 0))
            st = bands_describe(g->groups, *group, desc, desc_len);
    }
    if (st != TABLE_OK)
        return -1;
    g->group_of[band] = *group + 1;
    return 0;
}

static int grouped_frame(void *ctx, const struct census_frame *frame)
{
    struct grouping *g = ctx;
    if (frame->count > g->entries_cap &&
        GROW_ARRAY(g->entries, &g->entries_cap, frame->count) != 0)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < frame->count; i++) {
        uint32_t group;
        if (grouping_map_band(g, frame->entries[i].band, &group) != 0)
            return -1;
        if (group >= g->slot_cap &&
            GROW_ARRAY_ZEROED(g->slot, &g->slot_cap, (size_t)group + 1) != 0)
            return -1;
        if (g->slot[group]) {
            g->entries[g->slot[group] - 1].bytes += frame->entries[i].bytes;
            continue;
        }
        g->entries[n] = (struct census_entry){ group, frame->entries[i].bytes };
        g->slot[group] = (uint32_t)++n;
    }
    for (size_t i = 0; i < n; i++)
        g->slot[g->entries[i].band] = 0;
    struct census_frame grouped = *frame;
    grouped.entries = g->entries;
    grouped.count = n;
    return g->out.frame ? g->out.frame(g->out.ctx, &grouped) : 0;
}

static int grouped_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct grouping *g = ctx;
    return g->out.marker ? g->out.marker(g->out.ctx, time_ns, text, len) : 0;
}

static int grouped_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct grouping *g = ctx;
    return g->out.total ? g->out.total(g->out.ctx, kind, time_ns, bytes) : 0;
}

static int grouped_gc(void *ctx, const struct gc_event *event)
{
    struct grouping *g = ctx;
    return g->out.gc(g->out.ctx, event);
}

static int grouped_ticky(void *ctx, const struct ticky_event *event)
{
    struct grouping *g = ctx;
    return g->out.ticky(g->out.ctx, event);
}

struct census_events grouping_events(struct grouping *g)
{
    /* The collector's and ticky's events pass only where someone reads them
     * (census_events.gc, .ticky). */
    return (struct census_events){ grouped_frame, grouped_marker, grouped_total, g,
                                   g->out.gc ? grouped_gc : NULL,
                                   g->out.ticky ? grouped_ticky : NULL };
}
