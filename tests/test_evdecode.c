/* test_evdecode.c: the decoders generated from the event registry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "read/evdecode.h"
#include "read/evextension.h"
#include "evwriter.h"
#include "testkit.h"

static void names_come_from_the_registry(void **state)
{
    (void)state;
    assert_string_equal(ev_name(162), "HEAP_PROF_SAMPLE_BEGIN");
    assert_string_equal(ev_name(166), "HEAP_BIO_PROF_SAMPLE_BEGIN");
    assert_string_equal(ev_name(18), "BLOCK_MARKER");
    assert_string_equal(ev_name(91), "BLOCKS_SIZE");
    assert_string_equal(ev_name(7), "SHUTDOWN");   /* retired tags stay listed */
    assert_null(ev_name(999));
    static const uint16_t required[] = { 18, 19, 29, 30, 43, 49, 50, 51, 58, 91, 160, 161,
                                         162, 163, 164, 165, 166, 167, 168, 169 };
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        assert_non_null(ev_name(required[i]));
}

static void min_sizes_add_up_the_fields(void **state)
{
    (void)state;
    assert_int_equal(ev_min_size(162), 8);
    assert_int_equal(ev_min_size(166), 16);
    assert_int_equal(ev_min_size(43), 16);
    assert_int_equal(ev_min_size(163), 1 + 8 + 1);
    assert_int_equal(ev_min_size(164), 1 + 8 + 1);
    assert_int_equal(ev_min_size(161), 4 + 3 + 1);
}

static void decodes_a_cost_centre_sample(void **state)
{
    (void)state;
    struct evw_payload p = { .len = 0 };
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 123456789012ull);
    evw_p_u8(&p, 3);
    evw_p_u32(&p, 7);
    evw_p_u32(&p, 8);
    evw_p_u32(&p, 0xfffffffeu);
    union ev_body b;
    assert_int_equal(ev_decode(163, p.bytes, p.len, &b), EV_DECODED);
    assert_int_equal(b.HEAP_PROF_SAMPLE_COST_CENTRE.bytes, 123456789012ull);
    assert_int_equal(b.HEAP_PROF_SAMPLE_COST_CENTRE.stack.depth, 3);
    assert_int_equal(ev_ccs_id(&b.HEAP_PROF_SAMPLE_COST_CENTRE.stack, 2), 0xfffffffeu);
    /* A depth larger than the payload holds is short, not a read past the end. */
    assert_int_equal(ev_decode(163, p.bytes, p.len - 1, &b), EV_SHORT);
}

static void trailing_bytes_are_ignored_and_missing_nul_ends_at_payload(void **state)
{
    (void)state;
    struct evw_payload p = { .len = 0 };
    evw_p_u64(&p, 42);
    evw_p_u32(&p, 0xdeadbeef);   /* a field from a later GHC */
    union ev_body b;
    assert_int_equal(ev_decode(162, p.bytes, p.len, &b), EV_DECODED);
    assert_int_equal(b.HEAP_PROF_SAMPLE_BEGIN.era, 42);

    p.len = 0;
    evw_p_u8(&p, 0);
    evw_p_u64(&p, 16);
    evw_p_bytes(&p, "NO_NUL", 6);
    assert_int_equal(ev_decode(164, p.bytes, p.len, &b), EV_DECODED);
    assert_int_equal(b.HEAP_PROF_SAMPLE_STRING.label.len, 6);
    assert_memory_equal(b.HEAP_PROF_SAMPLE_STRING.label.ptr, "NO_NUL", 6);

    assert_int_equal(ev_decode(162, p.bytes, 7, &b), EV_SHORT);
    assert_int_equal(ev_decode(4321, p.bytes, p.len, &b), EV_UNKNOWN);

    /* Arguments: each ends with its NUL; bytes after the last one are a later field. */
    p.len = 0;
    evw_p_u32(&p, 0);
    evw_p_str(&p, "prog");
    evw_p_str(&p, "+RTS");
    evw_p_bytes(&p, "\xab\xcd\xef", 3);
    assert_int_equal(ev_decode(30, p.bytes, p.len, &b), EV_DECODED);
    assert_int_equal(b.PROGRAM_ARGS.args.len, 10);
    /* No NUL at all: one argument whose NUL the writer left out. */
    p.len = 0;
    evw_p_u32(&p, 0);
    evw_p_bytes(&p, "prog", 4);
    assert_int_equal(ev_decode(30, p.bytes, p.len, &b), EV_DECODED);
    assert_int_equal(b.PROGRAM_ARGS.args.len, 4);
}

/* The extension rule (evextension.h): a surplus is allowed when its type's first event
 * set it; another surplus is damage, unless EXTENSION_CONFIRM events in a row agree on it
 * and none on the first (then the first was the damaged one). */
static void extension_rule_tells_a_surplus_from_damage(void **state)
{
    (void)state;
    struct ev_extension x;
    ev_extension_init(&x);
    assert_int_equal(ev_extension_check(&x, 163, 14, 13), EXTENSION_DAMAGE);  /* short */
    assert_int_equal(ev_extension_check(&x, 163, 14, 17), EXTENSION_FITS);    /* sets 3 */
    assert_int_equal(ev_extension_surplus(&x, 163), 3);
    assert_int_equal(ev_extension_check(&x, 163, 18, 21), EXTENSION_FITS);
    assert_int_equal(ev_extension_check(&x, 163, 18, 18), EXTENSION_DAMAGE);
    assert_int_equal(ev_extension_check(&x, 163, 18, 25), EXTENSION_DAMAGE);
    assert_int_equal(ev_extension_check(&x, 163, 18, 21), EXTENSION_FITS);
    /* Each type has its own: ticks exact. */
    assert_int_equal(ev_extension_check(&x, 167, 17, 17), EXTENSION_FITS);
    assert_int_equal(ev_extension_check(&x, 167, 17, 20), EXTENSION_DAMAGE);
    assert_int_equal(ev_extension_surplus(&x, 167), 0);
    /* A first event that was damage: the others agree on 0, three in a row. */
    ev_extension_init(&x);
    assert_int_equal(ev_extension_check(&x, 163, 14, 30), EXTENSION_FITS);
    assert_int_equal(ev_extension_check(&x, 163, 14, 14), EXTENSION_DAMAGE);
    assert_int_equal(ev_extension_check(&x, 163, 18, 18), EXTENSION_DAMAGE);
    assert_int_equal(ev_extension_check(&x, 163, 14, 14), EXTENSION_REVISED);
    assert_int_equal(ev_extension_surplus(&x, 163), 0);
    assert_int_equal(ev_extension_check(&x, 163, 14, 30), EXTENSION_DAMAGE);
    /* Streaks are broken by the set surplus: scattered damage never replaces it. */
    ev_extension_init(&x);
    assert_int_equal(ev_extension_check(&x, 163, 14, 14), EXTENSION_FITS);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(ev_extension_check(&x, 163, 14, 20), EXTENSION_DAMAGE);
        assert_int_equal(ev_extension_check(&x, 163, 14, 14), EXTENSION_FITS);
    }
    assert_int_equal(ev_extension_surplus(&x, 163), 0);
}

static void dump_lines_quote_strings(void **state)
{
    (void)state;
    struct evw_payload p = { .len = 0 };
    evw_p_u32(&p, 0);
    evw_p_str(&p, "./prog");
    evw_p_str(&p, "a \"b\"\n");
    union ev_body b;
    assert_int_equal(ev_decode(30, p.bytes, p.len, &b), EV_DECODED);
    struct testkit_memout m;
    ev_print_fields(testkit_memout_open(&m), 30, &b);
    char *text = testkit_memout_text(&m);
    assert_string_equal(text, " capset=0 args=[\"./prog\",\"a \\\"b\\\"\\x0a\"]");
    free(text);
}

/* A table expanded from the registry itself: every row decodes a payload of exactly its
 * minimum size; rows of integers alone refuse one byte less (a string may end at the end
 * of the payload, so rows with strings can legitimately decode shorter payloads). */
enum { TEXT_U8 = 0, TEXT_U16 = 0, TEXT_U32 = 0, TEXT_U64 = 0, TEXT_STR = 1, TEXT_ARGV = 1,
       TEXT_CCS = 0 };

static void every_registry_row_decodes_its_minimum(void **state)
{
    (void)state;
    static const struct { uint16_t tag; int text_fields; } rows[] = {
#define TEXT_FIELD(type, name, doc) +TEXT_##type
#define ROW(tag, NAME, FIELDS, ROLE) { tag, 0 FIELDS(TEXT_FIELD) },
        EV_RELATION(ROW)
#undef ROW
#undef TEXT_FIELD
    };
    static unsigned char zeros[256];
    int integer_rows = 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        union ev_body b;
        size_t min = ev_min_size(rows[i].tag);
        assert_true(min < sizeof zeros);
        assert_int_equal(ev_decode(rows[i].tag, zeros, min, &b), EV_DECODED);
        if (min > 0 && rows[i].text_fields == 0) {
            assert_int_equal(ev_decode(rows[i].tag, zeros, min - 1, &b), EV_SHORT);
            integer_rows++;
        }
        assert_non_null(ev_name(rows[i].tag));
    }
    assert_true(integer_rows > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_come_from_the_registry),
        cmocka_unit_test(min_sizes_add_up_the_fields),
        cmocka_unit_test(decodes_a_cost_centre_sample),
        cmocka_unit_test(trailing_bytes_are_ignored_and_missing_nul_ends_at_payload),
        cmocka_unit_test(extension_rule_tells_a_surplus_from_damage),
        cmocka_unit_test(dump_lines_quote_strings),
        cmocka_unit_test(every_registry_row_decodes_its_minimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
