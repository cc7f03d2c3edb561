/* pprof_profiles.c: heap censuses and time profiles into pprof profiles (see
 * pprof_profiles.h). The names of frames are built in one growable buffer. */
#include "sink/pprof_profiles.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/grow.h"
#include "census/ccframe.h"
#include "census/closuretypes.h"
#include "census/costcentres.h"
#include "census/ipe.h"
#include "census/srcloc.h"
#include "census/timeprof.h"
#include "model/bands.h"
#include "read/evdecode.h"
#include "sink/pprof.h"

#define NS_PER_S 1000000000LL

/* A name built from pieces, and the stack of location ids of a sample. */
struct builder {
    struct pprof *p;
    char *name;
    size_t len, cap;
    uint64_t *stack;
    size_t depth, stack_cap;
};

static int name_add(struct builder *b, const char *text, size_t len)
{
    if (b->len + len + 1 < len || GROW_ARRAY(b->name, &b->cap, b->len + len + 1) != 0)
        return -1;
    memcpy(b->name + b->len, text, len);
    b->len += len;
    b->name[b->len] = '\0';
    return 0;
}

/* Pushes the frame named by b's name, in file (file_len bytes) at line, onto the stack. */
static int push_frame(struct builder *b, const char *file, size_t file_len, long line)
{
    struct pprof_frame f = { b->name ? b->name : "", b->len, file, file_len, line };
    uint64_t id;
    if (pprof_location(b->p, &f, &id) != 0 ||
        GROW_ARRAY(b->stack, &b->stack_cap, b->depth + 1) != 0)
        return -1;
    b->stack[b->depth++] = id;
    b->len = 0;
    return 0;
}

/* A cost centre's frame: "Module.label" (ccframe_name), its file and first line. */
static int push_cost_centre(struct builder *b, const struct cc_frame *cc)
{
    size_t len = ccframe_name(cc, NULL, 0);
    if (b->len + len + 1 < len || GROW_ARRAY(b->name, &b->cap, b->len + len + 1) != 0)
        return -1;
    b->len += ccframe_name(cc, b->name + b->len, b->cap - b->len);
    size_t file_len;
    long line;
    srcloc_split(cc->srcloc, strlen(cc->srcloc), &file_len, &line);
    return push_frame(b, cc->srcloc, file_len, line);
}

/* The one frame of the empty stack. */
static int push_empty_stack(struct builder *b)
{
    return name_add(b, CCFRAME_EMPTY_STACK, strlen(CCFRAME_EMPTY_STACK)) != 0
               ? -1 : push_frame(b, "", 0, 0);
}

/* -hc: the band's stack of cost centres, leaf first; MAIN for the empty stack. */
static int push_stack(struct builder *b, const struct costcentres *ccs,
                      const unsigned char *ids, size_t ids_len)
{
    struct ev_ccs stack = { (unsigned)(ids_len / 4), ids };
    if (stack.depth == 0)
        return push_empty_stack(b);
    for (unsigned k = 0; k < stack.depth; k++) {
        struct cc_frame cc;
        char scratch[16];
        ccframe_lookup(ccs, ev_ccs_id(&stack, k), &cc, scratch);
        if (push_cost_centre(b, &cc) != 0)
            return -1;
    }
    return 0;
}

/* -hi: a tree, root first module -> type -> table: the info table ("table, CONSTR_2_0":
 * its closure type named as the run's GHC numbers them, closure N where that is not
 * known) at its file and line, under its type (when the IPE event gives one), under its
 * module (or, for the runtime's tables named by their symbol, "rts"). */
static int push_info_table(struct builder *b, const struct ipe_info *t,
                           const char *rts_identifier)
{
    size_t file_len = strlen(t->file);
    const char *named = closure_type_name(t->closure_desc, rts_identifier);
    const char *closure = named ? named : t->closure_desc;
    /* not in parentheses: pprof takes "(...)" after a name for C++ arguments and leaves
     * it out of what it shows */
    const char *before = named ? ", " : ", closure ";
    const char *module = t->module[0] ? t->module : t->package;
    if (name_add(b, t->table_name, strlen(t->table_name)) != 0 ||
        (closure[0] && (name_add(b, before, strlen(before)) != 0 ||
                        name_add(b, closure, strlen(closure)) != 0)) ||
        push_frame(b, t->file, file_len, t->line) != 0)
        return -1;
    if (t->type_desc[0] && (name_add(b, t->type_desc, strlen(t->type_desc)) != 0 ||
                            push_frame(b, "", 0, 0) != 0))
        return -1;
    if (!module[0])
        return 0;
    return name_add(b, module, strlen(module)) != 0 ? -1 : push_frame(b, t->file, file_len, 0);
}

/* The frames of band: its stack, its info table, or its label. */
static int push_band(struct builder *b, const struct pprof_heap_source *src, uint32_t band)
{
    size_t ids_len, len;
    const unsigned char *ids = bands_stack_ids(src->bands, band, &ids_len);
    if (ids && src->ccs)
        return push_stack(b, src->ccs, ids, ids_len);
    const char *label = bands_label(src->bands, band, &len);
    const struct ipe_info *table = src->ipe ? ipe_names_info(src->ipe, label, len) : NULL;
    if (table)
        return push_info_table(b, table, src->info ? src->info->rts_version : NULL);
    label = bands_shown_label(label, len, &len);
    return name_add(b, label, len) != 0 ? -1 : push_frame(b, "", 0, 0);
}

static void builder_free(struct builder *b)
{
    free(b->name);
    free(b->stack);
}

/* Ends a profile: b's buffers freed; the profile, or NULL (errno) after a failure. */
static struct pprof *finished(struct builder *b, int rc)
{
    int saved = errno;
    builder_free(b);
    if (rc != 0) {
        pprof_free(b->p);
        errno = saved ? saved : ENOMEM;
        return NULL;
    }
    return b->p;
}

/* A profile of the run: its mapping named by the program, the first word of its command
 * line (pprof names the profiles it saves by it), the whole line a comment. */
static struct pprof *new_profile(const struct run_info *info)
{
    const char *job = info && info->program ? info->program : "";
    struct pprof *p = pprof_new(job, strcspn(job, " "));
    if (p && job[0] && pprof_comment(p, job) != 0) {
        pprof_free(p);
        return NULL;
    }
    return p;
}

struct pprof *pprof_heap_profile(const struct pprof_heap_source *src)
{
    const struct run_info *info = src->info;
    struct builder b = { .p = new_profile(info) };
    if (!b.p)
        return NULL;
    const struct census_frame *c = src->census;
    char when[32], comment[256];
    format_seconds(c->time_ns, 2, when, sizeof when);
    format_snprintf(comment, sizeof comment, "ev2hp: the heap census %s, at %s s",
                    src->which, when);
    int rc = pprof_sample_type(b.p, "inuse_space", "bytes") != 0 ||
             pprof_period(b.p, "space", "bytes", 0) != 0 || pprof_comment(b.p, comment) != 0
                 ? -1 : 0;
    if (info && info->has_start_time)
        pprof_times(b.p, info->start_time * NS_PER_S + (int64_t)c->time_ns, 0);
    for (size_t i = 0; rc == 0 && i < c->count; i++) {
        uint32_t band = c->entries[i].band;
        size_t len;
        const char *label = bands_display_label(src->bands, band, &len);
        label = bands_shown_label(label, len, &len);
        int64_t bytes = c->entries[i].bytes > INT64_MAX ? INT64_MAX
                                                        : (int64_t)c->entries[i].bytes;
        b.depth = 0;
        rc = push_band(&b, src, band) != 0 ||
             pprof_sample(b.p, b.stack, b.depth, &bytes, "band", label, len) != 0 ? -1 : 0;
    }
    return finished(&b, rc);
}

struct pprof *pprof_time_profile(const struct timeprof *tp, const struct run_info *info,
                                 bool system, const uint64_t *before, uint32_t before_count,
                                 uint64_t duration_ns)
{
    struct builder b = { .p = new_profile(info) };
    if (!b.p)
        return NULL;
    int64_t interval = (int64_t)timeprof_interval_ns(tp);
    int rc = pprof_sample_type(b.p, "samples", "count") != 0 ||
             pprof_sample_type(b.p, "cpu", "nanoseconds") != 0 ||
             pprof_period(b.p, "cpu", "nanoseconds", interval) != 0 ? -1 : 0;
    pprof_times(b.p, info && info->has_start_time ? info->start_time * NS_PER_S : 0,
                (int64_t)duration_ns);
    for (uint32_t i = 0; rc == 0 && i < timeprof_stack_count(tp); i++) {
        unsigned depth;
        uint64_t count = timeprof_stack(tp, i, &depth);
        if (before && i < before_count)
            count -= before[i];
        if ((before && count == 0) || (!system && timeprof_stack_is_system(tp, i)))
            continue;
        b.depth = 0;
        if (depth == 0)
            rc = push_empty_stack(&b);
        for (unsigned k = 0; rc == 0 && k < depth; k++) {
            struct cc_frame cc;
            char scratch[16];
            timeprof_cc_names(tp, timeprof_stack_cc(tp, i, k), &cc, scratch);
            rc = push_cost_centre(&b, &cc);
        }
        int64_t values[2] = { count > INT64_MAX ? INT64_MAX : (int64_t)count,
                              (int64_t)(count * (uint64_t)interval) };
        if (rc == 0)
            rc = pprof_sample(b.p, b.stack, b.depth, values, NULL, NULL, 0);
    }
    return finished(&b, rc);
}
