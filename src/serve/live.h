/* live.h: a run being read, shared between the main thread and the server's threads.
 *
 * The main thread reads the input and feeds the run model as in any run; with --serve (or
 * --every) it also feeds the live state, holding the live lock only while one census,
 * marker or heap total is taken in (live_lock around the callbacks in convert.c). The
 * live state keeps what the endpoints serve without a drawing:
 *
 *   - the counters and the last census (for /metrics), and the bands a chart shows (the
 *     "shown set", recomputed from the model's exact statistics at most once a second,
 *     so that the series of /metrics and /events stay the ones a chart would draw);
 *   - one Server-Sent Event per census for /events (sse.h), formatted once, under the
 *     lock, and queued to every client without waiting on any;
 *   - the full-resolution .hp, spooled census by census to an anonymous temporary file
 *     (removed by the system when ev2hp exits, however it exits): /profile.hp is its bytes
 *     so far and the runtime's closing empty sample, the bytes `-o x.hp` would hold had
 *     the input ended there, streamed from the file (live_hp_open), never held whole.
 *
 * Drawings (/chart.svg, /chart.png, /summary.json, the report) come from a snapshot
 * (snapshot.h): a copy at the drawing's resolution taken under the lock and drawn without
 * it, one drawing at a time (memory: the model, one copy, one drawing), each format drawn
 * once per state and kept for the next request.
 *
 *   - the live model (model/livemodel.h, /live.json): the last LIVE_MODEL_RECENT
 *     censuses whole (fewer when they would pass LIVE_MODEL_RECENT_ENTRIES entries),
 *     older ones merged into buckets keeping each band's maximum and mean (fewer, wider
 *     buckets when they would pass LIVE_MODEL_BUCKET_RECORDS band records).
 *
 * Memory stays flat however long the stream runs: the run model keeps time buckets of
 * bounded number (profile.h), the live model a bounded window and bounded buckets, the
 * .hp goes to disk, queues are bounded.
 */
#ifndef EV2HP_LIVE_H
#define EV2HP_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "model/frame.h"
#include "model/runmodel.h"
#include "sink/formats.h"

struct costcentres;   /* census/costcentres.h */
struct ipe_names;     /* census/ipe.h */
struct live;
struct sse_hub;
struct timeprof;      /* census/timeprof.h */

/* What the run's owner (convert.c) lends the live state; alive until live_free. */
struct live_source {
    const char *input_name;
    struct sink_settings settings;    /* the run's chart options, --scale, --system-ccs */
    const struct run_model *model;    /* fed by the owner under the live lock */
    const struct bands *bands;
    const struct run_info *info;
    const struct costcentres *ccs;    /* an eventlog's cost centres, or NULL */
    const struct ipe_names *ipe;      /* an eventlog's info tables, or NULL */
    const struct timeprof *timeprof;  /* the time profile read so far, or NULL */
    const struct ev_error *warnings;  /* the run's warnings so far, and their count */
    const size_t *warning_count;
    /* Control of the program (POST /control/...): sends an eventlog-socket command
     * (enum control_command of read/control.h). 0, or -1 with errno (ENOTSOCK: the input
     * is not a socket). NULL: no input can be controlled. */
    int (*control)(void *ctx, int command);
    void *control_ctx;
    /* Whether the runtime holds the censuses back, or held them back until a burst
     * (census/heldback.h), asked every second under the lock until it says so, with the
     * sentence in why, which /events sends ("waiting") and gives every later client in
     * its "init". NULL: never. */
    bool (*held_back)(void *ctx, char *why, size_t size);
    void *held_back_ctx;
};

/* NULL with err set. The source is read only once live_attach is called. */
struct live *live_new(struct ev_error *err);
/* Once the input is open: what the live state reads. 0, or -1 with err set. */
int live_attach(struct live *l, const struct live_source *src, struct ev_error *err);
void live_free(struct live *l);

/* The main thread holds the lock while it works on what it read (input_options.lock):
 * the bands, the run information, the cost centres and the time profile change only
 * under it, and the callbacks feed the model, then the live state, under it. */
void live_lock(struct live *l);
void live_unlock(struct live *l);

/* Under the lock, after the model was fed: 0, or -1 when out of memory or the .hp spool
 * cannot be written (errno). */
int live_frame(struct live *l, const struct census_frame *frame);
int live_marker(struct live *l, uint64_t time_ns, const char *text, size_t len);
void live_total(struct live *l, enum heap_total kind, uint64_t time_ns, uint64_t bytes);
/* Censuses lost to damage so far (the input's count). */
void live_damage(struct live *l, uint64_t lost_to_damage);
/* The input has ended (under the lock): pages say so, /events sends "end". */
void live_end(struct live *l);

/* A document streamed to a client piece by piece, so that no client holds a copy of it
 * (the page of 100,000 bands is 26 MB: 120 clients that never read it held 3.3 GB):
 * each stream reads its document's file through a descriptor of its own, and the file
 * lives on, unlinked, until its last stream is closed, whatever is drawn meanwhile. Open
 * one (its size in *size; NULL with err set), read up to max bytes at a time (the count,
 * 0 at the end, -1 with errno on a read error), close. Any thread, not under the lock.
 *
 * live_hp_open: the .hp so far (the bytes -o x.hp would hold had the input ended now),
 * from the spool, which may grow meanwhile. live_draw_open: the drawing of format (a
 * chart, the summary) as the state stands. live_page_open: the report's page with the
 * live script; live_report_data_open: its data alone (what live.js reloads). */
struct live_stream;
struct live_stream *live_hp_open(struct live *l, uint64_t *size, struct ev_error *err);
struct live_stream *live_draw_open(struct live *l, enum output_format format, uint64_t *size,
                                   struct ev_error *err);
struct live_stream *live_page_open(struct live *l, uint64_t *size, struct ev_error *err);
struct live_stream *live_report_data_open(struct live *l, uint64_t *size, struct ev_error *err);
/* /live.json: the live model (model/livemodel.h) as JSON: the band labels by number, the
 * older censuses merged into buckets ([band, max, mean] each), the recent ones whole
 * (tens of MB with 100,000 bands); made under the lock once per state, as a drawing is. */
struct live_stream *live_series_open(struct live *l, uint64_t *size, struct ev_error *err);
ssize_t live_stream_read(struct live_stream *s, char *buf, size_t max);
void live_stream_close(struct live_stream *s);
/* /metrics, made per request (the chart's bands: small): fills a malloc'd buffer the
 * caller frees: 0, or -1 with err set. Not under the lock. */
int live_metrics(struct live *l, char **buf, size_t *len, struct ev_error *err);

/* The first message of a new /events client: the shown bands and the state. */
int live_events_hello(struct live *l, char **buf, size_t *len);
struct sse_hub *live_events(struct live *l);
/* Recomputes the shown set if anything came in since, and asks whether the censuses are
 * held back (live_source.held_back): the worker calls it every second. */
int live_refresh(struct live *l, struct ev_error *err);
/* The source's control (see live_source), or -1 with errno ENOTSOCK without one. */
int live_control(struct live *l, int command);
bool live_ended(struct live *l);
/* Whether the input is open (live_attach): before, only /metrics and /events answer. */
bool live_attached(struct live *l);
/* /debug/pprof/heap: the last census (has_at false), or the last at or before at_ns of
 * those the live model keeps whole (the last LIVE_MODEL_RECENT, fewer with many bands:
 * the 404 says how many and from when), as a gzipped pprof heap
 * profile (sink/pprof_profiles.h; megabytes with 100,000 bands) streamed from a file
 * (*out, its size in *size): the last census's made once per state, one at at_ns for
 * the request. 0; 1 when there is no such census (err
 * says why); -1 with err set. */
int live_pprof_heap(struct live *l, bool has_at, uint64_t at_ns, struct live_stream **out,
                    uint64_t *size, struct ev_error *err);
/* /debug/pprof/profile, where its window begins: the time profile's sample count of
 * every stack so far (*counts malloc'd, *count of them). 0; 1 when the input has no time
 * profile (err says why); -1 with err set. */
int live_pprof_ticks(struct live *l, uint64_t **counts, uint32_t *count, struct ev_error *err);
/* Where it ends: the samples read since the window began (counts, count from
 * live_pprof_ticks), over duration_ns, as a gzipped pprof time profile, streamed as
 * live_pprof_heap's. 0, or -1 with err set. */
int live_pprof_window(struct live *l, const uint64_t *counts, uint32_t count,
                      uint64_t duration_ns, struct live_stream **out, uint64_t *size,
                      struct ev_error *err);
/* Writes a snapshot of format into out (--every); 0, or -1 with err set. */
int live_write(struct live *l, enum output_format format, FILE *out, struct ev_error *err);

#endif
