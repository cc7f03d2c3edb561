/* input.c: one input read into census callbacks (see input.h).
 *
 * The kind of input is told by its first bytes, peeked without seeking, so pipes and
 * standard input work and gzip is undone underneath (source.h). An eventlog goes through
 * the streaming reader and the census assembler; a .hp through the .hp reader, which
 * calls the same callbacks.
 */
#include "census/input.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/format.h"
#include "census/heldback.h"
#include "read/connect.h"
#include "read/evdecode.h"
#include "read/evread.h"
#include "read/filekind.h"
#include "read/hpread.h"
#include "read/source.h"

/* Counts the bytes the reader takes and, on reads (never per event), reports progress
 * when the meter says a report is due. */
struct progress_tracker {
    struct ev_source inner;
    progress_fn fn;
    void *ctx;
    int fd;
    uint64_t input_size;           /* of a regular file, else 0 */
    uint64_t delivered;            /* bytes handed to the reader */
    struct progress_meter meter;
    const struct census *census;
};

/* input_options.lock: held by input_read, released around each read of the source. */
struct source_guard {
    struct ev_source inner;
    const struct input_lock *lock;
    bool held;                     /* inside input_read */
};

struct input {
    struct input_options opt;
    struct progress_tracker tracker;
    struct source_guard guard;
    int fd;
    struct census_events events;
    struct source_auto *raw;
    struct source_peek peek;
    /* A socket input: its bytes from the eventlog header on (source.h). Each connection
     * re-initialises it; the reader of the connection before is not read again. */
    struct source_seek seek;
    struct ev_reader *reader;      /* an eventlog: reader and assembler */
    struct census *census;
    struct hp_reader *hp;          /* a .hp */
    struct grouping *grouping;     /* --group-by: between the reader and events; or NULL */
    size_t last_region_warning;    /* the warning of the last damaged region */
    /* A socket input (kind CONNECT_NONE otherwise). fd is the connection; control_lock
     * guards it against input_send_control while a connection is replaced. */
    struct connect_address addr;
    pthread_mutex_t control_lock;
    bool lock_made;
    /* A followed input (a pipe, a FIFO, a socket, --follow): whether the runtime holds
     * its censuses back (heldback.h) is watched. */
    bool followed;
    struct heldback heldback;
    char held_back[HELDBACK_TEXT]; /* the sentence, once said; "" before */
    bool read_done;                /* input_read has returned */
};

const char *input_name(const char *path)
{
    return !path || strcmp(path, "-") == 0 ? "(standard input)" : path;
}

static void add_warning(struct input_outcome *out, const struct ev_error *w)
{
    if (out->warning_count < INPUT_MAX_WARNINGS)
        out->warnings[out->warning_count++] = *w;
}

static void dump_event(FILE *out, const struct ev_event *ev)
{
    const char *name = ev_name(ev->tag);
    union ev_body body;
    fprintf(out, "%" PRIu64 " ", ev->time);
    if (!name) {
        fprintf(out, "unknown event %u (%" PRIu32 " bytes)\n", ev->tag, ev->size);
        return;
    }
    fputs(name, out);
    enum ev_decode_status st = ev_decode(ev->tag, ev->payload, ev->size, &body);
    if (st == EV_DECODED)
        ev_print_fields(out, ev->tag, &body);
    else
        fprintf(out, " (%" PRIu32 " bytes, too short for its fields)", ev->size);
    fputc('\n', out);
}

/* The run line of a recovered input: "recovered N censuses; K lost to damage at offsets
 * A, B, ...". */
static void report_recovery(const struct census_stats *st, struct input_outcome *r)
{
    char offsets[160] = "";
    size_t used = 0;
    size_t listed = r->region_count < INPUT_MAX_REGIONS ? r->region_count : INPUT_MAX_REGIONS;
    for (size_t i = 0; i < listed && used < sizeof offsets - 32; i++)
        used += (size_t)snprintf(offsets + used, sizeof offsets - used, "%s%" PRIu64,
                                 i ? ", " : "", r->regions[i].offset);
    if (r->region_count > listed)
        snprintf(offsets + used, sizeof offsets - used, " and %zu more",
                 r->region_count - listed);
    struct ev_error w = { 0 };
    if (r->region_count)
        ev_error_set(&w, "recovered %" PRIu64 " census%s; %" PRIu64 " lost to damage at offset%s %s",
                     st->censuses, format_plural(st->censuses, "", "es"), st->lost_to_damage,
                     format_plural(r->region_count, "", "s"), offsets);
    else
        ev_error_set(&w, "recovered %" PRIu64 " census%s; %" PRIu64 " lost to damage",
                     st->censuses, format_plural(st->censuses, "", "es"), st->lost_to_damage);
    add_warning(r, &w);
}

/* The one line that names the runtime's own race as the cause of the damage found (after
 * the run line), so that nobody hunts for a broken disk or pipe: what ran, the issue, and
 * what runs clean. */
static void report_known_cause(const struct run_info *info, struct input_outcome *r)
{
    struct ev_error w = { 0 };
    ev_error_set(&w, "known cause: this runtime (%.24s, not threaded), profiling heap and "
                 "time at once, writes time-profile ticks into a census unlocked (GHC issue "
                 "25165); its .hp is intact, and a -threaded build or a run without -p writes "
                 "a clean eventlog", info->rts_version);
    add_warning(r, &w);
}

/* Words the census anomalies and the damage as warnings. */
static void report_stats(const struct census *c, struct input_outcome *r,
                         const struct ev_error *damage)
{
    const struct census_stats *st = census_stats(c);
    struct ev_error w = { 0 };
    if (r->region_count || st->copies_dropped)
        report_recovery(st, r);
    if ((r->region_count || st->lost_to_damage) && census_racing_runtime(c))
        report_known_cause(census_run_info(c), r);
    if (damage) {
        char open[96] = "";
        if (st->open_at_end)
            format_snprintf(open, sizeof open, "; the census begun at %.2f s is incomplete and was "
                            "not written", st->open_time_ns / 1e9);
        ev_error_at(&w, damage->offset, "%s; kept %" PRIu64 " census%s up to %.2f s%s",
                    damage->what, st->censuses, format_plural(st->censuses, "", "es"),
                    st->last_time_ns / 1e9, open);
        add_warning(r, &w);
    }
    if (st->unknown_cost_centres) {
        ev_error_set(&w, "%" PRIu64 " stack %s cost centres never defined (shown "
                     "as #N)", st->unknown_cost_centres,
                     format_plural(st->unknown_cost_centres, "entry names", "entries name"));
        add_warning(r, &w);
    }
    if (st->unended) {
        ev_error_set(&w, "%" PRIu64 " %s inside another; the unfinished %s "
                     "dropped", st->unended, format_plural(st->unended, "census began", "censuses began"),
                     format_plural(st->unended, "one was", "ones were"));
        add_warning(r, &w);
    }
    if (st->stray_entries || st->stray_ends) {
        ev_error_set(&w, "%" PRIu64 " census %s and %" PRIu64 " census %s outside any "
                     "census were ignored", st->stray_entries,
                     format_plural(st->stray_entries, "entry", "entries"), st->stray_ends,
                     format_plural(st->stray_ends, "end", "ends"));
        add_warning(r, &w);
    }
    if (st->lost_to_gaps) {
        ev_error_set(&w, "%" PRIu64 " census%s cut by a dropped connection %s lost",
                     st->lost_to_gaps, st->lost_to_gaps == 1 ? "" : "es",
                     st->lost_to_gaps == 1 ? "was" : "were");
        add_warning(r, &w);
    }
    if (st->copies_dropped) {
        ev_error_set(&w, "%" PRIu64 " %s no later than the census written before %s "
                     "(%s of earlier events) and %s dropped", st->copies_dropped,
                     format_plural(st->copies_dropped, "census began", "censuses began"),
                     format_plural(st->copies_dropped, "it", "them"),
                     format_plural(st->copies_dropped, "a copy", "copies"),
                     format_plural(st->copies_dropped, "was", "were"));
        add_warning(r, &w);
    }
    if (st->past_the_end) {
        ev_error_set(&w, "%" PRIu64 " biographical %s past the end of the run and %s "
                     "dropped", st->past_the_end,
                     format_plural(st->past_the_end, "census had a time", "censuses had times"),
                     format_plural(st->past_the_end, "was", "were"));
        add_warning(r, &w);
    }
    if (st->backwards) {
        ev_error_set(&w, "%" PRIu64 " %s going backwards (kept in order)",
                     st->backwards, format_plural(st->backwards, "census had its time",
                                                  "censuses had times"));
        add_warning(r, &w);
    }
    if (st->extra_prof_begins) {
        ev_error_set(&w, "%" PRIu64 " further HEAP_PROF_BEGIN %s ignored",
                     st->extra_prof_begins, format_plural(st->extra_prof_begins, "event was",
                                                          "events were"));
        add_warning(r, &w);
    }
}

/* -hi: the info tables shown as addresses, said once, with how to name them. */
static void report_unnamed(const struct input *in, struct input_outcome *r)
{
    const char *first = "";
    size_t first_len = 0;
    uint32_t n = census_unnamed_tables(in->census, &first, &first_len);
    uint64_t named = census_stats(in->census)->tables_from_symbols;
    struct ev_error w = { 0 };
    int shown = first_len < 20 ? (int)first_len : 20;
    if (in->opt.symbols && r->censuses &&
        census_run_info(in->census)->breakdown != BREAKDOWN_INFO_TABLE) {
        char scratch[32];
        ev_error_note(&w, "%s names the info tables of a -hi profile; this one is %s: it "
                      "names nothing",
                      in->opt.symbols_option ? in->opt.symbols_option : "--binary",
                      breakdown_words(census_run_info(in->census)->breakdown, scratch,
                                      sizeof scratch));
        add_warning(r, &w);
        return;
    }
    if (n == 0)
        return;
    if (!in->opt.symbols)
        ev_error_note(&w, "%" PRIu32 " info table%s no IPE event and %s shown as address%s "
                      "(%.*s%s): %s PROG names them from the program's symbol table", n,
                      format_plural(n, " has", "s have"), format_plural(n, "is", "are"),
                      format_plural(n, "", "es"), shown, first, n > 1 ? ", ..." : "",
                      in->opt.symbols_option ? in->opt.symbols_option : "--binary");
    else if (named == 0)
        ev_error_note(&w, "%s names none of the %" PRIu32 " info table%s without an IPE event "
                      "(%.*s%s): is it the program that wrote this eventlog?",
                      in->opt.symbols_path, n, format_plural(n, "", "s"), shown, first,
                      n > 1 ? ", ..." : "");
    else
        ev_error_note(&w, "%" PRIu32 " info table%s no IPE event, no symbol in %s: shown as "
                      "address%s (%.*s%s)", n, format_plural(n, " has", "s have"),
                      in->opt.symbols_path, format_plural(n, "", "es"), shown, first,
                      n > 1 ? ", ..." : "");
    add_warning(r, &w);
}

static void report_progress(struct progress_tracker *t, double now, bool done)
{
    struct progress_report r = { t->delivered, t->input_size, 0, now - t->meter.start, done };
    if (t->input_size > 0) {
        /* A file's position counts its own bytes, compressed or not. */
        off_t at = lseek(t->fd, 0, SEEK_CUR);
        if (at >= 0)
            r.bytes_read = (uint64_t)at;
    }
    if (t->census)
        r.censuses = census_stats(t->census)->censuses;
    t->fn(t->ctx, &r);
}

static ssize_t read_with_progress(void *ctx, unsigned char *buf, size_t n)
{
    struct progress_tracker *t = ctx;
    ssize_t got = t->inner.read(t->inner.ctx, buf, n);
    if (got > 0) {
        t->delivered += (uint64_t)got;
        double now = progress_clock();
        if (progress_meter_due(&t->meter, now))
            report_progress(t, now, false);
    }
    return got;
}

static const char *why_with_progress(void *ctx)
{
    struct progress_tracker *t = ctx;
    return t->inner.why ? t->inner.why(t->inner.ctx) : NULL;
}

static ssize_t read_unguarded(void *ctx, unsigned char *buf, size_t n)
{
    struct source_guard *g = ctx;
    if (!g->held)
        return g->inner.read(g->inner.ctx, buf, n);
    g->lock->unlock(g->lock->ctx);
    ssize_t got = g->inner.read(g->inner.ctx, buf, n);
    int e = errno;
    g->lock->lock(g->lock->ctx);
    errno = e;
    return got;
}

static const char *why_unguarded(void *ctx)
{
    struct source_guard *g = ctx;
    return g->inner.why ? g->inner.why(g->inner.ctx) : NULL;
}

/* The reader's source, last: the lock released while it waits for bytes (the progress
 * report, under the lock, reads the assembler's count). */
static void guard_source(struct input *in, struct ev_source *src)
{
    if (!in->opt.lock)
        return;
    in->guard = (struct source_guard){ *src, in->opt.lock, in->guard.held };
    *src = (struct ev_source){ read_unguarded, &in->guard, why_unguarded };
}

static void guard_hold(struct input *in, bool held)
{
    if (!in->opt.lock || in->guard.held == held)
        return;
    in->guard.held = held;
    if (held)
        in->opt.lock->lock(in->opt.lock->ctx);
    else
        in->opt.lock->unlock(in->opt.lock->ctx);
}

/* Puts the input's tracker between src and the reader. */
static void track_progress(struct input *in, struct ev_source *src)
{
    struct progress_tracker *t = &in->tracker;
    struct stat st;
    *t = (struct progress_tracker){ *src, in->opt.progress, in->opt.progress_ctx, in->fd, 0,
                                    0, { 0, 0 }, NULL };
    if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
        t->input_size = (uint64_t)st.st_size;
    progress_meter_start(&t->meter, progress_clock());
    *src = (struct ev_source){ read_with_progress, t, why_with_progress };
}

static void notify(const struct input_options *opt, const char *what)
{
    if (opt->notice)
        opt->notice(opt->notice_ctx, what);
}

struct waiting_notice {
    const struct input_options *opt;
    bool said;
};

static void say_waiting(void *ctx, const char *why)
{
    struct waiting_notice *w = ctx;
    char what[160];
    snprintf(what, sizeof what, "waiting for the program to listen (%s)", why);
    notify(w->opt, what);
    w->said = true;
}

/* Connects a socket input: the descriptor, or -1 with err set. *waited: "waiting" was
 * said (then "connected" is too). */
static int connect_input(const struct input_options *opt, const struct connect_address *a,
                         bool *waited, struct ev_error *err)
{
    struct waiting_notice w = { opt, false };
    int fd = connect_wait(a, opt->wait_seconds, opt->stop, say_waiting, &w, err);
    *waited = w.said;
    return fd;
}

static int open_fd(const char *path, int *fd, struct ev_error *err)
{
    if (!path || strcmp(path, "-") == 0) {
        *fd = STDIN_FILENO;
        return 0;
    }
    *fd = open(path, O_RDONLY);
    if (*fd < 0) {
        ev_error_set(err, "cannot open: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* The eventlog's reader and assembler, with the header read and checked. */
static int open_eventlog(struct input *in, struct ev_source src, struct ev_error *err)
{
    if (in->opt.progress)
        track_progress(in, &src);
    guard_source(in, &src);
    in->reader = ev_reader_new(src, in->opt.read_buffer);
    if (in->reader)
        ev_reader_recover(in->reader, !in->opt.stop_at_damage);
    struct census_options copt = { .ccs_length = in->opt.ccs_length,
                                   .time_profile = in->opt.time_profile,
                                   .sched = in->opt.sched,
                                   .recover = !in->opt.stop_at_damage,
                                   .symbols = in->opt.symbols };
    in->census = census_new(&copt, &in->events);
    if (in->grouping && in->census)
        grouping_source(in->grouping,
                        &(struct group_source){ census_bands(in->census),
                                                census_ipe_names(in->census),
                                                census_costcentres(in->census),
                                                census_run_info(in->census) });
    in->tracker.census = in->census;
    if (!in->reader || !in->census) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    enum ev_status st = ev_reader_read_header(in->reader, err);
    if (st == EV_NOT_EVENTLOG) {
        /* say what it is instead, when its first bytes tell */
        const char *kind = filekind_not_eventlog(in->peek.head, in->peek.len);
        if (kind)
            ev_error_at(err, 0, "not an eventlog: %s", kind);
    }
    if (st != EV_OK)
        return -1;
    return census_check_header(in->census, in->reader, err) == CENSUS_OK ? 0 : -1;
}

static void watch_held_back(void *ctx);

/* How the descriptor of an input is read: a socket, a followed file and (with a stop
 * flag) a pipe are live (source.h); a plain file is read as it is. */
static void make_live(struct input *in)
{
    struct stat st;
    bool regular = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
    in->followed = !regular || in->opt.follow;
    if (regular && !in->opt.follow)
        return;
    if (!regular && !in->opt.stop && in->addr.kind == CONNECT_NONE)
        return;
    struct source_live live = { .follow = regular, .stop = in->opt.stop };
    /* Without another thread to ask (--serve's worker, under the lock), the reader's own
     * waits look whether the censuses are held back. */
    if (!in->opt.lock) {
        live.idle = watch_held_back;
        live.idle_ctx = in;
    }
    source_auto_live(in->raw, &live);
}

bool input_held_back(struct input *in, char *why, size_t size)
{
    if (!in->held_back[0] && in->followed && in->census && in->reader) {
        const struct census_stats *st = census_stats(in->census);
        const struct run_info *info = census_run_info(in->census);
        struct heldback_facts f = { progress_clock(), st->censuses, st->last_time_ns,
                                    ev_reader_latest_time(in->reader),
                                    info->has_heap_profile ? info->period_ns : 0,
                                    in->read_done,
                                    heldback_runtime_flushes(info->program,
                                                             info->rts_version) };
        if (heldback_check(&in->heldback, &f) == HELDBACK_NO)
            return false;
        heldback_explain(&in->heldback, &f, in->held_back, sizeof in->held_back);
        notify(&in->opt, in->held_back);   /* the one time it is said on standard error */
    }
    if (!in->held_back[0])
        return false;
    snprintf(why, size, "%s", in->held_back);
    return true;
}

static void watch_held_back(void *ctx)
{
    char why[HELDBACK_TEXT];
    (void)input_held_back(ctx, why, sizeof why);
}

bool input_is_socket(const struct input *in)
{
    return in->addr.kind != CONNECT_NONE;
}

/* Why the input could not be read as far as its header. */
static void header_failure(struct input *in, struct ev_error *err)
{
    if (source_auto_stopped(in->raw))
        ev_error_set(err, "stopped before the eventlog's header had arrived");
}

struct input *input_open(const struct input_options *opt, const struct census_events *events,
                         struct ev_error *err)
{
    int fd;
    struct connect_address addr;
    bool waited = false;
    if (connect_parse(opt->path, &addr, err) != 0)
        return NULL;
    if (addr.kind != CONNECT_NONE)
        fd = connect_input(opt, &addr, &waited, err);
    else if (open_fd(opt->path, &fd, err) != 0)
        return NULL;
    if (fd < 0)
        return NULL;
    if (waited)
        notify(opt, "connected");
    struct input *in = calloc(1, sizeof *in);
    if (in)
        in->raw = source_auto_new(fd);
    if (!in || !in->raw || pthread_mutex_init(&in->control_lock, NULL) != 0) {
        ev_error_set(err, "out of memory");
        if (in)
            source_auto_free(in->raw);
        else if (fd > STDIN_FILENO)
            close(fd);
        free(in);
        return NULL;
    }
    in->lock_made = true;
    in->opt = *opt;
    in->fd = fd;
    in->addr = addr;
    in->events = *events;
    if (opt->group_by != GROUP_NONE) {
        /* the reader feeds the grouping, which feeds the caller */
        if (!(in->grouping = grouping_new(opt->group_by, events))) {
            ev_error_set(err, "out of memory");
            input_free(in);
            return NULL;
        }
        in->events = grouping_events(in->grouping);
    }
    make_live(in);
    struct ev_source inflated = { source_auto_read, in->raw, source_auto_why };
    if (addr.kind != CONNECT_NONE) {
        source_seek_init(&in->seek, inflated);
        inflated = (struct ev_source){ source_seek_read, &in->seek, source_seek_why };
    }
    if (source_peek_init(&in->peek, inflated, FILEKIND_HEAD) != 0) {
        const char *why = source_auto_why(in->raw);
        ev_error_set(err, "cannot read: %s", why ? why : strerror(errno));
        input_free(in);
        return NULL;
    }
    struct ev_source src = { source_peek_read, &in->peek, source_peek_why };
    if (hp_looks_like(in->peek.head, in->peek.len)) {
        guard_source(in, &src);
        in->hp = hp_reader_new(src, &in->events);
        if (in->hp && in->grouping)
            grouping_source(in->grouping,
                            &(struct group_source){ .bands = hp_reader_bands(in->hp) });
        if (in->hp)
            return in;
        ev_error_set(err, "out of memory");
    } else if (open_eventlog(in, src, err) == 0) {
        return in;
    } else {
        header_failure(in, err);
    }
    input_free(in);
    return NULL;
}

const struct run_info *input_run_info(const struct input *in)
{
    return in->hp ? hp_reader_run_info(in->hp) : census_run_info(in->census);
}

bool input_is_hp(const struct input *in)
{
    return in->hp != NULL;
}

const struct bands *input_bands(const struct input *in)
{
    if (in->grouping)
        return grouping_bands(in->grouping);
    return in->hp ? hp_reader_bands(in->hp) : census_bands(in->census);
}

const struct costcentres *input_costcentres(const struct input *in)
{
    return in->census ? census_costcentres(in->census) : NULL;
}

const struct ipe_names *input_ipe_names(const struct input *in)
{
    return in->census ? census_ipe_names(in->census) : NULL;
}

const struct timeprof *input_timeprof(const struct input *in)
{
    return in->census ? census_timeprof(in->census) : NULL;
}

static enum input_status read_hp(struct input *in, struct input_outcome *out,
                                 struct ev_error *err)
{
    enum hp_status st = hp_reader_run(in->hp, err);
    if (st == HP_STOPPED)
        return INPUT_STOPPED;
    if (st != HP_OK && st != HP_TRUNCATED)
        return INPUT_BAD;
    out->censuses = hp_reader_censuses(in->hp);
    out->damaged = st == HP_TRUNCATED;
    if (out->damaged) {
        out->damage = *err;
        add_warning(out, err);
    }
    struct ev_error w;
    if (hp_reader_warning(in->hp, &w))
        add_warning(out, &w);
    return INPUT_OK;
}

/* A damaged region recovered from: one warning for it (err says where and how many bytes
 * were skipped), the census it overlaps dropped. The first damage is kept for --strict. */
static void note_region(struct input *in, struct input_outcome *out, struct ev_region region,
                        const struct ev_error *err)
{
    if (!out->damaged) {
        out->damaged = true;
        out->damage = *err;
    }
    census_damaged(in->census);
    /* A region that begins where the last one ended (the reader resynchronised inside
     * the same damage) is the same region: its warning grows, with the first reason. */
    struct ev_region *last = out->region_count && out->region_count <= INPUT_MAX_REGIONS
                                 ? &out->regions[out->region_count - 1] : NULL;
    if (last && last->length && region.length && region.offset == last->offset + last->length &&
        in->last_region_warning < out->warning_count) {
        struct ev_error *w = &out->warnings[in->last_region_warning];
        const char *why = strstr(w->what, " skipped (");
        char reason[sizeof w->what];
        snprintf(reason, sizeof reason, "%s", why ? why + 10 : ")");
        last->length += region.length;
        ev_error_at(w, last->offset, "damaged region of %" PRIu64 " bytes skipped (%s",
                    last->length, reason);
        return;
    }
    if (out->region_count < INPUT_MAX_REGIONS)
        out->regions[out->region_count] = region;
    out->region_count++;
    /* The last slots stay for the run line and the census anomalies. */
    in->last_region_warning = out->warning_count;
    if (out->warning_count < INPUT_MAX_WARNINGS - 8)
        add_warning(out, err);
}

/* Reads events into the assembler until the end, damage it cannot recover from, or a
 * census status that stops the run. With recovery, damage the reader finds comes back as
 * EV_SKIPPED, and damage the assembler finds (an event too short for its fields, a
 * duplicated block) is resynchronised from here. */
static enum ev_status feed_events(struct input *in, struct input_outcome *out,
                                  enum census_status *cst, struct ev_error *err)
{
    struct ev_event ev;
    enum ev_status st;
    for (;;) {
        st = ev_reader_next(in->reader, &ev, err);
        if (st == EV_SKIPPED) {
            note_region(in, out, ev_reader_last_region(in->reader), err);
            continue;
        }
        if (st != EV_OK)
            return st;
        if (in->opt.dump)
            dump_event(in->opt.dump, &ev);
        *cst = census_feed(in->census, &ev, err);
        if (*cst == CENSUS_OK)
            continue;
        if (*cst == CENSUS_SUSPECT && !in->opt.stop_at_damage) {
            /* Nothing to skip: every event parses; only the census is doubtful. */
            note_region(in, out, (struct ev_region){ ev.offset, 0 }, err);
            *cst = CENSUS_OK;
            continue;
        }
        if (*cst == CENSUS_DUPLICATE && !ev_reader_block_end(in->reader)) {
            /* Without block markers (never so from GHC) there is no copy to skip: the
             * event alone is ignored, as the assembler counts it. */
            *cst = CENSUS_OK;
            continue;
        }
        if (in->opt.stop_at_damage || (*cst != CENSUS_BAD_EVENT && *cst != CENSUS_DUPLICATE))
            return st;
        census_damaged(in->census);
        st = ev_reader_resync(in->reader, ev.offset, *cst == CENSUS_DUPLICATE, err);
        *cst = CENSUS_OK;
        if (st != EV_SKIPPED)
            return st;
        note_region(in, out, ev_reader_last_region(in->reader), err);
    }
}

/* --dump prints every event; a conversion needs only the few the assembler wants. */
static void choose_events(struct input *in)
{
    if (!in->opt.dump)
        ev_reader_skip_unwanted(in->reader,
                                in->opt.markers_only
                                    ? census_wants_markers
                                    : census_wants_for(in->opt.time_profile != NULL,
                                                       in->opt.sched && in->events.gc));
}

#define INPUT_GAPS_LISTED 4   /* dropped connections with a warning each (all counted) */

/* The connection of a socket input closed before the end-of-data marker: connects again
 * and reads the new connection's header, so that reading goes on with the same census
 * assembler. 0, or -1 with err set when no program listens again in time (the input
 * ends there) or the new stream is not the same run's. */
static int reconnect(struct input *in, struct input_outcome *out, struct ev_error *err)
{
    uint64_t at = ev_reader_offset(in->reader);
    uint64_t lost_ns = ev_reader_latest_time(in->reader);
    census_note_time(in->census, lost_ns);
    census_restarted(in->census);
    static const char gap_marker[] = "ev2hp: connection lost";
    if (in->events.marker &&
        in->events.marker(in->events.ctx, lost_ns, gap_marker, sizeof gap_marker - 1) != 0)
        return 1;
    char what[200];
    format_snprintf(what, sizeof what, "the connection closed at %.2f s into the run; "
                    "connecting again", lost_ns / 1e9);
    notify(&in->opt, what);
    pthread_mutex_lock(&in->control_lock);
    in->fd = -1;
    pthread_mutex_unlock(&in->control_lock);
    double start = progress_clock();
    struct ev_error cerr = { 0 };
    guard_hold(in, false);
    int fd = connect_wait(&in->addr, in->opt.wait_seconds, in->opt.stop, NULL, NULL, &cerr);
    guard_hold(in, true);
    if (fd < 0) {
        ev_error_at(err, at, "the connection closed before the end-of-data marker, and then "
                    "%s", cerr.what);
        return -1;
    }
    struct source_auto *raw = source_auto_new(fd);
    if (!raw) {
        close(fd);
        ev_error_set(err, "out of memory");
        return -1;
    }
    struct source_live live = { .stop = in->opt.stop };
    source_auto_live(raw, &live);
    source_seek_init(&in->seek, (struct ev_source){ source_auto_read, raw, source_auto_why });
    struct ev_source src = { source_seek_read, &in->seek, source_seek_why };
    if (in->opt.progress) {
        in->tracker.inner = src;
        src = (struct ev_source){ read_with_progress, &in->tracker, why_with_progress };
    }
    guard_source(in, &src);
    struct ev_reader *reader = ev_reader_new(src, in->opt.read_buffer);
    if (!reader) {
        source_auto_free(raw);
        ev_error_set(err, "out of memory");
        return -1;
    }
    ev_reader_start_at(reader, at);
    ev_reader_recover(reader, !in->opt.stop_at_damage);
    enum ev_status hst = ev_reader_read_header(reader, err);
    if (hst == EV_OK && !ev_reader_same_declarations(in->reader, reader)) {
        ev_error_at(err, at, "after connecting again, the program sends another eventlog "
                    "header (another program or runtime)");
        hst = EV_NOT_EVENTLOG;
    }
    if (hst == EV_OK && census_check_header(in->census, reader, err) != CENSUS_OK)
        hst = EV_DAMAGED;
    /* Either way the old connection goes, under the lock input_send_control takes. */
    pthread_mutex_lock(&in->control_lock);
    ev_reader_free(in->reader);
    source_auto_free(in->raw);
    in->reader = reader;
    in->raw = raw;
    in->fd = hst == EV_OK ? fd : -1;
    pthread_mutex_unlock(&in->control_lock);
    if (hst != EV_OK)
        return -1;
    choose_events(in);
    double gap = progress_clock() - start;
    out->reconnections++;
    format_snprintf(what, sizeof what, "connected again after %.1f s", gap);
    notify(&in->opt, what);
    if (out->reconnections <= INPUT_GAPS_LISTED) {
        struct ev_error w = { 0 };
        format_snprintf(w.what, sizeof w.what, "the connection closed at %.2f s into the run "
                        "and was made again %.1f s later; the events in between are missing "
                        "(a marker shows where)", lost_ns / 1e9, gap);
        w.offset = at;
        w.has_offset = true;
        add_warning(out, &w);
    }
    return 0;
}

/* Whether reading stopped because a socket input's connection closed early. */
static bool connection_dropped(const struct input *in, enum ev_status st,
                               enum census_status cst)
{
    return in->addr.kind != CONNECT_NONE && st != EV_END && st != EV_OK &&
           cst == CENSUS_OK && source_auto_at_eof(in->raw) && !source_auto_stopped(in->raw);
}

static enum input_status read_eventlog(struct input *in, struct input_outcome *out,
                                       struct ev_error *err)
{
    enum census_status cst = CENSUS_OK;
    choose_events(in);
    enum ev_status st = feed_events(in, out, &cst, err);
    while (connection_dropped(in, st, cst)) {
        int rc = reconnect(in, out, err);
        if (rc > 0)
            return INPUT_STOPPED;
        if (rc < 0) {
            st = EV_DAMAGED;
            break;
        }
        st = feed_events(in, out, &cst, err);
    }
    if (cst == CENSUS_STOPPED)
        return INPUT_STOPPED;
    if (cst == CENSUS_NO_MEMORY || cst == CENSUS_LIMIT) {
        if (cst == CENSUS_NO_MEMORY)
            ev_error_set(err, "out of memory");
        return INPUT_BAD;
    }
    /* Anything but the end-of-data marker, including an event too short for its fields,
     * is damage: what came before stands. */
    bool complete = st == EV_END && cst == CENSUS_OK;
    if (in->opt.progress)
        report_progress(&in->tracker, progress_clock(), true);
    /* A live input stopped on request ends where it was: not damage, but the census it
     * was in the middle of is incomplete all the same. */
    out->stopped = !complete && source_auto_stopped(in->raw);
    if (out->stopped)
        ev_error_at(err, ev_reader_offset(in->reader), "stopped while reading");
    else if (!complete) {
        if (!out->damaged)
            out->damage = *err;
        out->damaged = true;
    }
    census_note_time(in->census, ev_reader_latest_time(in->reader));
    /* Closing the last census can hit a limit (held biography censuses): bad input, not
     * a write failure. */
    cst = census_finish(in->census, complete, err);
    if (cst == CENSUS_STOPPED)
        return INPUT_STOPPED;
    if (cst != CENSUS_OK) {
        if (cst == CENSUS_NO_MEMORY)
            ev_error_set(err, "out of memory");
        return INPUT_BAD;
    }
    out->censuses = census_stats(in->census)->censuses;
    out->lost_to_damage = census_stats(in->census)->lost_to_damage;
    out->lost_to_gaps = census_stats(in->census)->lost_to_gaps;
    report_stats(in->census, out, complete ? NULL : err);
    report_unnamed(in, out);
    return INPUT_OK;
}

enum input_status input_read(struct input *in, struct input_outcome *out, struct ev_error *err)
{
    memset(out, 0, sizeof *out);
    guard_hold(in, true);
    enum input_status st = in->hp ? read_hp(in, out, err) : read_eventlog(in, out, err);
    in->read_done = true;
    /* censuses that came in one burst at the end: the waits saw them held back, and no
     * wait follows to say it (the lock, if any, is held here) */
    watch_held_back(in);
    guard_hold(in, false);
    if (st == INPUT_OK && in->hp && in->opt.symbols) {
        struct ev_error w;
        ev_error_set(&w, "%s names the info tables of an eventlog; a .hp's bands stay as the "
                     "runtime wrote them", in->opt.symbols_option ? in->opt.symbols_option
                                                                  : "--binary");
        add_warning(out, &w);
    }
    if (st == INPUT_OK && in->grouping && out->censuses && !grouping_applied(in->grouping)) {
        struct ev_error w;
        ev_error_set(&w, "--group-by: no band of this profile has that key (type, closure, "
                     "file and location need -hi with IPE events; cc a -hc eventlog): bands "
                     "are shown as they are");
        add_warning(out, &w);
    }
    return st;
}

int input_send_control(struct input *in, enum control_command cmd)
{
    if (in->addr.kind == CONNECT_NONE) {
        errno = ENOTSOCK;
        return -1;
    }
    pthread_mutex_lock(&in->control_lock);
    int rc = -1;
    if (in->fd < 0)
        errno = ENOTCONN;
    else
        rc = control_write(in->fd, cmd);
    int e = errno;
    pthread_mutex_unlock(&in->control_lock);
    errno = e;
    return rc;
}

void input_free(struct input *in)
{
    if (!in)
        return;
    if (in->lock_made)
        pthread_mutex_destroy(&in->control_lock);
    hp_reader_free(in->hp);
    census_free(in->census);
    grouping_free(in->grouping);
    ev_reader_free(in->reader);
    source_auto_free(in->raw);
    free(in);
}
