/* test_recovery.c: recovery from the damage GHC 9.6-9.10 writes, each pattern built byte
 * for byte with the test writer, through the whole pipeline (convert_run).
 *
 * The runtime writes a run as blocks (a BLOCK_MARKER with the block's size and end time,
 * then its events). In the non-threaded runtime with +RTS -hc -p, the timer thread's
 * PROF_SAMPLE_COST_CENTRE (167) and the census's events race in one buffer. Each test
 * writes five censuses of known contents in one block and damages the third as the
 * runtime does; the censuses written must be exactly the four intact ones (none forged),
 * with one warning for the region and the "recovered" line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "evwriter.h"
#include "read/evdecode.h"
#include "robust_run.h"
#include "testkit.h"

#define MS 1000000ull
static const uint32_t stack_a[] = { 1 };
static const uint32_t stack_b[] = { 2, 1 };

enum damage {
    NONE,
    TICK_OVER_ENTRY,   /* 00 a7 | 00 a3 | time | 167 body: a 163 whose body a 167 overwrote */
    TICK_INSIDE_ENTRY, /* a whole 167 inside a 163, whose last bytes then repeat */
    TICK_OVER_END,     /* 00 00 a5 a7 ...: a 165 begun, then a 167 over it */
    TICK_IN_CENSUS,    /* a whole 167 between two entries: every event parses */
    WILD_TIME,         /* an event of a declared type with a timestamp from nowhere */
    NOISE,             /* 256 KiB of random bytes (the block's size counts them) */
};

/* Census n (0-based) at 100 + 20 n ms: stack_a with 1000 + n bytes, stack_b with 2000 + n. */
static void census(struct evw *w, int n, enum damage d)
{
    uint64_t t = (100 + 20 * (uint64_t)n) * MS;
    evw_sample_begin(w, t, 0);
    evw_sample_stack(w, t + 1, 1000 + (uint64_t)n, stack_a, 1);
    switch (d) {
    case TICK_OVER_ENTRY: {
        /* The 167's header, then the 163's header, then the 167's body over the 163's. */
        evw_u16(w, EV_PROF_SAMPLE_COST_CENTRE);
        evw_u16(w, EV_HEAP_PROF_SAMPLE_COST_CENTRE);
        evw_u64(w, t + 2);
        evw_u16(w, 4 + 8 + 1 + 4);
        evw_u32(w, 0);
        evw_u64(w, 77);   /* the tick count, read as a 163 it is the residency */
        evw_u8(w, 1);
        evw_u32(w, 1);
        break;
    }
    case TICK_INSIDE_ENTRY: {
        size_t at = w->len;
        evw_sample_stack(w, t + 2, 2000 + (uint64_t)n, stack_b, 2);
        size_t whole = w->len - at;
        unsigned char tail[64];
        memcpy(tail, w->data + at + 12, whole - 12);
        w->len = at + 12;           /* the 163's header, then a whole 167 in its body */
        evw_tick(w, t + 3, 5, stack_a, 1);
        evw_raw(w, tail + 4, whole - 12 - 4);   /* the rest of its body, repeated */
        break;
    }
    case TICK_OVER_END:
        evw_sample_stack(w, t + 2, 2000 + (uint64_t)n, stack_b, 2);
        evw_raw(w, "\x00\x00\xa5\xa7", 4);
        evw_u64(w, t + 3);
        evw_u32(w, 0);
        evw_u64(w, 9);
        return;                      /* the 165 is lost */
    case TICK_IN_CENSUS:
        evw_tick(w, t + 2, 5, stack_a, 1);
        evw_sample_stack(w, t + 3, 2000 + (uint64_t)n, stack_b, 2);
        break;
    case WILD_TIME:
        evw_sample_stack(w, t + 2, 2000 + (uint64_t)n, stack_b, 2);
        evw_marker(w, 1ull << 62, "from nowhere");
        break;
    case NOISE: {
        srand(7);
        for (int i = 0; i < 256 * 1024; i++) {
            unsigned char b = (unsigned char)rand();
            evw_raw(w, &b, 1);
        }
        break;
    }
    case NONE:
        evw_sample_stack(w, t + 2, 2000 + (uint64_t)n, stack_b, 2);
        break;
    }
    evw_sample_end(w, t + 4, 0);
}

/* The start of a run: header, run info, a block holding the profile's beginning. */
static size_t run_start(struct evw *w, const char *rts)
{
    evw_ghc9_header(w, true);
    size_t block = evw_block_begin(w, 1 * MS, 0);
    evw_rts_identifier(w, 1 * MS, rts);
    evw_prof_begin(w, 2 * MS, 1, 20 * MS);
    evw_cost_centre(w, 3 * MS, 1, "main", "Main");
    evw_cost_centre(w, 3 * MS, 2, "work", "Main");
    return block;
}

/* Five censuses in one block, the third damaged as d. */
static void build(struct evw *w, enum damage d, const char *rts)
{
    size_t block = run_start(w, rts);
    for (int n = 0; n < 5; n++)
        census(w, n, n == 2 ? d : NONE);
    evw_block_end(w, block, 300 * MS);
    evw_data_end(w);
}

/* A new run of the non-threaded GHC 9.6 runtime with censuses 0 and 1 in its first block,
 * still open (its offset in *block). */
static struct evw *two_censuses(size_t *block)
{
    struct evw *w = evw_new();
    *block = run_start(w, "GHC-9.6.6 rts_p");
    census(w, 0, NONE);
    census(w, 1, NONE);
    return w;
}

/* The same with the first block closed at 130 ms. */
static struct evw *first_block(size_t *first)
{
    struct evw *w = two_censuses(first);
    evw_block_end(w, *first, 130 * MS);
    return w;
}

/* Censuses number from to 4 into block (its marker at that offset), closed at 300 ms, and
 * the end of the data. */
static void last_censuses(struct evw *w, int from, size_t block)
{
    for (int n = from; n < 5; n++)
        census(w, n, NONE);
    evw_block_end(w, block, 300 * MS);
    evw_data_end(w);
}

/* Appends again the len bytes written at offset at (a copy: appending may move them). */
static void repeat(struct evw *w, size_t at, size_t len)
{
    unsigned char *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, w->data + at, len);
    evw_raw(w, copy, len);
    free(copy);
}

/* The .hp holds exactly the intact censuses named by mask (bit n: census n). */
static void assert_censuses(const struct robust_run *run, unsigned mask)
{
    assert_non_null(run->hp);
    const char *p = run->hp;
    for (int n = 0; n < 5; n++) {
        char want[64];
        snprintf(want, sizeof want, "\t%d\n", 1000 + n);
        bool has = strstr(p, want) != NULL;
        assert_int_equal(has, (mask >> n) & 1);
    }
    int count = 0;
    for (int n = 0; n < 5; n++)
        count += (mask >> n) & 1;
    assert_int_equal(robust_censuses(run), count);
    /* Nothing forged: every entry is one the runtime wrote. */
    assert_null(strstr(run->hp, "\t77\n"));
    assert_null(strstr(run->hp, "#"));
}

/* Converts w, recovering (or with --strict): status 0 and exactly the censuses of mask. */
static void convert_keeping(const struct evw *w, bool strict, unsigned mask,
                            struct robust_run *run)
{
    robust_convert(w->data, w->len, strict, run);
    assert_int_equal(run->result.exit_status, 0);
    assert_censuses(run, mask);
}

/* Five censuses, the third damaged as damage in a run of runtime rts: the censuses of
 * mask are kept; why (NULL: no damage) is said with the "recovered" line, and --strict
 * fails on it. */
struct damage_case {
    enum damage damage;
    const char *rts;
    unsigned mask;
    const char *why;
};

static void run_damage(void **state)
{
    const struct damage_case *c = *state;
    struct evw *w = evw_new();
    build(w, c->damage, c->rts);
    struct robust_run run;
    convert_keeping(w, false, c->mask, &run);
    const char *why = c->why;
    if (why) {
        assert_true(robust_warned(&run, why));
        assert_true(robust_warned(&run, "recovered 4 censuses; 1 lost to damage at offset "));
        assert_true(run.result.damaged);
    } else {
        assert_int_equal(run.result.warning_count, 0);
    }
    robust_run_free(&run);
    /* --strict: any damage is a failure. */
    robust_convert(w->data, w->len, true, &run);
    assert_int_equal(run.result.exit_status, why ? 1 : 0);
    robust_run_free(&run);
    evw_free(w);
}

/* Censuses 2 to 4 into block, the end, and the run of w (freed here): all five censuses
 * kept, and the warnings said and also_said (NULL: none more). */
static void assert_keeps_all(struct evw *w, size_t block, const char *said,
                             const char *also_said)
{
    last_censuses(w, 2, block);
    struct robust_run run;
    convert_keeping(w, false, 0x1f, &run);
    assert_true(robust_warned(&run, said));
    assert_true(!also_said || robust_warned(&run, also_said));
    robust_run_free(&run);
    evw_free(w);
}

#define DAMAGE(name, damage, rts, mask, why)                                            \
    { name, run_damage, NULL, NULL,                                                     \
      &(struct damage_case){ damage, rts, mask, why } }
#define GHC96 "GHC-9.6.6 rts_p"
#define DAMAGED_REGION "damaged region of "

/* Only sane times reach outputs: the run ends at the last good event, not 2^62 ns. */
static void test_wild_time_stays_out(void **state)
{
    (void)state;
    struct evw *w = evw_new();
    build(w, WILD_TIME, "GHC-9.6.6 rts_p");
    struct robust_run run;
    robust_convert(w->data, w->len, false, &run);
    const char *last = NULL;
    for (const char *p = run.hp; (p = strstr(p, "BEGIN_SAMPLE ")) != NULL; p++)
        last = p;
    assert_non_null(last);
    assert_true(strtod(last + 13, NULL) < 1.0);
    robust_run_free(&run);
    evw_free(w);
}

/* A buffer flush hit by the race: a block marker of size 0, then a byte copy of the first
 * block (HEAP_PROF_BEGIN, cost centres, its censuses, times back near zero), then valid
 * blocks again. The copy is skipped whole; nothing of it is written twice. */
static void test_duplicated_block(void **state)
{
    (void)state;
    size_t first;
    struct evw *w = first_block(&first);
    size_t first_len = w->len - first;
    evw_block_begin(w, 135 * MS, 0);   /* never closed: size 0, end 0 */
    repeat(w, first, first_len);
    assert_keeps_all(w, evw_block_begin(w, 136 * MS, 0), "duplicated block",
                     "recovered 5 censuses; 0 lost to damage");
}

/* An earlier stretch copied byte for byte further on, inside one block whose marker is
 * right: census 1 appears twice with the same timestamp. Every event parses and the
 * times only repeat, so the copy is told by its begin time; it is dropped, not written
 * a second time. */
static void test_copied_census(void **state)
{
    (void)state;
    struct evw *w = evw_new();
    size_t block = run_start(w, "GHC-9.6.6 rts_p");
    census(w, 0, NONE);
    size_t at = w->len;
    census(w, 1, NONE);
    repeat(w, at, w->len - at);
    assert_keeps_all(w, block, "1 census began no later than the census written before it "
                     "(a copy", NULL);
}

/* A second HEAP_PROF_BEGIN in a block whose marker looks right: the block is skipped. */
static void test_second_prof_begin(void **state)
{
    (void)state;
    size_t first;
    struct evw *w = first_block(&first);
    size_t copy = evw_block_begin(w, 131 * MS, 0);
    evw_prof_begin(w, 132 * MS, 1, 20 * MS);
    census(w, 0, NONE);
    evw_block_end(w, copy, 133 * MS);
    assert_keeps_all(w, evw_block_begin(w, 134 * MS, 0), "a second HEAP_PROF_BEGIN", NULL);
}

/* The format's extension rule: a later GHC may write every stack event longer than its
 * fields (here 3 bytes). That is no damage: all five censuses and every tick are read.
 * One event longer by another amount is: its census alone is dropped. */
static void stack_event_wide(struct evw *w, uint16_t tag, uint64_t time, uint64_t value,
                             const uint32_t *ccs, unsigned depth, size_t extra)
{
    struct evw_payload p;
    evw_p_reset(&p);
    if (tag == EV_PROF_SAMPLE_COST_CENTRE)
        evw_p_u32(&p, 0);
    else
        evw_p_u8(&p, 0);
    evw_p_u64(&p, value);
    evw_p_u8(&p, (uint8_t)depth);
    for (unsigned i = 0; i < depth; i++)
        evw_p_u32(&p, ccs[i]);
    for (size_t i = 0; i < extra; i++)
        evw_p_u8(&p, (uint8_t)(0xa0 + i));
    evw_event(w, tag, time, &p);
}

static void build_wide(struct evw *w, size_t odd_extra)
{
    size_t block = run_start(w, "GHC-9.12.2 rts_thr_p");
    for (int n = 0; n < 5; n++) {
        uint64_t t = (100 + 20 * (uint64_t)n) * MS;
        stack_event_wide(w, EV_PROF_SAMPLE_COST_CENTRE, t, (uint64_t)n, stack_b, 2, 3);
        evw_sample_begin(w, t + 1, 0);
        stack_event_wide(w, EV_HEAP_PROF_SAMPLE_COST_CENTRE, t + 2, 1000 + (uint64_t)n,
                         stack_a, 1, 3);
        stack_event_wide(w, EV_HEAP_PROF_SAMPLE_COST_CENTRE, t + 3, 2000 + (uint64_t)n,
                         stack_b, 2, n == 2 && odd_extra ? odd_extra : 3);
        evw_sample_end(w, t + 4, 0);
    }
    evw_block_end(w, block, 300 * MS);
    evw_data_end(w);
}

static void test_extension_is_no_damage(void **state)
{
    (void)state;
    struct evw *w = evw_new();
    build_wide(w, 0);
    struct robust_run run;
    convert_keeping(w, true, 0x1f, &run);   /* --strict: no damage at all */
    assert_int_equal(run.result.warning_count, 0);
    robust_run_free(&run);

    /* Census 2's second entry 5 bytes longer than its fields, the others 3. */
    evw_free(w);
    w = evw_new();
    build_wide(w, 5);
    convert_keeping(w, false, 0x1b, &run);
    assert_true(robust_warned(&run, "does not fit its stack, nor the 3 bytes more that the "
                                    "events of its type carry"));
    assert_true(robust_warned(&run, "recovered 4 censuses; 1 lost to damage at offset "));
    robust_run_free(&run);
    evw_free(w);
}

/* --- times that reach outputs, through the command line ------------------------------ */

/* The runtime stamps a block's end when it flushes it: no event of the run is later than
 * the end of its last block. These runs' last block ends at RUN_END. */
#define RUN_END (300 * MS)

/* The largest number following each occurrence of key in text (-1 when none). */
static double largest_after(const char *text, const char *key)
{
    double most = -1;
    for (const char *p = text; (p = strstr(p, key)) != NULL; p += strlen(key)) {
        char *end;
        double v = strtod(p + strlen(key), &end);
        if (end != p + strlen(key) && v > most)
            most = v;
    }
    return most;
}

/* What the command line writes for a run: the .hp, the JSON export, an SVG chart and the
 * heap view, --summary=json (standard output) and standard error, read whole. A run's
 * files stay until the next run (or the end). */
enum { HP, JSON, SVG, HEAP, SUMMARY, ERR, OUTPUTS };
static char *out[OUTPUTS];

static void assert_no_time_past(double end_s);

/* The run of w (freed here) through the command line: status 0, no time past the run's
 * end (RUN_END) in any output, and a .hp of exactly the intact censuses of mask. */
static void run_cli(struct evw *w, unsigned mask)
{
    const char *ev2hp = getenv("EV2HP");
    assert_non_null(ev2hp);
    const char *path = testkit_path("in.eventlog"), *dir = testkit_dir();
    testkit_save(w, path);
    evw_free(w);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' '%s' -o '%s/o.hp' -o '%s/o.json' -o '%s/o.svg' "
             "--summary=json > '%s/sum.json' 2> '%s/err' && '%s' -q '%s' --view heap "
             "-o '%s/heap.svg'", ev2hp, path, dir, dir, dir, dir, dir, ev2hp, path, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const names[OUTPUTS] = {
        [HP] = "o.hp", [JSON] = "o.json", [SVG] = "o.svg", [HEAP] = "heap.svg",
        [SUMMARY] = "sum.json", [ERR] = "err",
    };
    for (int i = 0; i < OUTPUTS; i++) {
        free(out[i]);
        out[i] = testkit_slurp(testkit_path(names[i]), NULL);
        assert_non_null(out[i]);
    }
    assert_no_time_past(RUN_END / 1e9);
    struct robust_run run = { .hp = out[HP] };
    assert_censuses(&run, mask);
}

static int outputs_free(void **state)
{
    for (int i = 0; i < OUTPUTS; i++) {
        free(out[i]);
        out[i] = NULL;
    }
    return testkit_teardown_dir(state);
}

/* No time past the run's end in any output: census times (.hp, JSON), the duration and
 * the peak's time (--summary), the time axis of the charts (its labels are seconds). */
static void assert_no_time_past(double end_s)
{
    double limit = end_s + 1e-6;
    assert_true(largest_after(out[HP], "BEGIN_SAMPLE ") <= limit);
    assert_true(largest_after(out[JSON], "\"time_s\": ") <= limit);
    assert_true(largest_after(out[SUMMARY], "\"duration_s\": ") <= limit);
    assert_true(largest_after(out[SUMMARY], "\"time_s\": ") <= limit);
    /* axis labels: the text of <text class="axis" ...>0.3</text>, rounded to the tick */
    assert_true(largest_after(out[SVG], "text-anchor=\"middle\">") <= end_s + 0.05);
    assert_true(largest_after(out[HEAP], "text-anchor=\"middle\">") <= end_s + 0.05);
}

/* Census 2's SAMPLE_BEGIN overwritten with the time begin_ns; the run through the
 * command line keeps exactly the four other censuses, and why says why. */
static void forged_census_time(uint64_t begin_ns, const char *why)
{
    size_t block;
    struct evw *w = two_censuses(&block);
    uint64_t t = 140 * MS;   /* census 2's time */
    evw_sample_begin(w, begin_ns, 0);
    evw_sample_stack(w, t + 1, 77, stack_a, 1);
    evw_sample_stack(w, t + 2, 2002, stack_b, 2);
    evw_sample_end(w, t + 4, 0);
    last_censuses(w, 3, block);
    run_cli(w, 0x1b);
    assert_non_null(strstr(out[ERR], why));
    assert_non_null(strstr(out[ERR], "recovered 4 censuses; 1 lost to damage"));
}

/* A census begun half a second past the end of the run (within what the block's span
 * used to allow): it was written at that time, and the censuses after it were dropped as
 * if copies of earlier ones. Past the block's end: damage; dropped and counted. */
static void census_time_past_the_end_is_damage(void **state)
{
    (void)state;
    forged_census_time(RUN_END + 500 * MS, "outside its block's span");
}

/* A census begun at a time inside the run but later than the events after it (0.25 s,
 * between 0.14 s and 0.16 s): it was written at 0.25 s and the two censuses after it
 * dropped. A time later than the next event's is damage. */
static void census_time_ahead_of_its_events_is_damage(void **state)
{
    (void)state;
    forged_census_time(250 * MS, "after the event after it");
}

/* An event between two censuses (a collection, drawn by the heap view) stamped 0.9 s past
 * the end of the run, inside its block: --summary gave that as the run's duration. */
static void duration_past_the_end_is_damage(void **state)
{
    (void)state;
    size_t block;
    struct evw *w = two_censuses(&block);
    census(w, 2, NONE);
    struct evw_payload none;
    evw_p_reset(&none);
    evw_event(w, EV_GC_START, RUN_END + 900 * MS, &none);
    last_censuses(w, 3, block);
    run_cli(w, 0x1f);
    assert_non_null(strstr(out[ERR], "damaged region of"));
}

/* The block marker after the first block is overwritten, and the bytes up to the next
 * block hold a census at 3,018,596 s of six entries no census of the run has. Outside
 * every block, any time passed: that census was written, the real ones after it dropped
 * as copies, and the run lasted 3,018,596 s. In a file of blocks every event is in a
 * block: the reader resynchronises at the next block marker, never on loose events. */
static void forged_census_outside_blocks(void **state)
{
    (void)state;
    size_t first;
    struct evw *w = first_block(&first);
    evw_raw(w, "\x5a\x5a\x5a\x5a\x5a", 5);   /* where a block marker was due */
    const uint64_t forged = 3018596ull * 1000000000ull;
    evw_sample_begin(w, forged, 0);
    for (uint64_t i = 0; i < 6; i++)
        evw_sample_stack(w, forged + i, 77 + i, i % 2 ? stack_a : stack_b, i % 2 ? 1 : 2);
    evw_sample_end(w, forged + 7, 0);
    last_censuses(w, 2, evw_block_begin(w, 136 * MS, 0));
    run_cli(w, 0x1f);
    assert_null(strstr(out[HP], "\t78\n"));
}

/* Biographical censuses carry their time in a field, which no block bounds: one at
 * 3,018,596 s is dropped at the end (the run ended at RUN_END) and said. */
static void biographical_census_past_the_end(void **state)
{
    (void)state;
    struct evw *w = evw_new();
    size_t block = run_start(w, "GHC-9.6.6 rts_p");
    const uint64_t times[] = { 100 * MS, 3018596ull * 1000000000ull, 200 * MS };
    for (int n = 0; n < 3; n++) {
        uint64_t t = (250 + (uint64_t)n) * MS;   /* written at exit, as the runtime does */
        evw_bio_sample_begin(w, t, 0, times[n]);
        evw_sample_stack(w, t, 1000 + (uint64_t)n, stack_a, 1);
        evw_sample_end(w, t, 0);
    }
    evw_block_end(w, block, RUN_END);
    evw_data_end(w);
    run_cli(w, 0x5);   /* 1000 and 1002, not 1001 */
    assert_non_null(strstr(out[ERR], "1 biographical census had a time past the end of the run "
                                  "and was dropped"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        DAMAGE("clean", NONE, GHC96, 0x1f, NULL),
        DAMAGE("tick_over_entry", TICK_OVER_ENTRY, GHC96, 0x1b, DAMAGED_REGION),
        DAMAGE("tick_inside_entry", TICK_INSIDE_ENTRY, GHC96, 0x1b, DAMAGED_REGION),
        DAMAGE("tick_over_end", TICK_OVER_END, GHC96, 0x1b, DAMAGED_REGION),
        DAMAGE("tick_in_census", TICK_IN_CENSUS, "GHC-9.10.3 rts_p", 0x1b,
               "a time-profile tick inside"),
        /* The threaded runtime takes a lock: a tick inside a census there is just a tick. */
        DAMAGE("tick_in_census_threaded", TICK_IN_CENSUS, "GHC-9.10.3 rts_thr_p", 0x1f, NULL),
        DAMAGE("wild_time", WILD_TIME, GHC96, 0x1b, "outside its block's span"),
        DAMAGE("noise", NOISE, GHC96, 0x1b, DAMAGED_REGION),
        cmocka_unit_test(test_wild_time_stays_out),
        cmocka_unit_test(test_duplicated_block),
        cmocka_unit_test(test_second_prof_begin),
        cmocka_unit_test(test_copied_census),
        cmocka_unit_test(census_time_past_the_end_is_damage),
        cmocka_unit_test(census_time_ahead_of_its_events_is_damage),
        cmocka_unit_test(duration_past_the_end_is_damage),
        cmocka_unit_test(forged_census_outside_blocks),
        cmocka_unit_test(biographical_census_past_the_end),
        cmocka_unit_test(test_extension_is_no_damage),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, outputs_free);
}
