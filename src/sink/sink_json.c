/* sink_json.c: the whole profile as one JSON document.
 *
 *   {"program": ..., "rts": ..., "breakdown": ..., "sample_interval_s": ...,
 *    "censuses": [{"time_s": 0.5, "entries": [[band, bytes], ...]}, ...],
 *    "bands": [{"id": 0, "label": "...", "hp_label": "...", "stack": [...]}, ...],
 *    "markers": [{"time_s": ..., "text": "..."}, ...],
 *    "totals": [{"kind": "heap_size", "time_s": ..., "bytes": ...}, ...]}
 *
 * One record per census, entries referring to bands by id, so a label is written once.
 * Censuses stream out as they complete; markers and totals (one per garbage collection,
 * so possibly many) are written as JSON into a temporary file and copied in at the end:
 * memory stays bounded.
 */
#include "sink/sink.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sink/textout.h"
#include "model/breakdown.h"

struct json_sink {
    struct sink base;
    bool header_written;
    uint64_t censuses;
    FILE *markers;      /* JSON array elements, comma-separated; NULL until the first */
    uint64_t marker_count;
    FILE *totals;
    uint64_t total_count;
    char name[65536 + 16];
};

static void write_optional_string(FILE *out, const char *key, const char *value)
{
    fprintf(out, "\"%s\": ", key);
    if (value)
        textout_json_string(out, value, strlen(value));
    else
        fputs("null", out);
}

static void write_header(struct json_sink *j)
{
    FILE *out = j->base.out;
    const struct run_info *info = j->base.ctx.info;
    char scratch[32];
    fputs("{", out);
    write_optional_string(out, "program", info->program);
    fputs(",\n ", out);
    write_optional_string(out, "rts", info->rts_version);
    fputs(",\n ", out);
    write_optional_string(out, "breakdown",
                          info->has_heap_profile
                              ? breakdown_words(info->breakdown, scratch, sizeof scratch)
                              : NULL);
    fputs(",\n \"sample_interval_s\": ", out);
    textout_seconds(out, info->period_ns);
    fputs(",\n \"censuses\": [", out);
    j->header_written = true;
}

static int json_frame(struct sink *s, const struct census_frame *frame)
{
    struct json_sink *j = (struct json_sink *)s;
    FILE *out = s->out;
    if (!j->header_written)
        write_header(j);
    fputs(j->censuses++ ? ",\n  {\"time_s\": " : "\n  {\"time_s\": ", out);
    textout_seconds(out, frame->time_ns);
    fputs(", \"entries\": [", out);
    for (size_t i = 0; i < frame->count; i++)
        fprintf(out, "%s[%" PRIu32 ", %" PRIu64 "]", i ? ", " : "", frame->entries[i].band,
                frame->entries[i].bytes);
    fputs("]}", out);
    return ferror(out) ? -1 : 0;
}

/* Opens the temporary file behind *f on first use and writes the element separator. */
static FILE *element(FILE **f, uint64_t *count)
{
    if (!*f && !(*f = tmpfile()))
        return NULL;
    fputs((*count)++ ? ",\n  " : "\n  ", *f);
    return *f;
}

static int json_marker(struct sink *s, uint64_t time_ns, const char *text, size_t len)
{
    struct json_sink *j = (struct json_sink *)s;
    FILE *f = element(&j->markers, &j->marker_count);
    if (!f)
        return -1;
    fputs("{\"time_s\": ", f);
    textout_seconds(f, time_ns);
    fputs(", \"text\": ", f);
    textout_json_string(f, text, len);
    fputc('}', f);
    return ferror(f) ? -1 : 0;
}

static int json_total(struct sink *s, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    static const char *const kinds[] = { "heap_size", "heap_live", "blocks_size" };
    struct json_sink *j = (struct json_sink *)s;
    if ((unsigned)kind >= HEAP_TOTAL_RUNTIME)
        return 0;   /* allocation and collections are not among the document's totals */
    FILE *f = element(&j->totals, &j->total_count);
    if (!f)
        return -1;
    fprintf(f, "{\"kind\": \"%s\", \"time_s\": ", kinds[kind]);
    textout_seconds(f, time_ns);
    fprintf(f, ", \"bytes\": %" PRIu64 "}", bytes);
    return ferror(f) ? -1 : 0;
}

/* Copies a spooled array's elements into the document. */
static int copy_elements(FILE *from, FILE *out)
{
    if (!from)
        return 0;
    char buf[65536];
    size_t n;
    if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            return -1;
    return ferror(from) ? -1 : 0;
}

static int json_finish(struct sink *s)
{
    struct json_sink *j = (struct json_sink *)s;
    FILE *out = s->out;
    if (!j->header_written)
        write_header(j);
    fputs("],\n \"bands\": [", out);
    uint32_t n = bands_count(s->ctx.bands);
    for (uint32_t b = 0; b < n; b++) {
        fprintf(out, "%s{\"id\": %" PRIu32 ", \"label\": ", b ? ",\n  " : "\n  ", b);
        size_t len = textout_band_name(s->ctx.bands, b, j->name, sizeof j->name);
        textout_json_string(out, j->name, len);
        textout_json_band_names(out, s->ctx.bands, s->ctx.ccs, b);
        fputc('}', out);
    }
    fputs("],\n \"markers\": [", out);
    if (copy_elements(j->markers, out) != 0)
        return -1;
    fputs("],\n \"totals\": [", out);
    if (copy_elements(j->totals, out) != 0)
        return -1;
    fputs("]}\n", out);
    return ferror(out) ? -1 : 0;
}

static void json_destroy(struct sink *s)
{
    struct json_sink *j = (struct json_sink *)s;
    if (j->markers)
        fclose(j->markers);
    if (j->totals)
        fclose(j->totals);
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
    struct json_sink *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->base = (struct sink){ &json_ops, *ctx, out };
    return &j->base;
}
