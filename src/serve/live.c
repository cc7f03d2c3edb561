/* live.c: the shared state of a run being read (see live.h). */
#include "serve/live.h"

#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "base/format.h"
#include "base/grow.h"
#include "base/json.h"
#include "base/textcopy.h"
#include "census/timeprof.h"
#include "model/bands.h"
#include "model/livemodel.h"
#include "chart/chart.h"
#include "model/profile.h"
#include "serve/clock.h"
#include "serve/metrics.h"
#include "serve/snapshot.h"
#include "serve/sse.h"
#include "sink/pprof.h"
#include "sink/pprof_profiles.h"
#include "sink/report_assets.h"
#include "sink/sinks.h"
#include "sink/textout.h"

#define PENDING_MARKERS 64          /* markers carried by one /events message */
#define DRAWN_FORMATS (FORMAT_HTML + 1)
#define LIVE_MMAP_THRESHOLD (1 << 20)   /* blocks of 1 MiB and more are mapped (live_new) */

/* A format drawn from one version, kept for the next request in an unlinked temporary
 * file that every client streams from (live_stream). The report's page is served with
 * the live script after its main element, and its data element alone as /report.json:
 * where they are is found once, when it is drawn. */
struct drawn {
    uint64_t version;
    FILE *file;                     /* NULL: none */
    size_t len;
    size_t main_end;                /* FORMAT_HTML: just past the main element */
    size_t data_at, data_len;       /* FORMAT_HTML: the data element's JSON */
};

struct live {
    pthread_mutex_t lock;           /* the main thread's state, below to `hub` */
    struct live_source src;
    bool attached;
    uint64_t version;               /* bumped by everything fed: snapshots are per version */
    uint64_t censuses, last_ns, last_total;
    struct census_entry *last;      /* the last census's entries */
    size_t last_count, last_cap;
    bool has_total[HEAP_TOTAL_RUNTIME];
    uint64_t totals[HEAP_TOTAL_RUNTIME];
    uint64_t markers, lost_to_damage;
    bool ended;
    struct live_model *recent;      /* /live.json: recent censuses whole, older merged */
    /* the .hp, census by census, in an anonymous temporary file */
    FILE *spool;
    struct sink *hp;
    off_t spool_len;                /* bytes flushed to it, at a census's end */
    uint64_t hp_last_ns;            /* the last census it holds */
    /* the shown set: bands of the chart, OTHER last when it holds any */
    struct metrics_band *shown;     /* labels owned; id -1 for OTHER */
    size_t shown_count;
    bool shown_has_other;
    int32_t *slot;                  /* band -> index in shown, or -1 */
    size_t slot_cap;
    uint64_t shown_version;
    double shown_at;                /* when it was computed (monotonic seconds) */
    bool shown_changed;             /* not yet sent on /events */
    struct pending_marker {         /* markers for the next /events message */
        uint64_t time_ns;
        char *text;
        size_t len;
    } pending[PENDING_MARKERS];
    size_t pending_count;
    struct sse_hub *hub;
    char *held_back;                /* why no census comes (live_source.held_back), or NULL */

    pthread_mutex_t draw_lock;      /* one drawing (snapshot) at a time; drawn */
    struct drawn drawn[DRAWN_FORMATS];
    /* the documents made from the live state itself, once per state: /live.json and the
     * last census's pprof profile */
    pthread_mutex_t made_lock;
    struct drawn series, heap;
};

struct live *live_new(struct ev_error *err)
{
    struct live *l = calloc(1, sizeof *l);
    if (!l || !(l->hub = sse_hub_new()) ||
        !(l->recent = live_model_new(LIVE_MODEL_RECENT, LIVE_MODEL_BUCKETS))) {
        if (l)
            sse_hub_free(l->hub);
        free(l);
        ev_error_set(err, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&l->lock, NULL);
    pthread_mutex_init(&l->draw_lock, NULL);
    pthread_mutex_init(&l->made_lock, NULL);
    /* A drawing's large arrays (a snapshot's statistics and band table, the drawn report)
     * are mapped and unmapped when freed, in whichever thread draws: glibc's threshold
     * otherwise rises to the largest block freed, and blocks up to it then stay in the
     * drawing thread's arena, where the reader's thread cannot reuse them (87,040 bands,
     * the page fetched every 0.2 s: peak RSS 183-212 MiB over runs, 176 with this). */
    mallopt(M_MMAP_THRESHOLD, LIVE_MMAP_THRESHOLD);
    return l;
}

int live_attach(struct live *l, const struct live_source *src, struct ev_error *err)
{
    l->src = *src;
    /* tmpfile: unlinked at once, so nothing is left behind whatever ends ev2hp */
    if (!(l->spool = tmpfile())) {
        ev_error_set(err, "cannot make a temporary file for the .hp: %s", strerror(errno));
        return -1;
    }
    /* not live: the spool is flushed when /profile.hp is asked for (spool_flush) */
    struct sink_context ctx = { .info = src->info, .bands = src->bands,
                                .input_name = src->input_name };
    if (!(l->hp = sink_new(FORMAT_HP, l->spool, &ctx, &src->settings))) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    l->attached = true;
    return 0;
}

/* shown's labels and shown; NULL is nothing (refresh_shown's calloc may have failed). */
static void free_shown(struct metrics_band *shown, size_t count)
{
    for (size_t i = 0; shown && i < count; i++)
        free((char *)shown[i].label);
    free(shown);
}

void live_free(struct live *l)
{
    if (!l)
        return;
    if (l->hp)
        l->hp->ops->destroy(l->hp);
    if (l->spool)
        fclose(l->spool);
    for (size_t i = 0; i < DRAWN_FORMATS; i++)
        if (l->drawn[i].file)
            fclose(l->drawn[i].file);
    if (l->series.file)
        fclose(l->series.file);
    if (l->heap.file)
        fclose(l->heap.file);
    free_shown(l->shown, l->shown_count);
    free(l->slot);
    free(l->last);
    for (size_t i = 0; i < l->pending_count; i++)
        free(l->pending[i].text);
    sse_hub_free(l->hub);
    free(l->held_back);
    live_model_free(l->recent);
    pthread_mutex_destroy(&l->lock);
    pthread_mutex_destroy(&l->draw_lock);
    pthread_mutex_destroy(&l->made_lock);
    free(l);
}

void live_lock(struct live *l)
{
    pthread_mutex_lock(&l->lock);
}

void live_unlock(struct live *l)
{
    pthread_mutex_unlock(&l->lock);
}

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

/* The shown bands' definitions as a JSON array (the lock held). */
static void write_band_definitions(struct json_writer *w, const struct live *l)
{
    json_array_begin(w);
    for (size_t i = 0; i < l->shown_count; i++) {
        json_object_begin(w);
        json_key(w, "id");
        json_int(w, l->shown[i].id);
        json_key(w, "label");
        json_string(w, l->shown[i].label, l->shown[i].len);
        json_object_end(w);
    }
    json_array_end(w);
}

/* The scalar members a message starts with, written in order by write_members: the one
 * helper for the key-value runs of /events and /live.json. */
enum member_kind { MEMBER_UINT, MEMBER_SECONDS, MEMBER_BOOL };
struct member {
    const char *key;
    enum member_kind kind;
    uint64_t value;                 /* nanoseconds for MEMBER_SECONDS */
};

static void write_members(struct json_writer *w, const struct member *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_key(w, m[i].key);
        if (m[i].kind == MEMBER_SECONDS)
            textout_json_seconds(w, m[i].value);
        else if (m[i].kind == MEMBER_BOOL)
            json_bool(w, m[i].value != 0);
        else
            json_uint(w, m[i].value);
    }
}

/* A record of /live.json on a line of its own: its scalar members, then the list under
 * list_key, left open for the caller's items; close_record ends both. */
static void open_record(struct json_writer *w, const struct member *m, size_t n,
                        const char *list_key)
{
    json_newline(w);
    json_object_begin(w);
    write_members(w, m, n);
    json_key(w, list_key);
    json_array_begin(w);
}

/* A list member of /live.json, starting on a line of its own. */
static void open_list(struct json_writer *w, const char *key)
{
    json_newline(w);
    json_key(w, key);
    json_array_begin(w);
}

static void close_record(struct json_writer *w)
{
    json_array_end(w);
    json_object_end(w);
}

/* [band, bytes]: a band's bytes in a census (band -1: OTHER). */
static void write_value(struct json_writer *w, int64_t band, uint64_t bytes)
{
    json_array_begin(w);
    json_int(w, band);
    json_uint(w, bytes);
    json_array_end(w);
}

/* One Server-Sent Event: "event: NAME", then write's JSON value on one data line. */
typedef void (*event_body)(struct json_writer *w, struct live *l, const void *arg);

static int format_event(FILE *out, const char *name, event_body write, struct live *l,
                        const void *arg)
{
    fprintf(out, "event: %s\ndata: ", name);
    struct json_writer *w = json_writer_new(out, 0);
    if (!w)
        return -1;
    write(w, l, arg);
    int rc = json_writer_finish(w);
    json_writer_free(w);
    fputs("\n\n", out);
    return rc;
}

/* A census: its time and total, the shown bands' bytes (OTHER as id -1), the shown set's
 * definitions when it changed, and the markers since the last census. */
static void census_body(struct json_writer *w, struct live *l, const void *arg)
{
    const struct census_frame *frame = arg;
    json_object_begin(w);
    const struct member head[] = {
        { "census", MEMBER_UINT, l->censuses },
        { "t", MEMBER_SECONDS, frame->time_ns },
        { "total", MEMBER_UINT, l->last_total },
    };
    write_members(w, head, sizeof head / sizeof *head);
    json_key(w, "values");
    json_array_begin(w);
    uint64_t shown_sum = 0;
    for (size_t i = 0; i < frame->count; i++) {
        uint32_t band = frame->entries[i].band;
        if (band < l->slot_cap && l->slot[band] >= 0) {
            write_value(w, band, frame->entries[i].bytes);
            shown_sum += frame->entries[i].bytes;
        }
    }
    write_value(w, -1, l->last_total - shown_sum);
    json_array_end(w);
    if (l->shown_changed) {
        json_key(w, "bands");
        write_band_definitions(w, l);
        l->shown_changed = false;
    }
    if (l->pending_count) {
        json_key(w, "markers");
        json_array_begin(w);
        for (size_t i = 0; i < l->pending_count; i++) {
            json_object_begin(w);
            const struct member at = { "t", MEMBER_SECONDS, l->pending[i].time_ns };
            write_members(w, &at, 1);
            json_key(w, "text");
            json_string(w, l->pending[i].text, l->pending[i].len);
            json_object_end(w);
            free(l->pending[i].text);
        }
        json_array_end(w);
        l->pending_count = 0;
    }
    json_object_end(w);
}

/* One /events message to every client (the lock held). */
static int broadcast_event(struct live *l, const char *name, event_body write, const void *arg)
{
    char *msg = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&msg, &len);
    if (!out)
        return no_memory();
    int rc = format_event(out, name, write, l, arg);
    if (fclose(out) != 0 || rc != 0) {
        free(msg);
        return no_memory();
    }
    sse_broadcast(l->hub, msg, len);
    free(msg);
    return 0;
}

/* Flushes the .hp spool and notes how much of it is whole (the lock held: the main
 * thread writes whole censuses under it). Only when the .hp is asked for, not per
 * census: a write per census made ingestion several times slower than a plain run. */
static int spool_flush(struct live *l)
{
    if (fflush(l->spool) != 0)
        return -1;
    off_t at = ftello(l->spool);
    if (at < 0)
        return -1;
    l->spool_len = at;
    return 0;
}

int live_frame(struct live *l, const struct census_frame *frame)
{
    l->version++;
    l->censuses++;
    l->last_ns = frame->time_ns;
    uint64_t total = 0;
    if (GROW_ARRAY(l->last, &l->last_cap, frame->count ? frame->count : 1) != 0)
        return no_memory();
    for (size_t i = 0; i < frame->count; i++)
        total += frame->entries[i].bytes;
    if (frame->count)
        memcpy(l->last, frame->entries, frame->count * sizeof *frame->entries);
    l->last_count = frame->count;
    l->last_total = total;
    if (live_model_add(l->recent, frame) != 0)
        return -1;
    if (l->hp->ops->frame(l->hp, frame) != 0)
        return -1;
    l->hp_last_ns = frame->time_ns;
    return broadcast_event(l, "census", census_body, frame);   /* one per census */
}

int live_marker(struct live *l, uint64_t time_ns, const char *text, size_t len)
{
    l->version++;
    l->markers++;
    if (l->hp->ops->marker(l->hp, time_ns, text, len) != 0)
        return -1;
    if (l->pending_count == PENDING_MARKERS)
        return 0;   /* a burst: the report still lists them all */
    struct pending_marker *m = &l->pending[l->pending_count];
    if (!(m->text = text_copy(text, len)))
        return no_memory();
    m->len = len;
    m->time_ns = time_ns;
    l->pending_count++;
    return 0;
}

void live_total(struct live *l, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    (void)time_ns;
    if ((int)kind >= HEAP_TOTAL_RUNTIME)
        return;   /* collections and allocation: not served */
    l->version++;
    l->has_total[kind] = true;
    l->totals[kind] = bytes;
}

void live_damage(struct live *l, uint64_t lost_to_damage)
{
    if (l->lost_to_damage != lost_to_damage)
        l->version++;
    l->lost_to_damage = lost_to_damage;
}

void live_end(struct live *l)
{
    l->version++;
    l->ended = true;
    char msg[96];
    int n = snprintf(msg, sizeof msg, "event: end\ndata: {\"censuses\":%" PRIu64 "}\n\n",
                     l->censuses);
    sse_broadcast(l->hub, msg, (size_t)n);
}

bool live_ended(struct live *l)
{
    live_lock(l);
    bool ended = l->ended;
    live_unlock(l);
    return ended;
}

bool live_attached(struct live *l)
{
    live_lock(l);
    bool attached = l->attached;
    live_unlock(l);
    return attached;
}

struct sse_hub *live_events(struct live *l)
{
    return l->hub;
}

int live_control(struct live *l, int command)
{
    if (!l->src.control) {
        errno = ENOTSOCK;
        return -1;
    }
    return l->src.control(l->src.control_ctx, command);
}

/* The resolution a format draws at: the report's, or a chart's. */
static unsigned columns_of(const struct live *l, enum output_format format)
{
    struct chart_options defaults;
    const struct chart_options *chart = l->src.settings.chart;
    if (!chart) {
        chart_options_default(&defaults);
        chart = &defaults;
    }
    struct profile_options o;
    if (format == FORMAT_HTML)
        sink_html_profile_options(chart, &o);
    else
        chart_profile_options(chart, &o);
    return o.columns;
}

/* What a drawing is drawn from, as a number that grows whenever it changes (the lock
 * held): everything fed (version), and the time profile's samples, which come without a
 * callback; cost centres are defined before the samples and censuses that name them. */
static uint64_t state_of(const struct live *l)
{
    const struct timeprof *tp = l->src.timeprof;
    return l->version + (tp ? timeprof_samples(tp) + timeprof_outside(tp) : 0);
}

/* A snapshot for drawing format (at its resolution, with what it reads), taken under the
 * live lock and finished without it; *version is the state's. 0, or -1 with err set; s is
 * to be freed with snapshot_free in any case. */
static int take(struct live *l, enum output_format format, struct snapshot *s,
                uint64_t *version, struct ev_error *err)
{
    memset(s, 0, sizeof *s);
    live_lock(l);
    if (!l->attached) {
        live_unlock(l);
        ev_error_set(err, "the input is not open yet");
        return -1;
    }
    *version = state_of(l);
    struct snapshot_source src = {
        .model = l->src.model, .bands = l->src.bands, .ccs = l->src.ccs,
        .timeprof = l->src.timeprof, .info = l->src.info, .warnings = l->src.warnings,
        .warning_count = *l->src.warning_count, .input_name = l->src.input_name,
        /* the report's grouping control is the one drawing that reads the info tables */
        .ipe = format == FORMAT_HTML ? l->src.ipe : NULL,
    };
    int rc = snapshot_take(s, &src, columns_of(l, format), format_is_summary(format), err);
    s->ended = l->ended;
    live_unlock(l);
    return rc == 0 ? snapshot_finish(s, err) : -1;
}

/* A document written into out (an unlinked temporary file) kept as d, for the state
 * version. 0, or -1 with err set (out closed). */
static int keep_document(struct drawn *d, FILE *out, uint64_t version, struct ev_error *err)
{
    off_t end = fflush(out) == 0 && !ferror(out) ? ftello(out) : -1;
    if (end < 0) {
        ev_error_set(err, "cannot write the document: %s", strerror(errno));
        fclose(out);
        return -1;
    }
    *d = (struct drawn){ .version = version, .file = out, .len = (size_t)end };
    return 0;
}

/* A format drawn from snapshot s into an unlinked temporary file, kept as d for the
 * state version: a memory stream doubles as it grows (and copies as it doubles), so a
 * 17.7 MB report of 100,000 bands held 51 MB while drawn; the file is what clients are
 * served from. 0, or -1 with err set. */
static int draw(const struct live *l, const struct snapshot *s, enum output_format format,
                struct drawn *d, uint64_t version, struct ev_error *err)
{
    FILE *out = tmpfile();
    if (!out) {
        ev_error_set(err, "cannot make a temporary file to draw in: %s", strerror(errno));
        return -1;
    }
    if (snapshot_write(s, format, &l->src.settings, out, err) != 0) {
        fclose(out);
        return -1;
    }
    return keep_document(d, out, version, err);
}

/* The report's main element, after which the page's live script goes, and its data
 * element (/report.json). */
static const char MAIN[] = "<main id=\"report\"></main>\n";
static const char DATA_OPEN[] = "<script type=\"application/json\" id=\"ev2hp-data\">\n";
static const char DATA_CLOSE[] = "\n</script>";

/* Where the drawn report d holds its main element and its data element, read from its
 * file mapped for the search (its pages are the file's, let go when it is unmapped). 0,
 * or -1 with err set. */
static int find_report_parts(struct drawn *d, struct ev_error *err)
{
    void *map = d->len ? mmap(NULL, d->len, PROT_READ, MAP_PRIVATE, fileno(d->file), 0)
                       : MAP_FAILED;
    if (map == MAP_FAILED) {
        ev_error_set(err, "cannot read back the drawing: %s", strerror(d->len ? errno : EIO));
        return -1;
    }
    const char *page = map;
    const char *at_main = memmem(page, d->len, MAIN, sizeof MAIN - 1);
    const char *open = memmem(page, d->len, DATA_OPEN, sizeof DATA_OPEN - 1);
    const char *data = open ? open + sizeof DATA_OPEN - 1 : NULL;
    const char *close = data ? memmem(data, d->len - (size_t)(data - page), DATA_CLOSE,
                                      sizeof DATA_CLOSE - 1) : NULL;
    if (at_main)
        d->main_end = (size_t)(at_main - page) + sizeof MAIN - 1;
    if (close) {
        d->data_at = (size_t)(data - page);
        d->data_len = (size_t)(close - data);
    }
    munmap(map, d->len);
    if (!at_main || !close) {
        ev_error_set(err, at_main ? "the report has no data element"
                               : "the report has no main element");
        return -1;
    }
    return 0;
}

/* Drawings are made one at a time (draw_lock): memory holds the model and one snapshot
 * however many clients ask; the drawing is on disk. Each format is drawn once per state.
 * The drawing of format as the state stands, with draw_lock held (the caller releases
 * it, whatever the outcome): NULL with err set when it cannot be drawn. The drawing it
 * replaces is closed here, and lives on for the streams still reading it. */
static const struct drawn *drawn_locked(struct live *l, enum output_format format,
                                        struct ev_error *err)
{
    pthread_mutex_lock(&l->draw_lock);
    live_lock(l);
    uint64_t version = state_of(l);
    live_unlock(l);
    struct drawn *d = &l->drawn[format];
    int rc = 0;
    if (!d->file || d->version != version) {
        if (d->file)
            fclose(d->file);
        *d = (struct drawn){ 0 };
        struct snapshot s;
        rc = take(l, format, &s, &version, err);
        if (rc == 0)
            rc = draw(l, &s, format, d, version, err);
        snapshot_free(&s);
        if (rc == 0 && format == FORMAT_HTML && find_report_parts(d, err) != 0) {
            fclose(d->file);
            *d = (struct drawn){ 0 };
            rc = -1;
        }
    }
    return rc == 0 ? d : NULL;
}

int live_write(struct live *l, enum output_format format, FILE *out, struct ev_error *err)
{
    pthread_mutex_lock(&l->draw_lock);
    struct snapshot s;
    uint64_t version;
    int rc = take(l, format, &s, &version, err);
    if (rc == 0)
        rc = snapshot_write(&s, format, &l->src.settings, out, err);
    snapshot_free(&s);
    pthread_mutex_unlock(&l->draw_lock);
    return rc;
}

/* --- documents streamed (live_stream) ----------------------------------------------- */

/* A document as pieces read in turn: ranges of a file through the stream's own
 * descriptor (a dup: the file stays whole while the stream reads it, even once the live
 * state has closed it for a newer drawing or the spool has grown), and bytes in memory
 * (the page's live script, the .hp's closing sample). */
#define STREAM_PIECES 5

struct live_stream {
    int fd;                         /* the file's, of the stream's own; or -1 */
    struct piece {
        const char *mem;            /* these bytes, or NULL: the file's from `at` */
        off_t at;
        size_t len;
    } piece[STREAM_PIECES];
    size_t count, i, done;          /* pieces; the one being read, and its bytes read */
    char *owned;                    /* memory a piece points into, freed with the stream */
};

static struct live_stream *stream_new(int fd, struct ev_error *err)
{
    struct live_stream *s = calloc(1, sizeof *s);
    if (!s) {
        ev_error_set(err, "out of memory");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    s->fd = fd;
    return s;
}

static void stream_file(struct live_stream *s, off_t at, size_t len)
{
    s->piece[s->count++] = (struct piece){ NULL, at, len };
}

static void stream_mem(struct live_stream *s, const char *mem, size_t len)
{
    s->piece[s->count++] = (struct piece){ mem, 0, len };
}

/* The stream's size, all its pieces. */
static uint64_t stream_size(const struct live_stream *s)
{
    uint64_t n = 0;
    for (size_t i = 0; i < s->count; i++)
        n += s->piece[i].len;
    return n;
}

void live_stream_close(struct live_stream *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    free(s->owned);
    free(s);
}

ssize_t live_stream_read(struct live_stream *s, char *buf, size_t max)
{
    while (s->i < s->count && s->done == s->piece[s->i].len) {
        s->i++;
        s->done = 0;
    }
    if (s->i == s->count || max == 0)
        return 0;
    const struct piece *p = &s->piece[s->i];
    size_t want = p->len - s->done < max ? p->len - s->done : max;
    if (p->mem) {
        memcpy(buf, p->mem + s->done, want);
    } else {
        ssize_t got = pread(s->fd, buf, want, p->at + (off_t)s->done);
        if (got <= 0) {
            if (got == 0)
                errno = EIO;   /* the file is shorter than it was: cannot be */
            return -1;
        }
        want = (size_t)got;
    }
    s->done += want;
    return (ssize_t)want;
}

/* A stream of the document d: a descriptor of its file of the stream's own, no piece
 * yet. NULL with err set. */
static struct live_stream *document_stream(const struct drawn *d, struct ev_error *err)
{
    int fd = dup(fileno(d->file));
    if (fd < 0) {
        ev_error_set(err, "cannot read the document: %s", strerror(errno));
        return NULL;
    }
    return stream_new(fd, err);
}

/* A stream of the whole document d. NULL with err set. */
static struct live_stream *whole_stream(const struct drawn *d, uint64_t *size,
                                        struct ev_error *err)
{
    struct live_stream *s = document_stream(d, err);
    if (s) {
        stream_file(s, 0, d->len);
        *size = stream_size(s);
    }
    return s;
}

/* A stream of the drawing of format as the state stands (draw_lock held by the caller,
 * who releases it), with d set to it. NULL with err set. */
static struct live_stream *drawn_stream(struct live *l, enum output_format format,
                                        const struct drawn **d, struct ev_error *err)
{
    *d = drawn_locked(l, format, err);
    return *d ? document_stream(*d, err) : NULL;
}

struct live_stream *live_draw_open(struct live *l, enum output_format format, uint64_t *size,
                                   struct ev_error *err)
{
    const struct drawn *d = drawn_locked(l, format, err);
    struct live_stream *s = d ? whole_stream(d, size, err) : NULL;
    pthread_mutex_unlock(&l->draw_lock);
    return s;
}

struct live_stream *live_report_data_open(struct live *l, uint64_t *size, struct ev_error *err)
{
    const struct drawn *d;
    struct live_stream *s = drawn_stream(l, FORMAT_HTML, &d, err);
    if (s) {
        stream_file(s, (off_t)d->data_at, d->data_len);
        *size = stream_size(s);
    }
    pthread_mutex_unlock(&l->draw_lock);
    return s;
}

struct live_stream *live_page_open(struct live *l, uint64_t *size, struct ev_error *err)
{
    /* the live script before the report's own, which hands it its state */
    static const char OPEN[] = "<script>\n", CLOSE[] = "</script>\n";
    const struct drawn *d;
    struct live_stream *s = drawn_stream(l, FORMAT_HTML, &d, err);
    if (s) {
        stream_file(s, 0, d->main_end);
        stream_mem(s, OPEN, sizeof OPEN - 1);
        stream_mem(s, (const char *)report_live_js, report_live_js_len);
        stream_mem(s, CLOSE, sizeof CLOSE - 1);
        stream_file(s, (off_t)d->main_end, d->len - d->main_end);
        *size = stream_size(s);
    }
    pthread_mutex_unlock(&l->draw_lock);
    return s;
}

/* The .hp so far: the spool's whole censuses, then the closing sample; before the first
 * census, the whole small .hp a header makes (drawn as the other formats are). */
struct live_stream *live_hp_open(struct live *l, uint64_t *size, struct ev_error *err)
{
    live_lock(l);
    if (!l->attached) {
        live_unlock(l);
        ev_error_set(err, "the input is not open yet");
        return NULL;
    }
    int fd = -1;
    if (spool_flush(l) != 0 || (l->spool_len && (fd = dup(fileno(l->spool))) < 0)) {
        live_unlock(l);
        ev_error_set(err, "cannot read the .hp spool: %s", strerror(errno));
        return NULL;
    }
    off_t n = l->spool_len;
    uint64_t end = l->src.info->end_time_ns > l->hp_last_ns ? l->src.info->end_time_ns
                                                            : l->hp_last_ns;
    live_unlock(l);
    if (n == 0)
        return live_draw_open(l, FORMAT_HP, size, err);
    struct live_stream *s = stream_new(fd, err);
    if (!s)
        return NULL;
    size_t tail = 0;
    FILE *out = open_memstream(&s->owned, &tail);
    int rc = out && sink_hp_end(out, end) == 0 ? 0 : -1;
    if (out && fclose(out) != 0)
        rc = -1;
    if (rc != 0) {
        ev_error_set(err, "out of memory");
        live_stream_close(s);
        return NULL;
    }
    stream_file(s, 0, (size_t)n);
    stream_mem(s, s->owned, tail);
    *size = stream_size(s);
    return s;
}

/* The shown set: the bands a chart of the run's options draws, chosen by the model's
 * exact statistics (the same at every resolution). Computed from the model itself under
 * the lock: a view of the shown bands costs a pass over the kept censuses, far less than
 * a copy of the model. */
static int refresh_shown(struct live *l, struct ev_error *err)
{
    const struct profile *p = l->src.model->profile;
    struct profile_view v;
    if (!p)
        return 0;   /* no chart is drawn: everything is OTHER */
    if (profile_view(p, l->src.bands, &v) != 0) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    struct metrics_band *shown = calloc(v.band_count ? v.band_count : 1, sizeof *shown);
    uint32_t bands = bands_count(l->src.bands);
    int32_t *slot = malloc((bands ? bands : 1) * sizeof *slot);
    bool failed = !shown || !slot, other = false;
    size_t n = 0;
    for (size_t i = 0; !failed && i < v.band_count; i++) {
        const struct profile_band *b = &v.bands[i];
        if (b->band == PROFILE_OTHER) {
            other = true;   /* last, whatever the stack order: the rest of each census */
            continue;
        }
        shown[n].len = strlen(b->label);
        shown[n].id = b->band;
        failed = !(shown[n++].label = strdup(b->label));
    }
    if (!failed && other) {
        failed = !(shown[n].label = strdup("OTHER"));
        shown[n].len = 5;
        shown[n].id = -1;
    }
    profile_view_free(&v);
    if (failed) {
        free_shown(shown, n + 1 <= v.band_count ? v.band_count : n + 1);
        free(slot);
        ev_error_set(err, "out of memory");
        return -1;
    }
    for (uint32_t b = 0; b < bands; b++)
        slot[b] = -1;
    for (size_t i = 0; i < n; i++)
        slot[shown[i].id] = (int32_t)i;
    free_shown(l->shown, l->shown_count);
    free(l->slot);
    l->shown = shown;
    l->shown_count = n + other;
    l->shown_has_other = other;
    l->slot = slot;
    l->slot_cap = bands;
    l->shown_version = l->version;
    l->shown_at = clock_seconds();
    l->shown_changed = true;
    return 0;
}

/* "waiting": why no census comes, once (the lock held). */
static void waiting_body(struct json_writer *w, struct live *l, const void *arg)
{
    (void)arg;
    json_object_begin(w);
    json_key(w, "why");
    json_cstring(w, l->held_back);
    json_object_end(w);
}

/* Asks the input whether its runtime holds the censuses back, or held them back until
 * they came in one burst (asked after the end too); the first yes is kept for later
 * clients and sent to those connected (the lock held). */
static int watch_held_back(struct live *l)
{
    char why[512];
    if (!l->src.held_back || l->held_back ||
        !l->src.held_back(l->src.held_back_ctx, why, sizeof why))
        return 0;
    if (!(l->held_back = strdup(why)))
        return no_memory();
    return broadcast_event(l, "waiting", waiting_body, NULL);
}

/* At most one recomputation a second while the input goes on, and the final one at once. */
int live_refresh(struct live *l, struct ev_error *err)
{
    live_lock(l);
    int rc = 0;
    if (l->attached && l->shown_version != l->version &&
        (l->ended || !l->shown_at || clock_seconds() >= l->shown_at + 1))
        rc = refresh_shown(l, err);
    if (rc == 0 && l->attached && watch_held_back(l) != 0) {
        ev_error_set(err, "out of memory");
        rc = -1;
    }
    live_unlock(l);
    return rc;
}

int live_metrics(struct live *l, char **buf, size_t *len, struct ev_error *err)
{
    if (live_refresh(l, err) != 0)
        return -1;
    *len = 0;
    FILE *out = open_memstream(buf, len);
    if (!out) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    live_lock(l);
    size_t n = l->shown_count;   /* before the first census nothing: l->shown is NULL */
    struct metrics_band *bands = copy_array(l->shown, n, sizeof *bands);
    int rc = -1;
    if (bands) {
        for (size_t i = 0; i < n; i++)
            bands[i].bytes = 0;
        uint64_t sum = 0;
        for (size_t i = 0; i < l->last_count; i++) {
            uint32_t b = l->last[i].band;
            if (b < l->slot_cap && l->slot[b] >= 0) {
                bands[l->slot[b]].bytes += l->last[i].bytes;
                sum += l->last[i].bytes;
            }
        }
        if (l->shown_has_other)
            bands[n - 1].bytes = l->last_total - sum;
        struct live_metrics m = {
            .censuses = l->censuses, .last_census_ns = l->last_ns, .last_total = l->last_total,
            .bands = bands, .band_count = n, .markers = l->markers,
            .lost_to_damage = l->lost_to_damage, .ended = l->ended,
            .sse_dropped = sse_dropped(l->hub),
            .has_time_profile = l->src.timeprof && timeprof_present(l->src.timeprof),
        };
        if (m.has_time_profile)
            m.time_samples = timeprof_samples(l->src.timeprof);
        if (l->src.model) {   /* the collector's figures, when the model keeps them */
            m.gc = l->src.model->gc;
            m.end_ns = l->src.model->info ? l->src.model->info->end_time_ns : 0;
        }
        memcpy(m.has_total, l->has_total, sizeof m.has_total);
        memcpy(m.totals, l->totals, sizeof m.totals);
        metrics_write(out, &m);   /* under the lock: the labels are the live state's */
        rc = 0;
    }
    live_unlock(l);
    free(bands);
    if (fclose(out) != 0 || rc != 0) {
        ev_error_set(err, "out of memory");
        free(*buf);
        return -1;
    }
    return 0;
}

/* The first message of a client: the state, and the shown bands' definitions. */
static void init_body(struct json_writer *w, struct live *l, const void *arg)
{
    (void)arg;
    json_object_begin(w);
    const struct member head[] = {
        { "censuses", MEMBER_UINT, l->censuses },
        { "ended", MEMBER_BOOL, l->ended },
        /* the page offers the program's controls only where they can reach it */
        { "control", MEMBER_BOOL, l->attached && l->src.control },
    };
    write_members(w, head, sizeof head / sizeof *head);
    json_key(w, "waiting");
    if (l->held_back)
        json_cstring(w, l->held_back);
    else
        json_null(w);
    json_key(w, "bands");
    write_band_definitions(w, l);
    json_object_end(w);
}

int live_events_hello(struct live *l, char **buf, size_t *len)
{
    *len = 0;
    FILE *out = open_memstream(buf, len);
    if (!out)
        return -1;
    fputs("retry: 2000\n", out);
    live_lock(l);
    int rc = format_event(out, "init", init_body, l, NULL);
    if (l->ended)
        fprintf(out, "event: end\ndata: {\"censuses\":%" PRIu64 "}\n\n", l->censuses);
    live_unlock(l);
    if (fclose(out) != 0 || rc != 0) {
        free(*buf);
        return -1;
    }
    return 0;
}

/* /live.json under the lock: the live model as it stands, with the labels of the bands. */
static void write_live_model(struct json_writer *w, struct live *l)
{
    struct live_model *m = l->recent;
    json_object_begin(w);
    const struct member head[] = {
        { "censuses", MEMBER_UINT, live_model_censuses(m) },
        { "ended", MEMBER_BOOL, l->ended },
        { "bucket_s", MEMBER_SECONDS, live_model_width_ns(m) },
    };
    write_members(w, head, sizeof head / sizeof *head);
    json_key(w, "bands");
    json_array_begin(w);
    uint32_t bands = l->attached ? bands_count(l->src.bands) : 0;
    for (uint32_t b = 0; b < bands; b++) {
        size_t len;
        const char *label = bands_display_label(l->src.bands, b, &len);
        json_string(w, label, len);
    }
    json_array_end(w);
    open_list(w, "merged");
    for (size_t i = 0; i < live_model_bucket_count(m); i++) {
        struct live_bucket b = live_model_bucket(m, i);
        if (!b.censuses)
            continue;
        const struct member bucket[] = {
            { "from", MEMBER_SECONDS, b.first_ns },
            { "to", MEMBER_SECONDS, b.last_ns },
            { "censuses", MEMBER_UINT, b.censuses },
        };
        open_record(w, bucket, sizeof bucket / sizeof *bucket, "bands");
        for (size_t k = 0; k < b.band_count; k++) {
            struct live_band lb = live_model_bucket_band(m, i, k);
            json_array_begin(w);
            json_uint(w, lb.band);
            json_uint(w, lb.max);
            json_double(w, lb.mean);
            json_array_end(w);
        }
        close_record(w);
    }
    json_array_end(w);
    open_list(w, "recent");
    for (size_t i = 0; i < live_model_recent_count(m); i++) {
        struct census_frame f = live_model_recent(m, i);
        const struct member at = { "t", MEMBER_SECONDS, f.time_ns };
        open_record(w, &at, 1, "values");
        for (size_t k = 0; k < f.count; k++)
            write_value(w, f.entries[k].band, f.entries[k].bytes);
        close_record(w);
    }
    json_array_end(w);
    json_object_end(w);
}

/* /live.json as the state stands, made once per state under the lock into a file that
 * every client streams from (made_lock held by the caller). NULL with err set. */
static const struct drawn *series_locked(struct live *l, struct ev_error *err)
{
    struct drawn *d = &l->series;
    int rc = 0;
    live_lock(l);
    if (!d->file || d->version != l->version) {
        if (d->file)
            fclose(d->file);
        *d = (struct drawn){ 0 };
        FILE *out = tmpfile();
        struct json_writer *w = out ? json_writer_new(out, 0) : NULL;
        rc = w && live_model_seal(l->recent) == 0 ? 0 : -1;
        if (rc == 0) {
            write_live_model(w, l);
            rc = json_writer_finish(w);
            fputc('\n', out);
        }
        json_writer_free(w);
        if (!out) {
            ev_error_set(err, "cannot make a temporary file for /live.json: %s",
                         strerror(errno));
        } else if (rc != 0) {
            ev_error_set(err, "cannot write /live.json: %s",
                         ferror(out) ? strerror(errno) : "out of memory");
            fclose(out);
        } else {
            rc = keep_document(d, out, l->version, err);
        }
    }
    live_unlock(l);
    return rc == 0 ? d : NULL;
}

struct live_stream *live_series_open(struct live *l, uint64_t *size, struct ev_error *err)
{
    pthread_mutex_lock(&l->made_lock);
    const struct drawn *d = series_locked(l, err);
    struct live_stream *s = d ? whole_stream(d, size, err) : NULL;
    pthread_mutex_unlock(&l->made_lock);
    return s;
}

/* --- /debug/pprof ------------------------------------------------------------------- */

/* p (built under the lock; it owns its strings) gzipped into an unlinked temporary file
 * kept as d for the state version, and freed. 0, or -1 with err set. */
static int pprof_file(struct pprof *p, struct drawn *d, uint64_t version, struct ev_error *err)
{
    FILE *out = p ? tmpfile() : NULL;
    if (out && pprof_write(p, out, true) != 0) {
        fclose(out);
        out = NULL;
    }
    pprof_free(p);
    if (!out) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    return keep_document(d, out, version, err);
}

/* p as a pprof profile made for one request, streamed from its file (a client that does
 * not read holds no copy of it). 0, or -1 with err set. */
static int pprof_out(struct pprof *p, struct live_stream **out, uint64_t *size,
                     struct ev_error *err)
{
    struct drawn d;
    if (pprof_file(p, &d, 0, err) != 0)
        return -1;
    *out = whole_stream(&d, size, err);
    fclose(d.file);   /* the stream's own descriptor keeps it */
    return *out ? 0 : -1;
}

/* The last census's profile, made once per state (made_lock held; the live lock held,
 * released here): 0, or -1 with err set. */
static int last_heap_open(struct live *l, const struct pprof_heap_source *src,
                          struct live_stream **out, uint64_t *size, struct ev_error *err)
{
    struct drawn *d = &l->heap;
    int rc = 0;
    if (!d->file || d->version != l->version) {
        if (d->file)
            fclose(d->file);
        *d = (struct drawn){ 0 };
        uint64_t version = l->version;
        struct pprof *p = pprof_heap_profile(src);
        live_unlock(l);
        rc = pprof_file(p, d, version, err);
    } else {
        live_unlock(l);
    }
    if (rc == 0 && !(*out = whole_stream(d, size, err)))
        rc = -1;
    return rc;
}

int live_pprof_heap(struct live *l, bool has_at, uint64_t at_ns, struct live_stream **out,
                    uint64_t *size, struct ev_error *err)
{
    pthread_mutex_lock(&l->made_lock);
    live_lock(l);
    struct census_frame census = { l->last_ns, 0, l->last_count, l->last };
    int found = l->censuses > 0;
    if (found && has_at) {
        size_t n = live_model_recent_count(l->recent);
        found = 0;
        for (size_t i = n; i-- > 0 && !found;) {
            census = live_model_recent(l->recent, i);
            found = census.time_ns <= at_ns;
        }
        if (!found && n > 0 && live_model_censuses(l->recent) > n) {
            char first[32];
            format_seconds(live_model_recent(l->recent, 0).time_ns, 3, first, sizeof first);
            ev_error_set(err, "no census at or before that time is kept whole: the live "
                         "view keeps the last %zu censuses whole (at most %u, with at most "
                         "%u entries between them), from %s s", n,
                         (unsigned)LIVE_MODEL_RECENT, (unsigned)LIVE_MODEL_RECENT_ENTRIES,
                         first);
        }
    }
    if (!found) {
        if (!err->what[0])
            ev_error_set(err, l->censuses ? "no census at or before that time"
                                          : "no heap census yet");
        live_unlock(l);
        pthread_mutex_unlock(&l->made_lock);
        return 1;
    }
    struct pprof_heap_source src = { &census, l->src.info, l->src.bands, l->src.ccs,
                                     l->src.ipe, has_at ? "asked for (?at=)" : "last read" };
    int rc;
    if (has_at) {   /* one census of hundreds: made for the request */
        pthread_mutex_unlock(&l->made_lock);
        struct pprof *p = pprof_heap_profile(&src);
        live_unlock(l);
        return pprof_out(p, out, size, err);
    }
    rc = last_heap_open(l, &src, out, size, err);
    pthread_mutex_unlock(&l->made_lock);
    return rc;
}

int live_pprof_ticks(struct live *l, uint64_t **counts, uint32_t *count, struct ev_error *err)
{
    live_lock(l);
    const struct timeprof *tp = l->src.timeprof;
    if (!tp || !timeprof_present(tp)) {
        live_unlock(l);
        ev_error_set(err, "the input has no time profile (run the program with +RTS -p -l "
                     "or -P -l)");
        return 1;
    }
    *count = timeprof_stack_count(tp);
    *counts = malloc((*count ? *count : 1) * sizeof **counts);
    for (uint32_t i = 0; *counts && i < *count; i++) {
        unsigned depth;
        (*counts)[i] = timeprof_stack(tp, i, &depth);
    }
    live_unlock(l);
    if (!*counts) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    return 0;
}

int live_pprof_window(struct live *l, const uint64_t *counts, uint32_t count,
                      uint64_t duration_ns, struct live_stream **out, uint64_t *size,
                      struct ev_error *err)
{
    live_lock(l);
    struct pprof *p = pprof_time_profile(l->src.timeprof, l->src.info,
                                         l->src.settings.system_ccs, counts, count,
                                         duration_ns);
    live_unlock(l);
    return pprof_out(p, out, size, err);
}
