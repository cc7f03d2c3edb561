/* test_census.c: the census rules of doc/DESIGN.md, one by one, on built eventlogs.
 *
 * Each case builds an eventlog with the test writer, runs the reader and the assembler,
 * and compares the reported censuses, written compactly as text
 * ("time:label=bytes,label=bytes;"), with what the rule says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/format.h"   /* EV_PRINTF */
#include "census/census.h"
#include "census/costcentres.h"
#include "census/grouping.h"
#include "model/bands.h"
#include "evwriter.h"

struct collected {
    char text[4096];
    size_t len;
    const struct census *census;
    int markers;
    int totals;
};

static void append(struct collected *c, const char *fmt, ...) EV_PRINTF(2, 3);
static void append(struct collected *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->text + c->len, sizeof c->text - c->len, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof c->text - c->len);
    c->len += (size_t)n;
}

static int on_frame(void *ctx, const struct census_frame *f)
{
    struct collected *c = ctx;
    append(c, "%llu:", (unsigned long long)f->time_ns);
    for (size_t i = 0; i < f->count; i++) {
        size_t len;
        const char *label = bands_label(census_bands(c->census), f->entries[i].band, &len);
        uint32_t n = bands_stack_number(census_bands(c->census), f->entries[i].band);
        append(c, i ? "," : "");
        if (n)
            append(c, "(%u)", n);
        append(c, "%.*s=%llu", (int)len, label,
               (unsigned long long)f->entries[i].bytes);
    }
    append(c, ";");
    return 0;
}

static int on_marker(void *ctx, uint64_t t, const char *text, size_t len)
{
    (void)t;
    (void)text;
    (void)len;
    ((struct collected *)ctx)->markers++;
    return 0;
}

static int on_total(void *ctx, enum heap_total kind, uint64_t t, uint64_t bytes)
{
    (void)kind;
    (void)t;
    (void)bytes;
    ((struct collected *)ctx)->totals++;
    return 0;
}

/* Runs the log through reader and assembler; returns the census object for stats. */
static struct census *assemble(const struct evw *w, unsigned ccs_length, struct collected *c,
                               enum census_status *last)
{
    memset(c, 0, sizeof *c);
    struct census_options opt = { .ccs_length = ccs_length };
    struct census_events events = { on_frame, on_marker, on_total, c, NULL, NULL };
    struct census *census = census_new(&opt, &events);
    assert_non_null(census);
    c->census = census;
    struct source_memory mem = { w->data, w->len, 0, 0 };
    struct ev_reader *r = ev_reader_new((struct ev_source){ .read = source_memory_read, .ctx = &mem }, 0);
    struct ev_error err;
    assert_int_equal(ev_reader_read_header(r, &err), EV_OK);
    *last = census_check_header(census, r, &err);
    if (*last != CENSUS_OK) {
        ev_reader_free(r);
        return census;
    }
    struct ev_event ev;
    enum ev_status st;
    enum census_status cst = CENSUS_OK;
    while ((st = ev_reader_next(r, &ev, &err)) == EV_OK)
        if ((cst = census_feed(census, &ev, &err)) != CENSUS_OK)
            break;
    if (cst == CENSUS_OK)
        cst = census_finish(census, st == EV_END, &err);
    *last = cst;
    ev_reader_free(r);
    return census;
}

/* What every case shares (cmocka's setup and teardown): the eventlog it builds, and what
 * the reader and assembler made of it. */
struct fixture {
    struct evw *w;
    struct collected c;
    enum census_status status;
    struct census *census;
};

static int fixture_new(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f || !(f->w = evw_new())) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int fixture_free(void **state)
{
    struct fixture *f = *state;
    census_free(f->census);
    evw_free(f->w);
    free(f);
    return 0;
}

/* Assembles the eventlog built so far (with -L ccs_length when not 0), replacing what an
 * earlier run gave. */
static void run(struct fixture *f, unsigned ccs_length)
{
    census_free(f->census);
    f->census = assemble(f->w, ccs_length, &f->c, &f->status);
}

static void begin_end_make_a_census_timed_by_its_event(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_CLOSURE_TYPE, 20000000);
    evw_two_band_census(w, 1000, "THUNK", 48, "ARR_WORDS", 4096);
    evw_sample_begin(w, 2000, 0);   /* the era repeats: it is not a sequence number */
    evw_sample_end(w, 2001, 0);
    evw_data_end(w);
    run(f, 0);
    assert_int_equal(f->status, CENSUS_OK);
    assert_string_equal(f->c.text, "1000:THUNK=48,ARR_WORDS=4096;2000:;");
    assert_int_equal(census_stats(f->census)->censuses, 2);
    assert_int_equal(census_run_info(f->census)->breakdown, BREAKDOWN_CLOSURE_TYPE);
    assert_int_equal(census_run_info(f->census)->period_ns, 20000000);
    assert_int_equal(census_run_info(f->census)->end_time_ns, 2001);
}

static void biography_censuses_are_sorted_by_their_inner_time(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_BIOGRAPHY, 50000000);
    evw_bio_sample_begin(w, 9000, 3, 700);
    evw_sample_string(w, 9001, "VOID", 10);
    evw_sample_end(w, 9002, 3);
    evw_bio_sample_begin(w, 9003, 3, 300);
    evw_sample_string(w, 9004, "LAG", 20);
    evw_sample_end(w, 9005, 3);
    evw_data_end(w);
    run(f, 0);
    assert_string_equal(f->c.text, "300:LAG=20;700:VOID=10;");
}

/* A header declaring SAMPLE_END or not (with_end), census A (1 byte) at 10, ended when
 * with_end, and census B (2 bytes) begun at 20. */
static void a_then_b(struct evw *w, bool with_end)
{
    evw_ghc9_header(w, with_end);
    evw_sample_begin(w, 10, 0);
    evw_sample_string(w, 11, "A", 1);
    if (with_end)
        evw_sample_end(w, 12, 0);
    evw_sample_begin(w, 20, 0);
    evw_sample_string(w, 21, "B", 2);
}

/* The log of f, assembled, gives census A at 10 only: the census after it, open at the
 * end of the input, is not reported. */
static void assert_second_census_left_open(struct fixture *f)
{
    run(f, 0);
    assert_string_equal(f->c.text, "10:A=1;");
    assert_true(census_stats(f->census)->open_at_end);
}

/* GHC 8.2-8.8 declare no SAMPLE_END: a census ends at the next begin or end of data. */
static void without_sample_end_a_census_ends_at_the_next_begin(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    a_then_b(w, false);
    evw_data_end(w);
    run(f, 0);
    assert_string_equal(f->c.text, "10:A=1;20:B=2;");
    assert_false(census_stats(f->census)->open_at_end);

    /* Cut short, the last census cannot be proved complete. */
    w->len -= 2;
    assert_second_census_left_open(f);
    assert_int_equal(census_stats(f->census)->open_time_ns, 20);
}

static void an_open_census_at_a_cut_is_not_reported(void **state)
{
    struct fixture *f = *state;
    a_then_b(f->w, true);
    assert_second_census_left_open(f);
    assert_int_equal(census_stats(f->census)->last_time_ns, 10);
}

static void extra_trailing_fields_and_unknown_events_are_skipped(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_header_begin(w);
    evw_declare(w, 162, 12, "begin with a field from the future");
    evw_declare(w, 165, 8, "end");
    evw_declare(w, 164, -1, "string");
    evw_declare(w, 4000, -1, "unknown");
    evw_header_end(w);
    struct evw_payload p = { .len = 0 };
    evw_p_u64(&p, 0);
    evw_p_u32(&p, 0xabcdef01);
    evw_event(w, 162, 5, &p);
    p.len = 0;
    evw_p_bytes(&p, "whatever", 8);
    evw_event(w, 4000, 6, &p);
    p.len = 0;
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 77);
    evw_p_str(&p, "X");
    evw_p_bytes(&p, "trailing", 8);
    evw_event(w, 164, 7, &p);
    evw_sample_end(w, 8, 0);
    evw_data_end(w);
    run(f, 0);
    assert_int_equal(f->status, CENSUS_OK);
    assert_string_equal(f->c.text, "5:X=77;");
}

static void a_declared_size_too_small_is_refused(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_header_begin(w);
    evw_declare(w, 162, 4, "too small for its Word64");
    evw_header_end(w);
    evw_data_end(w);
    run(f, 0);
    assert_int_equal(f->status, CENSUS_BAD_EVENT);
}

static void stacks_are_named_and_numbered_like_the_runtime(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_ghc9_header(w, true);
    const char *argv[] = { "/usr/bin/prog", "10", "+RTS", "-hc", "-L12", "-l", "-RTS" };
    evw_program_args(w, 1, argv, 7);
    evw_cost_centre(w, 2, 1, "main", "Main");
    evw_cost_centre(w, 2, 2, "CAF", "Data.Foo");
    evw_cost_centre(w, 2, 3, "averyverylongname", "Main");
    evw_cost_centre(w, 2, 4, "averyverylongnameindeed", "Main");
    evw_sample_begin(w, 10, 0);
    uint32_t s1[] = { 1 }, s2[] = { 2 }, s3[] = { 3, 1 }, s4[] = { 4, 1 }, s5[] = { 99 };
    evw_sample_stack(w, 11, 100, s1, 1);
    evw_sample_stack(w, 11, 200, s2, 1);
    evw_sample_stack(w, 11, 300, NULL, 0);
    evw_sample_stack(w, 11, 400, s3, 2);
    evw_sample_stack(w, 11, 500, s4, 2);
    evw_sample_stack(w, 11, 600, s5, 1);
    evw_sample_end(w, 12, 0);
    evw_sample_begin(w, 20, 0);
    evw_sample_stack(w, 21, 101, s1, 1);
    evw_sample_end(w, 22, 0);
    evw_data_end(w);
    run(f, 0);
    /* -L12 from the program's RTS options: both long stacks cut to the same text, and
     * still two bands, told apart by their numbers. */
    assert_string_equal(f->c.text, "10:(1)main=100,(2)Data.Foo.CAF=200,MAIN=300,"
                                "(3)averyver...=400,(4)averyver...=500,(5)#99=600;"
                                "20:(1)main=101;");
    assert_int_equal(census_run_info(f->census)->ccs_length, 12);
    assert_string_equal(census_run_info(f->census)->program, "prog 10 +RTS -hc -L12 -l");
    assert_int_equal(census_stats(f->census)->unknown_cost_centres, 1);

    /* -L on ev2hp's command line wins. */
    run(f, 30);
    assert_non_null(strstr(f->c.text, "(3)averyverylongname/main=400"));
}

static void anomalies_are_counted_not_fatal(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, 7, 1);
    evw_prof_begin(w, 2, 4, 1);
    evw_sample_end(w, 5, 0);                 /* END without BEGIN */
    evw_sample_string(w, 6, "stray", 1);     /* an entry outside any census */
    evw_sample_begin(w, 10, 0);
    evw_sample_string(w, 11, "lost", 1);
    evw_sample_begin(w, 20, 0);              /* BEGIN inside a census */
    evw_sample_string(w, 21, "kept", 2);
    evw_sample_end(w, 22, 0);
    evw_sample_begin(w, 15, 0);              /* time going backwards */
    evw_sample_end(w, 16, 0);
    evw_marker(w, 30, "m");
    evw_heap_size(w, 50, 31, 1 << 20);
    evw_heap_size(w, 51, 32, 1 << 19);
    evw_data_end(w);
    run(f, 0);
    assert_int_equal(f->status, CENSUS_OK);
    assert_string_equal(f->c.text, "20:kept=2;20:;");
    const struct census_stats *s = census_stats(f->census);
    assert_int_equal(s->stray_ends, 1);
    assert_int_equal(s->stray_entries, 1);
    assert_int_equal(s->unended, 1);
    assert_int_equal(s->backwards, 1);
    assert_int_equal(s->extra_prof_begins, 1);
    assert_int_equal(census_run_info(f->census)->breakdown, 7);
    assert_int_equal(f->c.markers, 1);
    assert_int_equal(f->c.totals, 2);
}

static void a_short_heap_event_is_bad(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_ghc9_header(w, true);
    evw_sample_begin(w, 10, 0);
    struct evw_payload p = { .len = 0 };
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 5);
    evw_p_u8(&p, 200);                       /* a depth the payload does not hold */
    evw_event(w, 163, 11, &p);
    evw_sample_end(w, 12, 0);
    evw_data_end(w);
    run(f, 0);
    assert_int_equal(f->status, CENSUS_BAD_EVENT);
}

/* An IPE event for info into w, of closure type 2 in module Main. */
static void write_ipe(struct evw *w, uint64_t time, uint64_t info, const char *name,
                      const char *type, const char *srcloc)
{
    evw_ipe(w, time, info, &(struct evw_ipe){ name, "2", type, "", "Main", srcloc });
}

/* -hi: bands are info-table addresses as the runtime prints them; IPE events, before or
 * after the census that uses them, give charts and summaries a name, type and source,
 * while the .hp label stays the address. */
static void info_table_bands_are_described_by_ipe_events(void **state)
{
    struct fixture *f = *state;
    struct evw *w = f->w;
    evw_hi_header(w);
    evw_prof_begin(w, 1, BREAKDOWN_INFO_TABLE, 1000);
    write_ipe(w, 2, 0x4a6e80, "Data.Map.Bin", "Map k v", "src/Map.hs:12:3-40");
    evw_sample_begin(w, 10, 0);
    evw_sample_string(w, 11, "0x4a6e80", 64);
    evw_sample_string(w, 12, "0x4b0000", 32);
    evw_sample_string(w, 13, "0x4c0000", 16);
    evw_sample_end(w, 14, 0);
    write_ipe(w, 20, 0x4b0000, "Leak.go", "", "");
    evw_data_end(w);
    run(f, 0);
    assert_int_equal(f->status, CENSUS_OK);
    assert_string_equal(f->c.text, "10:0x4a6e80=64,0x4b0000=32,0x4c0000=16;");
    const struct bands *b = census_bands(f->census);
    size_t len;
    const char *text = bands_display_label(b, 0, &len);
    const char *expected = "Data.Map.Bin :: Map k v at src/Map.hs:12:3-40";
    assert_int_equal(len, strlen(expected));
    assert_memory_equal(text, expected, len);
    text = bands_display_label(b, 1, &len);
    assert_int_equal(len, 7);
    assert_memory_equal(text, "Leak.go", 7);
    assert_memory_equal(bands_display_label(b, 2, &len), "0x4c0000", 8);
    assert_memory_equal(bands_label(b, 0, &len), "0x4a6e80", 8);
}

static void breakdowns_in_words(void **state)
{
    (void)state;
    char scratch[32];
    assert_string_equal(breakdown_words(1, scratch, sizeof scratch), "by cost-centre stack");
    assert_string_equal(breakdown_words(7, scratch, sizeof scratch), "by closure type");
    assert_string_equal(breakdown_words(42, scratch, sizeof scratch), "by breakdown 42");
}

/* --group-by cc names a stack's group as folded stacks name its innermost frame
 * ("Module.label"), and a name too long for the key's room is cut where a character
 * ends: a label of 600 bytes of "é" keeps whole characters only. */
static void a_cost_centre_group_key_is_its_frame_cut_between_characters(void **state)
{
    (void)state;
    struct costcentres *ccs = costcentres_new(16);
    struct bands *bands = bands_new();
    assert_non_null(ccs);
    assert_non_null(bands);
    char label[601];
    for (size_t i = 0; i < 600; i += 2)
        memcpy(label + i, "\xc3\xa9", 2);            /* U+00E9, two bytes */
    label[600] = '\0';
    assert_int_equal(costcentres_define(ccs, 7, "go", 2, "Main", 4, "Main.hs:1:1", 11), TABLE_OK);
    assert_int_equal(costcentres_define(ccs, 8, label, 600, "M", 1, "M.hs:2:1", 8), TABLE_OK);
    static const unsigned char short_stack[] = { 0, 0, 0, 7 }, long_stack[] = { 0, 0, 0, 8 };
    uint32_t short_band, long_band;
    int is_new;
    assert_int_equal(bands_stack(bands, short_stack, 4, &short_band, &is_new), TABLE_OK);
    assert_int_equal(bands_name_stack(bands, short_band, "Main.go", 7, 0), TABLE_OK);
    assert_int_equal(bands_stack(bands, long_stack, 4, &long_band, &is_new), TABLE_OK);
    assert_int_equal(bands_name_stack(bands, long_band, "M.long", 6, 0), TABLE_OK);
    struct group_source src = { bands, NULL, ccs, NULL };
    char text[GROUP_KEY_TEXT];
    size_t len = 0;
    const char *key = grouping_band_key(GROUP_CC, &src, short_band, text, &len);
    assert_non_null(key);
    assert_int_equal(len, 7);
    assert_memory_equal(key, "Main.go", 7);
    key = grouping_band_key(GROUP_MODULE, &src, short_band, text, &len);
    assert_non_null(key);
    assert_int_equal(len, 4);
    assert_memory_equal(key, "Main", 4);
    key = grouping_band_key(GROUP_CC, &src, long_band, text, &len);
    assert_non_null(key);
    /* "M." then whole two-byte characters, as many as GROUP_KEY_TEXT - 1 bytes hold */
    assert_int_equal(len, 2 + ((GROUP_KEY_TEXT - 1 - 2) / 2) * 2);
    assert_memory_equal(key, "M.", 2);
    assert_memory_equal(key + 2, label, len - 2);
    bands_free(bands);
    costcentres_free(ccs);
}

/* The scheduler's events (RUN_THREAD, STOP_THREAD, millions in a busy run) are read only
 * for an assembler asked for them (census_options.sched, the capabilities' shares): the
 * reader skips them otherwise, a time profile's reader too; the collector's events are
 * passed either way. Each reaches events.gc with its capability and time. */
struct sched_seen {
    int runs, stops, starts;
    uint16_t cap;
    uint64_t last_ns;
};

static int on_gc_event(void *ctx, const struct gc_event *e)
{
    struct sched_seen *s = ctx;
    s->runs += e->kind == GC_EVENT_RUN;
    s->stops += e->kind == GC_EVENT_STOP;
    s->starts += e->kind == GC_EVENT_START;
    s->cap = e->cap;
    s->last_ns = e->time_ns;
    return 0;
}

/* What the gc callback saw, as text: "runs stops starts, last at cap:time". */
static void assert_seen(const struct sched_seen *s, const char *want)
{
    char text[96];
    snprintf(text, sizeof text, "%d %d %d, last at %u:%llu", s->runs, s->stops, s->starts,
             (unsigned)s->cap, (unsigned long long)s->last_ns);
    assert_string_equal(text, want);
}

static struct sched_seen read_sched(const struct evw *w, bool sched)
{
    struct sched_seen seen = { 0 };
    struct census_options opt = { .sched = sched };
    struct census_events events = { NULL, NULL, NULL, &seen, on_gc_event, NULL };
    struct census *census = census_new(&opt, &events);
    assert_non_null(census);
    struct source_memory mem = { w->data, w->len, 0, 0 };
    struct ev_reader *r = ev_reader_new((struct ev_source){ .read = source_memory_read, .ctx = &mem }, 0);
    struct ev_error err;
    assert_int_equal(ev_reader_read_header(r, &err), EV_OK);
    ev_reader_skip_unwanted(r, census_wants_for(false, sched));
    struct ev_event ev;
    while (ev_reader_next(r, &ev, &err) == EV_OK)
        assert_int_equal(census_feed(census, &ev, &err), CENSUS_OK);
    ev_reader_free(r);
    census_free(census);
    return seen;
}

static void scheduler_events_are_read_only_when_asked(void **state)
{
    struct fixture *f = *state;
    evw_ghc9_header(f->w, true);
    struct evw_payload thread = { 0 }, stop = { 0 }, none = { 0 };
    evw_p_u32(&thread, 7);
    evw_p_u32(&stop, 7);
    evw_p_u16(&stop, 3);           /* status: yielding */
    evw_p_u32(&stop, 0);           /* blocked on */
    size_t block = evw_block_begin(f->w, 100, 1);
    evw_event(f->w, EV_RUN_THREAD, 100, &thread);
    evw_event(f->w, EV_STOP_THREAD, 300, &stop);
    evw_event(f->w, EV_GC_START, 400, &none);
    evw_event(f->w, EV_RUN_THREAD, 500, &thread);
    evw_block_end(f->w, block, 500);
    evw_data_end(f->w);
    struct sched_seen off = read_sched(f->w, false), on = read_sched(f->w, true);
    assert_seen(&off, "0 0 1, last at 1:400");
    assert_seen(&on, "2 1 1, last at 1:500");
    /* the reader's filters: a time profile's leaves them out too */
    assert_false(census_wants(EV_RUN_THREAD));
    assert_false(census_wants_time(EV_STOP_THREAD));
    assert_true(census_wants_time(EV_PROF_SAMPLE_COST_CENTRE));
    assert_true(census_wants_sched(EV_RUN_THREAD));
    assert_true(census_wants_time_sched(EV_STOP_THREAD));
    assert_true(census_wants_for(true, false) == census_wants_time);
    assert_true(census_wants_for(true, true) == census_wants_time_sched);
    assert_true(census_wants_for(false, true) == census_wants_sched);
    assert_true(census_wants_for(false, false) == census_wants);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(begin_end_make_a_census_timed_by_its_event, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(biography_censuses_are_sorted_by_their_inner_time, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(without_sample_end_a_census_ends_at_the_next_begin, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(an_open_census_at_a_cut_is_not_reported, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(extra_trailing_fields_and_unknown_events_are_skipped, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(a_declared_size_too_small_is_refused, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(stacks_are_named_and_numbered_like_the_runtime, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(anomalies_are_counted_not_fatal, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(a_short_heap_event_is_bad, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(info_table_bands_are_described_by_ipe_events, fixture_new, fixture_free),
        cmocka_unit_test_setup_teardown(scheduler_events_are_read_only_when_asked, fixture_new, fixture_free),
        cmocka_unit_test(breakdowns_in_words),
        cmocka_unit_test(a_cost_centre_group_key_is_its_frame_cut_between_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
