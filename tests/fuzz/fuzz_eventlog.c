/* fuzz_eventlog.c: the eventlog path, from bytes to a .hp: reader, registry decoders,
 * census assembler and the .hp sink, as convert_run wires them.
 *
 * The input is read twice: once handed out in pseudo-random slices through the smallest
 * reader buffer (events straddle every buffer edge and refill), once all at once. Both
 * runs must agree byte for byte on the .hp and on the outcome, which turns any
 * dependence on read boundaries into a crash. Each run also decodes and prints every
 * event as --dump does. Invariants checked besides "no crash": every failure carries a
 * message, and a damaged input never reports more censuses than were assembled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/census.h"
#include "read/evdecode.h"
#include "read/evread.h"
#include "fuzz_common.h"
#include "sink/sinks.h"

static FILE *dev_null(void)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    FUZZ_CHECK(null != NULL);
    return null;
}

/* What --dump does with an event: name, decoded fields. */
static void dump_event(const struct ev_event *ev)
{
    union ev_body body;
    FILE *out = dev_null();
    const char *name = ev_name(ev->tag);
    if (name && ev_decode(ev->tag, ev->payload, ev->size, &body) == EV_DECODED) {
        fputs(name, out);
        ev_print_fields(out, ev->tag, &body);
        fputc('\n', out);
    }
}

static void note(struct fuzz_output *o, const struct ev_error *err)
{
    /* Every status other than success must say what is wrong. */
    FUZZ_CHECK(err->what[0] != '\0');
    snprintf(o->what, sizeof o->what, "%s", err->what);
}

/* The events after the header, into the assembler; the reader's last status. */
static enum ev_status feed_events(struct ev_reader *r, struct census *c, struct fuzz_output *o)
{
    struct ev_event ev;
    struct ev_error err = { 0 };
    enum ev_status st;
    o->census_status = CENSUS_OK;
    for (;;) {
        st = ev_reader_next(r, &ev, &err);
        if (st == EV_SKIPPED) {
            /* Recovery: a region skipped, always ahead, always said; the census open
             * across it is dropped. Sliced and whole reads must skip the same regions. */
            struct ev_region reg = ev_reader_last_region(r);
            FUZZ_CHECK(reg.length > 0 && reg.offset + reg.length <= ev_reader_offset(r));
            FUZZ_CHECK(err.what[0] != '\0');
            census_damaged(c);
            continue;
        }
        if (st != EV_OK)
            break;
        FUZZ_CHECK(ev.payload != NULL || ev.size == 0);
        dump_event(&ev);
        o->census_status = census_feed(c, &ev, &err);
        if (o->census_status != CENSUS_OK) {
            note(o, &err);
            return st;
        }
    }
    if (st != EV_END)
        note(o, &err);
    return st;
}

static void run(const uint8_t *data, size_t size, int sliced, struct fuzz_output *o)
{
    struct fuzz_slices slices;
    struct ev_error err = { 0 };
    memset(o, 0, sizeof *o);
    fuzz_slices_init(&slices, data, size, sliced);
    struct ev_reader *r = ev_reader_new(fuzz_slices_source(&slices), 1);
    if (r)
        ev_reader_recover(r, true);
    FILE *hp = open_memstream(&o->hp, &o->hp_len);
    FUZZ_CHECK(r && hp);
    struct sink_context ctx = { .input_name = "fuzz" };
    struct sink *sink = NULL;
    /* the sink is made after the header, once the assembler's run_info and bands exist */
    struct census_events events = fuzz_events_to(&sink);
    struct census_options copt = { .recover = true };
    struct census *c = census_new(&copt, &events);
    FUZZ_CHECK(c != NULL);

    o->reader_status = ev_reader_read_header(r, &err);
    if (o->reader_status != EV_OK) {
        note(o, &err);
        goto done;
    }
    if (census_check_header(c, r, &err) != CENSUS_OK) {
        note(o, &err);
        goto done;
    }
    ctx.info = census_run_info(c);
    ctx.bands = census_bands(c);
    sink = sink_hp_new(hp, &ctx);
    FUZZ_CHECK(sink != NULL);

    o->reader_status = feed_events(r, c, o);
    if (o->census_status == CENSUS_OK || o->census_status == CENSUS_BAD_EVENT) {
        bool complete = o->reader_status == EV_END && o->census_status == CENSUS_OK;
        enum census_status st = census_finish(c, complete, &err);
        if (st != CENSUS_OK)
            note(o, &err);
        FUZZ_CHECK(st != CENSUS_STOPPED);   /* memstream writes do not fail */
        FUZZ_CHECK(sink->ops->finish(sink) == 0);
    }
    o->censuses = census_stats(c)->censuses;

done:
    fuzz_hp_close(sink, hp);
    census_free(c);
    ev_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_sliced_and_whole(data, size, run);
    return 0;
}

/* Mutations inside valid chains: with libFuzzer, half the mutations are the ones GHC 9.6-9.10
 * itself makes when a time-profile tick races a census in one buffer (test_recovery.c
 * builds each exactly): a tick header before a census entry whose body it then overwrites,
 * a whole tick inside an entry, a census end overwritten by "00 00 a5 a7", or an earlier
 * stretch copied over a later one (a flush hit by the race). Random byte mutations alone
 * rarely keep the chain valid around the damage, and recovery is only exercised there.
 * Census events are found by their tags after the header's "datb". */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);

static size_t census_event_at(const uint8_t *data, size_t size, unsigned *seed)
{
    const uint8_t *datb = size > 4 ? memmem(data, size, "datb", 4) : NULL;
    if (!datb)
        return SIZE_MAX;
    size_t from = (size_t)(datb - data) + 4, n = size - from;
    if (n < 64)
        return SIZE_MAX;
    size_t start = from + (size_t)rand_r(seed) % n;
    for (size_t i = start; i + 40 < size; i++)
        if (data[i] == 0 && data[i + 1] >= 0xa2 && data[i + 1] <= 0xa5)
            return i;
    return SIZE_MAX;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    static const uint8_t tick_body[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 77, 1, 0, 0, 0, 1 };
    size_t at = census_event_at(data, size, &seed);
    unsigned kind = (unsigned)rand_r(&seed) % 8;
    if (at == SIZE_MAX || kind >= 4 || size + 64 > max_size)
        return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
    switch (kind) {
    case 0:   /* 00 a7 | 00 a3 | time | tick body */
        memmove(data + at + 2, data + at, size - at);
        data[at] = 0;
        data[at + 1] = 0xa7;
        size += 2;
        memcpy(data + at + 2 + 10, "\x00\x11", 2);
        memcpy(data + at + 2 + 12, tick_body, sizeof tick_body);
        break;
    case 1: { /* a whole tick inside the entry, after its header */
        uint8_t tick[12 + sizeof tick_body] = { 0, 0xa7 };
        memcpy(tick + 2, data + at + 2, 8);
        tick[10] = 0;
        tick[11] = sizeof tick_body;
        memcpy(tick + 12, tick_body, sizeof tick_body);
        memmove(data + at + 12 + sizeof tick, data + at + 12, size - at - 12);
        memcpy(data + at + 12, tick, sizeof tick);
        size += sizeof tick;
        break;
    }
    case 2:
        memcpy(data + at, "\x00\x00\xa5\xa7", 4);
        break;
    default: { /* an earlier stretch copied over this one */
        size_t len = 16 + (size_t)rand_r(&seed) % 256, from = (size_t)rand_r(&seed) % (at + 1);
        if (len > at - from)
            len = at - from;
        if (len > size - at)
            len = size - at;
        memmove(data + at, data + from, len);
        break;
    }
    }
    return size;
}
