/* sink_csv.c: censuses as CSV, for spreadsheets, notebooks and dashboards.
 *
 * One row per census: its time in seconds first, then one column per band, in order of
 * first appearance, bytes (0 where the census has no entry for the band). The header row
 * names the columns ("time_s", then band names as the .hp writes them), RFC 4180 quoting,
 * CRLF line ends. The header needs every band, known only at the end, so censuses are
 * spooled to a temporary file and the table is written at finish: memory is one row.
 * A run with ticky counters and no heap census has no such table: its counters are the
 * table instead (sink/summary_parts.h), one row per counter.
 */
#include "sink/sinks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/runmodel.h"
#include "sink/spool.h"
#include "sink/summary_parts.h"
#include "sink/textout.h"

struct csv_sink {
    struct sink base;
    struct spool spool;
    uint64_t *row;
    uint32_t row_len;
    char name[65536 + 16];
};

static int csv_frame(struct sink *s, const struct census_frame *frame)
{
    return spool_put_frame(&((struct csv_sink *)s)->spool, frame);
}

static int write_row(void *ctx, const struct census_frame *frame)
{
    struct csv_sink *c = ctx;
    FILE *out = c->base.out;
    memset(c->row, 0, c->row_len * sizeof *c->row);
    for (size_t i = 0; i < frame->count; i++)
        c->row[frame->entries[i].band] += frame->entries[i].bytes;
    textout_seconds(out, frame->time_ns);
    for (uint32_t b = 0; b < c->row_len; b++)
        fprintf(out, ",%" PRIu64, c->row[b]);
    fputs("\r\n", out);
    return ferror(out) ? -1 : 0;
}

static int csv_finish(struct sink *s)
{
    struct csv_sink *c = (struct csv_sink *)s;
    if (s->ctx.run && !s->ctx.run->censuses && ticky_summary_csv(s->out, s->ctx.run))
        return ferror(s->out) ? -1 : 0;
    const struct bands *bands = s->ctx.bands;
    c->row_len = bands_count(bands);
    c->row = calloc(c->row_len ? c->row_len : 1, sizeof *c->row);
    if (!c->row)
        return -1;
    fputs("time_s", s->out);
    for (uint32_t b = 0; b < c->row_len; b++) {
        fputc(',', s->out);
        size_t len = bands_person_name(bands, b, c->name, sizeof c->name);
        textout_csv_field(s->out, c->name, len);
    }
    fputs("\r\n", s->out);
    if (spool_replay(&c->spool, write_row, c) != 0)
        return -1;
    return ferror(s->out) ? -1 : 0;
}

static void csv_destroy(struct sink *s)
{
    struct csv_sink *c = (struct csv_sink *)s;
    spool_close(&c->spool);
    free(c->row);
    free(c);
}

static const struct sink_ops csv_ops = {
    .frame = csv_frame,
    .finish = csv_finish,
    .destroy = csv_destroy,
};

struct sink *sink_csv_new(FILE *out, const struct sink_context *ctx)
{
    return sink_alloc(sizeof(struct csv_sink), &csv_ops, ctx, out);
}
