/* test_ipe.c: IPE events (169) in the layouts GHC writes, decoded by their content.
 *
 * GHC 9.x writes the info pointer and six NUL-terminated strings, the last being
 * "file:span"; a runtime that declares the length it writes is read as such. GHC 9.6
 * and later (every IPE event of real 9.6.6 and 9.10.3 eventlogs) declare one byte more
 * (rts/eventlog/EventLog.c, postIPE, counts the ':' twice): a reader that trusts the
 * length swallows the first byte of the next event and loses step. A layout with the file and the span as two strings decodes into srcloc and
 * src_span. Each case checks the fields and that the events after the IPEs (a census)
 * come through undamaged.
 *
 * Then the table's view (ipe_names_view), what the live server's drawings read: it
 * answers for its bands with what the table said when it was made, while the table goes
 * on taking events, new tables and second events for the same addresses, in another
 * thread (under ASan, a record freed under a view is a failure).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "census/ipe.h"
#include "model/bands.h"
#include "read/evdecode.h"
#include "read/evread.h"
#include "evwriter.h"
#include "robust_run.h"
#include "read/source.h"

enum layout { SIX_STRINGS, SIX_STRINGS_DECLARED_LONGER, SEVEN_STRINGS };

static void ipe_payload(struct evw_payload *p, uint64_t info, enum layout layout)
{
    char name[32];
    snprintf(name, sizeof name, "table_%llu", (unsigned long long)info);
    /* the closure type a number, as GHC writes it since 9.10; SEVEN_STRINGS: the source
     * file and span apart */
    struct evw_ipe e = { name, "21", "Maybe Int", "go", "Main",
                         layout == SEVEN_STRINGS ? "src/Main.hs" : "src/Main.hs:12:3-14" };
    evw_p_reset(p);
    evw_p_ipe(p, info, &e);
    if (layout == SEVEN_STRINGS)
        evw_p_str(p, "12:3-14");
}

/* An IPE event as the writer lays it out: a variable-size event whose declared length is
 * the payload's, or one more for GHC 9.6+. */
static void ipe_event(struct evw *w, uint64_t time, uint64_t info, enum layout layout)
{
    static struct evw_payload p;
    ipe_payload(&p, info, layout);
    evw_event_declared(w, EV_IPE, time, &p,
                       (uint16_t)(p.len + (layout == SIX_STRINGS_DECLARED_LONGER)));
}

/* A -hi eventlog: five IPE events, then one census naming two info tables. */
static struct evw *hi_eventlog(enum layout layout)
{
    struct evw *w = evw_new();
    evw_hi_header(w);
    const char *argv[] = { "prog", "+RTS", "-hi", "-l" };
    evw_program_args(w, 0, argv, 4);
    for (uint64_t i = 0; i < 5; i++)
        ipe_event(w, 1, 0x4000 + i, layout);
    evw_prof_begin(w, 2, 8, 100000000);
    evw_two_band_census(w, 10, "16384", 48, "16385", 96);
    evw_data_end(w);
    return w;
}

/* One case a layout (its enum layout the state). */
static void check_layout(void **state)
{
    enum layout layout = *(const enum layout *)*state;
    struct evw *w = hi_eventlog(layout);
    struct source_memory mem = { w->data, w->len, 0, 3 };   /* 3-byte reads */
    struct ev_reader *r = ev_reader_new((struct ev_source){ .read = source_memory_read, .ctx = &mem }, 0);
    struct ev_error err;
    struct ev_event ev;
    assert_int_equal(ev_reader_read_header(r, &err), EV_OK);
    int ipes = 0, others = 0;
    enum ev_status st;
    while ((st = ev_reader_next(r, &ev, &err)) == EV_OK) {
        if (ev.tag != 169) {
            others++;
            continue;
        }
        union ev_body b;
        assert_int_equal(ev_decode(ev.tag, ev.payload, ev.size, &b), EV_DECODED);
        const struct ev_IPE *ipe = &b.IPE;
        assert_int_equal(ipe->info, 0x4000 + ipes);
        char name[32];
        snprintf(name, sizeof name, "table_%d", 0x4000 + ipes);
        assert_int_equal(ipe->table_name.len, strlen(name));
        assert_memory_equal(ipe->table_name.ptr, name, strlen(name));
        assert_int_equal(ipe->type_desc.len, 9);
        assert_memory_equal(ipe->type_desc.ptr, "Maybe Int", 9);
        assert_memory_equal(ipe->module.ptr, "Main", 4);
        if (layout == SEVEN_STRINGS) {
            assert_int_equal(ipe->srcloc.len, 11);
            assert_memory_equal(ipe->srcloc.ptr, "src/Main.hs", 11);
            assert_int_equal(ipe->src_span.len, 7);
            assert_memory_equal(ipe->src_span.ptr, "12:3-14", 7);
        } else {
            assert_int_equal(ipe->srcloc.len, 19);
            assert_memory_equal(ipe->srcloc.ptr, "src/Main.hs:12:3-14", 19);
            assert_int_equal(ipe->src_span.len, 0);
        }
        ipes++;
    }
    if (st != EV_END)
        fail_msg("reader stopped: %s", err.what);
    assert_int_equal(ipes, 5);
    assert_int_equal(others, 1 + 1 + 4);   /* args, prof begin, the census's four */
    ev_reader_free(r);

    /* And the whole pipeline: the census comes out, no damage. */
    struct robust_run run;
    robust_convert(w->data, w->len, true, &run);
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    assert_false(run.result.damaged);
    assert_non_null(strstr(run.hp, "\n16384\t48\n16385\t96\n"));
    robust_run_free(&run);
    evw_free(w);
}

/* The written size is only ever shortened for IPE, by one byte, when the content says so. */
static void written_size_rules(void **state)
{
    (void)state;
    struct evw_payload p;
    ipe_payload(&p, 1, SIX_STRINGS);
    p.bytes[p.len] = 0;   /* the next event's first byte */
    assert_int_equal(ev_payload_written(169, p.bytes, p.len), p.len);
    assert_int_equal(ev_payload_written(169, p.bytes, p.len + 1), p.len);
    assert_int_equal(ev_payload_written(164, p.bytes, p.len + 1), p.len + 1);
    ipe_payload(&p, 1, SEVEN_STRINGS);
    assert_int_equal(ev_payload_written(169, p.bytes, p.len), p.len);
    assert_int_equal(ev_payload_written(169, p.bytes, 5), 5);
    assert_int_equal(ev_payload_written(169, p.bytes, 0), 0);
}

/* --- an IPE event ending its block ------------------------------------------------ */

/* GHC 9.10.3 flushes its 2 MiB global block right after an IPE event now and then (2 of
 * 62,281 in tests/data/hi-many-g910): the block marker declares the end of what was
 * written, and the event, declared one byte longer, declares an end one byte past it. */
enum block_end_case {
    IPE_ENDS_BLOCK,            /* the last IPE declared one byte past the block: an event */
    IPE_ENDS_BLOCK_AFTER_DAMAGE, /* the same, reached by resynchronising after garbage */
    IPE_CROSSES_BY_TWO,        /* declared two bytes past: damage */
    MARKER_CROSSES_BY_ONE,     /* another event declared one byte past: damage */
};

/* A -hi eventlog in blocks: the global buffer's block holding the program's arguments and
 * three IPE events (0x4000..0x4002), closed after the last as the case says; then a block
 * with one census naming all three. */
static struct evw *blocked_eventlog(enum block_end_case c)
{
    struct evw *w = evw_new();
    evw_header_begin(w);
    evw_declare(w, EV_BLOCK_MARKER, 14, "Block marker");
    evw_hi_declarations(w);
    evw_declare(w, EV_USER_MARKER, -1, "User marker");
    evw_header_end(w);
    size_t block = evw_block_begin(w, 1, 0xffff);
    const char *argv[] = { "prog", "+RTS", "-hi", "-l" };
    evw_program_args(w, 1, argv, 4);
    if (c == IPE_ENDS_BLOCK_AFTER_DAMAGE)
        evw_raw(w, "\x07\x07\x07\x07\x07", 5);   /* no event starts with these */
    ipe_event(w, 2, 0x4000, SIX_STRINGS_DECLARED_LONGER);
    ipe_event(w, 2, 0x4001, SIX_STRINGS_DECLARED_LONGER);
    struct evw_payload p;
    if (c == MARKER_CROSSES_BY_ONE) {
        ipe_event(w, 2, 0x4002, SIX_STRINGS_DECLARED_LONGER);
        evw_p_reset(&p);
        evw_p_bytes(&p, "phase", 5);
        evw_event_declared(w, EV_USER_MARKER, 3, &p, 6);
    } else {
        ipe_payload(&p, 0x4002, SIX_STRINGS);
        evw_event_declared(w, EV_IPE, 2, &p,
                           (uint16_t)(p.len + (c == IPE_CROSSES_BY_TWO ? 2 : 1)));
    }
    evw_block_end(w, block, 5);
    block = evw_block_begin(w, 6, 0xffff);
    evw_prof_begin(w, 6, 8, 100000000);
    evw_sample_begin(w, 10, 0);
    evw_sample_string(w, 11, "0x4000", 48);
    evw_sample_string(w, 12, "0x4001", 96);
    evw_sample_string(w, 13, "0x4002", 16);
    evw_sample_end(w, 14, 0);
    evw_block_end(w, block, 15);
    evw_data_end(w);
    return w;
}

/* The IPE events a reader returns from w, read 3 bytes at a time (so the declared byte
 * past the block is often not in the buffer yet); *damaged: whether it reported any. */
static int ipes_read(const struct evw *w, bool *damaged)
{
    struct source_memory mem = { w->data, w->len, 0, 3 };
    struct ev_reader *r = ev_reader_new((struct ev_source){ .read = source_memory_read, .ctx = &mem }, 0);
    ev_reader_recover(r, true);
    struct ev_error err;
    struct ev_event ev;
    assert_int_equal(ev_reader_read_header(r, &err), EV_OK);
    int ipes = 0;
    enum ev_status st;
    *damaged = false;
    while ((st = ev_reader_next(r, &ev, &err)) == EV_OK || st == EV_SKIPPED) {
        if (st == EV_SKIPPED) {
            *damaged = true;
            continue;
        }
        if (ev.tag != EV_IPE)
            continue;
        union ev_body b;
        assert_int_equal(ev_decode(ev.tag, ev.payload, ev.size, &b), EV_DECODED);
        assert_int_equal(b.IPE.srcloc.len, 19);   /* "src/Main.hs:12:3-14", whole */
        ipes++;
    }
    assert_int_equal(st, EV_END);
    ev_reader_free(r);
    return ipes;
}

static void ipe_at_block_end(void **state)
{
    enum block_end_case c = *(const enum block_end_case *)*state;
    struct evw *w = blocked_eventlog(c);
    bool damaged;
    int ipes = ipes_read(w, &damaged);
    struct robust_run run;
    robust_convert_to(w->data, w->len, false, FORMAT_JSON, &run);
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    switch (c) {
    case IPE_ENDS_BLOCK:
    case IPE_ENDS_BLOCK_AFTER_DAMAGE:
        /* every IPE event read, and named in the outputs */
        assert_int_equal(ipes, 3);
        assert_int_equal(damaged, c == IPE_ENDS_BLOCK_AFTER_DAMAGE);
        assert_int_equal(run.result.damaged, c == IPE_ENDS_BLOCK_AFTER_DAMAGE);
        assert_false(robust_warned(&run, "crosses the end of its block"));
        assert_non_null(strstr(run.hp, "\"label\": \"table_16386 :: Maybe Int at "
                                       "src/Main.hs:12:3-14\""));
        break;
    case IPE_CROSSES_BY_TWO:
    case MARKER_CROSSES_BY_ONE:
        /* what the format cannot explain stays damage */
        assert_true(damaged);
        assert_true(robust_warned(&run, c == IPE_CROSSES_BY_TWO
                                            ? "event type 169 of 75 bytes crosses the end"
                                            : "event type 58 of 18 bytes crosses the end"));
        break;
    }
    assert_non_null(strstr(run.hp, "\"label\": \"table_16384 :: Maybe Int at "
                                   "src/Main.hs:12:3-14\""));
    robust_run_free(&run);
    evw_free(w);
}

/* An IPE event of the table at address info, of type type (the other parts fixed). */
static void add_table(struct ipe_names *t, uint64_t info, const char *type)
{
    const struct ev_IPE ipe = {
        .info = info, .table_name = { "t_info", 6 }, .closure_desc = { "21", 2 },
        .type_desc = { type, strlen(type) }, .label = { "go", 2 }, .module = { "Main", 4 },
        .srcloc = { "Main.hs:3:1-9", 13 },
    };
    const char *key;
    size_t len;
    assert_int_equal(ipe_names_add(t, &ipe, &key, &len), TABLE_OK);
}

/* The type the view (or table) says of the table a -hi label prints, or NULL. */
static const char *type_of(const struct ipe_names *t, const char *label)
{
    const struct ipe_info *info = ipe_names_info(t, label, strlen(label));
    return info ? info->type_desc : NULL;
}

#define VIEW_TABLES 16

/* The drawing's thread: the view says "Old" of every band, again and again. */
static void *read_view(void *arg)
{
    const struct ipe_names *v = arg;
    char label[24];
    long wrong = 0;
    for (int round = 0; round < 2000; round++)
        for (int i = 0; i < VIEW_TABLES; i++) {
            snprintf(label, sizeof label, "0x%x", 0x100 + i);
            const char *type = type_of(v, label);
            wrong += !type || strcmp(type, "Old") != 0;
            const struct ipe_info *info = ipe_names_info(v, label, strlen(label));
            size_t len;
            char *desc = info ? ipe_info_describe(info, &len) : NULL;
            wrong += !desc || strcmp(desc, "t_info :: Old at Main.hs:3:1-9") != 0;
            free(desc);
        }
    return (void *)wrong;
}

static void view_while_adding(void **state)
{
    (void)state;
    struct ipe_names *t = ipe_names_new(1000);
    struct bands *b = bands_new();
    assert_non_null(t);
    assert_non_null(b);
    char label[24];
    uint32_t band;
    for (int i = 0; i < VIEW_TABLES; i++) {
        add_table(t, 0x100 + (unsigned)i, "Old");
        snprintf(label, sizeof label, "0x%x", 0x100 + i);
        assert_int_equal(bands_string(b, label, strlen(label), &band), TABLE_OK);
    }
    assert_int_equal(bands_string(b, "0x999", 5, &band), TABLE_OK);   /* no IPE event yet */
    struct ipe_names *v = ipe_names_view(t, b);
    assert_non_null(v);
    pthread_t reader;
    assert_int_equal(pthread_create(&reader, NULL, read_view, v), 0);
    /* meanwhile: second events for the viewed tables, and new tables */
    for (int round = 0; round < 50; round++)
        for (int i = 0; i < VIEW_TABLES; i++)
            add_table(t, 0x100 + (unsigned)i, "New");
    add_table(t, 0x999, "Late");
    void *wrong;
    assert_int_equal(pthread_join(reader, &wrong), 0);
    assert_int_equal((long)wrong, 0);
    /* the view says what the table said when it was made; the table, what it says now */
    assert_null(type_of(v, "0x999"));
    assert_null(type_of(v, "0x12345"));
    assert_string_equal(type_of(t, "0x100"), "New");
    assert_string_equal(type_of(t, "0x999"), "Late");
    ipe_names_free(v);
    add_table(t, 0x100, "Newer");   /* no view left: the replaced records are freed */
    assert_string_equal(type_of(t, "0x100"), "Newer");
    struct ipe_names *w = ipe_names_view(t, b);   /* a later view sees the later events */
    assert_non_null(w);
    assert_string_equal(type_of(w, "0x999"), "Late");
    assert_string_equal(type_of(w, "0x101"), "New");
    ipe_names_free(w);
    ipe_names_free(t);
    bands_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        { "ipe_six_strings", check_layout, NULL, NULL, &(enum layout){ SIX_STRINGS } },
        { "ipe_declared_one_byte_longer", check_layout, NULL, NULL,
          &(enum layout){ SIX_STRINGS_DECLARED_LONGER } },
        { "ipe_seven_strings", check_layout, NULL, NULL, &(enum layout){ SEVEN_STRINGS } },
        cmocka_unit_test(written_size_rules),
        { "ipe_ends_its_block", ipe_at_block_end, NULL, NULL,
          &(enum block_end_case){ IPE_ENDS_BLOCK } },
        { "ipe_ends_its_block_after_damage", ipe_at_block_end, NULL, NULL,
          &(enum block_end_case){ IPE_ENDS_BLOCK_AFTER_DAMAGE } },
        { "ipe_crossing_by_two_is_damage", ipe_at_block_end, NULL, NULL,
          &(enum block_end_case){ IPE_CROSSES_BY_TWO } },
        { "marker_crossing_by_one_is_damage", ipe_at_block_end, NULL, NULL,
          &(enum block_end_case){ MARKER_CROSSES_BY_ONE } },
        cmocka_unit_test(view_while_adding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
