/* convert.c: the pipeline of one run: reader, census assembler, sinks (see convert.h).
 *
 * Outputs are opened before the first event is read, so a bad output path fails fast;
 * they are committed only after the whole input is read, so a failed run leaves no half
 * file. The assembler's callbacks fan out to every sink.
 */
#include "convert.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "census.h"
#include "chart.h"
#include "evdecode.h"
#include "evread.h"
#include "hpread.h"
#include "outfile.h"
#include "peak.h"
#include "progress.h"
#include "source.h"

struct output {
    struct outfile file;
    struct sink *sink;
    const char *name;
};

struct run {
    const struct convert_options *opt;
    struct convert_result *result;
    struct output *outputs;
    size_t output_count;
    size_t failed_output;          /* index of the output whose write failed */
    bool write_failed;
    struct peak peak;              /* the exact peak census (--max-peak, --summary) */
    bool track_peak;
    const struct bands *bands;     /* the labels of the input being read */
};

const char *convert_input_name(const struct convert_options *opt)
{
    if (!opt->input_path || strcmp(opt->input_path, "-") == 0)
        return "(standard input)";
    return opt->input_path;
}

static void warn(struct convert_result *r, const struct ev_error *w)
{
    if (r->warning_count < CONVERT_MAX_WARNINGS)
        r->warnings[r->warning_count++] = *w;
}

static void fail(struct convert_result *r, int status, const char *file,
                 const struct ev_error *err)
{
    r->exit_status = status;
    r->error_file = file;
    r->error = *err;
}

static int output_failed(struct run *run, size_t i)
{
    run->write_failed = true;
    run->failed_output = i;
    return -1;
}

static int on_frame(void *ctx, const struct census_frame *frame)
{
    struct run *run = ctx;
    if (run->track_peak && peak_add(&run->peak, frame) != 0) {
        errno = ENOMEM;
        return -1;
    }
    for (size_t i = 0; i < run->output_count; i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->frame && s->ops->frame(s, frame) != 0)
            return output_failed(run, i);
    }
    return 0;
}

static int on_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct run *run = ctx;
    for (size_t i = 0; i < run->output_count; i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->marker && s->ops->marker(s, time_ns, text, len) != 0)
            return output_failed(run, i);
    }
    return 0;
}

static int on_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct run *run = ctx;
    for (size_t i = 0; i < run->output_count; i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->total && s->ops->total(s, kind, time_ns, bytes) != 0)
            return output_failed(run, i);
    }
    return 0;
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

/* Words the census anomalies and the damage as warnings. */
static void report_stats(const struct census_stats *st, struct convert_result *r,
                         const struct ev_error *damage)
{
    struct ev_error w = { 0 };
    if (damage) {
        char open[96] = "";
        if (st->open_at_end)
            snprintf(open, sizeof open, "; the census begun at %.2f s is incomplete and was "
                     "not written", st->open_time_ns / 1e9);
        ev_error_at(&w, damage->offset, "%s; kept %" PRIu64 " census%s up to %.2f s%s",
                    damage->what, st->censuses, st->censuses == 1 ? "" : "es",
                    st->last_time_ns / 1e9, open);
        warn(r, &w);
    }
    if (st->unknown_cost_centres) {
        ev_error_set(&w, "%" PRIu64 " stack entries name cost centres never defined (shown "
                     "as #N)", st->unknown_cost_centres);
        warn(r, &w);
    }
    if (st->unended) {
        ev_error_set(&w, "%" PRIu64 " censuses began inside another; the unfinished ones were "
                     "dropped", st->unended);
        warn(r, &w);
    }
    if (st->stray_entries || st->stray_ends) {
        ev_error_set(&w, "%" PRIu64 " census entries and %" PRIu64 " census ends outside any "
                     "census were ignored", st->stray_entries, st->stray_ends);
        warn(r, &w);
    }
    if (st->backwards) {
        ev_error_set(&w, "%" PRIu64 " censuses had times going backwards (kept in order)",
                     st->backwards);
        warn(r, &w);
    }
    if (st->extra_prof_begins) {
        ev_error_set(&w, "%" PRIu64 " further HEAP_PROF_BEGIN events were ignored",
                     st->extra_prof_begins);
        warn(r, &w);
    }
}

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

/* Puts a tracker between src and the reader when progress is asked for. */
static void track_progress(const struct convert_options *opt, int fd,
                           struct progress_tracker *t, struct ev_source *src)
{
    struct stat st;
    *t = (struct progress_tracker){ *src, opt->progress, opt->progress_ctx, fd, 0, 0,
                                    { 0, 0 }, NULL };
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        t->input_size = (uint64_t)st.st_size;
    progress_meter_start(&t->meter, progress_clock());
    *src = (struct ev_source){ read_with_progress, t, why_with_progress };
}

static int open_input(const struct convert_options *opt, int *fd, struct ev_error *err)
{
    if (!opt->input_path || strcmp(opt->input_path, "-") == 0) {
        *fd = STDIN_FILENO;
        return 0;
    }
    *fd = open(opt->input_path, O_RDONLY);
    if (*fd < 0) {
        ev_error_set(err, "cannot open: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static int open_outputs(struct run *run, const struct sink_context *ctx)
{
    const struct convert_options *opt = run->opt;
    run->track_peak = opt->has_max_peak;
    for (size_t i = 0; i < opt->output_count; i++)
        if (opt->outputs[i].format == FORMAT_SUMMARY_TEXT ||
            opt->outputs[i].format == FORMAT_SUMMARY_JSON)
            run->track_peak = true;
    for (size_t i = 0; i < opt->output_count; i++) {
        struct output *o = &run->outputs[i];
        const struct output_request *req = &opt->outputs[i];
        struct ev_error err = { 0 };
        o->name = req->path ? req->path : "(standard output)";
        if (outfile_open(&o->file, req->path, &err) != 0) {
            fail(run->result, EXIT_WRITE, o->name, &err);
            return -1;
        }
        run->output_count = i + 1;
        struct sink_context c = *ctx;
        c.live = o->file.live;
        o->sink = sink_new(req->format, o->file.fp, &c);
        if (!o->sink) {
            ev_error_set(&err, "out of memory");
            fail(run->result, EXIT_WRITE, o->name, &err);
            return -1;
        }
    }
    return 0;
}

static void close_outputs(struct run *run, bool commit)
{
    for (size_t i = 0; i < run->output_count; i++) {
        struct output *o = &run->outputs[i];
        struct ev_error err = { 0 };
        if (o->sink)
            o->sink->ops->destroy(o->sink);
        o->sink = NULL;
        if (!commit) {
            outfile_abort(&o->file);
        } else if (outfile_commit(&o->file, &err) != 0) {
            fail(run->result, EXIT_WRITE, o->name, &err);
            commit = false;   /* the others stay as they were, too */
        }
    }
}

static int finish_outputs(struct run *run)
{
    peak_sort(&run->peak);   /* final now: the largest bands first for every reader */
    for (size_t i = 0; i < run->output_count; i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->finish && s->ops->finish(s) != 0)
            return output_failed(run, i);
    }
    return 0;
}

/* The failed output's own account when it gave one (a PNG without a font), else errno's. */
static void write_failure(struct run *run)
{
    struct ev_error err = { 0 };
    const struct output *o = &run->outputs[run->failed_output];
    const struct ev_error *why = o->sink && o->sink->ops->failure
                                     ? o->sink->ops->failure(o->sink) : NULL;
    if (why)
        err = *why;
    else
        ev_error_set(&err, "cannot write: %s", strerror(errno ? errno : EIO));
    fail(run->result, EXIT_WRITE, o->name, &err);
}

/* --max-peak: past the budget is status 3, with the peak, its time and its largest band.
 * The outputs are written all the same. */
static void check_budget(struct run *run, const char *input_name)
{
    const struct convert_options *opt = run->opt;
    struct peak *pk = &run->peak;
    if (!opt->has_max_peak || pk->bytes <= opt->max_peak ||
        run->result->exit_status != EXIT_SUCCESS_)
        return;
    char peak[32], budget[32], largest[32] = "";
    chart_format_bytes((double)pk->bytes, peak, sizeof peak);
    chart_format_bytes((double)opt->max_peak, budget, sizeof budget);
    struct ev_error err = { 0 };
    if (pk->count) {
        size_t len;
        const char *label = bands_label(run->bands, pk->entries[0].band, &len);
        chart_format_bytes((double)pk->entries[0].bytes, largest, sizeof largest);
        ev_error_set(&err, "peak residency %s at %.2f s is over the budget of %s; the "
                     "largest band then: %.*s (%s)", peak, pk->time_ns / 1e9, budget,
                     (int)(len > 120 ? 120 : len), label, largest);
    } else {
        ev_error_set(&err, "peak residency %s at %.2f s is over the budget of %s", peak,
                     pk->time_ns / 1e9, budget);
    }
    fail(run->result, EXIT_BUDGET, input_name, &err);
}

/* A .hp input: the .hp reader feeds the same callbacks as the census assembler. */
static void convert_hp(struct run *run, struct ev_source src, const char *input_name)
{
    struct convert_result *result = run->result;
    struct ev_error err = { 0 };
    struct census_events events = { on_frame, on_marker, on_total, run };
    struct hp_reader *hp = hp_reader_new(src, &events);
    bool commit = false;
    if (!hp) {
        ev_error_set(&err, "out of memory");
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        return;
    }
    struct sink_context ctx = { hp_reader_run_info(hp), hp_reader_bands(hp), input_name, false,
                                run->opt->chart, &run->peak, result->warnings,
                                &result->warning_count, run->opt->png_scale };
    run->bands = ctx.bands;
    if (open_outputs(run, &ctx) != 0)
        goto done;
    enum hp_status st = hp_reader_run(hp, &err);
    if (st == HP_STOPPED) {
        write_failure(run);
        goto done;
    }
    if (st != HP_OK && st != HP_TRUNCATED) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto done;
    }
    result->damaged = st == HP_TRUNCATED;
    if (result->damaged && run->opt->strict) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto done;
    }
    result->censuses = hp_reader_censuses(hp);
    if (result->damaged)
        warn(result, &err);
    if (finish_outputs(run) != 0) {
        write_failure(run);
        goto done;
    }
    commit = true;
    check_budget(run, input_name);
done:
    close_outputs(run, commit);
    hp_reader_free(hp);
}

void convert_run(const struct convert_options *opt, struct convert_result *result)
{
    memset(result, 0, sizeof *result);
    const char *input_name = convert_input_name(opt);
    struct ev_error err = { 0 };
    struct run run = { .opt = opt, .result = result };
    struct ev_reader *reader = NULL;
    struct census *census = NULL;
    int fd = -1;
    bool commit = false;

    if (open_input(opt, &fd, &err) != 0) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        return;
    }
    struct source_auto *input = source_auto_new(fd);
    if (!input) {
        ev_error_set(&err, "out of memory");
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        if (fd > STDIN_FILENO)
            close(fd);
        return;
    }
    /* The kind of input is told by its first bytes, read ahead without seeking. */
    struct source_peek peek;
    struct ev_source inflated = { source_auto_read, input, source_auto_why };
    if (source_peek_init(&peek, inflated, 4) != 0) {
        const char *why = source_auto_why(input);
        ev_error_set(&err, "cannot read: %s", why ? why : strerror(errno));
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto fail_setup;
    }
    struct ev_source src = { source_peek_read, &peek, source_peek_why };
    run.outputs = calloc(opt->output_count ? opt->output_count : 1, sizeof *run.outputs);
    if (run.outputs && hp_looks_like(peek.head, peek.len)) {
        convert_hp(&run, src, input_name);
        goto fail_setup;
    }
    struct progress_tracker tracker;
    if (opt->progress)
        track_progress(opt, fd, &tracker, &src);
    reader = ev_reader_new(src, opt->read_buffer);
    struct census_options copt = { opt->ccs_length };
    struct census_events events = { on_frame, on_marker, on_total, &run };
    census = census_new(&copt, &events);
    if (opt->progress)
        tracker.census = census;
    if (!reader || !run.outputs || !census) {
        ev_error_set(&err, "out of memory");
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto fail_setup;
    }

    enum ev_status st = ev_reader_read_header(reader, &err);
    if (st == EV_OK && census_check_header(census, reader, &err) != CENSUS_OK)
        st = EV_DAMAGED;
    if (st != EV_OK) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto fail_setup;
    }

    struct sink_context ctx = { census_run_info(census), census_bands(census), input_name,
                                false, opt->chart, &run.peak, result->warnings,
                                &result->warning_count, opt->png_scale };
    run.bands = ctx.bands;
    if (open_outputs(&run, &ctx) != 0)
        goto fail_outputs;

    /* --dump prints every event; a conversion needs only the few the assembler wants. */
    if (!opt->dump)
        ev_reader_skip_unwanted(reader, census_wants);
    struct ev_event ev;
    enum census_status cst = CENSUS_OK;
    while ((st = ev_reader_next(reader, &ev, &err)) == EV_OK) {
        if (opt->dump)
            dump_event(opt->dump, &ev);
        cst = census_feed(census, &ev, &err);
        if (cst != CENSUS_OK)
            break;
    }
    if (cst == CENSUS_STOPPED) {
        write_failure(&run);
        goto fail_outputs;
    }
    if (cst == CENSUS_NO_MEMORY || cst == CENSUS_LIMIT) {
        if (cst == CENSUS_NO_MEMORY)
            ev_error_set(&err, "out of memory");
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto fail_outputs;
    }
    /* Anything but the end-of-data marker, including an event too short for its fields,
     * is damage: what came before stands. */
    bool complete = st == EV_END && cst == CENSUS_OK;
    if (opt->progress)
        report_progress(&tracker, progress_clock(), true);
    struct ev_error damage = err;
    result->damaged = !complete;
    census_note_time(census, ev_reader_latest_time(reader));
    cst = census_finish(census, complete, &err);
    if (cst != CENSUS_OK) {
        write_failure(&run);
        goto fail_outputs;
    }
    result->censuses = census_stats(census)->censuses;
    if (!complete && opt->strict) {
        fail(result, EXIT_BAD_INPUT, input_name, &damage);
        goto fail_outputs;
    }
    /* Warnings first: the summary reports them. */
    report_stats(census_stats(census), result, complete ? NULL : &damage);
    if (finish_outputs(&run) != 0) {
        write_failure(&run);
        goto fail_outputs;
    }
    commit = true;
    check_budget(&run, input_name);
    if (opt->dump && fflush(opt->dump) != 0) {
        ev_error_set(&err, "cannot write: %s", strerror(errno));
        fail(result, EXIT_WRITE, "(standard output)", &err);
        commit = false;
    }

fail_outputs:
    close_outputs(&run, commit);
fail_setup:
    census_free(census);
    ev_reader_free(reader);
    free(run.outputs);
    peak_free(&run.peak);
    source_auto_free(input);
}
