/* sink.c: what every sink's ops share: making and freeing a sink, the ops of a writer
 * (a sink that only writes at finish), its recorded failure, the input's file name for
 * documents. The base of the sinks: it calls none of them
 * (formats.c, above them, is the factory). */
#include "sink/sink.h"

#include <stdlib.h>
#include <string.h>

void *sink_alloc(size_t size, const struct sink_ops *ops, const struct sink_context *ctx,
                 FILE *out)
{
    struct sink *s = calloc(1, size);
    if (s)
        *s = (struct sink){ .ops = ops, .ctx = *ctx, .out = out };
    return s;
}

static int writer_finish(struct sink *s)
{
    return s->write(s);
}

static const struct sink_ops writer_ops = {
    .finish = writer_finish,
    .destroy = sink_free,
    .failure = sink_recorded_failure,
};

void *sink_writer_alloc(size_t size, int (*write)(struct sink *s),
                        const struct sink_context *ctx, FILE *out)
{
    struct sink *s = sink_alloc(size, &writer_ops, ctx, out);
    if (s)
        s->write = write;
    return s;
}

void sink_free(struct sink *s)
{
    free(s);
}

const struct ev_error *sink_recorded_failure(const struct sink *s)
{
    return s->error.what[0] ? &s->error : NULL;
}

const char *sink_file_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash && slash[1] ? slash + 1 : path;
}
