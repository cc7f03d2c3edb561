/* test_damage.c: real eventlogs cut short or with garbage inside (issue 5, "Damaged
 * files").
 *
 * The promise: a cut eventlog gives exactly the censuses that were complete before the
 * cut, no more (no half census) and no fewer, with a warning that names the offset and
 * what was kept; --strict makes that a failure that writes nothing. The expected censuses
 * of a cut come from the whole file: a census is complete at the end of its
 * HEAP_PROF_SAMPLE_END event, so a cut at byte X keeps those whose END ends at or before
 * X (biography censuses then come out sorted by time, as in the whole run).
 *
 * Cuts at every event boundary of a small real file, around every heap event of larger
 * ones, and at random bytes run in process (reader and assembler over memory, fast);
 * a sample of cuts also runs through convert_run to check the messages and --strict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "census/census.h"
#include "read/evread.h"
#include "robust_run.h"
#include "read/source.h"

/* Censuses as text, "time:label=bytes,...;" each, in the order they were reported. */
struct frames {
    char **text;
    size_t count, cap;
    const struct census *census;
};

static int on_frame(void *ctx, const struct census_frame *f)
{
    struct frames *fr = ctx;
    size_t cap = 64, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    len += (size_t)snprintf(s, cap, "%llu:", (unsigned long long)f->time_ns);
    for (size_t i = 0; i < f->count; i++) {
        size_t label_len;
        const char *label = bands_label(census_bands(fr->census), f->entries[i].band, &label_len);
        size_t need = len + label_len + 32;
        if (need > cap) {
            cap = need * 2;
            s = realloc(s, cap);
            assert_non_null(s);
        }
        len += (size_t)snprintf(s + len, cap - len, "%.*s=%llu,", (int)label_len, label,
                                (unsigned long long)f->entries[i].bytes);
    }
    if (fr->count == fr->cap) {
        fr->cap = fr->cap ? fr->cap * 2 : 16;
        fr->text = realloc(fr->text, fr->cap * sizeof *fr->text);
        assert_non_null(fr->text);
    }
    fr->text[fr->count++] = s;
    return 0;
}

static void frames_free(struct frames *fr)
{
    for (size_t i = 0; i < fr->count; i++)
        free(fr->text[i]);
    free(fr->text);
    memset(fr, 0, sizeof *fr);
}

/* Reader and assembler over data[0..size): the censuses and the reader's last status. */
static enum ev_status assemble(const unsigned char *data, size_t size, struct frames *fr)
{
    struct source_memory mem = { data, size, 0, 0 };
    struct ev_reader *r = ev_reader_new((struct ev_source){ .read = source_memory_read, .ctx = &mem }, 1);
    struct census_options opt = { 0 };
    struct census_events events = { on_frame, NULL, NULL, fr, NULL, NULL };
    struct census *c = census_new(&opt, &events);
    assert_true(r && c);
    memset(fr, 0, sizeof *fr);
    fr->census = c;
    struct ev_error err = { 0 };
    struct ev_event ev;
    enum ev_status st = ev_reader_read_header(r, &err);
    if (st == EV_OK) {
        assert_int_equal(census_check_header(c, r, &err), CENSUS_OK);
        enum census_status cst = CENSUS_OK;
        while ((st = ev_reader_next(r, &ev, &err)) == EV_OK)
            if ((cst = census_feed(c, &ev, &err)) != CENSUS_OK)
                break;
        assert_true(cst == CENSUS_OK || cst == CENSUS_BAD_EVENT);
        assert_int_equal(census_finish(c, st == EV_END && cst == CENSUS_OK, &err), CENSUS_OK);
    }
    fr->census = NULL;
    census_free(c);
    ev_reader_free(r);
    return st;
}

/* A whole file and what it says about where censuses complete. */
struct layout {
    unsigned char *data;          /* the file, owned */
    size_t size;
    size_t data_start;            /* the first byte after the header */
    size_t *boundary;             /* the end offset of every event, in order */
    size_t events;
    size_t *census_end;           /* per census, in arrival order: end of its END event */
    uint64_t *census_time;
    size_t censuses;
    bool bio;                     /* biography censuses: reported sorted by time */
    size_t *heap_event;           /* indexes of BEGIN / END events (boundaries around them) */
    size_t heap_events;
    size_t *census_event;         /* indexes of every census event (162-166) */
    size_t census_events;
    struct frames full;           /* the whole file's censuses */
};

/* Appends x; the capacity doubles whenever the length reaches a power of two (growing by
 * one element at a time copied the whole vector each time: minutes under ASan). */
static void push(size_t **v, size_t *n, size_t x)
{
    if ((*n & (*n - 1)) == 0) {
        *v = realloc(*v, (*n ? 2 * *n : 1) * sizeof **v);
        assert_non_null(*v);
    }
    (*v)[(*n)++] = x;
}

/* The file at relpath and its layout, in L. */
static void load(const char *relpath, struct layout *L)
{
    memset(L, 0, sizeof *L);
    unsigned char *data = L->data = robust_read_data(relpath, &L->size);
    size_t size = L->size;
    struct source_memory mem = { data, size, 0, 0 };
    struct ev_reader *r = ev_reader_new((struct ev_source){ .read = source_memory_read, .ctx = &mem }, 1);
    struct ev_error err;
    struct ev_event ev;
    assert_int_equal(ev_reader_read_header(r, &err), EV_OK);
    L->data_start = (size_t)ev_reader_offset(r);
    uint64_t open_time = 0;
    size_t times = 0;
    while (ev_reader_next(r, &ev, &err) == EV_OK) {
        size_t end = (size_t)ev_reader_offset(r);
        if (ev.tag == 162 || ev.tag == 166) {
            open_time = ev.tag == 162 ? ev.time : 0;
            if (ev.tag == 166) {
                L->bio = true;
                for (int i = 8; i < 16; i++)
                    open_time = open_time << 8 | ev.payload[i];
            }
            push(&L->heap_event, &L->heap_events, L->events);
        } else if (ev.tag == 165) {
            push(&L->census_end, &L->censuses, end);
            L->census_time = realloc(L->census_time, L->censuses * sizeof *L->census_time);
            L->census_time[times++] = open_time;
            push(&L->heap_event, &L->heap_events, L->events);
        }
        if (ev.tag >= 162 && ev.tag <= 166)
            push(&L->census_event, &L->census_events, L->events);
        push(&L->boundary, &L->events, end);
    }
    ev_reader_free(r);
    assert_int_equal(assemble(data, size, &L->full), EV_END);
    assert_int_equal(L->full.count, L->censuses);
}

static void layout_free(struct layout *L)
{
    free(L->boundary);
    free(L->census_end);
    free(L->census_time);
    free(L->heap_event);
    free(L->census_event);
    frames_free(&L->full);
    free(L->data);
}

/* The censuses a cut at byte cut must give: the whole file's, restricted to those whose
 * END ends by the cut. For biography files the whole list is sorted by time (stably), so
 * census k of the list is the k-th arrival in that stable order. */
static size_t expected(const struct layout *L, size_t cut, const char **out)
{
    size_t n = 0, arrived = 0;
    while (arrived < L->censuses && L->census_end[arrived] <= cut)
        arrived++;
    if (!L->bio) {
        for (size_t i = 0; i < arrived; i++)
            out[n++] = L->full.text[i];
        return n;
    }
    /* Stable rank of arrival i among all arrivals by time = its index in the full list. */
    for (size_t j = 0; j < L->censuses; j++) {
        /* Which arrival is full-list entry j? The j-th in stable time order. */
        size_t rank_j = j, which = 0;
        for (size_t i = 0; i < L->censuses; i++) {
            size_t rank = 0;
            for (size_t k = 0; k < L->censuses; k++)
                if (L->census_time[k] < L->census_time[i] ||
                    (L->census_time[k] == L->census_time[i] && k < i))
                    rank++;
            if (rank == rank_j)
                which = i;
        }
        if (which < arrived)
            out[n++] = L->full.text[j];
    }
    return n;
}

static void check_cut(const struct layout *L, size_t cut)
{
    struct frames got;
    const char **want = malloc((L->censuses + 1) * sizeof *want);
    size_t n = expected(L, cut, want);
    enum ev_status st = assemble(L->data, cut, &got);
    if (cut < L->data_start)
        assert_true(st == EV_NOT_EVENTLOG || st == EV_DAMAGED);
    else
        assert_int_equal(st, EV_DAMAGED);
    if (got.count != n)
        fail_msg("cut at %zu: %zu censuses, expected %zu", cut, got.count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(got.text[i], want[i]);
    frames_free(&got);
    free(want);
}

/* Every event boundary of a whole real file; in the header, every byte of its first
 * declarations and every 13th after (each cut costs a reader, slow under ASan). */
static void cut_everywhere(const char *path)
{
    struct layout L;
    load(path, &L);
    for (size_t cut = 0; cut <= L.data_start; cut += cut < 64 ? 1 : 13)
        check_cut(&L, cut);
    check_cut(&L, L.data_start);
    for (size_t i = 0; i + 1 < L.events; i++)
        check_cut(&L, L.boundary[i]);
    layout_free(&L);
}

/* A byte after the header, at random (srand first, so a failure reproduces). */
static size_t random_cut(const struct layout *L)
{
    return L->data_start + (size_t)rand() % (L->size - L->data_start);
}

/* Cuts around events (the boundaries on both sides of each, of its neighbours, and the
 * byte before each) and at random bytes: where cuts matter, at a cost that stays small in
 * the sanitizer build (every boundary of a 15000-event file is not). */
struct cut_case {
    const char *path;
    bool every_census_event;   /* around every census event (BEGIN, entries, END), or
                                  only around each census's BEGIN and END */
    unsigned seed;
    int random_cuts;
};

static void cut_around(void **state)
{
    const struct cut_case *c = *state;
    struct layout L;
    load(c->path, &L);
    const size_t *events = c->every_census_event ? L.census_event : L.heap_event;
    size_t count = c->every_census_event ? L.census_events : L.heap_events;
    for (size_t i = 0; i < count; i++) {
        size_t e = events[i];
        for (size_t k = e ? e - 1 : 0; k <= e + 1 && k + 1 < L.events; k++) {
            check_cut(&L, L.boundary[k]);
            check_cut(&L, L.boundary[k] - 1);
        }
    }
    srand(c->seed);
    for (int i = 0; i < c->random_cuts; i++)
        check_cut(&L, random_cut(&L));
    layout_free(&L);
}

static void cut_treejoin_hb_every_event(void **state)
{
    (void)state;
    cut_everywhere("tests/data/treejoin-hb.eventlog");
}

/* Through convert_run: the warning names the offset and what was kept; the .hp holds
 * exactly those censuses; --strict fails with status 1 and commits nothing. */
static void cut_messages_and_strict(void **state)
{
    (void)state;
    struct layout L;
    load("share/examples/leak-hc.eventlog", &L);
    const char **want = malloc((L.censuses + 1) * sizeof *want);
    srand(7);
    for (int i = 0; i < 12; i++) {
        size_t cut = random_cut(&L);
        if (i == 0)
            cut = L.boundary[L.events / 2];   /* one exactly at a boundary */
        size_t n = expected(&L, cut, want);
        struct robust_run run;
        robust_convert(L.data, cut, false, &run);
        assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
        assert_true(run.result.damaged);
        assert_int_equal(robust_censuses(&run), (int)n);
        const struct ev_error *w = &run.result.warnings[0];
        assert_true(w->has_offset);
        assert_true(w->offset <= cut && w->offset + 65547 >= cut);
        char kept[64];
        snprintf(kept, sizeof kept, "kept %zu census", n);
        if (!strstr(w->what, kept) || !strstr(w->what, "the file ends"))
            fail_msg("cut at %zu: warning \"%s\" should say \"%s\"", cut, w->what, kept);
        robust_run_free(&run);

        robust_convert(L.data, cut, true, &run);
        assert_int_equal(run.result.exit_status, EXIT_BAD_INPUT);
        assert_true(run.result.error.has_offset);
        assert_non_null(strstr(run.result.error.what, "the file ends"));
        assert_null(run.hp);
        robust_run_free(&run);
    }
    free(want);
    layout_free(&L);
}

/* Garbage in the middle: bytes whose tag the header never declared are a damaged region;
 * the reader finds the events again after it and every census is kept; the warning says
 * where and how many bytes were skipped. With --stop-at-damage the reading stops there
 * and what came before is kept. */
static void garbage_in_the_middle(void **state)
{
    (void)state;
    struct layout L;
    load("tests/data/leak-hm.eventlog", &L);
    /* Just after the first census's END: that census stays, the second is lost. */
    size_t at = L.census_end[0];
    static const unsigned char junk[] = { 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    unsigned char *bad = malloc(L.size + sizeof junk);
    memcpy(bad, L.data, at);
    memcpy(bad + at, junk, sizeof junk);
    memcpy(bad + at + sizeof junk, L.data + at, L.size - at);
    struct robust_run run;
    robust_convert(bad, L.size + sizeof junk, false, &run);
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    struct robust_run clean;
    robust_convert(L.data, L.size, false, &clean);
    /* (Inserted bytes make the block's size wrong too, which is damage at its end; the
     * runtime overwrites, it never inserts.) */
    assert_int_equal(robust_censuses(&run), robust_censuses(&clean));
    robust_run_free(&clean);
    assert_true(robust_warned(&run, "damaged region of 12 bytes skipped"));
    assert_int_equal(run.result.warnings[0].offset, at);
    robust_run_free(&run);
    robust_stop_at_damage = true;
    robust_convert(bad, L.size + sizeof junk, false, &run);
    robust_stop_at_damage = false;
    assert_int_equal(run.result.exit_status, EXIT_SUCCESS_);
    assert_int_equal(robust_censuses(&run), 1);
    const struct ev_error *w = &run.result.warnings[0];
    assert_true(w->has_offset);
    assert_int_equal(w->offset, at);
    assert_non_null(strstr(w->what, "event type 48879 is not declared"));
    assert_non_null(strstr(w->what, "kept 1 census"));
    robust_run_free(&run);

    robust_convert(bad, L.size + sizeof junk, true, &run);
    assert_int_equal(run.result.exit_status, EXIT_BAD_INPUT);
    assert_int_equal(run.result.error.offset, at);
    assert_null(run.hp);
    robust_run_free(&run);
    free(bad);
    layout_free(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cut_treejoin_hb_every_event),
        { "cut_leak_hm_around_census_events", cut_around, NULL, NULL,
          &(struct cut_case){ "tests/data/leak-hm.eventlog", true, 3, 100 } },
        /* A larger -hc file. */
        { "cut_leak_hc_around_censuses_and_at_random", cut_around, NULL, NULL,
          &(struct cut_case){ "share/examples/leak-hc.eventlog", false, 5, 150 } },
        cmocka_unit_test(cut_messages_and_strict),
        cmocka_unit_test(garbage_in_the_middle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
