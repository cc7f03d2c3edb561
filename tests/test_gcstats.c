/* test_gcstats.c: the collector's `-s` figures (model/gcstats.h) and the summary's `gc`.
 *
 * The model alone: percentiles of many pauses within the histogram's stated 1.6 % of the
 * exact nearest-rank values; a collection's pause is its leader's (the capability whose
 * GC_STATS_GHC came between its GC_START and GC_END), not a helper's; allocation is each
 * capability's last HEAP_ALLOCATED summed. Through the conversion a user runs (written
 * eventlogs, --summary=json): a run without collection events says "gc": null; one
 * collection on two capabilities gives its exact figures; a file cut inside a later
 * collection's events keeps the collections read before the damage; the nonmoving
 * collector's phases (doubled synchronisation events, a stray END, GHC 9.4's empty
 * CONC_MARK_END) and its heap's last census (9.10's layout and the one before).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/order.h"
#include "convert.h"
#include "evwriter.h"
#include "model/breakdown.h"
#include "model/gcstats.h"
#include "read/evdefs.h"
#include "read/evdecode.h"
#include "testkit.h"

#define MS 1000000u

static void feed(struct gc_stats *g, enum gc_event_kind kind, uint16_t cap, uint64_t t,
                 unsigned gen, uint64_t threads)
{
    struct gc_event e = { .kind = kind, .cap = cap, .time_ns = t, .gen = gen,
                          .threads = threads, .copied = 1000 };
    assert_true(gc_stats_event(g, &e, NULL) >= 0);
}

static int by_value(const void *a, const void *b)
{
    return order_u64(*(const uint64_t *)a, *(const uint64_t *)b);
}

static void within_bound(uint64_t got, uint64_t exact)
{
    uint64_t d = got > exact ? got - exact : exact - got;
    if (d > exact / 64 + 1)
        fail_msg("percentile %llu, exact %llu: more than 1/64 apart",
                 (unsigned long long)got, (unsigned long long)exact);
}

static void percentiles_within_their_bound(void **state)
{
    (void)state;
    enum { N = 5001 };
    static uint64_t pauses[N];
    struct gc_stats *g = gc_stats_new();
    uint64_t t = 0, x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        pauses[i] = 1000 + (x >> 33) % (1u << (i % 21 + 10));   /* 1 us to ~2 s */
        feed(g, GC_EVENT_START, 0, t, 0, 1);
        feed(g, GC_EVENT_STATS, 0, t + 1, 0, 1);
        feed(g, GC_EVENT_END, 0, t + pauses[i], 0, 1);
        t += pauses[i] + 10;
    }
    struct gc_summary s;
    gc_stats_summary(g, t, &s);
    qsort(pauses, N, sizeof *pauses, by_value);
    assert_int_equal(s.gen[0].pauses, N);
    assert_int_equal(s.gen[0].max_pause_ns, pauses[N - 1]);
    within_bound(s.gen[0].p50_ns, pauses[(N + 1) / 2 - 1]);    /* rank ceil(0.5 N) */
    within_bound(s.gen[0].p90_ns, pauses[(9 * N + 9) / 10 - 1]);
    within_bound(s.gen[0].p99_ns, pauses[(99 * N + 99) / 100 - 1]);
    gc_stats_free(g);
}

static void a_pause_is_its_leaders(void **state)
{
    (void)state;
    struct gc_stats *g = gc_stats_new();
    feed(g, GC_EVENT_START, 1, 90, 0, 0);        /* a helper, earlier and later */
    feed(g, GC_EVENT_START, 0, 100, 0, 0);
    feed(g, GC_EVENT_STATS, 0, 240, 1, 2);
    feed(g, GC_EVENT_END, 1, 300, 0, 0);
    feed(g, GC_EVENT_END, 0, 250, 0, 0);
    struct gc_summary s;
    gc_stats_summary(g, 1000, &s);
    assert_true(s.any);
    assert_int_equal(s.generations, 2);
    assert_int_equal(s.gen[0].collections, 0);
    assert_int_equal(s.gen[1].collections, 1);
    assert_int_equal(s.gen[1].parallel, 1);
    assert_int_equal(s.gen[1].elapsed_ns, 150);
    assert_int_equal(s.gen[1].max_pause_ns, 150);
    assert_int_equal(s.gc_ns, 150);
    assert_int_equal(s.mut_ns, 850);
    gc_stats_free(g);
}

static void allocation_is_summed_over_capabilities(void **state)
{
    (void)state;
    struct gc_stats *g = gc_stats_new();
    struct gc_event e = { .kind = GC_EVENT_ALLOCATED, .cap = 0, .bytes = 100 };
    gc_stats_event(g, &e, NULL);
    e.bytes = 300;                       /* cumulative: the last counts */
    gc_stats_event(g, &e, NULL);
    e.cap = 1, e.bytes = 50;
    gc_stats_event(g, &e, NULL);
    feed(g, GC_EVENT_STATS, 0, 1, 0, 1);
    struct gc_summary s;
    gc_stats_summary(g, 10, &s);
    assert_true(s.has_allocated);
    assert_int_equal(s.allocated_bytes, 350);
    gc_stats_free(g);
}

/* The program's span (model/mutspan.h): the main OS thread's longest bound task, its
 * creation and deletion read out of time order (by capability); a task of another thread
 * is not the program's; the collections after the span are the exit's (GC, not MUT); -s's
 * Total ends at the last HEAP_ALLOCATED after the last collection. */
static void feed_gc(struct gc_stats *g, enum gc_event_kind kind, uint16_t cap, uint64_t t,
                    uint64_t task, uint64_t tid)
{
    struct gc_event e = { .kind = kind, .cap = cap, .time_ns = t, .task = task, .tid = tid,
                          .threads = 1 };
    assert_true(gc_stats_event(g, &e, NULL) >= 0);
}

static void program_span_is_the_main_threads_longest_task(void **state)
{
    (void)state;
    struct gc_stats *g = gc_stats_new();
    assert_non_null(g);
    feed_gc(g, GC_EVENT_PID, GC_CAP_NONE, 1 * MS, 0, 77);
    /* capability 1's block first: the program's task's deletion, the exit's task, and
     * a worker (another thread) living longer */
    feed_gc(g, GC_EVENT_TASK_DELETE, 1, 90 * MS, 5, 0);
    feed_gc(g, GC_EVENT_TASK_CREATE, 1, 91 * MS, 5, 77);
    feed_gc(g, GC_EVENT_TASK_DELETE, 1, 92 * MS, 5, 0);
    feed_gc(g, GC_EVENT_TASK_CREATE, 1, 2 * MS, 9, 78);
    feed_gc(g, GC_EVENT_TASK_DELETE, 1, 99 * MS, 9, 0);
    /* then capability 0's: the start-up's task, the program's creation, a collection in
     * the program (10 ms) and the exit's (3 ms), the last allocation counts at 97 ms */
    feed_gc(g, GC_EVENT_TASK_CREATE, 0, 2 * MS, 5, 77);
    feed_gc(g, GC_EVENT_TASK_DELETE, 0, 3 * MS, 5, 0);
    feed_gc(g, GC_EVENT_TASK_CREATE, 0, 4 * MS, 5, 77);
    feed_gc(g, GC_EVENT_START, 0, 20 * MS, 0, 0);
    feed_gc(g, GC_EVENT_STATS, 0, 21 * MS, 0, 0);
    feed_gc(g, GC_EVENT_END, 0, 30 * MS, 0, 0);
    feed_gc(g, GC_EVENT_START, 0, 93 * MS, 0, 0);
    feed_gc(g, GC_EVENT_STATS, 0, 94 * MS, 0, 0);
    feed_gc(g, GC_EVENT_END, 0, 96 * MS, 0, 0);
    feed_gc(g, GC_EVENT_ALLOCATED, 0, 97 * MS, 0, 0);
    struct gc_summary s;
    gc_stats_summary(g, 100 * MS, &s);
    assert_true(s.has_span);
    assert_int_equal(s.elapsed_ns, 97 * MS);    /* the last count, after the exit's GC */
    assert_int_equal(s.init_ns, 4 * MS);
    assert_int_equal(s.mut_ns, 86 * MS - 10 * MS);
    assert_int_equal(s.gc_ns, 13 * MS);
    assert_int_equal(s.exit_ns, 97 * MS - 90 * MS - 3 * MS);
    assert_int_equal(s.init_ns + s.mut_ns + s.gc_ns + s.exit_ns, s.elapsed_ns);
    gc_stats_free(g);
    /* no process id (or tasks of another thread only): no span, MUT the rest */
    g = gc_stats_new();
    feed_gc(g, GC_EVENT_TASK_CREATE, 0, 4 * MS, 5, 77);
    feed_gc(g, GC_EVENT_TASK_DELETE, 0, 90 * MS, 5, 0);
    feed_gc(g, GC_EVENT_START, 0, 20 * MS, 0, 0);
    feed_gc(g, GC_EVENT_STATS, 0, 21 * MS, 0, 0);
    feed_gc(g, GC_EVENT_END, 0, 30 * MS, 0, 0);
    gc_stats_summary(g, 100 * MS, &s);
    assert_false(s.has_span);
    assert_int_equal(s.mut_ns, 90 * MS);
    gc_stats_free(g);
}

/* --- through the conversion -------------------------------------------------------- */

static void gc_stats_event_of(struct evw *w, uint64_t t, uint16_t gen, uint64_t copied,
                              uint32_t threads)
{
    struct evw_payload p = { 0 };
    evw_p_u32(&p, 0);
    evw_p_u16(&p, gen);
    evw_p_u64(&p, copied);
    evw_p_u64(&p, 512);            /* slop */
    evw_p_u64(&p, 4096);           /* fragmentation */
    evw_p_u32(&p, threads);
    evw_p_u64(&p, copied / 2);     /* max copied */
    evw_p_u64(&p, copied);         /* copied by all */
    evw_p_u64(&p, copied / 4);     /* balanced */
    evw_event(w, EV_GC_STATS_GHC, t, &p);
}

/* One collection led by capability 0 (3 ms pause), helped by capability 1 (a longer
 * span), each capability's allocation, a live heap after it. */
static void write_collection(struct evw *w, uint64_t at, uint16_t gen, uint64_t copied)
{
    static const struct evw_payload empty;
    size_t b0 = evw_block_begin(w, at, 0);
    evw_event(w, EV_GC_START, at, &empty);
    evw_heap_size(w, EV_HEAP_ALLOCATED, at + 1 * MS, 6000);
    gc_stats_event_of(w, at + 2 * MS, gen, copied, 2);
    evw_event(w, EV_GC_END, at + 3 * MS, &empty);
    evw_heap_size(w, EV_HEAP_LIVE, at + 3 * MS, 77777 + gen);
    evw_block_end(w, b0, at + 3 * MS);
    size_t b1 = evw_block_begin(w, at, 1);
    evw_event(w, EV_GC_START, at, &empty);
    evw_heap_size(w, EV_HEAP_ALLOCATED, at + 1 * MS, 4000);
    evw_event(w, EV_GC_END, at + 5 * MS, &empty);
    evw_block_end(w, b1, at + 5 * MS);
}

/* The summary (JSON) of w's eventlog, converted with status 0. */
static const char *summary_of(const struct evw *w)
{
    const char *in = testkit_path("gc.eventlog");
    testkit_save(w, in);
    return testkit_converted(in, "gc.json", FORMAT_SUMMARY_JSON, (struct convert_options){ 0 },
                             NULL);
}

/* The summary (JSON) of w's eventlog, ended here, converted with status 0; w freed. */
static const char *finished_summary(struct evw *w)
{
    evw_data_end(w);
    const char *json = summary_of(w);
    evw_free(w);
    return json;
}

/* The summary (JSON) of a heap profile of one census, with a generation-1 collection
 * before it or none; the conversion's status 0. */
static const char *census_run(bool collection)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_TYPE_DESCR, 10 * MS);
    if (collection)
        write_collection(w, 10 * MS, 1, 123456);
    evw_two_band_census(w, 100 * MS, "a", 10, "b", 20);
    return finished_summary(w);
}

static void no_collection_events_say_null(void **state)
{
    (void)state;
    assert_non_null(strstr(census_run(false), "\n \"gc\": null"));
}

static void one_collection_exactly(void **state)
{
    (void)state;
    const char *json = census_run(true);
    assert_non_null(strstr(json, "\"gc\": {\"generations\": [{\"gen\": 0, \"collections\": 0"));
    assert_non_null(strstr(json, "{\"gen\": 1, \"collections\": 1, \"parallel\": 1, "
                                 "\"copied_bytes\": 123456, \"elapsed_s\": 0.003000, "
                                 "\"avg_pause_s\": 0.003000, \"max_pause_s\": 0.003000, "
                                 "\"pause_p50_s\": 0.003000, \"pause_p90_s\": 0.003000, "
                                 "\"pause_p99_s\": 0.003000}]"));
    assert_non_null(strstr(json, "\"allocated_bytes\": 10000, \"max_residency_bytes\": 77778, "
                                 "\"max_slop_bytes\": 512"));
    assert_non_null(strstr(json, "\"mut_s\": 0.097000, \"gc_s\": 0.003000, "
                                 "\"init_s\": null, \"exit_s\": null, "
                                 "\"productivity\": 0.97"));   /* 97 / 100, every digit */
    assert_non_null(strstr(json, "\"work_balance\": 0.25, \"nonmoving\": null}"));
}

static void damage_keeps_the_collections_before_it(void **state)
{
    (void)state;
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    write_collection(w, 10 * MS, 0, 1000);
    size_t cut = w->len;
    write_collection(w, 20 * MS, 0, 2000);
    /* cut inside the second collection's GC_STATS_GHC, capability 0's block */
    w->len = cut + 24 + 10 + 10 + 12 + 10;
    const char *json = summary_of(w);
    assert_non_null(strstr(json, "{\"gen\": 0, \"collections\": 1, \"parallel\": 1, "
                                 "\"copied_bytes\": 1000, \"elapsed_s\": 0.003000"));
    evw_free(w);
}

/* The nonmoving collector's phases (model/nonmoving.h), from the collector thread's
 * events in the global buffer: a synchronisation GHC 9.10 writes twice (its BEGIN and END
 * doubled) is one, from the first BEGIN to the last END; an END whose BEGIN the file does
 * not have is none; a cycle is from its first mark to the end of its sweep. GHC 9.4
 * declared CONC_MARK_END empty (no count): its phases end all the same. */
static const char *nonmoving_run(bool empty_mark_end)
{
    struct evw *w = evw_new();
    evw_header_begin(w);
    for (size_t i = 0; i < ev_registry_count; i++) {
        uint16_t tag = ev_registry_tags[i];
        int16_t size = ev_has_fixed_size(tag) ? (int16_t)ev_min_size(tag) : -1;
        if (tag == EV_CONC_MARK_END && empty_mark_end)
            size = 0;
        if (tag == EV_NONMOVING_HEAP_CENSUS && empty_mark_end)
            size = 13;   /* before 9.10: the block size's log2, a Word8 */
        evw_declare(w, tag, size, ev_name(tag));
    }
    evw_header_end(w);
    write_collection(w, 10 * MS, 1, 1000);
    static const struct evw_payload empty;
    struct evw_payload marked = { 0 };
    size_t b = evw_block_begin(w, 13 * MS, 0xffff);
    const struct { uint16_t tag; uint64_t at_us; uint32_t marked; } seq[] = {
        { EV_CONC_SYNC_END, 13500, 0 },          /* its BEGIN not in the file: none */
        { EV_CONC_MARK_BEGIN, 14000, 0 }, { EV_CONC_MARK_END, 16000, 100 },
        { EV_CONC_SYNC_BEGIN, 16500, 0 }, { EV_CONC_SYNC_BEGIN, 16600, 0 },
        { EV_CONC_MARK_BEGIN, 17000, 0 }, { EV_CONC_MARK_END, 17500, 5 },
        { EV_CONC_SYNC_END, 18000, 0 }, { EV_CONC_SYNC_END, 18100, 0 },
        { EV_CONC_SWEEP_BEGIN, 18200, 0 }, { EV_CONC_SWEEP_END, 19000, 0 },
    };
    for (size_t i = 0; i < sizeof seq / sizeof *seq; i++) {
        evw_p_reset(&marked);
        if (seq[i].tag == EV_CONC_MARK_END && !empty_mark_end)
            evw_p_u32(&marked, seq[i].marked);
        evw_event(w, seq[i].tag, seq[i].at_us * 1000, seq[i].tag == EV_CONC_MARK_END
                                                          ? &marked : &empty);
    }
    /* the heap's census: two sub-heaps, the 16-byte one twice (the latest stands) */
    const struct { uint64_t at_us; uint8_t log2; uint32_t active, filled, live; } census[] = {
        { 19100, 4, 9, 9, 9 }, { 19200, 5, 1, 2, 30 }, { 19300, 4, 3, 4, 100 },
    };
    for (size_t i = 0; i < sizeof census / sizeof *census; i++) {
        evw_p_reset(&marked);
        if (empty_mark_end)
            evw_p_u8(&marked, census[i].log2);
        else
            evw_p_u16(&marked, (uint16_t)(1u << census[i].log2));
        evw_p_u32(&marked, census[i].active);
        evw_p_u32(&marked, census[i].filled);
        evw_p_u32(&marked, census[i].live);
        evw_event(w, EV_NONMOVING_HEAP_CENSUS, census[i].at_us * 1000, &marked);
    }
    evw_block_end(w, b, 20 * MS);
    return finished_summary(w);
}

static void nonmoving_phases(void **state)
{
    (void)state;
    assert_non_null(strstr(nonmoving_run(false),
                           "\"nonmoving\": {\"cycles\": 1, \"concurrent_s\": 0.005000, "
                           "\"max_concurrent_s\": 0.005000, \"marks\": 2, \"mark_s\": 0.002500, "
                           "\"marked_objects\": 105, \"syncs\": 1, \"sync_s\": 0.001600, "
                           "\"avg_sync_s\": 0.001600, \"max_sync_s\": 0.001600, "
                           "\"sweeps\": 1, \"sweep_s\": 0.000800, \"heap\": {\"census_s\": "
                           "0.019300, \"block_sizes\": 2, \"active_segments\": 4, "
                           "\"filled_segments\": 6, \"live_blocks\": 130, "
                           "\"live_bytes\": 2560}}"));
    const char *older = nonmoving_run(true);
    assert_non_null(strstr(older, "\"marks\": 2, \"mark_s\": 0.002500, "
                                  "\"marked_objects\": 0, \"syncs\": 1"));
    assert_non_null(strstr(older, "\"live_blocks\": 130, \"live_bytes\": 2560}"));
    /* without the nonmoving collector: null */
    assert_non_null(strstr(census_run(true), "\"nonmoving\": null"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(percentiles_within_their_bound),
        cmocka_unit_test(a_pause_is_its_leaders),
        cmocka_unit_test(allocation_is_summed_over_capabilities),
        cmocka_unit_test(no_collection_events_say_null),
        cmocka_unit_test(one_collection_exactly),
        cmocka_unit_test(damage_keeps_the_collections_before_it),
        cmocka_unit_test(nonmoving_phases),
        cmocka_unit_test(program_span_is_the_main_threads_longest_task),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
