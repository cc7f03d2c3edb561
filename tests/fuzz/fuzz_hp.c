/* fuzz_hp.c: the .hp input path: the .hp reader feeding the .hp sink, as `ev2hp x.hp`
 * does.
 *
 * As in fuzz_eventlog.c the input is read twice, in pseudo-random slices and all at once,
 * and both runs must agree byte for byte on the output and on the outcome; every failure
 * must carry a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "read/hpread.h"
#include "sink/sink.h"

struct outcome {
    struct fuzz_output out;
    int status;
};

/* The callbacks' context is the sink pointer, set once the reader exists. */
static int on_frame(void *ctx, const struct census_frame *frame)
{
    struct sink *s = *(struct sink **)ctx;
    return s->ops->frame ? s->ops->frame(s, frame) : 0;
}

static int on_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct sink *s = *(struct sink **)ctx;
    return s->ops->marker ? s->ops->marker(s, time_ns, text, len) : 0;
}

static void run(const uint8_t *data, size_t size, int sliced, struct outcome *o)
{
    struct fuzz_slices slices;
    struct ev_error err = { 0 };
    struct sink *sink = NULL;
    struct census_events events = { on_frame, on_marker, NULL, &sink };
    memset(o, 0, sizeof *o);
    fuzz_slices_init(&slices, data, size, sliced);
    struct hp_reader *r = hp_reader_new(fuzz_slices_source(&slices), &events);
    FILE *hp = open_memstream(&o->out.hp, &o->out.hp_len);
    FUZZ_CHECK(r && hp);
    struct sink_context ctx = { .info = hp_reader_run_info(r), .bands = hp_reader_bands(r),
                                .input_name = "fuzz" };
    sink = sink_hp_new(hp, &ctx);
    FUZZ_CHECK(sink != NULL);
    o->status = hp_reader_run(r, &err);
    if (o->status != HP_OK) {
        FUZZ_CHECK(err.what[0] != '\0');
        snprintf(o->out.what, sizeof o->out.what, "%s", err.what);
    }
    FUZZ_CHECK(o->status != HP_STOPPED && o->status != HP_IO_ERROR);
    if (o->status == HP_OK || o->status == HP_TRUNCATED)
        FUZZ_CHECK(sink->ops->finish(sink) == 0);
    o->out.censuses = hp_reader_censuses(r);
    sink->ops->destroy(sink);
    hp_reader_free(r);
    FUZZ_CHECK(fclose(hp) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct outcome sliced, whole;
    run(data, size, 1, &sliced);
    run(data, size, 0, &whole);
    FUZZ_CHECK(sliced.status == whole.status);
    fuzz_same_output(&sliced.out, &whole.out);
    return 0;
}
