/* test_ghcversions.c: runs laid out as GHC 9.12 and 9.14 write them, built byte for byte.
 *
 * The header declares every type with the size GHC 9.12/9.14 declare (their
 * rts/gen_event_types.py: the heap-profile events 160-169 as in 9.10; IPE variable-size);
 * the events ev2hp reads come in their layouts: HEAP_PROF_BEGIN, cost centres, censuses
 * of stacks and of strings (HEAP_PROF_SAMPLE_BEGIN/END), time-profile ticks between
 * censuses, a marker, heap totals, PROGRAM_ARGS, WALL_CLOCK_TIME, IPE events (-hi) whose
 * declared length is one byte more than they write (postIPE still counts the ':' between
 * file and span twice), all inside block markers. Each must convert census for census,
 * without a warning, under --strict. See doc/DESIGN.md, "GHC versions".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "read/evdecode.h"
#include "evwriter.h"
#include "robust_run.h"

#define MS 1000000ull

/* The sizes GHC 9.12 and 9.14 declare for the types written here (gen_event_types.py). */
static void header(struct evw *w)
{
    static const struct { uint16_t tag; int16_t size; } types[] = {
        { 0, 4 }, { 1, 4 }, { 2, 10 }, { 9, 0 }, { 10, 0 }, { 18, 14 }, { 19, -1 },
        { 29, -1 }, { 30, -1 }, { 43, 16 }, { 49, 12 }, { 50, 12 }, { 51, 12 }, { 58, -1 },
        { 91, 12 }, { 160, -1 }, { 161, -1 }, { 162, 8 }, { 163, -1 }, { 164, -1 },
        { 165, 8 }, { 166, 16 }, { 167, -1 }, { 168, 8 }, { 169, -1 }, { 181, -1 },
        { 207, 13 }, { 210, -1 }, { 211, 32 }, { 212, 32 },
    };
    evw_header_begin(w);
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        evw_declare(w, types[i].tag, types[i].size,
                    ev_name(types[i].tag) ? ev_name(types[i].tag) : "not read by ev2hp");
    evw_header_end(w);
}

static void run_info(struct evw *w, const char *rts, const char *mode)
{
    evw_rts_identifier(w, 1 * MS, rts);
    const char *argv[] = { "prog", "+RTS", mode, "-l", "-p" };
    evw_program_args(w, 1 * MS, argv, 5);
    evw_wall_clock(w, 1 * MS, 1767225600, 0);
}

/* -hc -p: three censuses of two stacks, ticks between them, a marker, heap totals. */
static struct evw *hc_run(const char *rts)
{
    static const uint32_t a[] = { 1 }, b[] = { 2, 1 };
    struct evw *w = evw_new();
    header(w);
    size_t block = evw_block_begin(w, 1 * MS, 0);
    run_info(w, rts, "-hc");
    evw_prof_begin(w, 2 * MS, 1, 20 * MS);
    evw_time_begin(w, 2 * MS, 1 * MS);
    evw_cost_centre(w, 3 * MS, 1, "main", "Main");
    evw_cost_centre(w, 3 * MS, 2, "work", "Main");
    for (uint64_t n = 0; n < 3; n++) {
        uint64_t t = (100 + 20 * n) * MS;
        evw_tick(w, t, n, b, 2);
        evw_sample_begin(w, t + 1, 0);
        evw_sample_stack(w, t + 2, 1000 + n, a, 1);
        evw_sample_stack(w, t + 3, 2000 + n, b, 2);
        evw_sample_end(w, t + 4, 0);
        evw_heap_size(w, EV_HEAP_SIZE, t + 5, 1 << 20);
        evw_heap_size(w, EV_HEAP_LIVE, t + 5, 3000 + n);
        evw_heap_size(w, EV_BLOCKS_SIZE, t + 5, 1 << 19);
    }
    evw_marker(w, 150 * MS, "phase two");
    evw_block_end(w, block, 200 * MS);
    evw_data_end(w);
    return w;
}

/* -hi: IPE events declared one byte longer than written, then a census naming them. */
static struct evw *hi_run(const char *rts, bool declared_longer)
{
    struct evw *w = evw_new();
    header(w);
    size_t block = evw_block_begin(w, 1 * MS, 0);
    run_info(w, rts, "-hi");
    for (uint64_t i = 0; i < 2; i++) {
        struct evw_payload p;
        evw_p_reset(&p);
        evw_p_u64(&p, 0x4000 + i);
        evw_p_str(&p, i ? "Just_info" : "Cons_info");
        evw_p_str(&p, "3");
        evw_p_str(&p, i ? "Maybe Int" : "[Int]");
        evw_p_str(&p, "go");
        evw_p_str(&p, "Main");
        evw_p_str(&p, "src/Main.hs:12:3-14");
        evw_u16(w, EV_IPE);
        evw_u64(w, 2 * MS);
        evw_u16(w, (uint16_t)(p.len + declared_longer));
        evw_raw(w, p.bytes, p.len);
    }
    evw_prof_begin(w, 3 * MS, 8, 20 * MS);
    for (uint64_t n = 0; n < 2; n++) {
        uint64_t t = (100 + 20 * n) * MS;
        evw_sample_begin(w, t, 0);
        evw_sample_string(w, t + 1, "16384", 48 + n);
        evw_sample_string(w, t + 2, "16385", 96 + n);
        evw_sample_end(w, t + 3, 0);
    }
    evw_block_end(w, block, 200 * MS);
    evw_data_end(w);
    return w;
}

static void convert_clean(struct evw *w, struct robust_run *run)
{
    robust_convert(w->data, w->len, true, run);
    assert_int_equal(run->result.exit_status, 0);
    assert_int_equal(run->result.warning_count, 0);
    assert_non_null(run->hp);
}

static void hc_as_written_by(const char *rts)
{
    struct evw *w = hc_run(rts);
    struct robust_run run;
    convert_clean(w, &run);
    assert_int_equal(robust_censuses(&run), 3);
    for (int n = 0; n < 3; n++) {
        char want[64];
        snprintf(want, sizeof want, ")main\t%d\n", 1000 + n);
        assert_non_null(strstr(run.hp, want));
        snprintf(want, sizeof want, ")work/main\t%d\n", 2000 + n);
        assert_non_null(strstr(run.hp, want));
    }
    assert_non_null(strstr(run.hp, "JOB \"prog +RTS -hc -l -p\""));
    assert_non_null(strstr(run.hp, "MARK 0.15"));
    robust_run_free(&run);
    evw_free(w);
}

static void hi_as_written_by(const char *rts)
{
    for (int longer = 0; longer <= 1; longer++) {
        struct evw *w = hi_run(rts, longer);
        struct robust_run run;
        convert_clean(w, &run);
        assert_int_equal(robust_censuses(&run), 2);
        assert_non_null(strstr(run.hp, "\t48\n"));
        assert_non_null(strstr(run.hp, "\t97\n"));
        robust_run_free(&run);
        evw_free(w);
    }
}

static void ghc_9_12(void **state)
{
    (void)state;
    hc_as_written_by("GHC-9.12.2 rts_p");
    hc_as_written_by("GHC-9.12.2 rts_thr_p");
    hi_as_written_by("GHC-9.12.2 rts_thr");
}

static void ghc_9_14(void **state)
{
    (void)state;
    hc_as_written_by("GHC-9.14.1 rts_p");
    hc_as_written_by("GHC-9.14.1 rts_thr_p");
    hi_as_written_by("GHC-9.14.1 rts_thr");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ghc_9_12),
        cmocka_unit_test(ghc_9_14),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
