/* convert.c: the pipeline of one run: reader, census assembler, sinks (see convert.h).
 *
 * Output paths are checked first: an output that is the input or BASE, or one file named
 * twice as an output, is refused before anything is opened (file identity, outfile.h).
 * Outputs are opened before the first event is read, so a bad output path fails fast;
 * they are committed only after the whole input is read, so a failed run leaves no half
 * file. The assembler's callbacks feed the run model once (runmodel.h: the profile,
 * peak and markers every chart, the report and the summary draw from at finish) and fan
 * out to the streaming sinks (.hp, CSV, JSON), which write as censuses come.
 */
#include "convert.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/format.h"
#include "census/autogroup.h"
#include "census/census.h"
#include "model/peak.h"
#include "census/timeprof.h"
#include "chart/chart.h"
#include "census/base_input.h"
#include "census/phases.h"
#include "facts/phases.h"
#include "census/input.h"
#include "serve/http.h"
#include "serve/live.h"
#include "serve/serve.h"
#include "sink/outfile.h"
#include "sink/outpaths.h"
#include "sink/sinks.h"
#include "model/runmodel.h"
#include "census/symnames.h"
#include "read/elfsyms.h"

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
    struct run_model model;        /* what the drawing outputs and --max-peak read */
    const struct bands *bands;     /* the labels of the input being read */
    struct base_input base_input;  /* --compare: BASE, read and kept open */
    struct elf_symbols *symbols;   /* --binary: INPUT's program's symbols; or NULL */
    struct elf_symbols *base_symbols; /* --base-binary: BASE's; or NULL */
    struct run_model base_model;   /* --compare: BASE as the outputs draw it */
    struct gate_report gates;      /* the verdicts, before the outputs finish */
    /* --phases: the phases (read first), their windows, and their facts and gates (of the
     * model the summaries read), before the outputs finish */
    struct phase_list phase_list;
    struct time_window *phase_windows;
    struct phase_report phases;
    const struct run_model *base;  /* &base_model once BASE is read; or NULL */
    /* The default grouping (census/autogroup.h): decided at the end of INPUT; when it
     * groups, INPUT (and BASE) read again grouped, for the outputs that show groups. */
    struct autogroup autogroup;
    struct input *grouped_input;
    struct run_model grouped_model;
    struct base_input grouped_base_input;
    struct run_model grouped_base_model;
    uint64_t censuses, in_window;  /* censuses read, and those in the window (--from, --to) */
    uint64_t first_ns, last_ns;    /* the run's extent */
    /* --serve, --every (serve/): the live state, fed under its lock with the model */
    struct live *live;
    struct serve_worker *worker;
    struct http_server *http;
    pthread_mutex_t every_lock;    /* --every's rewrites against the final commit; taken
                                    * before the live lock */
    bool ending;                   /* under the live lock: the outputs are being finished */
    bool live_failed;              /* the live state could not take a census in */
    const char *input_name;
};

const char *convert_input_name(const struct convert_options *opt)
{
    return input_name(opt->input_path);
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
    r->gate_status = false;   /* apply_gates says when a gate decided it */
    r->error_file = file;
    r->error = *err;
}

static int output_failed(struct run *run, size_t i)
{
    run->write_failed = true;
    run->failed_output = i;
    return -1;
}

/* The chart window (--from / --to), or false when there is none. */
static bool chart_window(const struct convert_options *opt, double *from, double *to)
{
    const struct chart_options *c = opt->chart;
    if (!c || !(c->profile.has_from || c->profile.has_to))
        return false;
    *from = c->profile.has_from ? c->profile.from_seconds : 0;
    *to = c->profile.has_to ? c->profile.to_seconds : INFINITY;
    return true;
}

/* Whether the streaming outputs (.hp, CSV, JSON) take what happens at time_ns: the
 * window's censuses and markers only (the run model takes all, for the charts' edges). */
static bool streams(const struct run *run, uint64_t time_ns)
{
    return !run->model.needs.windowed || time_window_holds(run->model.needs.window, time_ns);
}

static void count_census(struct run *run, uint64_t time_ns)
{
    if (run->censuses == 0)
        run->first_ns = time_ns;
    if (time_ns > run->last_ns)
        run->last_ns = time_ns;
    run->censuses++;
    if (run->model.needs.windowed && streams(run, time_ns))
        run->in_window++;
}

static int feed_frame(struct run *run, const struct census_frame *frame)
{
    count_census(run, frame->time_ns);
    if (run_model_frame(&run->model, frame) != 0)
        return -1;
    for (size_t i = 0; i < run->output_count && streams(run, frame->time_ns); i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->frame && s->ops->frame(s, frame) != 0)
            return output_failed(run, i);
    }
    return 0;
}

static int feed_marker(struct run *run, uint64_t time_ns, const char *text, size_t len)
{
    if (run_model_marker(&run->model, time_ns, text, len) != 0)
        return -1;
    for (size_t i = 0; i < run->output_count && streams(run, time_ns); i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->marker && s->ops->marker(s, time_ns, text, len) != 0)
            return output_failed(run, i);
    }
    return 0;
}

static int feed_total(struct run *run, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    if (run_model_total(&run->model, kind, time_ns, bytes) != 0)
        return -1;
    for (size_t i = 0; i < run->output_count && streams(run, time_ns); i++) {
        struct sink *s = run->outputs[i].sink;
        if (s->ops->total && s->ops->total(s, kind, time_ns, bytes) != 0)
            return output_failed(run, i);
    }
    return 0;
}

/* The callbacks: with --serve the input holds the live lock while it calls them
 * (input_options.lock: the server's threads copy the model, the bands, the cost centres
 * and the time profile under it), so the model and the live state change together. */
static int live_failed(struct run *run)
{
    run->live_failed = true;
    return -1;
}

static int on_frame(void *ctx, const struct census_frame *frame)
{
    struct run *run = ctx;
    int rc = feed_frame(run, frame);
    if (rc == 0 && run->live && live_frame(run->live, frame) != 0)
        rc = live_failed(run);
    return rc;
}

static int on_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct run *run = ctx;
    int rc = feed_marker(run, time_ns, text, len);
    if (rc == 0 && run->live && live_marker(run->live, time_ns, text, len) != 0)
        rc = live_failed(run);
    return rc;
}

static int on_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct run *run = ctx;
    int rc = feed_total(run, kind, time_ns, bytes);
    if (rc == 0 && run->live)
        live_total(run->live, kind, time_ns, bytes);
    return rc;
}

/* The collector's events: only the run model reads them, when an output shows them. */
static int on_gc(void *ctx, const struct gc_event *event)
{
    struct run *run = ctx;
    return run_model_gc_event(&run->model, event);
}

/* Ticky counters' events: likewise, only the run model reads them. */
static int on_ticky(void *ctx, const struct ticky_event *event)
{
    struct run *run = ctx;
    return run_model_ticky_event(&run->model, event);
}

/* input_options.lock over the live lock. */
static void lock_live(void *ctx)
{
    live_lock(ctx);
}

static void unlock_live(void *ctx)
{
    live_unlock(ctx);
}

/* Whether an output of the run is of a kind. */
static bool wants(const struct convert_options *opt, bool (*kind)(enum output_format))
{
    for (size_t i = 0; i < opt->output_count; i++)
        if (kind(opt->outputs[i].format))
            return true;
    return false;
}

/* The settings every format takes its own from. */
static struct sink_settings settings_of(const struct convert_options *opt)
{
    return (struct sink_settings){ opt->chart, opt->png_scale, opt->system_ccs, opt->unicode,
                                   opt->commit,
                                   opt->report_url };
}

/* --from/--to/--at seconds as event nanoseconds, saturating (the window check is inclusive). */
static uint64_t seconds_to_ns(double s)
{
    if (!(s > 0))
        return 0;
    return s >= 1.8e10 ? UINT64_MAX : (uint64_t)(s * 1e9 + 0.5);
}

/* --at: both runs keep the last census at or before it too (run_model_census). */
static void census_at(const struct convert_options *opt, struct run_model_needs *needs)
{
    if (opt->chart && opt->chart->has_at) {
        needs->has_at = true;
        needs->at_ns = seconds_to_ns(opt->chart->at_seconds);
    }
}

/* What the requested outputs (and the gates) need of the run model: 0, or -1 with err
 * set. */
static int model_needs(const struct convert_options *opt, struct run_model_needs *needs,
                       struct ev_error *err)
{
    struct sink_settings settings = settings_of(opt);
    memset(needs, 0, sizeof *needs);
    for (size_t i = 0; i < opt->output_count; i++)
        if (sink_needs(opt->outputs[i].format, &settings, needs) != 0) {
            ev_error_set(err, "the outputs ask for more than %d chart resolutions",
                         RUN_MODEL_RESOLUTIONS);
            return -1;
        }
    gates_needs(&opt->gates, opt->chart ? &opt->chart->profile : NULL, needs);
    /* --serve draws a chart, the report and the summary whatever -o asks for, each from a
     * copy reduced when drawn: the resolutions only it asks for are not reduced at the
     * end (a dense run's reductions are tens of MB). */
    static const enum output_format served[] = { FORMAT_SVG, FORMAT_HTML, FORMAT_SUMMARY_JSON };
    size_t asked_by_outputs = needs->resolutions;
    for (size_t i = 0; opt->serve && opt->serve->serve && i < 3; i++)
        if (sink_needs(served[i], &settings, needs) != 0) {
            ev_error_set(err, "the outputs and --serve ask for more than %d chart resolutions",
                         RUN_MODEL_RESOLUTIONS);
            return -1;
        }
    for (size_t i = asked_by_outputs; i < needs->resolutions; i++)
        needs->live_only |= 1u << i;
    if (opt->serve && opt->serve->serve && needs->report_whole) {
        /* a live run's copies draw the window alone: the report is drawn from the
         * window's chart profile (and not only by the server: -o's report too) */
        struct profile_options windowed;
        sink_html_profile_options(opt->chart, &windowed);
        needs->report_whole = false;
        if (run_model_need_chart(needs, &windowed) != 0) {
            ev_error_set(err, "the outputs and --serve ask for more than %d chart resolutions",
                         RUN_MODEL_RESOLUTIONS);
            return -1;
        }
    }
    if (opt->serve && opt->serve->serve) {
        /* the same outputs (profile.h), with less copied by every drawing */
        needs->chart_feed.kept_memory = PROFILE_KEPT_MEMORY_SERVED;
        needs->summary_feed.kept_memory = PROFILE_KEPT_MEMORY_SERVED;
    }
    census_at(opt, needs);
    if (opt->chart && (opt->chart->profile.has_from || opt->chart->profile.has_to)) {
        needs->windowed = true;
        needs->window = profile_window(&opt->chart->profile);
    }
    return 0;
}

static int open_outputs(struct run *run, const struct sink_context *ctx)
{
    const struct convert_options *opt = run->opt;
    struct sink_settings settings = settings_of(opt);
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
        c.compressed = o->file.gz != NULL;
        o->sink = sink_new(req->format, o->file.fp, &c, &settings);
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
    struct ev_error err = { 0 };
    /* final now: the peak's largest bands first, the profile at every resolution; the
     * gates judge the bands the summary lists (grouped, when the default grouping
     * applies) */
    bool grouped = run->autogroup.grouped;
    if (run_model_finish(&run->model, &err) != 0 ||
        (grouped && run_model_finish(&run->grouped_model, &err) != 0) ||
        gates_check(&run->opt->gates, grouped ? &run->grouped_model : &run->model,
                    grouped && run->base ? &run->grouped_base_model : run->base, &run->gates,
                    &err) != 0 ||
        phase_report_of(grouped ? &run->grouped_model : &run->model, &run->phase_list,
                        &run->opt->gates, &run->phases, &err) != 0) {
        errno = ENOMEM;
        return output_failed(run, 0);
    }
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
    if (run->live_failed) {
        ev_error_set(&err, "cannot keep the live state: %s", strerror(errno ? errno : EIO));
        fail(run->result, EXIT_WRITE, "(--serve)", &err);
        return;
    }
    const struct output *o = &run->outputs[run->failed_output];
    const struct ev_error *why = o->sink && o->sink->ops->failure
                                     ? o->sink->ops->failure(o->sink) : NULL;
    if (why)
        err = *why;
    else
        ev_error_set(&err, "cannot write: %s", strerror(errno ? errno : EIO));
    fail(run->result, o->sink && o->sink->input_lacks ? EXIT_BAD_INPUT : EXIT_WRITE, o->name,
         &err);
}

/* The gates' verdicts into the exit status, once the outputs are written (they report
 * every verdict): 1 when a gate could not be checked (a CI job must not take that for a
 * pass), else 3 when one failed; the first such gate's reason is the error. */
static void apply_gates(struct run *run, const char *input_name)
{
    struct convert_result *r = run->result;
    r->gates = run->gates;
    for (size_t i = 0; i < run->phases.count; i++)
        for (size_t k = 0; k < run->phases.phases[i].gates.count; k++) {
            const struct gate *g = &run->phases.phases[i].gates.gates[k];
            if (g->verdict == GATE_PASSED)
                continue;
            if (r->phase_gate_count < CONVERT_MAX_WARNINGS)
                r->phase_gates[r->phase_gate_count++] = g->why;
            else
                r->phase_gates_not_listed++;
        }
    if (r->exit_status != EXIT_SUCCESS_)
        return;
    /* the whole run's gates first, then each phase's, unchecked before failed */
    const struct gate *phase = phase_report_deciding(&run->phases);
    for (int pass = 0; pass < 2; pass++) {
        enum gate_verdict v = pass == 0 ? GATE_UNCHECKED : GATE_FAILED;
        const struct gate *decided = NULL;
        for (size_t i = 0; i < run->gates.count && !decided; i++)
            if (run->gates.gates[i].verdict == v)
                decided = &run->gates.gates[i];
        if (!decided && phase && phase->verdict == v)
            decided = phase;
        if (decided) {
            fail(r, pass == 0 ? EXIT_BAD_INPUT : EXIT_BUDGET, input_name, &decided->why);
            r->gate_status = true;
            return;
        }
    }
}

/* Warnings of the input, damage first: the summary reports them. */
static void take_warnings(struct convert_result *r, const struct input_outcome *out)
{
    for (size_t i = 0; i < out->warning_count; i++)
        warn(r, &out->warnings[i]);
}

/* A run model fed alone (BASE, and INPUT read again grouped). */
static int model_frame(void *ctx, const struct census_frame *frame)
{
    return run_model_frame(ctx, frame);
}

static int model_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    return run_model_marker(ctx, time_ns, text, len);
}

static int model_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    return run_model_total(ctx, kind, time_ns, bytes);
}

static int model_gc(void *ctx, const struct gc_event *event)
{
    return run_model_gc_event(ctx, event);
}

static int model_ticky(void *ctx, const struct ticky_event *event)
{
    return run_model_ticky_event(ctx, event);
}

static void base_ready(void *ctx, const struct run_info *info, const struct bands *bands)
{
    struct run_model *m = ctx;
    m->info = info;
    m->bands = bands;
}

/* What the outputs need of BASE: a chart's profile (the report draws the base at a
 * chart's resolution too), every band for the summary (over the whole base run), and the
 * exact peak. */
static void base_needs(const struct convert_options *opt, struct run_model_needs *needs)
{
    struct chart_options defaults;
    chart_options_default(&defaults);
    memset(needs, 0, sizeof *needs);
    bool diff_data = opt->chart && opt->chart->view == CHART_VIEW_DIFF &&
                     wants(opt, format_has_diff_data);
    if (wants(opt, format_is_chart) || diff_data) {
        struct profile_options feed;
        chart_profile_options(opt->chart ? opt->chart : &defaults, &feed);
        (void)run_model_need_chart(needs, &feed);   /* the first resolution: never refused */
    }
    if (wants(opt, format_is_summary))
        run_model_need_summary(needs, &defaults.profile);
    needs->peak = true;
    census_at(opt, needs);
}

/* --compare: reads BASE whole into model (and input), its bands merged by group_by; its
 * warnings are kept apart (main names BASE in them). 0, or -1 with the result failed. */
static int read_base_into(struct run *run, enum group_key group_by,
                          struct base_input *input, struct run_model *model)
{
    const struct convert_options *opt = run->opt;
    struct convert_result *r = run->result;
    struct run_model_needs needs;
    base_needs(opt, &needs);
    struct input_options iopt = { .path = opt->compare_path, .ccs_length = opt->ccs_length,
                                  .group_by = group_by,
                                  .read_buffer = opt->read_buffer,
                                  .stop_at_damage = opt->stop_at_damage,
                                  .symbols = run->base_symbols,
                                  .symbols_path = opt->base_binary_path,
                                  .symbols_option = "--base-binary" };
    /* its time profile whole, for the differential folded stacks and flame graph */
    struct timeprof_options topt = { 0 };
    if (wants(opt, format_uses_time_profile))
        iopt.time_profile = &topt;
    struct input_outcome out;
    struct ev_error err = { 0 };
    r->base_name = input_name(opt->compare_path);
    if (run_model_init(model, &needs, &err) != 0) {
        fail(r, EXIT_BAD_INPUT, r->base_name, &err);
        return -1;
    }
    struct census_events events = { model_frame, model_marker, model_total, model, NULL, NULL };
    if (base_input_read(input, &iopt, &events, base_ready, &out, &err) != INPUT_OK) {
        fail(r, EXIT_BAD_INPUT, r->base_name, &err);
        return -1;
    }
    model->name = input->name;
    model->timeprof = input_timeprof(input->input);
    model->ccs = input_costcentres(input->input);
    if (run_model_finish(model, &err) != 0) {
        fail(r, EXIT_BAD_INPUT, r->base_name, &err);
        return -1;
    }
    if (out.damaged && opt->strict) {
        fail(r, EXIT_BAD_INPUT, r->base_name, &out.damage);
        return -1;
    }
    /* BASE read again grouped has said its warnings the first time */
    for (size_t i = 0; model == &run->base_model && i < out.warning_count &&
                       i < CONVERT_MAX_WARNINGS; i++)
        r->base_warnings[r->base_warning_count++] = out.warnings[i];
    return 0;
}

/* --compare: BASE, before INPUT. */
static int read_base(struct run *run)
{
    if (read_base_into(run, run->opt->group_by, &run->base_input, &run->base_model) != 0)
        return -1;
    run->base = &run->base_model;
    return 0;
}

/* Refuses (status 2) an output that is the input or BASE, or one file named twice as an
 * output (outpaths.h). */
static int check_paths(const struct convert_options *opt, struct convert_result *r)
{
    struct read_path reads[] = {
        { opt->input_path, "the input" },
        { opt->compare_path, "the --compare base" },
    };
    const char *bad = NULL;
    struct ev_error err = { 0 };
    if (outpaths_check(opt->outputs, opt->output_count, reads, opt->compare_path ? 2 : 1,
                       &bad, &err) == 0)
        return 0;
    fail(r, EXIT_USAGE, bad, &err);
    return -1;
}

static bool needs_censuses(enum output_format format)
{
    return format == FORMAT_HP || format == FORMAT_CSV || format == FORMAT_JSON;
}

/* Whether the input has a time profile and no output asks for heap censuses. */
static bool time_profile_only(const struct convert_options *opt, const struct input *in)
{
    if (!timeprof_present(input_timeprof(in)) || wants(opt, needs_censuses))
        return false;
    return !opt->chart || opt->chart->view != CHART_VIEW_AREA || !wants(opt, format_is_chart);
}

/* Words what the run's input lacks: no census at all, or censuses of another breakdown
 * than BASE's. */
static void check_censuses(struct run *run, const struct input *in,
                           const struct input_outcome *outcome)
{
    const struct run_info *info = input_run_info(in);
    struct ev_error w = { 0 };
    /* Damage before the first census already says "kept 0 censuses", and why. A time
     * profile read only for its own outputs (folded stacks, the flame graph drawn by
     * default, the summary) lacks nothing. */
    if (outcome->censuses == 0 && !outcome->damaged && !time_profile_only(run->opt, in)) {
        if (input_is_hp(in))
            ev_error_note(&w, "no censuses: the heap profile is empty");
        else if (!info->has_heap_profile)
            ev_error_note(&w, "no heap censuses: the program ran without heap profiling; "
                          "run it with +RTS -h... -l (for example -hT, or -hc when built "
                          "with -prof)");
        else
            ev_error_note(&w, "no heap censuses: the program ended before the first one "
                          "(+RTS -i sets the interval between censuses)");
        warn(run->result, &w);
    }
    /* Breakdowns that differ are no damage to this run: the summaries say so in their
     * comparison, standard error in a note of its own. */
    const struct run_info *binfo = run->base ? run->base->info : NULL;
    char words[160];
    if (binfo && binfo->has_heap_profile && info->has_heap_profile &&
        breakdown_mismatch(info->breakdown, binfo->breakdown, words, sizeof words)) {
        ev_error_set(&run->result->compare_note, "%s", words);
        run->result->has_compare_note = true;
    }
}

/* A window that holds none of the run's censuses is a mistake worth saying: every output
 * then has no census (a chart shows the run's real extent with nothing in it). */
static void window_warning(struct run *run)
{
    double from, to;
    if (!chart_window(run->opt, &from, &to) || !run->censuses || run->in_window)
        return;
    struct ev_error w = { 0 };
    char upto[40] = "the end";
    if (isfinite(to))
        snprintf(upto, sizeof upto, "%g s", to);
    ev_error_note(&w, "the window %g s to %s holds no census: the run's censuses are "
                  "from %.3f to %.3f s", from, upto, run->first_ns / 1e9, run->last_ns / 1e9);
    warn(run->result, &w);
}

/* --- a live run (--serve, --every): serve/ ------------------------------------------ */

/* The outputs --every rewrites: drawings, the summary and the .hp (from the spool); CSV,
 * JSON and folded stacks are written at the end only. */
static bool rewritable(enum output_format format)
{
    return format_is_chart(format) || format_is_summary(format) || format == FORMAT_HP;
}

static int write_live_output(struct live *l, const struct output_request *req, FILE *out,
                             struct ev_error *err)
{
    if (req->format != FORMAT_HP)
        return live_write(l, req->format, out, err);
    uint64_t size;
    struct live_stream *s = live_hp_open(l, &size, err);
    if (!s)
        return -1;
    char chunk[65536];
    ssize_t n;
    while ((n = live_stream_read(s, chunk, sizeof chunk)) > 0)
        if (fwrite(chunk, 1, (size_t)n, out) != (size_t)n)
            break;
    if (n < 0)
        ev_error_set(err, "cannot read the .hp spool: %s", strerror(errno));
    live_stream_close(s);
    return n == 0 ? 0 : -1;
}

/* --every (the worker's thread): each output as it would be had the input ended now,
 * atomically as always. A failure is tried again at the next tick; the final write
 * reports its own. */
static void every_outputs(void *ctx)
{
    struct run *run = ctx;
    pthread_mutex_lock(&run->every_lock);
    live_lock(run->live);
    bool ending = run->ending;
    live_unlock(run->live);
    for (size_t i = 0; !ending && i < run->opt->output_count; i++) {
        const struct output_request *req = &run->opt->outputs[i];
        struct outfile f;
        struct ev_error err = { 0 };
        if (!req->path || !rewritable(req->format) || outfile_open(&f, req->path, &err) != 0)
            continue;
        if (write_live_output(run->live, req, f.fp, &err) == 0)
            (void)outfile_commit(&f, &err);
        else
            outfile_abort(&f);
    }
    pthread_mutex_unlock(&run->every_lock);
}

/* Takes the locks that end a run: false when SIGINT or SIGTERM already ended it. */
static bool begin_ending(struct run *run)
{
    pthread_mutex_lock(&run->every_lock);
    live_lock(run->live);
    if (!run->ending)
        return run->ending = true;
    live_unlock(run->live);
    pthread_mutex_unlock(&run->every_lock);
    return false;
}

/* SIGINT or SIGTERM while the input goes on (the worker's thread): the outputs are
 * written from what was read, and the process ends with the run's status. The live lock
 * stays held, so the main thread reads no further. */
static void interrupted(void *ctx)
{
    struct run *run = ctx;
    if (!begin_ending(run))
        return;   /* the input had ended: the main thread ends the run */
    run->result->censuses = run->censuses;
    window_warning(run);
    if (finish_outputs(run) != 0) {
        write_failure(run);
        close_outputs(run, false);
    } else {
        close_outputs(run, true);
    }
    run->opt->interrupted(run->opt->serve_ctx, run->result);
}

/* Starts serving before the input is opened (a program may not be streaming yet: the
 * server says so meanwhile): the live state, the worker (signals, --every), the server.
 * 0, or -1 with the result failed. */
static int start_live(struct run *run, const char *input_name)
{
    const struct convert_options *opt = run->opt;
    struct ev_error err = { 0 };
    struct serve_hooks hooks = { every_outputs, interrupted, run };
    pthread_mutex_init(&run->every_lock, NULL);
    run->input_name = input_name;
    if (!(run->live = live_new(&err)) ||
        !(run->worker = serve_worker_start(run->live, &hooks, opt->serve->every_seconds, &err))) {
        fail(run->result, EXIT_WRITE, "(--serve)", &err);
        return -1;
    }
    if (!opt->serve->serve)
        return 0;
    if (!(run->http = http_start(opt->serve, run->live, &err))) {
        /* the address was well formed (cli.c): a port in use, a name that does not
         * resolve, no libmicrohttpd are failures of the run, not of the command line */
        fail(run->result, EXIT_WRITE, "--serve", &err);
        return -1;
    }
    if (opt->serving)
        opt->serving(opt->serve_ctx, http_url(run->http));
    return 0;
}

/* POST /control/...: a command written back to the program (read/control.h). */
static int send_control(void *ctx, int command)
{
    return input_send_control(ctx, (enum control_command)command);
}

static bool input_held_back_of(void *ctx, char *why, size_t size)
{
    return input_held_back(ctx, why, size);
}

/* Once the input is open: what the live state reads. 0, or -1 with the result failed. */
static int attach_live(struct run *run, struct input *in, const char *input_name)
{
    struct ev_error err = { 0 };
    struct live_source src = {
        .input_name = input_name, .settings = settings_of(run->opt), .model = &run->model,
        .bands = input_bands(in), .info = input_run_info(in),
        .ccs = input_costcentres(in), .ipe = input_ipe_names(in),
        .timeprof = input_timeprof(in),
        .warnings = run->result->warnings, .warning_count = &run->result->warning_count,
        /* control messages reach a program's socket only: none for a file or a FIFO */
        .control = input_is_socket(in) ? send_control : NULL, .control_ctx = in,
        .held_back = input_held_back_of, .held_back_ctx = in,
    };
    live_lock(run->live);
    int rc = live_attach(run->live, &src, &err);
    live_unlock(run->live);
    if (rc != 0)
        fail(run->result, EXIT_WRITE, "(--serve)", &err);
    return rc;
}

/* The end of a live run: the input has ended and the outputs are written (the locks of
 * begin_ending held). The server goes on serving the final state until SIGINT or SIGTERM. */
static void end_live(struct run *run, bool locked)
{
    if (locked) {
        live_end(run->live);
        live_unlock(run->live);
        pthread_mutex_unlock(&run->every_lock);
    }
    if (run->worker)
        serve_worker_wait(run->worker, run->http && run->result->exit_status == EXIT_SUCCESS_);
    http_stop(run->http);
    live_free(run->live);
    pthread_mutex_destroy(&run->every_lock);
}

/* --- defaults that show the heap (census/autogroup.h) ----------------------------- */

/* Whether an output shows the default grouping's groups: the charts of bands (not the
 * flame and icicle views of a census, whose frames are the bands' own tree, nor the heap
 * view, which draws the runtime's totals), the report and the summaries (JUnit carries
 * the text summary). The exports (.hp, CSV, JSON, folded
 * stacks, pprof) stay exact per band: they are data for programs, which group as they
 * like; --group-by groups them too. */
static bool shows_groups(const struct convert_options *opt, enum output_format format)
{
    if (format_is_summary(format) || format == FORMAT_HTML || format == FORMAT_JUNIT)
        return true;
    enum chart_view view = opt->chart ? opt->chart->view : CHART_VIEW_AUTO;
    return format_is_chart(format) && view != CHART_VIEW_FLAME && view != CHART_VIEW_ICICLE &&
           view != CHART_VIEW_HEAP;
}

/* Whether the default grouping may apply: nothing asked of the bands (--group-by,
 * --include, --exclude, --bands 0: every band), and no live run (its outputs are drawn
 * while the input goes on, before the whole run is known). */
static bool may_group(const struct convert_options *opt)
{
    const struct profile_options *p = opt->chart ? &opt->chart->profile : NULL;
    if (!opt->group_by_default || opt->group_by != GROUP_NONE || opt->serve || opt->follow)
        return false;
    if (p && (p->include_count || p->exclude_count || p->bands == 0))
        return false;
    for (size_t i = 0; i < opt->output_count; i++)
        if (shows_groups(opt, opt->outputs[i].format))
            return true;
    return false;
}

/* A path read a second time gives the same bytes: a regular file (never standard input,
 * a pipe, a FIFO or a socket, which are read once). */
static bool rereadable(const char *path)
{
    struct stat st;
    return path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The end of INPUT: when the largest bands leave most of the peak in OTHER, INPUT (and
 * BASE) are read again with their bands merged by the key that shows the heap, into
 * models of their own, and the outputs that show groups draw from those. A first read
 * costs nothing more than a pass over the kept censuses per key weighed; only a run
 * that is grouped is read twice. 0, or -1 with the result failed. */
static int group_by_default(struct run *run, struct input *in, const char *input_name)
{
    const struct convert_options *opt = run->opt;
    struct autogroup *a = &run->autogroup;
    struct ev_error err = { 0 };
    if (!may_group(opt))
        return 0;
    /* (a report of --from/--to alone keeps only the whole run's: run_model_report_whole) */
    const struct profile *p = run->model.profile  ? run->model.profile
                              : run->model.every ? run->model.every
                                                 : run_model_report_whole(&run->model);
    const struct group_source src = { input_bands(in), input_ipe_names(in),
                                      input_costcentres(in), input_run_info(in) };
    struct chart_options defaults;
    chart_options_default(&defaults);
    const struct profile_options *sel = opt->chart ? &opt->chart->profile : &defaults.profile;
    const struct bandselect_rule rule = { sel->bands, sel->trace_percent, sel->sort,
                                          sel->reverse };
    if (autogroup_choose(p, &rule, &src, input_run_info(in)->breakdown, a) != 0) {
        ev_error_set(&err, "out of memory");
        fail(run->result, EXIT_BAD_INPUT, input_name, &err);
        return -1;
    }
    if (!a->grouped)
        return 0;
    if (!rereadable(opt->input_path) || (opt->compare_path && !rereadable(opt->compare_path))) {
        ev_error_set(&err, "the %u largest of %" PRIu32 " bands leave %.0f %% of the peak in "
                     "OTHER: --group-by %s shows what the heap holds (by default only when "
                     "the input%s a file, which is read again)", a->shown, a->bands,
                     a->other_share * 100, group_key_name(a->key, a->stacks),
                     opt->compare_path ? " and --compare's base are" : " is");
        warn(run->result, &err);
        a->grouped = false;
        return 0;
    }
    struct input_options iopt = { .path = opt->input_path, .ccs_length = opt->ccs_length,
                                  .group_by = a->key, .read_buffer = opt->read_buffer,
                                  .sched = run->model.needs.caps,
                                  .stop_at_damage = opt->stop_at_damage,
                                  .symbols = run->symbols, .symbols_path = opt->binary_path };
    struct census_events events = { model_frame, model_marker, model_total,
                                     &run->grouped_model,
                                     run->model.needs.gc ? model_gc : NULL,
                                     run->model.needs.ticky ? model_ticky : NULL };
    struct input_outcome outcome;
    struct run_model *m = &run->grouped_model;
    if (run_model_init(m, &run->model.needs, &err) != 0 ||
        !(run->grouped_input = input_open(&iopt, &events, &err))) {
        fail(run->result, EXIT_BAD_INPUT, input_name, &err);
        return -1;
    }
    m->name = run->model.name;
    m->info = input_run_info(run->grouped_input);
    m->bands = input_bands(run->grouped_input);
    m->timeprof = run->model.timeprof;
    m->ccs = run->model.ccs;
    enum input_status st = input_read(run->grouped_input, &outcome, &err);
    if (st == INPUT_STOPPED) {
        ev_error_set(&err, "out of memory");
        fail(run->result, EXIT_BAD_INPUT, input_name, &err);
        return -1;
    }
    /* a file that changed since the first read (a program still writing it) is not the
     * run the exports hold: its outputs stay as they are, and say why */
    if (st != INPUT_OK || outcome.censuses != run->result->censuses) {
        if (st == INPUT_OK)
            ev_error_set(&err, "it now holds %" PRIu64 " censuses, not %" PRIu64,
                         outcome.censuses, run->result->censuses);
        struct ev_error w = { 0 };
        ev_error_set(&w, "not grouped by %s as the largest bands ask: read again, %s",
                     group_key_name(a->key, a->stacks), err.what);
        warn(run->result, &w);
        a->grouped = false;
        return 0;
    }
    if (run->base && read_base_into(run, a->key, &run->grouped_base_input,
                                    &run->grouped_base_model) != 0)
        return -1;
    for (size_t i = 0; i < run->output_count; i++) {
        struct sink *s = run->outputs[i].sink;
        if (!shows_groups(opt, opt->outputs[i].format))
            continue;
        s->ctx.info = m->info;
        s->ctx.bands = m->bands;
        s->ctx.run = m;
        s->ctx.base = run->base ? &run->grouped_base_model : NULL;
        s->ctx.grouped = true;
        s->ctx.autogroup = a;
    }
    return 0;
}

/* Reads INPUT into the outputs and commits them. */
static void convert_input(struct run *run, const char *input_name)
{
    const struct convert_options *opt = run->opt;
    struct convert_result *result = run->result;
    struct ev_error err = { 0 };
    struct input_options iopt = { .path = opt->input_path, .ccs_length = opt->ccs_length,
                                  .group_by = opt->group_by,
                                  .read_buffer = opt->read_buffer, .dump = opt->dump,
                                  .progress = opt->progress,
                                  .progress_ctx = opt->progress_ctx,
                                  .stop_at_damage = opt->stop_at_damage,
                                  .follow = opt->follow, .wait_seconds = opt->wait_seconds,
                                  .stop = opt->stop, .notice = opt->notice,
                                  .notice_ctx = opt->notice_ctx,
                                  .symbols = run->symbols, .symbols_path = opt->binary_path };
    /* The time profile is read only for the outputs that show it (and the live server's,
     * /debug/pprof/profile among them), within --from/--to. */
    struct timeprof_options topt = { 0 };
    if (wants(opt, format_uses_time_profile) || (opt->serve && opt->serve->serve)) {
        if (opt->chart) {
            const struct profile_options *p = &opt->chart->profile;
            topt = (struct timeprof_options){ p->has_from, p->has_to,
                                              seconds_to_ns(p->from_seconds),
                                              seconds_to_ns(p->to_seconds) };
        }
        iopt.time_profile = &topt;
    }
    struct run_model_needs needs;
    int needs_rc = model_needs(opt, &needs, &err);
    needs.phases = run->phase_windows;
    needs.phase_count = run->phase_list.count;
    if (needs_rc != 0 || run_model_init(&run->model, &needs, &err) != 0) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        return;
    }
    iopt.sched = needs.caps;   /* the scheduler's events only for the capabilities' shares */
    struct census_events events = { on_frame, on_marker, on_total, run,
                                    run->model.gc ? on_gc : NULL,
                                    run->model.ticky ? on_ticky : NULL };
    if (opt->serve && start_live(run, input_name) != 0) {
        if (run->live)
            end_live(run, false);
        return;
    }
    struct input_lock live_guard = { lock_live, unlock_live, run->live };
    if (run->live)
        iopt.lock = &live_guard;
    struct input *in = input_open(&iopt, &events, &err);
    bool commit = false;
    if (!in) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        if (run->live)
            end_live(run, false);
        return;
    }
    run->model.name = input_name;
    run->model.info = input_run_info(in);
    run->model.bands = input_bands(in);
    run->model.timeprof = input_timeprof(in);
    run->model.ccs = input_costcentres(in);
    struct sink_context ctx = {
        .info = run->model.info, .bands = run->model.bands, .input_name = input_name,
        .warnings = result->warnings, .warning_count = &result->warning_count,
        .run = &run->model, .base = run->base, .ccs = input_costcentres(in),
        .ipe = input_ipe_names(in), .gates = &run->gates, .phases = &run->phases,
        .grouped = opt->group_by != GROUP_NONE,
    };
    run->bands = ctx.bands;
    bool ending = false;   /* a live run: the locks of begin_ending are held */
    if (open_outputs(run, &ctx) != 0 || (opt->serve && attach_live(run, in, input_name) != 0))
        goto done;
    struct input_outcome outcome;
    enum input_status st = input_read(in, &outcome, &err);
    if (run->live && !(ending = begin_ending(run)))
        for (;;)
            pause();   /* SIGINT or SIGTERM is ending the run in the worker's thread */
    if (run->live)
        live_damage(run->live, outcome.lost_to_damage);
    if (st == INPUT_STOPPED) {
        write_failure(run);
        goto done;
    }
    if (st == INPUT_BAD) {
        fail(result, EXIT_BAD_INPUT, input_name, &err);
        goto done;
    }
    result->damaged = outcome.damaged;
    result->censuses = outcome.censuses;
    if (outcome.damaged && opt->strict) {
        fail(result, EXIT_BAD_INPUT, input_name, &outcome.damage);
        goto done;
    }
    take_warnings(result, &outcome);
    for (size_t i = 0; i < run->phase_list.note_count; i++)   /* what --phases dropped */
        warn(result, &run->phase_list.notes[i]);
    check_censuses(run, in, &outcome);
    window_warning(run);
    if (group_by_default(run, in, input_name) != 0)
        goto done;
    if (finish_outputs(run) != 0) {
        write_failure(run);
        goto done;
    }
    commit = true;
    apply_gates(run, input_name);
    if (opt->dump && fflush(opt->dump) != 0) {
        ev_error_set(&err, "cannot write: %s", strerror(errno));
        fail(result, EXIT_WRITE, "(standard output)", &err);
        commit = false;
    }
done:
    close_outputs(run, commit);
    if (run->live)
        end_live(run, ending);
    input_free(in);
}

/* --binary PROG (or --base-binary): its symbol table into *symbols (none without path);
 * 0, or -1 with the result failed, naming PROG. */
static int read_symbols(const char *path, struct elf_symbols **symbols,
                        struct convert_result *r)
{
    struct ev_error err = { 0 };
    if (!path)
        return 0;
    if (!(*symbols = symnames_read(path, &err))) {
        fail(r, EXIT_BAD_INPUT, path, &err);
        return -1;
    }
    return 0;
}

/* --from/--to marker:TEXT: the markers' times into *chart (a copy of opt's chart
 * options, or the defaults), which *window then points to. 0, or -1 with the result
 * failed: a usage error (status 2) when the input cannot be read twice or a marker is
 * not there, naming the markers the run has. */
static int window_at_markers(const struct convert_options *opt, struct convert_options *window,
                             struct chart_options *chart, struct convert_result *result)
{
    const char *input_name = convert_input_name(opt);
    struct ev_error err = { 0 };
    if (opt->chart)
        *chart = *opt->chart;
    else
        chart_options_default(chart);
    *window = *opt;
    window->chart = chart;
    if (!rereadable(opt->input_path) || opt->follow || opt->serve) {
        ev_error_set(&err, "--%s %s%s: a marker's time is read before the outputs are "
                     "written, which takes a file read twice, not a pipe, a socket or a "
                     "file still growing (--follow, --serve); give the window in seconds",
                     opt->window.from ? "from" : "to", MARKER_WINDOW_PREFIX,
                     opt->window.from ? opt->window.from : opt->window.to);
        fail(result, EXIT_USAGE, input_name, &err);
        return -1;
    }
    struct input_options iopt = { .path = opt->input_path, .ccs_length = opt->ccs_length,
                                  .group_by = opt->group_by, .read_buffer = opt->read_buffer,
                                  .stop_at_damage = opt->stop_at_damage };
    switch (marker_window_resolve(&iopt, &opt->window, &chart->profile, &err)) {
    case MARKER_WINDOW_OK:
        return 0;
    case MARKER_WINDOW_UNKNOWN:
        fail(result, EXIT_USAGE, input_name, &err);
        return -1;
    case MARKER_WINDOW_BAD_INPUT:
        break;
    }
    fail(result, EXIT_BAD_INPUT, input_name, &err);
    return -1;
}

/* --phases: the phases of the input's markers into run (read first, as a marker window
 * is). 0, or -1 with the result failed: a usage error (status 2) when the input cannot be
 * read twice, the rule is no regular expression, or no marker makes a phase. */
static int read_phases(struct run *run)
{
    const struct convert_options *opt = run->opt;
    const char *input_name = convert_input_name(opt);
    struct ev_error err = { 0 };
    if (!rereadable(opt->input_path) || opt->follow || opt->serve) {
        ev_error_set(&err, "--phases %s: the phases are read from the markers before the "
                     "outputs are written, which takes a file read twice, not a pipe, a "
                     "socket or a file still growing (--follow, --serve)", opt->phases);
        fail(run->result, EXIT_USAGE, input_name, &err);
        return -1;
    }
    struct input_options iopt = { .path = opt->input_path, .ccs_length = opt->ccs_length,
                                  .group_by = opt->group_by, .read_buffer = opt->read_buffer,
                                  .stop_at_damage = opt->stop_at_damage };
    switch (phases_resolve(&iopt, opt->phases, &run->phase_list, &err)) {
    case PHASES_OK:
        if (opt->chart && (opt->chart->profile.has_from || opt->chart->profile.has_to))
            phase_list_clip(&run->phase_list, profile_window(&opt->chart->profile));
        if (!run->phase_list.count) {
            ev_error_set(&err, "--phases %s: no phase lies within --from/--to", opt->phases);
            fail(run->result, EXIT_USAGE, input_name, &err);
            return -1;
        }
        if (!(run->phase_windows = calloc(run->phase_list.count,
                                          sizeof *run->phase_windows))) {
            ev_error_set(&err, "out of memory");
            break;
        }
        phase_windows(&run->phase_list, run->phase_windows);
        return 0;
    case PHASES_USAGE:
        fail(run->result, EXIT_USAGE, input_name, &err);
        return -1;
    case PHASES_BAD_INPUT:
        break;
    }
    fail(run->result, EXIT_BAD_INPUT, input_name, &err);
    return -1;
}

void convert_run(const struct convert_options *opt, struct convert_result *result)
{
    memset(result, 0, sizeof *result);
    struct convert_options windowed;
    struct chart_options window_chart;
    if ((opt->window.from || opt->window.to) &&
        window_at_markers(opt, &windowed, &window_chart, result) != 0)
        return;
    if (opt->window.from || opt->window.to)
        opt = &windowed;
    struct run run = { .opt = opt, .result = result };
    run.outputs = calloc(opt->output_count ? opt->output_count : 1, sizeof *run.outputs);
    if (!run.outputs) {
        struct ev_error err = { 0 };
        ev_error_set(&err, "out of memory");
        fail(result, EXIT_BAD_INPUT, convert_input_name(opt), &err);
        return;
    }
    if (check_paths(opt, result) == 0 && (!opt->phases || read_phases(&run) == 0) &&
        read_symbols(opt->binary_path, &run.symbols, result) == 0 &&
        read_symbols(opt->base_binary_path, &run.base_symbols, result) == 0 &&
        (!opt->compare_path || read_base(&run) == 0))
        convert_input(&run, convert_input_name(opt));
    elfsyms_free(run.symbols);
    elfsyms_free(run.base_symbols);
    free(run.outputs);
    phase_report_free(&run.phases);
    phase_list_free(&run.phase_list);
    free(run.phase_windows);
    run_model_free(&run.model);
    run_model_free(&run.base_model);
    base_input_free(&run.base_input);
    run_model_free(&run.grouped_model);
    input_free(run.grouped_input);
    run_model_free(&run.grouped_base_model);
    base_input_free(&run.grouped_base_input);
}
