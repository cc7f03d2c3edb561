/* test_ipe.c: IPE events (169) in the layouts GHC writes, decoded by their content.
 *
 * GHC 9.x writes the info pointer and six NUL-terminated strings, the last being
 * "file:span"; a runtime that declares the length it writes is read as such. GHC 9.6
 * and later (every IPE event of real 9.6.6 and 9.10.3 eventlogs) declare one byte more
 * (rts/eventlog/EventLog.c, postIPE, counts the ':' twice): a reader that trusts the
 * length swallows the first byte of the next event and loses step. A layout with the file and the span as two strings decodes into srcloc and
 * src_span. Each case checks the fields and that the events after the IPEs (a census)
 * come through undamaged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

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
    evw_p_reset(p);
    evw_p_u64(p, info);
    evw_p_str(p, name);
    evw_p_str(p, "21");                    /* closure type, as a number since 9.10 */
    evw_p_str(p, "Maybe Int");
    evw_p_str(p, "go");
    evw_p_str(p, "Main");
    if (layout == SEVEN_STRINGS) {
        evw_p_str(p, "src/Main.hs");
        evw_p_str(p, "12:3-14");
    } else {
        evw_p_str(p, "src/Main.hs:12:3-14");
    }
}

/* An IPE event as the writer lays it out: a variable-size event whose declared length is
 * the payload's, or one more for GHC 9.6+. */
static void ipe_event(struct evw *w, uint64_t time, uint64_t info, enum layout layout)
{
    static struct evw_payload p;
    ipe_payload(&p, info, layout);
    evw_u16(w, 169);
    evw_u64(w, time);
    evw_u16(w, (uint16_t)(p.len + (layout == SIX_STRINGS_DECLARED_LONGER)));
    evw_raw(w, p.bytes, p.len);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        { "ipe_six_strings", check_layout, NULL, NULL, &(enum layout){ SIX_STRINGS } },
        { "ipe_declared_one_byte_longer", check_layout, NULL, NULL,
          &(enum layout){ SIX_STRINGS_DECLARED_LONGER } },
        { "ipe_seven_strings", check_layout, NULL, NULL, &(enum layout){ SEVEN_STRINGS } },
        cmocka_unit_test(written_size_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
