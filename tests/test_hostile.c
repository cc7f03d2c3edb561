/* test_hostile.c: files written to hurt, one case each (issue 5, "Hostile files").
 *
 * Each case builds an eventlog byte for byte with the test writer, runs the whole
 * pipeline on it (convert_run, through robust_run.h) and checks the exit status, the
 * warnings and the .hp. The rule under test everywhere: nothing a file holds makes ev2hp
 * crash, hang, or allocate beyond its documented limits; what is usable is kept and what
 * is not is said.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "model/bands.h"
#include "evwriter.h"
#include "robust_run.h"

/* The case's eventlog and its conversion, freed after each case (free_case). */
static struct evw *w;
static struct robust_run run;

static int free_case(void **state)
{
    (void)state;
    robust_run_free(&run);
    evw_free(w);
    w = NULL;
    return 0;
}

/* The declarations of the events these cases write, as GHC 9.0 sizes them, for headers
 * that add odd declarations of their own around them. */
static void evw_ghc9_header_types(void)
{
    static const struct { uint16_t tag; int16_t size; } types[] = {
        { 30, -1 }, { 43, 16 }, { 58, -1 }, { 160, -1 }, { 161, -1 }, { 162, 8 },
        { 163, -1 }, { 164, -1 }, { 165, 8 }, { 166, 16 },
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        evw_declare(w, types[i].tag, types[i].size, "");
}

/* A GHC 9 header, a -hT run's arguments and HEAP_PROF_BEGIN. */
static void start(void)
{
    w = evw_new();
    evw_ghc9_header(w, true);
    const char *argv[] = { "prog", "+RTS", "-hT", "-l" };
    evw_program_args(w, 0, argv, 4);
    evw_prof_begin(w, 1, 7, 100000000);
}

/* One census of two closure types at time t. */
static void census(uint64_t t)
{
    evw_sample_begin(w, t, 0);
    evw_sample_string(w, t, "THUNK", 100);
    evw_sample_string(w, t, "ARR_WORDS", 200);
    evw_sample_end(w, t, 0);
}

/* Converts w into run (the last run freed), reading on past damage or stopping at it. */
static void convert(bool stop_at_damage)
{
    robust_run_free(&run);
    robust_stop_at_damage = stop_at_damage;
    robust_convert(w->data, w->len, false, &run);
    robust_stop_at_damage = false;
}

/* Converts w: status 0 and that many censuses. */
static void convert_keeping(int censuses)
{
    convert(false);
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    assert_int_equal(robust_censuses(&run), censuses);
}

/* Converts w: refused (status 1, no .hp) with an error at an offset that says what. */
static void convert_refused(const char *what)
{
    convert(false);
    assert_int_equal(run.result.exit_status, EXIT_BAD_INPUT);
    assert_true(run.result.error.has_offset);
    if (!strstr(run.result.error.what, what))
        fail_msg("error \"%s\" lacks \"%s\"", run.result.error.what, what);
    assert_null(run.hp);
}

/* Converts w stopping at damage (--stop-at-damage; test_recovery covers reading on past
 * it): status 0, the file said damaged, the censuses before the damage kept, and the
 * first warning, at an offset, says what and how many were kept. */
static void convert_stopping(int censuses, const char *what)
{
    convert(true);
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    assert_true(run.result.damaged);
    assert_non_null(run.hp);
    assert_int_equal(robust_censuses(&run), censuses);
    assert_true(run.result.warning_count >= 1);
    assert_true(run.result.warnings[0].has_offset);
    if (!strstr(run.result.warnings[0].what, what))
        fail_msg("warning \"%s\" lacks \"%s\"", run.result.warnings[0].what, what);
    char kept[64];
    snprintf(kept, sizeof kept, "kept %d census", censuses);
    assert_non_null(strstr(run.result.warnings[0].what, kept));
}

/* --- the header ------------------------------------------------------------------- */

/* A new eventlog whose header begins with the declaration of event type tag, of size
 * size, written up to its description's length field, which claims desc_len bytes. */
static void declaration_claiming(uint16_t tag, uint16_t size, uint32_t desc_len)
{
    w = evw_new();
    evw_header_begin(w);
    evw_raw(w, "etb\0", 4);
    evw_u16(w, tag);
    evw_u16(w, size);
    evw_u32(w, desc_len);
}

/* The header ended with the cases' own declarations and one census after it: it reads
 * (status 0, the census kept). */
static void assert_header_reads(void)
{
    evw_ghc9_header_types();
    evw_header_end(w);
    census(10);
    evw_data_end(w);
    convert_keeping(1);
}

/* Every tag declared, then the same tags again many times: the table of sizes is fixed,
 * so a header of a million declarations costs time proportional to it and no memory. */
static void huge_event_type_count(void **state)
{
    (void)state;
    w = evw_new();
    evw_header_begin(w);
    for (int round = 0; round < 4; round++)
        for (uint32_t tag = 0; tag < 65535; tag++)
            evw_declare(w, (uint16_t)tag, tag % 3 ? 8 : -1, "");
    assert_header_reads();
}

/* A description that claims 4 GiB - 1 bytes and a file that ends inside it: the reader
 * skips descriptions by streaming, so this is a clean "ends inside the header" at once. */
static void description_length_max(void **state)
{
    (void)state;
    declaration_claiming(162, 8, UINT32_MAX);
    evw_raw(w, "a description shorter than it says", 34);
    clock_t t0 = clock();
    convert_refused("ends inside the header");
    assert_true(clock() - t0 < CLOCKS_PER_SEC);
}

/* A long description that is really there (1 MiB, more than the reader's buffer) is
 * skipped and the file reads on. */
static void description_longer_than_buffer(void **state)
{
    (void)state;
    declaration_claiming(1000, 4, 1u << 20);
    char *desc = calloc(1, 1u << 20);
    evw_raw(w, desc, 1u << 20);
    free(desc);
    evw_u32(w, 0);
    evw_raw(w, "ete\0", 4);
    assert_header_reads();
}

/* --- event sizes ------------------------------------------------------------------ */

/* A variable-size event of 0 bytes: unknown types are skipped; a census event that empty
 * is too short for its fields, which is damage: what came before stays. */
static void variable_size_zero(void **state)
{
    (void)state;
    w = evw_new();
    evw_header_begin(w);
    evw_declare(w, 1000, -1, "unknown, variable");
    evw_ghc9_header_types();
    evw_header_end(w);
    struct evw_payload p;
    evw_p_reset(&p);
    evw_event(w, 1000, 5, &p);
    census(10);
    evw_event(w, 164, 20, &p);   /* HEAP_PROF_SAMPLE_STRING with nothing in it */
    census(30);
    evw_data_end(w);
    convert_stopping(1, "too short");
}

/* 65535 bytes, the most a variable-size event holds: a label that long is a label. */
static void variable_size_max(void **state)
{
    (void)state;
    start();
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 4096);
    char *label = malloc(65535 - 9);
    memset(label, 'x', 65535 - 10);
    label[65535 - 10] = '\0';
    evw_p_str(&p, label);
    assert_int_equal(p.len, 65535);
    evw_sample_begin(w, 10, 0);
    evw_event(w, 164, 10, &p);
    evw_sample_end(w, 10, 0);
    evw_data_end(w);
    convert_keeping(1);
    assert_non_null(strstr(run.hp, label));
    free(label);
}

/* A header may declare a fixed size of 0 (or 0xffff = variable, 0xfffe = nonsense) for
 * anything: 0 for an event a census needs is refused up front, 0xfffe is a bad header. */
static void declared_sizes_odd(void **state)
{
    (void)state;
    w = evw_new();
    evw_header_begin(w);
    evw_declare(w, 162, 0, "sample begin with no room for its era");
    evw_header_end(w);
    evw_data_end(w);
    convert_refused("fewer than its fields");

    evw_free(w);
    w = evw_new();
    evw_header_begin(w);
    evw_declare(w, 1000, -2, "size 0xfffe");
    evw_header_end(w);
    convert_refused("bad header");
}

/* --- payload contents ------------------------------------------------------------- */

/* Strings that run to the end of the payload without a NUL: a label, a marker. The
 * string is what is there. The program's arguments are different: GHC ends each with a
 * NUL, so bytes after the last NUL are fields of a later format (the extension rule),
 * left out of the JOB. */
static void strings_without_nul(void **state)
{
    (void)state;
    w = evw_new();
    evw_ghc9_header(w, true);
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u32(&p, 0);
    evw_p_bytes(&p, "prog\0+RTS\0-hT", 13);
    evw_event(w, 30, 0, &p);
    evw_prof_begin(w, 1, 7, 100000000);
    evw_marker(w, 5, "no NUL here");
    evw_sample_begin(w, 10, 0);
    evw_p_reset(&p);
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 64);
    evw_p_bytes(&p, "UNTERMINATED", 12);
    evw_event(w, 164, 10, &p);
    evw_sample_end(w, 10, 0);
    evw_data_end(w);
    convert_keeping(1);
    assert_non_null(strstr(run.hp, "JOB \"prog\"\n"));   /* "+RTS" with no flags */
    assert_non_null(strstr(run.hp, "\nUNTERMINATED\t64\n"));
}

/* A cost-centre stack that claims 255 entries in a payload holding 2: damage at that
 * event, the census before it kept. */
static void stack_deeper_than_payload(void **state)
{
    (void)state;
    start();
    evw_cost_centre(w, 2, 1, "main", "Main");
    census(10);
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 100);
    evw_p_u8(&p, 255);
    evw_p_u32(&p, 1);
    evw_p_u32(&p, 1);
    evw_sample_begin(w, 20, 0);
    evw_event(w, 163, 20, &p);
    evw_sample_end(w, 20, 0);
    evw_data_end(w);
    convert_stopping(1, "too short");
}

/* Stack entries naming cost centres never defined: labelled "#N", with a warning. */
static void undefined_cost_centres(void **state)
{
    (void)state;
    start();
    evw_cost_centre(w, 2, 1, "main", "Main");
    evw_sample_begin(w, 10, 0);
    uint32_t stack[] = { 4242, 1 };
    evw_sample_stack(w, 10, 100, stack, 2);
    evw_sample_end(w, 10, 0);
    evw_data_end(w);
    convert_keeping(1);
    assert_non_null(strstr(run.hp, "#4242/main\t100\n"));
    assert_true(robust_warned(&run, "never defined"));
}

/* --- census order ----------------------------------------------------------------- */

/* Times going backwards: censuses stay in file order, times never decrease, a warning. */
static void timestamps_backwards(void **state)
{
    (void)state;
    start();
    census(3000000000u);
    census(1000000000u);
    census(2000000000u);
    evw_data_end(w);
    convert(true);
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    assert_int_equal(robust_censuses(&run), 3);
    assert_true(robust_warned(&run, "backwards"));
    assert_null(strstr(run.hp, "BEGIN_SAMPLE 1.000000"));
    /* Recovery takes a census that begins before the last one written for a copy of
     * earlier events (the race copies buffers) and drops it, saying so. */
    convert_keeping(1);
    assert_true(robust_warned(&run, "copies of earlier events"));
    assert_true(robust_warned(&run, "recovered 1 census; 2 lost to damage"));
}

/* END without BEGIN is ignored; BEGIN inside a census drops the unfinished one; a second
 * HEAP_PROF_BEGIN is ignored. Each is said. */
static void census_structure(void **state)
{
    (void)state;
    start();
    evw_sample_end(w, 5, 0);                 /* END without BEGIN */
    evw_sample_string(w, 6, "STRAY", 1);     /* an entry outside any census */
    census(10);
    evw_sample_begin(w, 20, 0);              /* a census that never ends... */
    evw_sample_string(w, 20, "LOST", 7);
    census(30);                           /* ...because another begins */
    evw_prof_begin(w, 40, 1, 1);             /* several HEAP_PROF_BEGIN */
    evw_prof_begin(w, 41, 2, 1);
    census(50);
    evw_data_end(w);
    convert_keeping(3);
    assert_null(strstr(run.hp, "LOST"));
    assert_null(strstr(run.hp, "STRAY"));
    /* Said in the singular for one, the plural for more. */
    assert_true(robust_warned(&run, "1 census began inside another; the unfinished one was "
                                    "dropped"));
    assert_true(robust_warned(&run, "1 census entry and 1 census end outside any census"));
    assert_true(robust_warned(&run, "2 further HEAP_PROF_BEGIN events were ignored"));
}

/* --- limits ----------------------------------------------------------------------- */

/* More distinct labels than BANDS_MAX: refused with a clear error (status 1) once the
 * limit is reached, not by exhausting the machine. Labels are short so this stays fast. */
static void too_many_labels(void **state)
{
    (void)state;
    start();
    evw_sample_begin(w, 10, 0);
    char label[16];
    for (uint32_t i = 0; i <= BANDS_MAX; i++) {
        snprintf(label, sizeof label, "%x", i);
        evw_sample_string(w, 10, label, 8);
        if (i % 1000000 == 999999) {   /* keep each census under its own entry limit */
            evw_sample_end(w, 10, 0);
            evw_sample_begin(w, 10, 0);
        }
    }
    evw_sample_end(w, 10, 0);
    evw_data_end(w);
    convert_refused("distinct labels");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(huge_event_type_count, free_case),
        cmocka_unit_test_teardown(description_length_max, free_case),
        cmocka_unit_test_teardown(description_longer_than_buffer, free_case),
        cmocka_unit_test_teardown(variable_size_zero, free_case),
        cmocka_unit_test_teardown(variable_size_max, free_case),
        cmocka_unit_test_teardown(declared_sizes_odd, free_case),
        cmocka_unit_test_teardown(strings_without_nul, free_case),
        cmocka_unit_test_teardown(stack_deeper_than_payload, free_case),
        cmocka_unit_test_teardown(undefined_cost_centres, free_case),
        cmocka_unit_test_teardown(timestamps_backwards, free_case),
        cmocka_unit_test_teardown(census_structure, free_case),
        cmocka_unit_test_teardown(too_many_labels, free_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
