/* test_evread.c: the streaming reader on built eventlogs.
 *
 * Every truncation point of a small log, one-byte reads, unknown and undeclared event
 * types, variable and fixed sizes, and inputs that are not eventlogs at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "read/evread.h"
#include "evwriter.h"

struct read_result {
    enum ev_status header;
    enum ev_status last;
    size_t events;
    uint16_t tags[64];
    uint32_t sizes[64];
    struct ev_error err;
};

static void read_all(const unsigned char *data, size_t len, size_t slice, size_t buffer,
                     struct read_result *out)
{
    struct source_memory mem = { data, len, 0, slice };
    struct ev_source src = { .read = source_memory_read, .ctx = &mem };
    struct ev_reader *r = ev_reader_new(src, buffer);
    assert_non_null(r);
    memset(out, 0, sizeof *out);
    out->header = ev_reader_read_header(r, &out->err);
    if (out->header == EV_OK) {
        struct ev_event ev;
        while ((out->last = ev_reader_next(r, &ev, &out->err)) == EV_OK) {
            if (out->events < 64) {
                out->tags[out->events] = ev.tag;
                out->sizes[out->events] = ev.size;
            }
            out->events++;
        }
    }
    ev_reader_free(r);
}

/* A small log: a declared type nobody knows (tag 300, fixed 3 bytes), a variable-size
 * marker, and two heap samples. */
static struct evw *small_log(void)
{
    struct evw *w = evw_new();
    evw_header_begin(w);
    evw_declare(w, 162, 8, "Start of heap profile sample");
    evw_declare(w, 165, 8, "End of heap profile sample");
    evw_declare(w, 58, -1, "User marker");
    evw_declare(w, 300, 3, "Something from the future");
    evw_declare(w, 164, -1, "Heap profile string sample");
    evw_header_end(w);
    struct evw_payload p = { .len = 0 };
    evw_p_bytes(&p, "abc", 3);
    evw_event(w, 300, 5, &p);
    evw_marker(w, 10, "phase one");
    evw_sample_begin(w, 20, 0);
    evw_sample_string(w, 21, "THUNK", 4096);
    evw_sample_end(w, 22, 0);
    evw_data_end(w);
    return w;
}

static void reads_every_event_with_declared_sizes(void **state)
{
    (void)state;
    struct evw *w = small_log();
    struct read_result res;
    read_all(w->data, w->len, 0, 0, &res);
    assert_int_equal(res.header, EV_OK);
    assert_int_equal(res.last, EV_END);
    assert_int_equal(res.events, 5);
    assert_int_equal(res.tags[0], 300);
    assert_int_equal(res.sizes[0], 3);
    assert_int_equal(res.tags[1], 58);
    assert_int_equal(res.sizes[1], 9);
    assert_int_equal(res.tags[3], 164);
    assert_int_equal(res.sizes[3], 1 + 8 + 6);
    evw_free(w);
}

static void one_byte_reads_give_the_same_events(void **state)
{
    (void)state;
    struct evw *w = small_log();
    struct read_result whole, bytewise;
    read_all(w->data, w->len, 0, 0, &whole);
    read_all(w->data, w->len, 1, 0, &bytewise);
    assert_int_equal(bytewise.last, EV_END);
    assert_int_equal(bytewise.events, whole.events);
    assert_memory_equal(bytewise.tags, whole.tags, sizeof whole.tags);
    evw_free(w);
}

/* Cut the log at every byte: the header cut is an error, a data cut is damage at an
 * offset within the file, and the events before the cut are all returned. */
static void every_truncation_point_is_damage_not_a_crash(void **state)
{
    (void)state;
    struct evw *w = small_log();
    struct read_result full;
    read_all(w->data, w->len, 0, 0, &full);
    size_t data_start = 0;
    for (size_t cut = 0; cut < w->len; cut++) {
        struct read_result res;
        read_all(w->data, cut, 7, 0, &res);
        if (res.header != EV_OK) {
            assert_true(res.header == EV_DAMAGED || res.header == EV_NOT_EVENTLOG);
            assert_true(res.err.offset <= cut);
            assert_true(res.err.what[0] != '\0');
            continue;
        }
        if (!data_start)
            data_start = cut;
        assert_int_equal(res.last, EV_DAMAGED);
        assert_true(res.err.has_offset);
        assert_true(res.err.offset <= cut);
        assert_true(res.events <= full.events);
        assert_memory_equal(res.tags, full.tags, res.events * sizeof *res.tags);
    }
    assert_true(data_start > 0);
    evw_free(w);
}

/* A new eventlog whose header declares the one event type tag, of size size. */
static struct evw *one_type_log(uint16_t tag, int16_t size, const char *description)
{
    struct evw *w = evw_new();
    evw_header_begin(w);
    evw_declare(w, tag, size, description);
    evw_header_end(w);
    return w;
}

/* The reading ended in damage at offset, and the error says what. */
static void assert_damaged_at(const struct read_result *res, size_t offset, const char *what)
{
    assert_int_equal(res->last, EV_DAMAGED);
    assert_int_equal(res->err.offset, offset);
    if (!strstr(res->err.what, what))
        fail_msg("error \"%s\" lacks \"%s\"", res->err.what, what);
}

static void a_cut_inside_an_event_names_its_offset(void **state)
{
    (void)state;
    struct evw *w = small_log();
    size_t end_marker = w->len - 2;       /* where the 0xffff marker starts */
    size_t sample_end = end_marker - 18;  /* the SAMPLE_END event: 2 + 8 + 8 bytes */
    struct read_result res;
    read_all(w->data, sample_end + 5, 0, 0, &res);
    assert_damaged_at(&res, sample_end, "ends inside an event");
    read_all(w->data, end_marker, 0, 0, &res);
    assert_int_equal(res.events, 5);
    assert_damaged_at(&res, end_marker, "without the end-of-data marker");
    evw_free(w);
}

static void an_undeclared_event_type_is_damage(void **state)
{
    (void)state;
    struct evw *w = one_type_log(162, 8, "Start of heap profile sample");
    evw_sample_begin(w, 1, 0);
    size_t garbage_at = w->len;
    evw_u16(w, 777);
    evw_u64(w, 2);
    evw_data_end(w);
    struct read_result res;
    read_all(w->data, w->len, 0, 0, &res);
    assert_int_equal(res.events, 1);
    assert_damaged_at(&res, garbage_at, "event type 777 is not declared");
    evw_free(w);
}

static void variable_sizes_zero_and_largest(void **state)
{
    (void)state;
    struct evw *w = one_type_log(58, -1, "User marker");
    static struct evw_payload p;
    p.len = 0;
    evw_event(w, 58, 1, &p);
    memset(p.bytes, 'x', 65535);
    p.len = 65535;
    evw_event(w, 58, 2, &p);
    evw_data_end(w);
    struct read_result res;
    read_all(w->data, w->len, 1000, 1, &res);   /* the smallest buffer the reader allows */
    assert_int_equal(res.last, EV_END);
    assert_int_equal(res.events, 2);
    assert_int_equal(res.sizes[0], 0);
    assert_int_equal(res.sizes[1], 65535);
    evw_free(w);
}

static void not_an_eventlog(void **state)
{
    (void)state;
    static const char *inputs[] = { "", "JOB \"x\"\n", "hdr", "\177ELF\002\001\001" };
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        struct read_result res;
        read_all((const unsigned char *)inputs[i], strlen(inputs[i]), 0, 0, &res);
        assert_int_equal(res.header, EV_NOT_EVENTLOG);
        assert_non_null(strstr(res.err.what, "not an eventlog"));
    }
}

static void a_negative_size_other_than_variable_is_refused(void **state)
{
    (void)state;
    struct evw *w = one_type_log(1, -2, "odd");
    struct read_result res;
    read_all(w->data, w->len, 0, 0, &res);
    assert_int_equal(res.header, EV_DAMAGED);
    assert_non_null(strstr(res.err.what, "size -2"));
    evw_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_every_event_with_declared_sizes),
        cmocka_unit_test(one_byte_reads_give_the_same_events),
        cmocka_unit_test(every_truncation_point_is_damage_not_a_crash),
        cmocka_unit_test(a_cut_inside_an_event_names_its_offset),
        cmocka_unit_test(an_undeclared_event_type_is_damage),
        cmocka_unit_test(variable_sizes_zero_and_largest),
        cmocka_unit_test(not_an_eventlog),
        cmocka_unit_test(a_negative_size_other_than_variable_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
