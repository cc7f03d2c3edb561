/* sink_json.c: the whole profile as one JSON document.
 *
 *   {"program": ..., "rts": ..., "breakdown": ..., "sample_interval_s": ...,
 *    "censuses": [{"time_s": 0.5, "entries": [[band, bytes], ...]}, ...],
 *    "bands": [{"id": 0, "label": "...", "hp_label": "...", "stack": [...]}, ...],
 *    "markers": [{"time_s": ..., "text": "..."}, ...],
 *    "totals": [{"kind": "heap_size", "time_s": ..., "bytes": ...}, ...],
 *    "ticky": {...}}       (only for a run with ticky counters: sink/summary_parts.h)
 *
 * One record per census, entries referring to bands by id, so a label is written once.
 * Censuses stream out as they complete, through the JSON writer (base/json.h); markers
 * and totals (one per garbage collection, so possibly many) come before the end of the
 * censuses, so they are kept as records in a temporary file and written at the end:
 * memory stays bounded.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "model/runmodel.h"
#include "sink/textout.h"
#include "sink/summary_parts.h"

/* A marker or heap total kept until finish; a marker's text follows its record. */
struct spooled {
    uint64_t time_ns;
    uint64_t value;     /* a marker's text length, a total's bytes */
    uint32_t kind;      /* a total's enum heap_total */
};

struct json_sink {
    struct sink base;
    struct json_writer *w;
    bool header_written;
    FILE *markers;      /* spooled records; NULL until the first */
    FILE *totals;
    char name[65536 + 16];
};

/* The writer, the document's start written before its first use: the run's names and
 * the opening of "censuses" (at the first census, or at finish when there is none). */
static struct json_writer *started(struct json_sink *j)
{
    struct json_writer *w = j->w;
    if (j->header_written)
        return w;
    const struct run_info *info = j->base.ctx.info;
    json_object_begin(w);
    textout_json_run_names(w, info, true);
    json_newline(w);
    textout_json_member_seconds(w, "sample_interval_s", info->period_ns);
    json_newline(w);
    json_key(w, "censuses");
    json_array_begin(w);
    j->header_written = true;
    return w;
}

static int json_frame(struct sink *s, const struct census_frame *frame)
{
    struct json_sink *j = (struct json_sink *)s;
    struct json_writer *w = started(j);
    json_newline(w);
    json_object_begin(w);
    textout_json_member_seconds(w, "time_s", frame->time_ns);
    json_key(w, "entries");
    json_array_begin(w);
    for (size_t i = 0; i < frame->count; i++) {
        json_array_begin(w);
        json_uint(w, frame->entries[i].band);
        json_uint(w, frame->entries[i].bytes);
        json_array_end(w);
    }
    json_array_end(w);
    json_object_end(w);
    return json_writer_check(w);
}

/* Appends a record (and len bytes of text) to the temporary file behind *f, opened on
 * first use. 0, or -1 (errno set). */
static int spool(FILE **f, const struct spooled *r, const char *text, size_t len)
{
    if (!*f && !(*f = tmpfile()))
        return -1;
    if (fwrite(r, sizeof *r, 1, *f) != 1 || (len && fwrite(text, 1, len, *f) != len))
        return -1;
    return 0;
}

static int json_marker(struct sink *s, uint64_t time_ns, const char *text, size_t len)
{
    struct json_sink *j = (struct json_sink *)s;
    struct spooled r = { .time_ns = time_ns, .value = len };
    return spool(&j->markers, &r, text, len);
}

static int json_total(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct json_sink *j = (struct json_sink *)s;
    if ((unsigned)kind >= HEAP_TOTAL_RUNTIME)
        return 0;   /* allocation and collections are not among the document's totals */
    struct spooled r = { .time_ns = time_ns, .value = bytes, .kind = (uint32_t)kind };
    return spool(&j->totals, &r, NULL, 0);
}

/* Writes one spooled record (whose text, if any, follows it in f) as one object on a
 * line of its own: 0, or -1 with errno set. */
typedef int (*spooled_writer)(struct json_sink *j, const struct spooled *r, FILE *f);

/* A marker. Its text is read into j->name (an eventlog's marker fits: its event size is
 * 16 bits), or into memory of its own when longer. */
static int write_marker(struct json_sink *j, const struct spooled *r, FILE *f)
{
    char *text = r->value <= sizeof j->name ? j->name : malloc(r->value);
    if (!text)
        return -1;
    bool read = fread(text, 1, r->value, f) == r->value;
    if (read) {
        json_newline(j->w);
        json_object_begin(j->w);
        textout_json_member_seconds(j->w, "time_s", r->time_ns);
        json_member_string(j->w, "text", text, r->value);
        json_object_end(j->w);
    }
    if (text != j->name)
        free(text);
    if (!read) {
        errno = EIO;
        return -1;
    }
    return 0;
}

static int write_total(struct json_sink *j, const struct spooled *r, FILE *f)
{
    static const char *const kinds[] = { "heap_size", "heap_live", "blocks_size" };
    json_newline(j->w);
    json_object_begin(j->w);
    json_member_cstring(j->w, "kind", kinds[r->kind]);
    textout_json_member_seconds(j->w, "time_s", r->time_ns);
    json_member_uint(j->w, "bytes", r->value);
    json_object_end(j->w);
    return 0;
}

/* The member key, on a new line: an array of the records spooled in f (none when f is
 * NULL, nothing was spooled), in the order they came, each written by write. 0, or -1
 * with errno set. */
static int write_spooled(struct json_sink *j, const char *key, FILE *f, spooled_writer write)
{
    json_newline(j->w);
    json_key(j->w, key);
    json_array_begin(j->w);
    if (f) {
        if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
            return -1;
        struct spooled r;
        while (fread(&r, sizeof r, 1, f) == 1)
            if (write(j, &r, f) != 0)
                return -1;
        if (ferror(f))
            return -1;
    }
    json_array_end(j->w);
    return 0;
}

static int json_finish(struct sink *s)
{
    struct json_sink *j = (struct json_sink *)s;
    struct json_writer *w = started(j);
    json_array_end(w);
    json_newline(w);
    json_key(w, "bands");
    json_array_begin(w);
    uint32_t n = bands_count(s->ctx.bands);
    for (uint32_t b = 0; b < n; b++) {
        json_newline(w);
        json_object_begin(w);
        json_member_uint(w, "id", b);
        json_key(w, "label");
        size_t len = bands_person_name(s->ctx.bands, b, j->name, sizeof j->name);
        json_string(w, j->name, len);
        textout_json_band_names(w, s->ctx.bands, s->ctx.ccs, b);
        json_object_end(w);
    }
    json_array_end(w);
    if (write_spooled(j, "markers", j->markers, write_marker) != 0 ||
        write_spooled(j, "totals", j->totals, write_total) != 0)
        return -1;
    if (s->ctx.run && run_model_ticky(s->ctx.run))
        ticky_summary_part.json(w, s->ctx.run);   /* the summary's object: the same figures */
    json_object_end(w);
    if (json_writer_finish(w) != 0)
        return -1;
    fputc('\n', s->out);
    return ferror(s->out) ? -1 : 0;
}

static void json_destroy(struct sink *s)
{
    struct json_sink *j = (struct json_sink *)s;
    if (j->markers)
        fclose(j->markers);
    if (j->totals)
        fclose(j->totals);
    json_writer_free(j->w);
    free(j);
}

static const struct sink_ops json_ops = {
    .frame = json_frame,
    .marker = json_marker,
    .total = json_total,
    .finish = json_finish,
    .destroy = json_destroy,
};

struct sink *sink_json_new(FILE *out, const struct sink_context *ctx)
{
    struct json_sink *j = sink_alloc(sizeof *j, &json_ops, ctx, out);
    if (!j)
        return NULL;
    if (!(j->w = json_writer_new(out, JSON_PRETTY))) {
        free(j);
        return NULL;
    }
    return &j->base;
}
