/* test_ghcversions.c: runs laid out as GHC 9.12 and 9.14 write them, built byte for byte.
 *
 * The header declares every event type GHC declares from 9.10.3 on, with its size (the
 * table of a real GHC 9.10.3 eventlog; no later change to it was found, see doc/DESIGN.md,
 * "GHC versions"): NONMOVING_HEAP_CENSUS of 14 bytes, the new NONMOVING_PRUNED_SEGMENTS
 * (208), TASK_CREATE of 18, GC_STATS_GHC of 58 (longer than the fields ev2hp knows). A
 * threaded run is laid out as its runtime flushes it: the heap profile, IPE and
 * time-profile events in the global buffer's blocks (capability 0xffff), collections,
 * heap totals and markers in capability 0's blocks, which cover the same time; every
 * other type of the table is written between them with its declared size. The events
 * ev2hp reads come in their layouts: HEAP_PROF_BEGIN (breakdowns 1, 6, 8, 9), cost
 * centres, censuses of stacks and of strings, the biographical census of -hb, ticks,
 * IPE events (declared one byte longer than written, as GHC 9.6 and later do, or exact;
 * with a location, without one: ":"). Each run must convert census for census, without
 * a warning, under --strict: the .hp and the JSON export are checked census by census
 * (time, labels, bytes), the JSON also for the runtime, breakdown, band names, markers
 * and heap totals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "read/evdecode.h"
#include "evwriter.h"
#include "robust_run.h"

#define MS 1000000ull
#define GLOBAL_BUFFER 0xffffu   /* the capability of the runtime's global event buffer */

/* The event types and sizes GHC declares from 9.10.3 on (-1: variable size). */
static const struct { uint16_t tag; int16_t size; } ghc_types[] = {
    { 0, 4 }, { 1, 4 }, { 2, 10 }, { 3, 4 }, { 4, 6 }, { 8, 6 }, { 9, 0 }, { 10, 0 },
    { 11, 0 }, { 12, 0 }, { 15, 4 }, { 16, -1 }, { 18, 14 }, { 19, -1 }, { 20, 0 },
    { 21, 0 }, { 22, 0 }, { 25, 6 }, { 26, 4 }, { 27, 6 }, { 28, 6 }, { 29, -1 },
    { 30, -1 }, { 31, -1 }, { 32, 8 }, { 33, 8 }, { 34, 56 }, { 35, 0 }, { 36, 0 },
    { 37, 0 }, { 38, 0 }, { 39, 2 }, { 40, 0 }, { 41, 0 }, { 42, -1 }, { 43, 16 },
    { 44, -1 }, { 45, 2 }, { 46, 2 }, { 47, 2 }, { 48, 2 }, { 49, 12 }, { 50, 12 },
    { 51, 12 }, { 52, 38 }, { 53, 58 }, { 54, 0 }, { 55, 18 }, { 56, 12 }, { 57, 8 },
    { 58, -1 }, { 59, 0 }, { 90, 16 }, { 91, 12 }, { 160, -1 }, { 161, -1 }, { 162, 8 },
    { 163, -1 }, { 164, -1 }, { 165, 8 }, { 166, 16 }, { 167, -1 }, { 168, 8 },
    { 169, -1 }, { 181, -1 }, { 200, 0 }, { 201, 4 }, { 202, 0 }, { 203, 0 }, { 204, 0 },
    { 205, 0 }, { 206, 2 }, { 207, 14 }, { 208, 8 }, { 210, -1 }, { 211, 32 }, { 212, 0 },
};

static const size_t ghc_type_count = sizeof ghc_types / sizeof *ghc_types;

static void header(struct evw *w)
{
    evw_header_begin(w);
    for (size_t i = 0; i < ghc_type_count; i++)
        evw_declare(w, ghc_types[i].tag, ghc_types[i].size,
                    ev_name(ghc_types[i].tag) ? ev_name(ghc_types[i].tag)
                                              : "not read by ev2hp");
    evw_header_end(w);
}

/* An event of a type ev2hp does not use, its payload as long as the header declares
 * (variable-size ones: 11 bytes), every byte 0xa5 so that a reader out of step shows. */
static void other_event(struct evw *w, uint16_t tag, uint64_t time)
{
    static struct evw_payload p;
    size_t len = w->size_of[tag] < 0 ? 11 : (size_t)w->size_of[tag];
    evw_p_reset(&p);
    for (size_t i = 0; i < len; i++)
        evw_p_u8(&p, 0xa5);
    evw_event(w, tag, time, &p);
}

/* Whether ev2hp reads tag for a heap profile, a time profile or the run's description:
 * those are written by the runs in their own layouts, never as filler. */
static bool read_by_ev2hp(uint16_t tag)
{
    return tag == EV_BLOCK_MARKER || (tag < EV_ROLE_TAGS && ev_role_by_tag[tag] != EVR_NONE);
}

/* One event of every other type of the table, on either side of t. */
static void every_other_type(struct evw *w, uint64_t t)
{
    for (size_t i = 0; i < ghc_type_count; i++)
        if (!read_by_ev2hp(ghc_types[i].tag))
            other_event(w, ghc_types[i].tag, t + i);
}

/* The run's description, as the runtime posts it at startup into the global buffer. */
static void run_info(struct evw *w, const char *rts, const char *mode)
{
    evw_rts_identifier(w, 1 * MS, rts);
    const char *argv[] = { "prog", "+RTS", mode, "-l", "-p" };
    evw_program_args(w, 1 * MS, argv, 5);
    evw_wall_clock(w, 1 * MS, 1767225600, 0);
}

/* Capability 0's block over [from, to]: collections and heap totals before each census
 * time, a marker, and every other type of the table. */
static void capability_block(struct evw *w, uint64_t from, uint64_t to, const uint64_t *times,
                             int n, const char *marker, uint64_t marker_time)
{
    static const struct evw_payload empty;
    size_t block = evw_block_begin(w, from, 0);
    every_other_type(w, from + 1);
    for (int i = 0; i < n; i++) {
        uint64_t t = times[i] - 2 * MS;
        evw_event(w, EV_GC_START, t, &empty);
        evw_heap_size(w, EV_HEAP_ALLOCATED, t + 1, (uint64_t)(i + 1) << 22);
        evw_event(w, EV_GC_END, t + 2, &empty);
        evw_heap_size(w, EV_HEAP_SIZE, t + 3, (uint64_t)(i + 1) << 20);
        evw_heap_size(w, EV_BLOCKS_SIZE, t + 3, (uint64_t)(i + 1) << 19);
        evw_heap_size(w, EV_HEAP_LIVE, t + 4, 3000 + (uint64_t)i);
        every_other_type(w, t + 5);
        if (marker && marker_time > t && (i + 1 == n || marker_time < times[i + 1] - 2 * MS))
            evw_marker(w, marker_time, marker);
    }
    evw_block_end(w, block, to);
}

/* What a census of the JSON export says: its time and its [band, bytes] entries. */
static void expect_census(const char *json, const char **from, uint64_t t, const char *entries)
{
    char want[512];
    snprintf(want, sizeof want, "{\"time_s\": %.6f, \"entries\": [%s]}", (double)t / 1e9,
             entries);
    const char *at = strstr(*from, want);
    if (!at)
        fail_msg("census not found in order: %s\n%s", want, json);
    *from = at + strlen(want);
}

/* What a census of the .hp says: BEGIN_SAMPLE, its "label\tbytes" lines, END_SAMPLE. */
static void expect_hp_census(const char *hp, const char **from, uint64_t t, const char *lines)
{
    char want[512];
    snprintf(want, sizeof want, "BEGIN_SAMPLE %.6f\n%sEND_SAMPLE %.6f\n", (double)t / 1e9,
             lines, (double)t / 1e9);
    const char *at = strstr(*from, want);
    if (!at)
        fail_msg("census not found in order in the .hp: %s\n%s", want, hp);
    *from = at + strlen(want);
}

static void expect_text(const char *json, const char *want)
{
    if (!strstr(json, want))
        fail_msg("not in the JSON export: %s\n%s", want, json);
}

static int count_censuses(const char *json)
{
    int n = 0;
    for (const char *p = json; (p = strstr(p, "{\"time_s\": ")) != NULL; p++)
        if (strncmp(strchr(p, ','), ", \"entries\"", 11) == 0)
            n++;
    return n;
}

/* The warnings of a run that are damage, not notes (error.h: an info table without a
 * name is a note). */
static size_t damage_count(const struct convert_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->warning_count && i < CONVERT_MAX_WARNINGS; i++)
        n += !r->warnings[i].note;
    return n;
}

/* Converts under --strict: no damage, status 0; the .hp and the JSON export. */
static void convert_clean(struct evw *w, struct robust_run *hp, struct robust_run *json)
{
    robust_convert(w->data, w->len, true, hp);
    assert_int_equal(hp->result.exit_status, 0);
    assert_int_equal(damage_count(&hp->result), 0);
    assert_non_null(hp->hp);
    robust_convert_to(w->data, w->len, true, FORMAT_JSON, json);
    assert_int_equal(json->result.exit_status, 0);
    assert_int_equal(damage_count(&json->result), 0);
    assert_non_null(json->hp);
}

/* A run of runtime rts in mode (-hc, -hi, ...): the header, then the global buffer's block
 * (*block), begun at 1 ms with the run's information. */
static struct evw *begin_run(const char *rts, const char *mode, size_t *block)
{
    struct evw *w = evw_new();
    header(w);
    *block = evw_block_begin(w, 1 * MS, GLOBAL_BUFFER);
    run_info(w, rts, mode);
    return w;
}

/* The global block closed at end, capability 0's block after it (capability_block: times
 * are the n censuses'; a marker when marker is not NULL), the end of the data; converted
 * clean (convert_clean), n censuses in both the .hp and the JSON export. */
static void end_and_convert(struct evw *w, size_t block, uint64_t end, const uint64_t *times,
                            int n, const char *marker, uint64_t marker_time,
                            struct robust_run *hp, struct robust_run *json)
{
    evw_block_end(w, block, end);
    capability_block(w, 1 * MS, end, times, n, marker, marker_time);
    evw_data_end(w);
    convert_clean(w, hp, json);
    assert_int_equal(robust_censuses(hp), n);
    assert_int_equal(count_censuses(json->hp), n);
}

static void run_free(struct evw *w, struct robust_run *hp, struct robust_run *json)
{
    robust_run_free(hp);
    robust_run_free(json);
    evw_free(w);
}

/* What a run of two censuses must give: each census's lines in the .hp and entries in the
 * JSON export, the breakdown the export names, and more texts it holds (a NULL-terminated
 * list, or NULL). */
struct two_censuses {
    const char *hp_lines[2], *json_entries[2], *breakdown;
    const char *const *also;
};

/* The run of w with censuses at times[0] and times[1], ended at end and converted clean
 * (end_and_convert): both outputs hold them, in order, as want says. */
static void expect_two_census_run(struct evw *w, size_t block, uint64_t end,
                                  const uint64_t *times, const struct two_censuses *want)
{
    struct robust_run hp, json;
    end_and_convert(w, block, end, times, 2, NULL, 0, &hp, &json);
    const char *h = hp.hp, *from = json.hp;
    for (int n = 0; n < 2; n++) {
        expect_hp_census(hp.hp, &h, times[n], want->hp_lines[n]);
        expect_census(json.hp, &from, times[n], want->json_entries[n]);
    }
    char breakdown[128];
    snprintf(breakdown, sizeof breakdown, "\"breakdown\": \"%s\"", want->breakdown);
    expect_text(json.hp, breakdown);
    for (const char *const *t = want->also; t && *t; t++)
        expect_text(json.hp, *t);
    run_free(w, &hp, &json);
}

static const char *const runtimes[] = {
    "GHC-9.12.2 rts_thr_p", "GHC-9.12.2 rts_p", "GHC-9.14.1 rts_thr_p", "GHC-9.14.1 rts_p",
};

/* -hc -p: three censuses of two stacks in the global buffer with ticks between them;
 * capability 0's block, flushed after it, holds the collections, totals and a marker. */
static void hc_run_by(const char *rts)
{
    static const uint32_t main_only[] = { 1 }, work_main[] = { 2, 1 };
    static const uint64_t times[] = { 100 * MS, 120 * MS, 140 * MS };
    size_t block;
    struct evw *w = begin_run(rts, "-hc", &block);
    evw_prof_begin(w, 2 * MS, 1, 20 * MS);
    evw_time_begin(w, 2 * MS, 1 * MS);
    evw_cost_centre(w, 3 * MS, 1, "main", "Main");
    evw_cost_centre(w, 3 * MS, 2, "work", "Main");
    for (uint64_t n = 0; n < 3; n++) {
        uint64_t t = times[n];
        evw_tick(w, t - 1 * MS, n, work_main, 2);
        evw_sample_begin(w, t, n);
        evw_sample_stack(w, t + 1, 1000 + n, main_only, 1);
        evw_sample_stack(w, t + 2, 2000 + n, work_main, 2);
        evw_sample_end(w, t + 3, n);
    }
    struct robust_run hp, json;
    end_and_convert(w, block, 150 * MS, times, 3, "phase two", 125 * MS, &hp, &json);
    const char *h = hp.hp;
    expect_hp_census(hp.hp, &h, times[0], "(1)main\t1000\n(2)work/main\t2000\n");
    expect_hp_census(hp.hp, &h, times[1], "(1)main\t1001\n(2)work/main\t2001\n");
    expect_hp_census(hp.hp, &h, times[2], "(1)main\t1002\n(2)work/main\t2002\n");
    assert_non_null(strstr(hp.hp, "JOB \"prog +RTS -hc -l -p\""));
    assert_non_null(strstr(hp.hp, "MARK 0.125"));

    const char *j = json.hp, *from = j;
    expect_census(j, &from, times[0], "[0, 1000], [1, 2000]");
    expect_census(j, &from, times[1], "[0, 1001], [1, 2001]");
    expect_census(j, &from, times[2], "[0, 1002], [1, 2002]");
    char want[128];
    snprintf(want, sizeof want, "\"rts\": \"%s\"", rts);
    expect_text(j, want);
    expect_text(j, "\"breakdown\": \"by cost-centre stack\"");
    expect_text(j, "\"label\": \"(1)main\", \"hp_label\": \"main\"");
    expect_text(j, "\"label\": \"(2)work/main\", \"hp_label\": \"work/main\"");
    expect_text(j, "{\"time_s\": 0.125000, \"text\": \"phase two\"}");
    expect_text(j, "{\"kind\": \"heap_size\", \"time_s\": 0.138000, \"bytes\": 3145728}");
    expect_text(j, "{\"kind\": \"heap_live\", \"time_s\": 0.138000, \"bytes\": 3002}");
    expect_text(j, "{\"kind\": \"blocks_size\", \"time_s\": 0.138000, \"bytes\": 1572864}");
    run_free(w, &hp, &json);
}

/* An IPE event as GHC 9.6 and later write it: six strings, source file and span joined
 * by a ':' into the last; declared one byte longer than written (or, should a later
 * runtime fix that, exactly). */
static void ipe_event(struct evw *w, uint64_t time, uint64_t info, const char *name,
                      const char *type, const char *location, bool declared_longer)
{
    static struct evw_payload p;
    evw_p_reset(&p);
    /* the closure type as a decimal number */
    evw_p_ipe(&p, info, &(struct evw_ipe){ name, "3", type, "go", "Main", location });
    evw_event_declared(w, EV_IPE, time, &p, (uint16_t)(p.len + declared_longer));
}

/* -hi: IPE events, then censuses whose labels are info-table addresses as the runtime
 * prints them ("%p"), one of them with no IPE event. */
static void hi_run_by(const char *rts, bool declared_longer)
{
    static const uint64_t times[] = { 100 * MS, 120 * MS };
    size_t block;
    struct evw *w = begin_run(rts, "-hi", &block);
    ipe_event(w, 2 * MS, 0x4a6e80, "Cons_info", "[Int]", "src/Main.hs:12:3-14",
              declared_longer);
    ipe_event(w, 2 * MS, 0x4a6ea0, "Bin_con_info", "Map", ":", declared_longer);
    ipe_event(w, 2 * MS, 0x4a6ec0, "sat_info", "Int", "src/Main.hs:", declared_longer);
    evw_prof_begin(w, 3 * MS, 8, 20 * MS);
    for (uint64_t n = 0; n < 2; n++) {
        uint64_t t = times[n];
        evw_sample_begin(w, t, 0);
        evw_sample_string(w, t + 1, "0x4a6e80", 48 + n);
        evw_sample_string(w, t + 2, "0x4a6ea0", 96 + n);
        evw_sample_string(w, t + 3, "0x4a6ec0", 16);
        evw_sample_string(w, t + 4, "0x4b0000", 8);
        evw_sample_end(w, t + 5, 0);
    }
    /* named by their IPE events; no location is no location, not " at :" */
    static const char *const named[] = {
        "\"label\": \"Cons_info :: [Int] at src/Main.hs:12:3-14\"",
        "\"label\": \"Bin_con_info :: Map\", \"hp_label\": \"0x4a6ea0\"",
        "\"label\": \"sat_info :: Int at src/Main.hs\", \"hp_label\": \"0x4a6ec0\"",
        "\"label\": \"0x4b0000\"",
        NULL,
    };
    static const struct two_censuses want = {
        { "0x4a6e80\t48\n0x4a6ea0\t96\n0x4a6ec0\t16\n0x4b0000\t8\n",
          "0x4a6e80\t49\n0x4a6ea0\t97\n0x4a6ec0\t16\n0x4b0000\t8\n" },
        { "[0, 48], [1, 96], [2, 16], [3, 8]", "[0, 49], [1, 97], [2, 16], [3, 8]" },
        "by info table",
        named,
    };
    expect_two_census_run(w, block, 130 * MS, times, &want);
}

/* Both IPE layouts: the length declared one byte longer than written (GHC 9.10 and
 * later), and as written. */
static void hi_layouts_by(const char *rts)
{
    hi_run_by(rts, true);
    hi_run_by(rts, false);
}

/* -he (breakdown 9, GHC 9.10 and later): bands are era numbers. */
static void he_run_by(const char *rts)
{
    static const uint64_t times[] = { 100 * MS, 120 * MS };
    size_t block;
    struct evw *w = begin_run(rts, "-he", &block);
    evw_prof_begin(w, 2 * MS, 9, 20 * MS);
    evw_sample_begin(w, times[0], 1);
    evw_sample_string(w, times[0] + 1, "1", 33712);
    evw_sample_end(w, times[0] + 2, 1);
    evw_sample_begin(w, times[1], 2);
    evw_sample_string(w, times[1] + 1, "1", 33712);
    evw_sample_string(w, times[1] + 2, "2", 8929400);
    evw_sample_end(w, times[1] + 3, 2);
    static const struct two_censuses want = {
        { "1\t33712\n", "1\t33712\n2\t8929400\n" },
        { "[0, 33712]", "[0, 33712], [1, 8929400]" },
        "by era",
        NULL,
    };
    expect_two_census_run(w, block, 130 * MS, times, &want);
}

/* -hb: the biographical censuses all come at the end of the run (the runtime only knows
 * a closure's biography when it dies), each with the time it was taken. */
static void hb_run_by(const char *rts)
{
    static const uint64_t times[] = { 100 * MS, 120 * MS };
    static const char *const parts[] = { "VOID", "LAG", "USE", "INHERENT_USE", "DRAG" };
    size_t block;
    struct evw *w = begin_run(rts, "-hb", &block);
    evw_prof_begin(w, 2 * MS, 6, 20 * MS);
    for (uint64_t n = 0; n < 2; n++) {
        uint64_t at = 140 * MS + n * 10;
        evw_bio_sample_begin(w, at, n + 1, times[n]);
        for (uint64_t k = 0; k < 5; k++)
            evw_sample_string(w, at + 1 + k, parts[k], 100 * (k + 1) + n);
        evw_sample_end(w, at + 6, n + 1);
    }
    static const struct two_censuses want = {
        { "VOID\t100\nLAG\t200\nUSE\t300\nINHERENT_USE\t400\nDRAG\t500\n",
          "VOID\t101\nLAG\t201\nUSE\t301\nINHERENT_USE\t401\nDRAG\t501\n" },
        { "[0, 100], [1, 200], [2, 300], [3, 400], [4, 500]",
          "[0, 101], [1, 201], [2, 301], [3, 401], [4, 501]" },
        "by biography",
        NULL,
    };
    expect_two_census_run(w, block, 150 * MS, times, &want);
}

/* A case: one kind of run, written as each runtime of runtimes[] writes it. */
struct by_runtime {
    void (*run_by)(const char *rts);
};

static void each_runtime(void **state)
{
    const struct by_runtime *c = *state;
    for (size_t i = 0; i < sizeof runtimes / sizeof *runtimes; i++)
        c->run_by(runtimes[i]);
}

#define BY_RUNTIME(name, run_by)                                                         \
    { name, each_runtime, NULL, NULL, &(struct by_runtime){ run_by } }

int main(void)
{
    const struct CMUnitTest tests[] = {
        BY_RUNTIME("hc_time_profile_markers_totals", hc_run_by),
        BY_RUNTIME("hi_ipe_layouts", hi_layouts_by),
        BY_RUNTIME("he_eras", he_run_by),
        BY_RUNTIME("hb_biography", hb_run_by),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
