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
#include <unistd.h>

#include "census.h"
#include "evdecode.h"
#include "evread.h"
#include "outfile.h"
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
    for (size_t i = 0; i < run->output_count; i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->finish && s->ops->finish(s) != 0)
            return output_failed(run, i);
    }
    return 0;
}

static void write_failure(struct run *run)
{
    struct ev_error err = { 0 };
    ev_error_set(&err, "cannot write: %s", strerror(errno ? errno : EIO));
    fail(run->result, EXIT_WRITE, run->outputs[run->failed_output].name, &err);
}

void convert_run(const struct convert_options *opt, struct convert_result *result)
{
    memset(result, 0, sizeof *result);
    const char *input_name = convert_input_name(opt);
    struct ev_error err = { 0 };
    struct run run = { opt, result, NULL, 0, 0, false };
    struct ev_reader *reader = NULL;
    struct census *census = NULL;
    int fd = -1;
    bool commit = false;

    if (open_input(opt, &fd, &err) != 0) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        return;
    }
    struct ev_source src = { source_fd_read, &fd };
    reader = ev_reader_new(src, opt->read_buffer);
    run.outputs = calloc(opt->output_count ? opt->output_count : 1, sizeof *run.outputs);
    struct census_options copt = { opt->ccs_length };
    struct census_events events = { on_frame, on_marker, on_total, &run };
    census = census_new(&copt, &events);
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
                                false };
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
    struct ev_error damage = err;
    result->damaged = !complete;
    census_note_time(census, ev_reader_latest_time(reader));
    cst = census_finish(census, complete, &err);
    if (cst != CENSUS_OK || finish_outputs(&run) != 0) {
        write_failure(&run);
        goto fail_outputs;
    }
    result->censuses = census_stats(census)->censuses;
    if (!complete && opt->strict) {
        fail(result, EXIT_BAD_INPUT, input_name, &damage);
        goto fail_outputs;
    }
    report_stats(census_stats(census), result, complete ? NULL : &damage);
    commit = true;
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
    if (fd > STDIN_FILENO)
        close(fd);
}
