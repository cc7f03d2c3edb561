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
#include "sink/sinks.h"

static void run(const uint8_t *data, size_t size, int sliced, struct fuzz_output *o)
{
    struct fuzz_slices slices;
    struct ev_error err = { 0 };
    struct sink *sink = NULL;
    struct census_events events = fuzz_events_to(&sink);   /* the sink: once the reader exists */
    memset(o, 0, sizeof *o);
    fuzz_slices_init(&slices, data, size, sliced);
    struct hp_reader *r = hp_reader_new(fuzz_slices_source(&slices), &events);
    FILE *hp = open_memstream(&o->hp, &o->hp_len);
    FUZZ_CHECK(r && hp);
    struct sink_context ctx = { .info = hp_reader_run_info(r), .bands = hp_reader_bands(r),
                                .input_name = "fuzz" };
    sink = sink_hp_new(hp, &ctx);
    FUZZ_CHECK(sink != NULL);
    o->reader_status = hp_reader_run(r, &err);
    if (o->reader_status != HP_OK) {
        FUZZ_CHECK(err.what[0] != '\0');
        snprintf(o->what, sizeof o->what, "%s", err.what);
    }
    FUZZ_CHECK(o->reader_status != HP_STOPPED && o->reader_status != HP_IO_ERROR);
    if (o->reader_status == HP_OK || o->reader_status == HP_TRUNCATED)
        FUZZ_CHECK(sink->ops->finish(sink) == 0);
    o->censuses = hp_reader_censuses(r);
    fuzz_hp_close(sink, hp);
    hp_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_sliced_and_whole(data, size, run);
    return 0;
}
