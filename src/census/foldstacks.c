/* foldstacks.c: a run's stacks from its time profile or a heap census (foldstacks.h). */
#include "census/foldstacks.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "census/ccframe.h"
#include "model/bandmatch.h"
#include "model/bands.h"
#include "model/breakdown.h"

#define NO_MODULE "(no module)"

/* Room for frame names and a stack's frames, grown as needed. */
struct scratch {
    char *name;
    size_t name_cap;
    uint32_t *frames;
    size_t frames_cap;
};

static void scratch_free(struct scratch *w)
{
    free(w->name);
    free(w->frames);
}

/* A frame named by text alone (len bytes; ';' and line breaks replaced). */
static enum table_status text_frame(struct stacks *s, struct scratch *w, const char *text,
                                    size_t len, const char *module, size_t module_len,
                                    uint32_t *frame)
{
    if (GROW_ARRAY(w->name, &w->name_cap, len + 1) != 0)
        return TABLE_NO_MEMORY;
    memcpy(w->name, text, len);
    stacks_clean_name(w->name, len);
    return stacks_frame(s, w->name, len, module, module_len, "", frame);
}

/* The frame of a cost centre, "Module.label" (ccframe_name), cleaned as text_frame's. */
static enum table_status cc_frame(struct stacks *s, struct scratch *w,
                                  const struct cc_frame *cc, uint32_t *frame)
{
    size_t need = ccframe_name(cc, w->name, w->name_cap);
    if (need >= w->name_cap) {
        if (GROW_ARRAY(w->name, &w->name_cap, need + 1) != 0)
            return TABLE_NO_MEMORY;
        ccframe_name(cc, w->name, w->name_cap);
    }
    stacks_clean_name(w->name, need);
    return stacks_frame(s, w->name, need, cc->module, cc->module_len, cc->srcloc, frame);
}

/* The one frame of the empty stack. */
static enum table_status empty_stack_frame(struct stacks *s, struct scratch *w, uint32_t *frame)
{
    return text_frame(s, w, CCFRAME_EMPTY_STACK, strlen(CCFRAME_EMPTY_STACK), "", 0, frame);
}

static int room_for(struct scratch *w, size_t depth)
{
    return GROW_ARRAY(w->frames, &w->frames_cap, depth + 1);
}

int foldstacks_time(struct stacks *s, const struct timeprof *tp, bool system,
                    enum stacks_column column)
{
    struct scratch w = { 0 };
    int rc = 0;
    for (uint32_t i = 0; i < timeprof_stack_count(tp) && rc == 0; i++) {
        unsigned depth;
        uint64_t count = timeprof_stack(tp, i, &depth);
        if (!system && timeprof_stack_is_system(tp, i))
            continue;
        if (room_for(&w, depth) != 0) {
            rc = -1;
            break;
        }
        /* the empty stack, samples in no cost centre: "MAIN", the .prof's root */
        if (depth == 0 && empty_stack_frame(s, &w, &w.frames[0]) != TABLE_OK)
            rc = -1;
        for (unsigned k = 0; k < depth && rc == 0; k++) {
            struct cc_frame cc;
            char number[16];
            timeprof_cc_names(tp, timeprof_stack_cc(tp, i, depth - 1 - k), &cc, number);
            if (cc_frame(s, &w, &cc, &w.frames[k]) != TABLE_OK)
                rc = -1;
        }
        if (rc == 0 && stacks_add(s, w.frames, depth ? depth : 1, column, count, NULL) != TABLE_OK)
            rc = -1;
    }
    scratch_free(&w);
    return rc;
}

bool foldstacks_heap_supported(const struct run_info *info)
{
    return info && (info->breakdown == BREAKDOWN_COST_CENTRE ||
                    info->breakdown == BREAKDOWN_INFO_TABLE);
}

/* Band's stack into w->frames: its depth, or -1 when out of memory. */
static int band_frames(struct stacks *s, struct scratch *w, const struct heap_census_run *run,
                       uint32_t band)
{
    const struct bands *bands = run->census.bands;
    size_t len;
    if (run->info->breakdown == BREAKDOWN_INFO_TABLE) {
        /* module, then the type (when the IPE event gives one), then the info table */
        size_t mlen = 0, tlen = 0;
        const char *module = bands_attr(bands, band, BAND_GROUP, &mlen);
        const char *type = bands_attr(bands, band, BAND_TYPE, &tlen);
        if (!module || !mlen)
            module = NO_MODULE, mlen = strlen(NO_MODULE);
        const char *label = bands_display_label(bands, band, &len);
        int depth = 0;
        if (room_for(w, 3) != 0 ||
            text_frame(s, w, module, mlen, module, mlen, &w->frames[depth++]) != TABLE_OK ||
            (type && tlen &&
             text_frame(s, w, type, tlen, module, mlen, &w->frames[depth++]) != TABLE_OK) ||
            text_frame(s, w, label, len, module, mlen, &w->frames[depth++]) != TABLE_OK)
            return -1;
        return depth;
    }
    size_t ids_len;
    const unsigned char *ids = bands_stack_ids(bands, band, &ids_len);
    if (ids && run->ccs) {
        /* an eventlog's stack: its cost-centre numbers, innermost first */
        unsigned depth = (unsigned)(ids_len / 4);
        if (room_for(w, depth) != 0)
            return -1;
        if (depth == 0)
            return empty_stack_frame(s, w, &w->frames[0]) == TABLE_OK ? 1 : -1;
        struct ev_ccs stack = { depth, ids };
        for (unsigned k = 0; k < depth; k++) {
            struct cc_frame cc;
            char text[16];
            ccframe_lookup(run->ccs, ev_ccs_id(&stack, depth - 1 - k), &cc, text);
            if (cc_frame(s, w, &cc, &w->frames[k]) != TABLE_OK)
                return -1;
        }
        return (int)depth;
    }
    /* a .hp's label: "inner/.../outer", without its "(n)" */
    const char *label = bands_display_label(bands, band, &len);
    label = bands_shown_label(label, len, &len);
    size_t parts = 1;
    for (size_t i = 0; i < len; i++)
        parts += label[i] == '/';
    if (room_for(w, parts) != 0)
        return -1;
    size_t end = len, k = 0;
    for (size_t i = len + 1; i-- > 0;) {
        if (i > 0 && label[i - 1] != '/')
            continue;
        if (text_frame(s, w, label + i, end - i, "", 0, &w->frames[k++]) != TABLE_OK)
            return -1;
        end = i ? i - 1 : 0;
    }
    return (int)k;
}

/* run's census into column; as (or NULL): per band of run, the band of now whose stack
 * to count it under (UINT32_MAX: its own). */
static int add_census(struct stacks *s, const struct heap_census_run *run,
                      enum stacks_column column, const struct heap_census_run *now,
                      const uint32_t *as)
{
    struct scratch w = { 0 };
    int rc = 0;
    for (size_t i = 0; i < run->census.count && rc == 0; i++) {
        const struct census_entry *e = &run->census.entries[i];
        uint32_t partner = as ? as[e->band] : UINT32_MAX;
        int depth = partner != UINT32_MAX ? band_frames(s, &w, now, partner)
                                          : band_frames(s, &w, run, e->band);
        if (depth < 0 ||
            stacks_add(s, w.frames, (unsigned)depth, column, e->bytes, NULL) != TABLE_OK)
            rc = -1;
    }
    scratch_free(&w);
    return rc;
}

int foldstacks_band(struct stacks *s, const struct heap_census_run *run, uint32_t band,
                    uint32_t *stack)
{
    struct scratch w = { 0 };
    int depth = band_frames(s, &w, run, band);
    int rc = depth < 0 || stacks_add(s, w.frames, (unsigned)depth, STACKS_NOW, 0, stack) != TABLE_OK
                 ? -1 : 0;
    scratch_free(&w);
    return rc;
}

/* Per band of base, its partner in now (bandmatch), or UINT32_MAX; NULL when out of
 * memory. */
static uint32_t *partners(const struct heap_census_run *base, const struct heap_census_run *now)
{
    struct bandmatch_run b, n;
    struct bandmatch_pair *pairs = NULL;
    size_t count = 0;
    uint32_t *as = NULL;
    if (bandmatch_run_of_bands(base->census.bands, base->info, &b) != 0)
        return NULL;
    if (bandmatch_run_of_bands(now->census.bands, now->info, &n) == 0 &&
        bandmatch(&b, &n, &pairs, &count) == 0 && (as = malloc((b.count + 1) * sizeof *as))) {
        for (size_t i = 0; i < b.count; i++)
            as[i] = UINT32_MAX;
        for (size_t k = 0; k < count; k++)
            if (pairs[k].base != BANDMATCH_ABSENT && pairs[k].now != BANDMATCH_ABSENT)
                as[pairs[k].base] = (uint32_t)pairs[k].now;
    }
    free(pairs);
    bandmatch_run_free(&b);
    bandmatch_run_free(&n);
    return as;
}

int foldstacks_heap(struct stacks *s, const struct heap_census_run *now,
                    const struct heap_census_run *base)
{
    if (add_census(s, now, STACKS_NOW, NULL, NULL) != 0)
        return -1;
    if (!base)
        return 0;
    uint32_t *as = partners(base, now);
    int rc = as ? add_census(s, base, STACKS_BASE, now, as) : -1;
    free(as);
    return rc;
}
