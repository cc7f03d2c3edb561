/* evwriter.c: the in-memory eventlog writer (see evwriter.h). Aborts on misuse: it is
 * test code, and a wrong test is better stopped loudly. */
#include "evwriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/census.h"
#include "read/evdecode.h"

struct evw *evw_new(void)
{
    struct evw *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    for (size_t i = 0; i < 65536; i++)
        w->size_of[i] = INT32_MIN;
    return w;
}

void evw_free(struct evw *w)
{
    if (w)
        free(w->data);
    free(w);
}

void evw_raw(struct evw *w, const void *bytes, size_t len)
{
    if (w->cap - w->len < len) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap - w->len < len)
            cap *= 2;
        w->data = realloc(w->data, cap);
        if (!w->data)
            abort();
        w->cap = cap;
    }
    memcpy(w->data + w->len, bytes, len);
    w->len += len;
}

/* v as n bytes, big-endian (the eventlog's byte order), into b. */
static void big_endian(unsigned char *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

/* The same as a value, for the writers of numbers below. */
struct be {
    unsigned char b[8];
};
static struct be be(uint64_t v, unsigned n)
{
    struct be out;
    big_endian(out.b, v, n);
    return out;
}

void evw_u8(struct evw *w, uint8_t v) { evw_raw(w, be(v, 1).b, 1); }
void evw_u16(struct evw *w, uint16_t v) { evw_raw(w, be(v, 2).b, 2); }
void evw_u32(struct evw *w, uint32_t v) { evw_raw(w, be(v, 4).b, 4); }
void evw_u64(struct evw *w, uint64_t v) { evw_raw(w, be(v, 8).b, 8); }

void evw_header_begin(struct evw *w)
{
    evw_raw(w, "hdrbhetb", 8);
}

void evw_declare(struct evw *w, uint16_t tag, int16_t size, const char *description)
{
    evw_raw(w, "etb\0", 4);
    evw_u16(w, tag);
    evw_u16(w, (uint16_t)size);
    evw_u32(w, (uint32_t)strlen(description));
    evw_raw(w, description, strlen(description));
    evw_u32(w, 0);
    evw_raw(w, "ete\0", 4);
    w->size_of[tag] = size;
}

void evw_header_end(struct evw *w)
{
    evw_raw(w, "hetehdredatb", 12);
}

void evw_data_end(struct evw *w)
{
    evw_u16(w, EV_TAG_DATA_END);
}

void evw_ghc9_header(struct evw *w, bool with_sample_end)
{
    /* Framing events every GHC 9 eventlog declares, then every event the census
     * assembler reads, by its role in the registry; sizes as GHC declares them. */
    static const uint16_t framing[] = { EV_CREATE_THREAD, EV_GC_START, EV_GC_END,
                                        EV_BLOCK_MARKER, EV_USER_MSG, EV_HEAP_ALLOCATED };
    evw_header_begin(w);
    for (size_t i = 0; i < ev_registry_count; i++) {
        uint16_t tag = ev_registry_tags[i];
        bool framing_tag = false;
        for (size_t j = 0; j < sizeof framing / sizeof *framing; j++)
            framing_tag |= framing[j] == tag;
        if (!framing_tag && !census_wants_time_sched(tag))
            continue;
        if (tag == EV_HEAP_PROF_SAMPLE_END && !with_sample_end)
            continue;
        int16_t size = ev_has_fixed_size(tag) ? (int16_t)ev_min_size(tag) : -1;
        evw_declare(w, tag, size, ev_name(tag));
    }
    evw_header_end(w);
}

void evw_hi_header(struct evw *w)
{
    evw_header_begin(w);
    evw_hi_declarations(w);
    evw_header_end(w);
}

void evw_hi_declarations(struct evw *w)
{
    evw_declare(w, EV_PROGRAM_ARGS, -1, "Program arguments");
    evw_declare(w, EV_HEAP_PROF_BEGIN, -1, "Start of heap profile");
    evw_declare(w, EV_HEAP_PROF_SAMPLE_BEGIN, 8, "Start of heap profile sample");
    evw_declare(w, EV_HEAP_PROF_SAMPLE_STRING, -1, "Heap profile string sample");
    evw_declare(w, EV_HEAP_PROF_SAMPLE_END, 8, "End of heap profile sample");
    evw_declare(w, EV_IPE, -1, "An IPE entry");
}

void evw_event(struct evw *w, uint16_t tag, uint64_t time, const struct evw_payload *p)
{
    int32_t size = w->size_of[tag];
    if (size == INT32_MIN) {
        fprintf(stderr, "evwriter: event %u not declared\n", tag);
        abort();
    }
    if (size == -1) {
        evw_event_declared(w, tag, time, p, (uint16_t)p->len);
        return;
    }
    evw_u16(w, tag);
    evw_u64(w, time);
    if (p->len > (size_t)size) {
        fprintf(stderr, "evwriter: event %u payload %zu > declared %d\n", tag, p->len, size);
        abort();
    }
    evw_raw(w, p->bytes, p->len);
    for (size_t i = p->len; i < (size_t)size; i++)
        evw_u8(w, 0);
}

void evw_event_declared(struct evw *w, uint16_t tag, uint64_t time,
                        const struct evw_payload *p, uint16_t declared)
{
    if (w->size_of[tag] != -1) {
        fprintf(stderr, "evwriter: event %u not declared of variable size\n", tag);
        abort();
    }
    evw_u16(w, tag);
    evw_u64(w, time);
    evw_u16(w, declared);
    evw_raw(w, p->bytes, p->len);
}

void evw_p_reset(struct evw_payload *p) { p->len = 0; }

void evw_p_bytes(struct evw_payload *p, const void *b, size_t n)
{
    if (sizeof p->bytes - p->len < n)
        abort();
    memcpy(p->bytes + p->len, b, n);
    p->len += n;
}
void evw_p_u8(struct evw_payload *p, uint8_t v) { evw_p_bytes(p, be(v, 1).b, 1); }
void evw_p_u16(struct evw_payload *p, uint16_t v) { evw_p_bytes(p, be(v, 2).b, 2); }
void evw_p_u32(struct evw_payload *p, uint32_t v) { evw_p_bytes(p, be(v, 4).b, 4); }
void evw_p_u64(struct evw_payload *p, uint64_t v) { evw_p_bytes(p, be(v, 8).b, 8); }

/* The payload the event writers below fill, emptied: one buffer (an event's payload is
 * written out before the next is begun). */
static struct evw_payload *payload(void)
{
    static struct evw_payload p;
    p.len = 0;
    return &p;
}

/* A cost-centre stack as the profiling events carry it: its depth, then its entries. */
static void evw_p_stack(struct evw_payload *p, const uint32_t *ccs, unsigned depth)
{
    evw_p_u8(p, (uint8_t)depth);
    for (unsigned i = 0; i < depth; i++)
        evw_p_u32(p, ccs[i]);
}
void evw_p_str(struct evw_payload *p, const char *s) { evw_p_bytes(p, s, strlen(s) + 1); }

void evw_prof_begin(struct evw *w, uint64_t time, uint32_t breakdown, uint64_t period)
{
    struct evw_payload *p = payload();
    evw_p_u8(p, 0);
    evw_p_u64(p, period);
    evw_p_u32(p, breakdown);
    for (int i = 0; i < 7; i++)
        evw_p_str(p, "");
    evw_event(w, EV_HEAP_PROF_BEGIN, time, p);
}

void evw_cost_centre(struct evw *w, uint64_t time, uint32_t cc, const char *label,
                     const char *module)
{
    evw_cost_centre_at(w, time, cc, label, module, "<built-in>");
}

void evw_cost_centre_at(struct evw *w, uint64_t time, uint32_t cc, const char *label,
                        const char *module, const char *srcloc)
{
    struct evw_payload *p = payload();
    evw_p_u32(p, cc);
    evw_p_str(p, label);
    evw_p_str(p, module);
    evw_p_str(p, srcloc);
    evw_p_u8(p, strcmp(label, "CAF") == 0);
    evw_event(w, EV_HEAP_PROF_COST_CENTRE, time, p);
}

void evw_time_begin(struct evw *w, uint64_t time, uint64_t interval_ns)
{
    struct evw_payload *p = payload();
    evw_p_u64(p, interval_ns);
    evw_event(w, EV_PROF_BEGIN, time, p);
}

void evw_time_sample(struct evw *w, uint64_t time, uint32_t cap, uint64_t tick,
                     const uint32_t *ccs, unsigned depth)
{
    struct evw_payload *p = payload();
    evw_p_u32(p, cap);
    evw_p_u64(p, tick);
    evw_p_stack(p, ccs, depth);
    evw_event(w, EV_PROF_SAMPLE_COST_CENTRE, time, p);
}

struct evw *evw_time_run(uint32_t main_cc, const char *main_srcloc)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_time_begin(w, 1, 1000000);
    evw_cost_centre_at(w, 2, main_cc, "main", "Main", main_srcloc);
    return w;
}

static void era_event(struct evw *w, uint16_t tag, uint64_t time, uint64_t era)
{
    struct evw_payload *p = payload();
    evw_p_u64(p, era);
    evw_event(w, tag, time, p);
}

void evw_sample_begin(struct evw *w, uint64_t time, uint64_t era)
{
    era_event(w, EV_HEAP_PROF_SAMPLE_BEGIN, time, era);
}

void evw_sample_end(struct evw *w, uint64_t time, uint64_t era)
{
    era_event(w, EV_HEAP_PROF_SAMPLE_END, time, era);
}

void evw_bio_sample_begin(struct evw *w, uint64_t time, uint64_t era, uint64_t sample_time)
{
    struct evw_payload *p = payload();
    evw_p_u64(p, era);
    evw_p_u64(p, sample_time);
    evw_event(w, EV_HEAP_BIO_PROF_SAMPLE_BEGIN, time, p);
}

void evw_sample_string(struct evw *w, uint64_t time, const char *label, uint64_t bytes)
{
    struct evw_payload *p = payload();
    evw_p_u8(p, 0);
    evw_p_u64(p, bytes);
    evw_p_str(p, label);
    evw_event(w, EV_HEAP_PROF_SAMPLE_STRING, time, p);
}

void evw_two_band_census(struct evw *w, uint64_t time, const char *label_a, uint64_t bytes_a,
                         const char *label_b, uint64_t bytes_b)
{
    evw_sample_begin(w, time, 0);
    evw_sample_string(w, time + 1, label_a, bytes_a);
    evw_sample_string(w, time + 2, label_b, bytes_b);
    evw_sample_end(w, time + 3, 0);
}

void evw_sample_stack(struct evw *w, uint64_t time, uint64_t bytes, const uint32_t *ccs,
                      unsigned depth)
{
    struct evw_payload *p = payload();
    evw_p_u8(p, 0);
    evw_p_u64(p, bytes);
    evw_p_stack(p, ccs, depth);
    evw_event(w, EV_HEAP_PROF_SAMPLE_COST_CENTRE, time, p);
}

void evw_p_ipe(struct evw_payload *p, uint64_t info, const struct evw_ipe *e)
{
    evw_p_u64(p, info);
    evw_p_str(p, e->table_name);
    evw_p_str(p, e->closure_desc);
    evw_p_str(p, e->type_desc);
    evw_p_str(p, e->label);
    evw_p_str(p, e->module);
    evw_p_str(p, e->srcloc);
}

void evw_ipe(struct evw *w, uint64_t time, uint64_t info, const struct evw_ipe *e)
{
    struct evw_payload *p = payload();
    evw_p_ipe(p, info, e);
    evw_event(w, EV_IPE, time, p);
}

void evw_program_args(struct evw *w, uint64_t time, const char *const *argv, int argc)
{
    struct evw_payload *p = payload();
    evw_p_u32(p, 0);
    for (int i = 0; i < argc; i++)
        evw_p_str(p, argv[i]);
    evw_event(w, EV_PROGRAM_ARGS, time, p);
}

void evw_wall_clock(struct evw *w, uint64_t time, uint64_t sec, uint32_t nsec)
{
    struct evw_payload *p = payload();
    evw_p_u32(p, 1);
    evw_p_u64(p, sec);
    evw_p_u32(p, nsec);
    evw_event(w, EV_WALL_CLOCK_TIME, time, p);
}

void evw_marker(struct evw *w, uint64_t time, const char *text)
{
    struct evw_payload *p = payload();
    evw_p_bytes(p, text, strlen(text));   /* GHC writes markers without a NUL */
    evw_event(w, EV_USER_MARKER, time, p);
}

void evw_heap_size(struct evw *w, uint16_t tag, uint64_t time, uint64_t bytes)
{
    struct evw_payload *p = payload();
    evw_p_u32(p, 0);
    evw_p_u64(p, bytes);
    evw_event(w, tag, time, p);
}

void evw_rts_identifier(struct evw *w, uint64_t time, const char *name)
{
    struct evw_payload *p = payload();
    evw_p_u32(p, 0);
    evw_p_bytes(p, name, strlen(name));
    evw_event(w, EV_RTS_IDENTIFIER, time, p);
}

void evw_tick(struct evw *w, uint64_t time, uint64_t tick, const uint32_t *ccs, unsigned depth)
{
    evw_time_sample(w, time, 0, tick, ccs, depth);
}

size_t evw_block_begin(struct evw *w, uint64_t time, uint16_t cap)
{
    size_t at = w->len;
    struct evw_payload *p = payload();
    evw_p_u32(p, 0);
    evw_p_u64(p, 0);
    evw_p_u16(p, cap);
    evw_event(w, EV_BLOCK_MARKER, time, p);
    return at;
}

void evw_block_end(struct evw *w, size_t marker, uint64_t end_time)
{
    unsigned char *p = w->data + marker + 10;
    big_endian(p, w->len - marker, 4);
    big_endian(p + 4, end_time, 8);
}

int evw_save(const struct evw *w, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    bool written = fwrite(w->data, 1, w->len, f) == w->len;
    return fclose(f) == 0 && written ? 0 : -1;
}
