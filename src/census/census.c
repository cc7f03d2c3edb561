/* census.c: the census assembler (see census.h for the rules it follows).
 *
 * One census is built at a time in `open` (a growable entry array reused from census to
 * census, so steady state allocates nothing). Biography censuses are copied into `held`
 * when complete and reported, sorted by time, at census_finish. Only the events a census
 * needs are decoded; everything else costs a switch and the end-time update.
 */
#include "census/census.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/ccslabel.h"
#include "census/costcentres.h"
#include "census/ipe.h"
#include "census/symnames.h"
#include "read/evdecode.h"
#include "read/evextension.h"
#include "base/bytes.h"
#include "base/grow.h"
#include "base/order.h"
#include "base/textcopy.h"

struct entry_vec {
    struct census_entry *items;
    size_t count;
    size_t cap;
};

/* A complete biography census waiting for census_finish. */
struct held_frame {
    uint64_t time_ns;
    uint64_t era;
    size_t first;     /* index of its first entry in held_entries */
    size_t count;
};

struct census {
    struct census_options opt;
    struct census_events events;
    struct run_info info;
    struct census_stats stats;
    struct bands *bands;
    struct costcentres *ccs;
    struct ipe_names *ipe;        /* -hi: info-table addresses to descriptions */

    bool sample_end_declared;
    bool after_damage;            /* census events are ignored until the next census begins */
    bool end_is_loss;             /* after damage, a census end seen is a census lost */
    bool after_gap;               /* ... and the damage is a dropped connection */
    bool repeating;               /* a restarted stream's definitions: repeats, not copies */
    bool in_census;
    bool open_is_bio;
    struct bands_mark open_mark;  /* the bands before the open census, for census_damaged */
    uint64_t open_unknown;        /* stats.unknown_cost_centres then */
    uint64_t open_time_ns;
    uint64_t open_era;
    struct entry_vec open;
    uint64_t open_total;          /* bytes of the open census: never past 2^64 - 1 */

    struct held_frame *held;
    size_t held_count, held_cap;
    struct entry_vec held_entries;

    char label_scratch[CCS_LENGTH_MAX + 1];   /* a stack's label cut at ccs_length */
    struct timeprof *tp;           /* the time profile, when asked for */
    struct ccs_name name_scratch[255]; /* the deepest stack an event can hold */
    struct ev_extension extension; /* the bytes past a stack that the format allows */
    size_t sched_min_size[2];      /* STOP_THREAD's and RUN_THREAD's (ev_min_size) */
};

void census_free(struct census *c)
{
    if (!c)
        return;
    bands_free(c->bands);
    costcentres_free(c->ccs);
    timeprof_free(c->tp);
    ipe_names_free(c->ipe);
    free(c->open.items);
    free(c->held);
    free(c->held_entries.items);
    free(c->info.program);
    free(c->info.rts_version);
    free(c);
}

struct census *census_new(const struct census_options *opt, const struct census_events *events)
{
    struct census *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->opt = *opt;
    c->events = *events;
    c->info.ccs_length = opt->ccs_length ? opt->ccs_length : CCS_LENGTH_DEFAULT;
    ev_extension_init(&c->extension);
    c->sched_min_size[0] = ev_min_size(EV_STOP_THREAD);
    c->sched_min_size[1] = ev_min_size(EV_RUN_THREAD);
    c->bands = bands_new();
    c->ccs = costcentres_new(CENSUS_MAX_COST_CENTRES);
    c->ipe = ipe_names_new(BANDS_MAX);
    if (opt->time_profile) {
        c->tp = timeprof_new(opt->time_profile);
        if (!c->tp) {
            census_free(c);
            return NULL;
        }
        timeprof_set_names(c->tp, c->ccs);
    }
    if (!c->bands || !c->ccs || !c->ipe) {
        census_free(c);
        return NULL;
    }
    return c;
}

const struct run_info *census_run_info(const struct census *c) { return &c->info; }
const struct census_stats *census_stats(const struct census *c) { return &c->stats; }
const struct bands *census_bands(const struct census *c) { return c->bands; }
const struct timeprof *census_timeprof(const struct census *c) { return c->tp; }
const struct costcentres *census_costcentres(const struct census *c) { return c->ccs; }
const struct ipe_names *census_ipe_names(const struct census *c) { return c->ipe; }

uint32_t census_unnamed_tables(const struct census *c, const char **first, size_t *first_len)
{
    uint32_t count = 0;
    if (c->info.breakdown != BREAKDOWN_INFO_TABLE)
        return 0;
    for (uint32_t b = 0; b < bands_count(c->bands); b++) {
        size_t len;
        const char *label = bands_label(c->bands, b, &len);
        if (!label || bands_stack_ids(c->bands, b, &(size_t){ 0 }) ||
            ipe_names_info(c->ipe, label, len))
            continue;
        if (count++ == 0) {
            *first = label;
            *first_len = len;
        }
    }
    return count;
}

enum census_status census_check_header(struct census *c, const struct ev_reader *r,
                                       struct ev_error *err)
{
    /* The events a census depends on (role CENSUS): declared too small, they are refused. */
    for (size_t i = 0; i < ev_registry_count; i++) {
        int size;
        uint16_t tag = ev_registry_tags[i];
        if (ev_role(tag) == EVR_CENSUS && ev_reader_declared(r, tag, &size) &&
            size != EV_SIZE_VARIABLE &&
            (size_t)size < ev_min_size(tag)) {
            ev_error_at(err, 0, "the header declares %s with %d bytes, fewer than its fields",
                        ev_name(tag), size);
            return CENSUS_BAD_EVENT;
        }
    }
    c->sample_end_declared = ev_reader_declared(r, EV_HEAP_PROF_SAMPLE_END, NULL);
    return CENSUS_OK;
}

static enum census_status push_entry(struct entry_vec *v, uint32_t band, uint64_t bytes,
                                     size_t limit)
{
    if (v->count == v->cap) {
        if (v->cap >= limit)
            return CENSUS_LIMIT;
        if (GROW_ARRAY(v->items, &v->cap, v->count + 1) != 0)
            return CENSUS_NO_MEMORY;
    }
    v->items[v->count++] = (struct census_entry){ band, bytes };
    return CENSUS_OK;
}

/* A callback's answer as the assembler's status: anything but 0 stops the producer. */
static enum census_status answered(int rc)
{
    return rc != 0 ? CENSUS_STOPPED : CENSUS_OK;
}

static enum census_status report(struct census *c, uint64_t time_ns, uint64_t era,
                                 const struct census_entry *entries, size_t count)
{
    if (c->stats.censuses > 0 && time_ns < c->stats.last_time_ns) {
        c->stats.backwards++;
        time_ns = c->stats.last_time_ns;
    }
    c->stats.censuses++;
    c->stats.last_time_ns = time_ns;
    struct census_frame frame = { time_ns, era, count, entries };
    return c->events.frame ? answered(c->events.frame(c->events.ctx, &frame)) : CENSUS_OK;
}

/* Held censuses are bounded like everything else: a file of nothing but (even empty)
 * biography censuses must not grow memory without limit, and the limit is said. */
static enum census_status hold_limit(struct ev_error *err)
{
    ev_error_set(err, "biography censuses held for sorting exceed %u entries or censuses",
                 CENSUS_MAX_HELD_ENTRIES);
    return CENSUS_LIMIT;
}

static enum census_status hold(struct census *c, struct ev_error *err)
{
    if (c->held_count >= CENSUS_MAX_HELD_ENTRIES)
        return hold_limit(err);
    if (c->held_count == c->held_cap) {
        if (GROW_ARRAY(c->held, &c->held_cap, c->held_count + 1) != 0)
            return CENSUS_NO_MEMORY;
    }
    size_t first = c->held_entries.count;
    for (size_t i = 0; i < c->open.count; i++) {
        enum census_status st = push_entry(&c->held_entries, c->open.items[i].band,
                                           c->open.items[i].bytes, CENSUS_MAX_HELD_ENTRIES);
        if (st == CENSUS_LIMIT)
            return hold_limit(err);
        if (st != CENSUS_OK)
            return st;
    }
    c->held[c->held_count++] =
        (struct held_frame){ c->open_time_ns, c->open_era, first, c->open.count };
    return CENSUS_OK;
}

static enum census_status close_census(struct census *c, struct ev_error *err)
{
    c->in_census = false;
    if (c->open_is_bio)
        return hold(c, err);
    /* Under recovery, a census that begins before the one reported before it, or at the
     * same nanosecond, is a copy of earlier bytes (the race copies buffers; no two
     * censuses of one run share a timestamp): dropped, not clamped into the run. */
    if (c->opt.recover && c->stats.censuses > 0 && c->open_time_ns <= c->stats.last_time_ns) {
        c->stats.lost_to_damage++;
        c->stats.copies_dropped++;
        bands_rollback(c->bands, &c->open_mark);
        c->stats.unknown_cost_centres = c->open_unknown;
        return CENSUS_OK;
    }
    return report(c, c->open_time_ns, c->open_era, c->open.items, c->open.count);
}

static enum census_status open_census(struct census *c, uint64_t time_ns, uint64_t era, bool bio,
                                      struct ev_error *err)
{
    if (c->in_census) {
        if (c->sample_end_declared) {
            c->stats.unended++;
        } else {
            enum census_status st = close_census(c, err);
            if (st != CENSUS_OK)
                return st;
        }
    }
    c->after_damage = false;
    bands_mark(c->bands, &c->open_mark);
    c->open_unknown = c->stats.unknown_cost_centres;
    c->in_census = true;
    c->open_is_bio = bio;
    c->open_time_ns = time_ns;
    c->open_era = era;
    c->open.count = 0;
    c->open_total = 0;
    return CENSUS_OK;
}

/* A table insert that did not succeed (st is not TABLE_OK) as the census's status: out of
 * memory, or the limit the message names, at ev's offset. */
static enum census_status table_failure(enum table_status st, const struct ev_event *ev,
                                        struct ev_error *err, const char *fmt, ...)
    EV_PRINTF(4, 5);
static enum census_status table_failure(enum table_status st, const struct ev_event *ev,
                                        struct ev_error *err, const char *fmt, ...)
{
    if (st == TABLE_NO_MEMORY)
        return CENSUS_NO_MEMORY;
    char what[sizeof err->what];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    ev_error_at(err, ev->offset, "%s", what);
    return CENSUS_LIMIT;
}

/* The band table's insert that did not succeed. */
static enum census_status limit_error(struct ev_error *err, const struct ev_event *ev,
                                      enum table_status st)
{
    return table_failure(st, ev, err, "more than %u distinct labels or %zu MiB of label text",
                         BANDS_MAX, BANDS_MAX_TEXT >> 20);
}

/* Adds an entry (from ev) to the open census: its bytes to the total, where one past
 * 2^64 - 1 bytes is an error at the entry's offset, not a wrap every output would then
 * believe; and the entry itself, up to CENSUS_MAX_ENTRIES. */
static inline enum census_status add_entry(struct census *c, const struct ev_event *ev,
                                           uint32_t band, uint64_t bytes,
                                           struct ev_error *err)
{
    if (bytes > UINT64_MAX - c->open_total) {
        ev_error_at(err, ev->offset, "the census's total passes 2^64 bytes");
        return CENSUS_LIMIT;
    }
    c->open_total += bytes;
    enum census_status st = push_entry(&c->open, band, bytes, CENSUS_MAX_ENTRIES);
    if (st == CENSUS_LIMIT)
        ev_error_at(err, ev->offset, "a census with more than %u entries", CENSUS_MAX_ENTRIES);
    return st;
}

static enum census_status add_stack_entry(struct census *c, const struct ev_event *ev,
                                          const struct ev_HEAP_PROF_SAMPLE_COST_CENTRE *s,
                                          struct ev_error *err)
{
    if (!c->in_census && c->after_damage)
        return CENSUS_OK;   /* an entry of a census begun in a damaged region */
    uint32_t band;
    int is_new;
    enum table_status bst = bands_stack(c->bands, s->stack.ids, 4 * (size_t)s->stack.depth,
                                        &band, &is_new);
    if (bst != TABLE_OK)
        return limit_error(err, ev, bst);
    if (is_new) {
        /* Undefined numbers are named by the number itself, written "#N". */
        char numbers[255][12];
        for (unsigned i = 0; i < s->stack.depth; i++) {
            uint32_t number = ev_ccs_id(&s->stack, i);
            struct ccs_name *name = &c->name_scratch[i];
            if (!costcentres_lookup(c->ccs, number, name)) {
                c->stats.unknown_cost_centres++;
                int n = snprintf(numbers[i], sizeof numbers[i], "#%lu", (unsigned long)number);
                *name = (struct ccs_name){ numbers[i], (size_t)n, "", 0 };
            }
        }
        size_t len = ccs_label_format(c->label_scratch, c->info.ccs_length, c->name_scratch,
                                      s->stack.depth);
        bst = bands_name_stack(c->bands, band, c->label_scratch, len, s->stack.depth > 0);
        if (bst != TABLE_OK)
            return limit_error(err, ev, bst);
        /* Readers see the whole stack; only the .hp keeps the runtime's -L cut. */
        size_t whole_len;
        char *whole = ccs_label_whole(c->name_scratch, s->stack.depth, &whole_len);
        if (!whole)
            return CENSUS_NO_MEMORY;
        if (whole_len != len || memcmp(whole, c->label_scratch, len) != 0)
            bst = bands_describe(c->bands, band, whole, whole_len);
        free(whole);
        if (bst != TABLE_OK)
            return limit_error(err, ev, bst);
    }
    if (!c->in_census) {
        c->stats.stray_entries += !c->after_damage;
        return CENSUS_OK;
    }
    return add_entry(c, ev, band, s->bytes, err);
}

/* A -hi band no IPE event named (yet): its name from the program's symbol table, when
 * --binary gave one and it has the table's symbol (the address rule: symnames.h). */
static enum table_status name_from_symbol(struct census *c, const char *label, size_t len)
{
    if (!c->opt.symbols || c->info.breakdown != BREAKDOWN_INFO_TABLE)
        return TABLE_OK;
    struct sym_name *name = symnames_lookup(c->opt.symbols, label, len,
                                            symnames_rts_profiled(c->info.rts_version));
    if (!name)
        return errno == ENOMEM ? TABLE_NO_MEMORY : TABLE_OK;
    enum table_status st = ipe_names_add_symbol(c->ipe, label, len, name);
    free(name);
    c->stats.tables_from_symbols += st == TABLE_OK;
    return st;
}

/* A new -hi band named by an address the IPE events (or the symbol table) described:
 * say what it is. */
static enum table_status describe_band(struct census *c, uint32_t band, const char *label,
                                       size_t len)
{
    const struct ipe_info *info = ipe_names_info(c->ipe, label, len);
    if (!info) {
        enum table_status st = name_from_symbol(c, label, len);
        if (st != TABLE_OK)
            return st;
        info = ipe_names_info(c->ipe, label, len);
    }
    if (!info)
        return TABLE_OK;
    size_t desc_len;
    char *desc = ipe_info_describe(info, &desc_len);
    if (!desc)
        return TABLE_NO_MEMORY;
    enum table_status st = bands_describe(c->bands, band, desc, desc_len);
    free(desc);
    if (st != TABLE_OK)
        return st;
    /* the runtime's tables (named by their symbol) are in no module: under "rts" */
    const char *group = *info->module ? info->module : info->package;
    st = bands_set_attr(c->bands, band, BAND_GROUP, group, strlen(group));
    if (st == TABLE_OK && *info->type_desc)
        st = bands_set_attr(c->bands, band, BAND_TYPE, info->type_desc, strlen(info->type_desc));
    if (st == TABLE_OK && *info->closure_desc)
        st = bands_set_attr(c->bands, band, BAND_KIND, info->closure_desc,
                            strlen(info->closure_desc));
    return st;
}

/* An IPE event: remember the description, and give it to the band if it came first. */
static enum census_status take_ipe(struct census *c, const struct ev_event *ev,
                                   const struct ev_IPE *ipe, struct ev_error *err)
{
    const char *key;
    size_t key_len;
    enum table_status st = ipe_names_add(c->ipe, ipe, &key, &key_len);
    if (st != TABLE_OK)
        return table_failure(st, ev, err, "more than %u info tables", BANDS_MAX);
    uint32_t band;
    if (bands_find_string(c->bands, key, key_len, &band) == 0) {
        enum table_status bst = describe_band(c, band, key, key_len);
        if (bst != TABLE_OK)
            return limit_error(err, ev, bst);
    }
    return CENSUS_OK;
}

static enum census_status add_string_entry(struct census *c, const struct ev_event *ev,
                                           const struct ev_HEAP_PROF_SAMPLE_STRING *s,
                                           struct ev_error *err)
{
    if (!c->in_census) {
        c->stats.stray_entries += !c->after_damage;
        return CENSUS_OK;
    }
    uint32_t band;
    uint32_t before = bands_count(c->bands);
    enum table_status bst = bands_string(c->bands, s->label.ptr, s->label.len, &band);
    if (bst != TABLE_OK)
        return limit_error(err, ev, bst);
    if (band >= before && (bst = describe_band(c, band, s->label.ptr, s->label.len)) != TABLE_OK)
        return limit_error(err, ev, bst);
    return add_entry(c, ev, band, s->bytes, err);
}

/* The value of an RTS "-L<n>" option, or 0. */
static unsigned ccs_length_option(const char *arg, size_t len)
{
    if (len < 3 || arg[0] != '-' || arg[1] != 'L')
        return 0;
    unsigned long n = 0;
    for (size_t i = 2; i < len; i++) {
        if (arg[i] < '0' || arg[i] > '9' || n > CCS_LENGTH_MAX)
            return 0;
        n = n * 10 + (unsigned long)(arg[i] - '0');
    }
    return n > CCS_LENGTH_MAX ? CCS_LENGTH_MAX : (unsigned)n;
}

/* PROGRAM_ARGS holds argv as NUL-terminated strings. The runtime's JOB line is the
 * program's base name, its own arguments, then "+RTS" and the RTS options; the -L among
 * those options is the stack-name length the runtime used. */
static enum census_status take_program_args(struct census *c, const struct ev_str *args)
{
    if (c->info.program)
        return CENSUS_OK;
    size_t cap = args->len + 8;
    char *job = malloc(cap), *rts = malloc(cap);
    if (!job || !rts) {
        free(job);
        free(rts);
        return CENSUS_NO_MEMORY;
    }
    size_t job_len = 0, rts_len = 0;
    bool in_rts = false, rts_done = false;
    unsigned ccs_length = 0;
    size_t start = 0;
    for (size_t i = 0, n = 0; i <= args->len; i++) {
        if (i < args->len && args->ptr[i] != '\0')
            continue;
        const char *arg = args->ptr + start;
        size_t len = i - start;
        start = i + 1;
        if (i == args->len && len == 0)
            break;
        if (n++ == 0) {
            for (size_t k = len; k > 0; k--) {
                if (arg[k - 1] == '/') {
                    arg += k;
                    len -= k;
                    break;
                }
            }
            memcpy(job, arg, len);
            job_len = len;
        } else if (!rts_done && len == 4 && memcmp(arg, "+RTS", 4) == 0) {
            in_rts = true;
        } else if (!rts_done && len == 4 && memcmp(arg, "-RTS", 4) == 0) {
            in_rts = false;
        } else if (!rts_done && len == 5 && memcmp(arg, "--RTS", 5) == 0) {
            rts_done = true;
            in_rts = false;
        } else if (in_rts) {
            rts[rts_len++] = ' ';
            memcpy(rts + rts_len, arg, len);
            rts_len += len;
            unsigned l = ccs_length_option(arg, len);
            if (l)
                ccs_length = l;
        } else {
            job[job_len++] = ' ';
            memcpy(job + job_len, arg, len);
            job_len += len;
        }
    }
    if (rts_len > 0) {
        memcpy(job + job_len, " +RTS", 5);
        job_len += 5;
        memcpy(job + job_len, rts, rts_len);
        job_len += rts_len;
    }
    job[job_len] = '\0';
    free(rts);
    c->info.program = job;
    if (!c->opt.ccs_length && ccs_length)
        c->info.ccs_length = ccs_length < CCS_LENGTH_MIN ? CCS_LENGTH_MIN : ccs_length;
    return CENSUS_OK;
}

static enum census_status too_short(const struct ev_event *ev, struct ev_error *err)
{
    ev_error_at(err, ev->offset, "%s event of %lu bytes is too short for its fields",
                ev_name(ev->tag), (unsigned long)ev->size);
    return CENSUS_BAD_EVENT;
}

/* Whether an event holding a stack (its Word8 depth at payload[depth_at], then the
 * Word32 numbers) is as long as its fields, or longer by what the format's extension
 * rule allows (evextension.h: the same surplus across its type). GHC up to 9.14 writes
 * them exactly; when a timer tick and a census entry overwrite each other, the length
 * read is some other field's bytes, and the event would swallow the good events after it. */
static inline bool stack_fits(struct census *c, const struct ev_event *ev, uint32_t depth_at)
{
    if (ev->size <= depth_at)
        return false;
    size_t need = depth_at + 1 + 4u * (size_t)ev->payload[depth_at];
    return ev_extension_check(&c->extension, ev->tag, need, ev->size) != EXTENSION_DAMAGE;
}

static enum census_status stack_misfit(const struct census *c, const struct ev_event *ev,
                                      struct ev_error *err)
{
    uint32_t surplus = ev_extension_surplus(&c->extension, ev->tag);
    if (surplus)
        ev_error_at(err, ev->offset, "%s event of %lu bytes does not fit its stack, nor the %"
                    PRIu32 " bytes more that the events of its type carry", ev_name(ev->tag),
                    (unsigned long)ev->size, surplus);
    else
        ev_error_at(err, ev->offset, "%s event of %lu bytes does not fit its stack",
                    ev_name(ev->tag), (unsigned long)ev->size);
    return CENSUS_BAD_EVENT;
}

bool census_wants(uint16_t tag)
{
    enum ev_role role = ev_role(tag);
    /* Time-profile ticks are watched for, inside censuses (census_damaged). The
     * scheduler's events, one or two each time a thread runs, only where read. */
    return (role != EVR_NONE && role != EVR_TIME_PROFILE && role != EVR_SCHED) ||
           tag == EV_PROF_SAMPLE_COST_CENTRE;
}

bool census_wants_sched(uint16_t tag)
{
    return census_wants(tag) || ev_role(tag) == EVR_SCHED;
}

bool census_wants_time(uint16_t tag)
{
    return census_wants(tag) || ev_role(tag) == EVR_TIME_PROFILE;
}

bool census_wants_time_sched(uint16_t tag)
{
    return ev_role(tag) != EVR_NONE;
}

bool (*census_wants_for(bool time_profile, bool sched))(uint16_t tag)
{
    return time_profile ? (sched ? census_wants_time_sched : census_wants_time)
                        : (sched ? census_wants_sched : census_wants);
}

/* Drops the open census, if any, counting it in *lost; census events are then ignored
 * until the next census begins. */
static void drop_open_census(struct census *c, uint64_t *lost)
{
    /* The end of the census dropped here may still come: it is not another loss. */
    c->end_is_loss = !c->in_census && !(c->after_damage && !c->end_is_loss);
    if (c->in_census) {
        c->in_census = false;
        (*lost)++;
        bands_rollback(c->bands, &c->open_mark);
        c->stats.unknown_cost_centres = c->open_unknown;
    }
    c->after_damage = true;
}

void census_damaged(struct census *c)
{
    c->after_gap = false;
    drop_open_census(c, &c->stats.lost_to_damage);
}

void census_restarted(struct census *c)
{
    c->after_gap = true;
    drop_open_census(c, &c->stats.lost_to_gaps);
    c->repeating = true;
    c->stats.restarts++;
}

/* Whether the run is on the non-threaded runtime, whose timer thread writes time-profile
 * ticks into the census's buffer without a lock ("rts_thr..." names the threaded one). */
static bool unlocked_runtime(const struct census *c)
{
    return c->info.rts_version && !strstr(c->info.rts_version, "thr");
}

bool census_racing_runtime(const struct census *c)
{
    return c->info.has_heap_profile && c->stats.time_ticks && unlocked_runtime(c);
}

bool census_wants_markers(uint16_t tag)
{
    return tag == EV_USER_MARKER;
}

/* A tick names the capability that was running. The non-threaded runtime has one,
 * capability 0; a threaded one numbers them below 2^16 (block markers give a capability
 * 16 bits). Anything else is bytes read as a tick that is none: damage. */
static bool plausible_capability(const struct census *c, uint32_t cap)
{
    return unlocked_runtime(c) ? cap == 0 : cap < (1u << 16);
}

static enum census_status impossible_capability(const struct ev_event *ev, uint32_t cap,
                                                struct ev_error *err)
{
    ev_error_at(err, ev->offset, "%s event names capability %" PRIu32 ", which this run "
                "does not have", ev_name(ev->tag), cap);
    return CENSUS_BAD_EVENT;
}

static enum census_status take_time_sample(struct census *c, const struct ev_event *ev,
                                           const struct ev_PROF_SAMPLE_COST_CENTRE *s,
                                           struct ev_error *err)
{
    enum table_status st = timeprof_sample(c->tp, ev->time, s->cap, &s->stack);
    if (st != TABLE_OK)
        return table_failure(st, ev, err, "a time profile of more than %u distinct stacks",
                             TIMEPROF_MAX_STACKS);
    return CENSUS_OK;
}

void census_note_time(struct census *c, uint64_t time_ns)
{
    if (time_ns > c->info.end_time_ns)
        c->info.end_time_ns = time_ns;
}

_Static_assert(EV_NO_CAP == GC_CAP_NONE, "one number for no capability");

/* GC_STATS_GHC's payload up to its balanced share (capset, gen, 3 words, threads, 2
 * words): what a runtime before GHC 8.2 writes. */
#define GC_STATS_BEFORE_BALANCE (4 + 2 + 3 * 8 + 4 + 2 * 8)

/* A heap total to whoever reads them (events.total). */
static enum census_status pass_total(struct census *c, enum heap_total kind, uint64_t time_ns,
                                     uint64_t bytes)
{
    return c->events.total ? answered(c->events.total(c->events.ctx, kind, time_ns, bytes))
                           : CENSUS_OK;
}

/* The kind of one of the collector's events (those pass_gc is given). */
static enum gc_event_kind gc_kind_of(uint16_t tag)
{
    switch (tag) {
    case EV_GC_START: return GC_EVENT_START;
    case EV_GC_END: return GC_EVENT_END;
    case EV_HEAP_ALLOCATED: return GC_EVENT_ALLOCATED;
    case EV_CONC_MARK_BEGIN: return GC_EVENT_CONC_MARK_BEGIN;
    case EV_CONC_MARK_END: return GC_EVENT_CONC_MARK_END;
    case EV_CONC_SYNC_BEGIN: return GC_EVENT_CONC_SYNC_BEGIN;
    case EV_CONC_SYNC_END: return GC_EVENT_CONC_SYNC_END;
    case EV_CONC_SWEEP_BEGIN: return GC_EVENT_CONC_SWEEP_BEGIN;
    case EV_CONC_SWEEP_END: return GC_EVENT_CONC_SWEEP_END;
    case EV_OSPROCESS_PID: return GC_EVENT_PID;
    case EV_TASK_CREATE: return GC_EVENT_TASK_CREATE;
    case EV_TASK_DELETE: return GC_EVENT_TASK_DELETE;
    case EV_NONMOVING_HEAP_CENSUS: return GC_EVENT_NONMOVING_CENSUS;
    default: return GC_EVENT_STATS;   /* GC_STATS_GHC */
    }
}

/* A GC_STATS_GHC event as the collector's statistics read it. */
static struct gc_event gc_stats_of(const struct ev_event *ev, const struct ev_GC_STATS_GHC *s)
{
    return (struct gc_event){ .kind = GC_EVENT_STATS, .cap = ev->cap, .time_ns = ev->time,
                              .gen = s->gen, .copied = s->copied, .slop = s->slop,
                              .threads = s->threads, .max_copied = s->max_copied,
                              .balanced_copied = s->balanced_copied,
                              .has_balanced = ev->size > GC_STATS_BEFORE_BALANCE };
}

/* The collector's events to whoever reads its statistics (events.gc), with the
 * capability whose block held them. */
static enum census_status pass_gc(struct census *c, const struct ev_event *ev,
                                  const union ev_body *b)
{
    if (!c->events.gc)
        return CENSUS_OK;
    /* the kind, the capability and the time, and the fields of those that have any */
    struct gc_event e = { .kind = gc_kind_of(ev->tag), .cap = ev->cap, .time_ns = ev->time };
    if (e.kind == GC_EVENT_STATS)
        e = gc_stats_of(ev, &b->GC_STATS_GHC);
    else if (e.kind == GC_EVENT_ALLOCATED)
        e.bytes = b->HEAP_ALLOCATED.bytes;
    else if (e.kind == GC_EVENT_CONC_MARK_END)
        e.marked = b->CONC_MARK_END.marked;
    else if (e.kind == GC_EVENT_PID)
        e.tid = b->OSPROCESS_PID.pid;
    else if (e.kind == GC_EVENT_TASK_CREATE) {
        e.task = b->TASK_CREATE.task;
        e.tid = b->TASK_CREATE.tid;
    } else if (e.kind == GC_EVENT_TASK_DELETE) {
        e.task = b->TASK_DELETE.task;
    } else if (e.kind == GC_EVENT_NONMOVING_CENSUS) {
        const struct ev_NONMOVING_HEAP_CENSUS *n = &b->NONMOVING_HEAP_CENSUS;
        e.census.block_size = n->block_size;
        e.census.active = n->active_segments;
        e.census.filled = n->filled_segments;
        e.census.live = n->live_blocks;
    }
    return answered(c->events.gc(c->events.ctx, &e));
}

/* The scheduler's events to whoever reads them (opt.sched, with events.gc). There are
 * millions of them in a busy run, and nothing of their fields is read (the capability
 * and the time are the event's own): they are not decoded, only checked as long as their
 * fields (a shorter one is skipped, as every short event of a role but CENSUS). */
static enum census_status pass_sched(struct census *c, const struct ev_event *ev)
{
    bool run = ev->tag == EV_RUN_THREAD;
    if (!c->events.gc || !c->opt.sched || ev->size < c->sched_min_size[run])
        return CENSUS_OK;
    /* the event's kind, capability and time: the fields a scheduler's event has (set
     * one by one, not zeroing the collector's statistics for each) */
    struct gc_event e;
    e.kind = run ? GC_EVENT_RUN : GC_EVENT_STOP;
    e.cap = ev->cap;
    e.time_ns = ev->time;
    return answered(c->events.gc(c->events.ctx, &e));
}

/* A TICKY_COUNTER_DEF event as the ticky counters read it (its info table's name not
 * yet looked up). */
static struct ticky_event ticky_def_of(const struct ev_event *ev,
                                       const struct ev_TICKY_COUNTER_DEF *d)
{
    return (struct ticky_event){ .kind = TICKY_EVENT_DEF, .time_ns = ev->time, .id = d->id,
                                 .arity = d->arity, .kinds = d->kinds.ptr,
                                 .kinds_len = d->kinds.len, .name = d->name.ptr,
                                 .name_len = d->name.len, .info = d->info };
}

/* A TICKY_COUNTER_SAMPLE event as the ticky counters read it. */
static struct ticky_event ticky_sample_of(const struct ev_event *ev,
                                          const struct ev_TICKY_COUNTER_SAMPLE *s)
{
    return (struct ticky_event){ .kind = TICKY_EVENT_SAMPLE, .time_ns = ev->time,
                                 .id = s->id, .entries = s->entries, .allocs = s->allocs,
                                 .allocd = s->allocd };
}

/* A counter's definition, with its info table named when an IPE event (written at
 * start-up, before the definitions at the end) described it: the key a -hi label
 * prints. */
static enum census_status pass_ticky_def(struct census *c, const struct ev_event *ev,
                                         const struct ev_TICKY_COUNTER_DEF *d)
{
    struct ticky_event e = ticky_def_of(ev, d);
    char key[24];
    int n = snprintf(key, sizeof key, "0x%" PRIx64, d->info);
    const struct ipe_info *info = ipe_names_info(c->ipe, key, (size_t)n);
    char *table = info ? ipe_info_describe(info, &e.table_len) : NULL;
    if (info && !table)
        return CENSUS_NO_MEMORY;
    e.table = table;
    int rc = c->events.ticky(c->events.ctx, &e);
    free(table);
    return answered(rc);
}

/* Ticky counters' events to whoever reads them (events.ticky). */
static enum census_status pass_ticky(struct census *c, const struct ev_event *ev,
                                     const union ev_body *b)
{
    if (!c->events.ticky)
        return CENSUS_OK;
    if (ev->tag == EV_TICKY_COUNTER_DEF)
        return pass_ticky_def(c, ev, &b->TICKY_COUNTER_DEF);
    struct ticky_event e = { .kind = TICKY_EVENT_BEGIN_SAMPLE, .time_ns = ev->time };
    if (ev->tag == EV_TICKY_COUNTER_SAMPLE)
        e = ticky_sample_of(ev, &b->TICKY_COUNTER_SAMPLE);
    return answered(c->events.ticky(c->events.ctx, &e));
}

/* census_feed of an event it reads, but the scheduler's. Not inlined: its frame (a
 * decoded event, a dozen registers saved) is not to be paid by the scheduler's events. */
static __attribute__((noinline)) enum census_status feed_decoded(struct census *c,
                                                                 const struct ev_event *ev,
                                                                 struct ev_error *err)
{
    union ev_body b;
    if (ev->tag == EV_PROF_SAMPLE_COST_CENTRE) {
        c->stats.time_ticks++;
        if (c->opt.recover && !stack_fits(c, ev, 12))
            return stack_misfit(c, ev, err);
        /* The tick itself counts in the time profile; the census it fell into is in doubt. */
        if (c->tp && ev_decode(ev->tag, ev->payload, ev->size, &b) == EV_DECODED) {
            if (c->opt.recover && !plausible_capability(c, b.PROF_SAMPLE_COST_CENTRE.cap))
                return impossible_capability(ev, b.PROF_SAMPLE_COST_CENTRE.cap, err);
            enum census_status st = take_time_sample(c, ev, &b.PROF_SAMPLE_COST_CENTRE, err);
            if (st != CENSUS_OK)
                return st;
        }
        if (c->in_census && unlocked_runtime(c)) {
            ev_error_at(err, ev->offset, "a time-profile tick inside the census begun at %.2f s "
                        "(it may have overwritten one of its entries)", c->open_time_ns / 1e9);
            return CENSUS_SUSPECT;
        }
        return CENSUS_OK;
    }
    enum ev_decode_status decoded = ev_decode(ev->tag, ev->payload, ev->size, &b);
    if (ev->tag == EV_GC_STATS_GHC && decoded == EV_SHORT && ev->size >= GC_STATS_BEFORE_BALANCE)
        decoded = EV_DECODED;   /* a runtime before the balance field (GHC 8.2) */
    if (ev->tag == EV_NONMOVING_HEAP_CENSUS && decoded == EV_SHORT && ev->size >= 13) {
        decoded = EV_DECODED;   /* before GHC 9.10: the block size as its log2, a Word8 */
        b.NONMOVING_HEAP_CENSUS.block_size = (uint16_t)(ev->payload[0] < 16
                                                            ? 1u << ev->payload[0] : 0);
        b.NONMOVING_HEAP_CENSUS.active_segments = be32(ev->payload + 1);
        b.NONMOVING_HEAP_CENSUS.filled_segments = be32(ev->payload + 5);
        b.NONMOVING_HEAP_CENSUS.live_blocks = be32(ev->payload + 9);
    }
    if (ev->tag == EV_CONC_MARK_END && decoded == EV_SHORT) {
        decoded = EV_DECODED;   /* GHC 9.4's, without its count: the phase still ends */
        b.CONC_MARK_END.marked = 0;
    }
    if (decoded != EV_DECODED) {
        if (ev_role(ev->tag) == EVR_CENSUS)
            return too_short(ev, err);
        return CENSUS_OK;   /* a short run-info event is not worth stopping for */
    }
    switch (ev->tag) {
    case EV_HEAP_PROF_BEGIN:
        if (c->info.has_heap_profile && c->repeating)
            return CENSUS_OK;
        if (c->info.has_heap_profile) {
            c->stats.extra_prof_begins++;
            if (c->opt.recover) {
                ev_error_at(err, ev->offset, "a second HEAP_PROF_BEGIN: a copy of an earlier "
                            "block");
                return CENSUS_DUPLICATE;
            }
            return CENSUS_OK;
        }
        c->info.has_heap_profile = true;
        c->info.breakdown = b.HEAP_PROF_BEGIN.breakdown;
        c->info.period_ns = b.HEAP_PROF_BEGIN.period;
        return CENSUS_OK;
    case EV_HEAP_PROF_COST_CENTRE: {
        const struct ev_HEAP_PROF_COST_CENTRE *cc = &b.HEAP_PROF_COST_CENTRE;
        struct ccs_name known;
        if (c->repeating && costcentres_lookup(c->ccs, cc->cc, &known))
            return CENSUS_OK;
        if (c->opt.recover && costcentres_lookup(c->ccs, cc->cc, &known)) {
            ev_error_at(err, ev->offset, "cost centre %lu defined again: a copy of an earlier "
                        "block", (unsigned long)cc->cc);
            return CENSUS_DUPLICATE;
        }
        enum table_status st = costcentres_define(c->ccs, cc->cc, cc->label.ptr, cc->label.len,
                                                  cc->module.ptr, cc->module.len,
                                                  cc->srcloc.ptr, cc->srcloc.len);
        if (st != TABLE_OK)
            return table_failure(st, ev, err, "more than %u cost centres",
                                 CENSUS_MAX_COST_CENTRES);
        return CENSUS_OK;
    }
    case EV_HEAP_PROF_SAMPLE_BEGIN:
        c->repeating = false;
        return open_census(c, ev->time, b.HEAP_PROF_SAMPLE_BEGIN.era, false, err);
    case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
        c->repeating = false;
        return open_census(c, b.HEAP_BIO_PROF_SAMPLE_BEGIN.time,
                           b.HEAP_BIO_PROF_SAMPLE_BEGIN.era, true, err);
    case EV_HEAP_PROF_SAMPLE_END:
        if (!c->in_census) {
            /* After damage, the end of a census whose beginning was lost. */
            if (c->after_damage)
                *(c->after_gap ? &c->stats.lost_to_gaps : &c->stats.lost_to_damage) +=
                    c->end_is_loss;
            else
                c->stats.stray_ends++;
            c->after_damage = false;
            return CENSUS_OK;
        }
        return close_census(c, err);
    case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
        if (c->opt.recover && !stack_fits(c, ev, 9))
            return stack_misfit(c, ev, err);
        return add_stack_entry(c, ev, &b.HEAP_PROF_SAMPLE_COST_CENTRE, err);
    case EV_HEAP_PROF_SAMPLE_STRING:
        return add_string_entry(c, ev, &b.HEAP_PROF_SAMPLE_STRING, err);
    case EV_PROGRAM_ARGS:
        return take_program_args(c, &b.PROGRAM_ARGS.args);
    case EV_RTS_IDENTIFIER:
        if (!c->info.rts_version) {
            c->info.rts_version = text_copy(b.RTS_IDENTIFIER.name.ptr, b.RTS_IDENTIFIER.name.len);
            if (!c->info.rts_version)
                return CENSUS_NO_MEMORY;
        }
        return CENSUS_OK;
    case EV_WALL_CLOCK_TIME:
        if (!c->info.has_start_time) {
            /* The event says what the clock read at its timestamp; the run began that
             * long before. */
            c->info.has_start_time = true;
            c->info.start_time = (int64_t)(b.WALL_CLOCK_TIME.sec - ev->time / 1000000000u);
        }
        return CENSUS_OK;
    case EV_IPE:
        return take_ipe(c, ev, &b.IPE, err);
    case EV_PROF_BEGIN:
        timeprof_begin(c->tp, b.PROF_BEGIN.interval);
        return CENSUS_OK;
    case EV_USER_MARKER:
        return c->events.marker ? answered(c->events.marker(c->events.ctx, ev->time,
                                                            b.USER_MARKER.text.ptr,
                                                            b.USER_MARKER.text.len))
                                : CENSUS_OK;
    case EV_HEAP_SIZE: case EV_HEAP_LIVE: case EV_BLOCKS_SIZE:
        return pass_total(c, ev->tag == EV_HEAP_SIZE   ? HEAP_TOTAL_SIZE
                             : ev->tag == EV_HEAP_LIVE ? HEAP_TOTAL_LIVE
                                                       : HEAP_TOTAL_BLOCKS,
                          ev->time, b.HEAP_SIZE.bytes);
    case EV_HEAP_ALLOCATED: case EV_GC_START: case EV_GC_END: {
        /* a heap total too: the allocation so far, the collection's start or end */
        enum census_status st =
            pass_total(c, ev->tag == EV_HEAP_ALLOCATED ? HEAP_TOTAL_ALLOCATED
                          : ev->tag == EV_GC_START     ? HEAP_GC_START
                                                       : HEAP_GC_END,
                       ev->time, ev->tag == EV_HEAP_ALLOCATED ? b.HEAP_ALLOCATED.bytes : 0);
        return st != CENSUS_OK ? st : pass_gc(c, ev, &b);
    }
    case EV_GC_STATS_GHC:
    case EV_CONC_MARK_BEGIN: case EV_CONC_MARK_END: case EV_CONC_SYNC_BEGIN:
    case EV_CONC_SYNC_END: case EV_CONC_SWEEP_BEGIN: case EV_CONC_SWEEP_END:
    case EV_OSPROCESS_PID: case EV_TASK_CREATE: case EV_TASK_DELETE:
    case EV_NONMOVING_HEAP_CENSUS:
        return pass_gc(c, ev, &b);
    case EV_TICKY_COUNTER_DEF: case EV_TICKY_COUNTER_SAMPLE: case EV_TICKY_COUNTER_BEGIN_SAMPLE:
        return pass_ticky(c, ev, &b);
    default:
        return CENSUS_OK;
    }
}

enum census_status census_feed(struct census *c, const struct ev_event *ev,
                               struct ev_error *err)
{
    census_note_time(c, ev->time);
    enum ev_role role = ev_role(ev->tag);
    if (role == EVR_SCHED)
        return pass_sched(c, ev);
    if (!census_wants(ev->tag) && !(c->tp && role == EVR_TIME_PROFILE))
        return CENSUS_OK;
    return feed_decoded(c, ev, err);
}

static int by_time(const void *a, const void *b)
{
    const struct held_frame *x = a, *y = b;
    int c = order_u64(x->time_ns, y->time_ns);
    /* Equal times keep their arrival order: qsort is not stable, first is. */
    return c ? c : order_u64(x->first, y->first);
}

enum census_status census_finish(struct census *c, bool complete, struct ev_error *err)
{
    c->info.ending = complete ? RUN_ENDING_MARKED : RUN_ENDING_CUT;
    if (c->in_census) {
        if (complete && !c->sample_end_declared) {
            enum census_status st = close_census(c, err);
            if (st != CENSUS_OK)
                return st;
        } else {
            c->in_census = false;
            c->stats.open_at_end = true;
            c->stats.open_time_ns = c->open_time_ns;
        }
    }
    /* qsort and pointer arithmetic on a NULL array (nothing held) are undefined. */
    if (c->held_count > 1)
        qsort(c->held, c->held_count, sizeof *c->held, by_time);
    for (size_t i = 0; i < c->held_count; i++) {
        const struct held_frame *h = &c->held[i];
        /* The reader vouches for timestamps, not for the time a biographical census
         * carries in its fields: one past the end of the run is not the run's. */
        if (h->time_ns > c->info.end_time_ns) {
            c->stats.past_the_end++;
            continue;
        }
        const struct census_entry *entries = h->count ? c->held_entries.items + h->first : NULL;
        enum census_status st = report(c, h->time_ns, h->era, entries, h->count);
        if (st != CENSUS_OK)
            return st;
    }
    c->held_count = 0;
    c->held_entries.count = 0;
    return CENSUS_OK;
}
