/* sink.c: what every sink's ops share: making and freeing a sink, its recorded failure,
 * the input's file name for documents. The base of the sinks: it calls none of them
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
