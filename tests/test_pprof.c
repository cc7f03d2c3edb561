/* test_pprof.c: the pprof writer (sink/pprof.h) read back with protobuf-c's own unpacker,
 * and GHC source locations split for its functions (census/srcloc.h).
 *
 * Source locations are rows: each of GHC's forms and the places that are no file. The
 * writer's profile is unpacked from what it wrote (plain, and gzipped through zlib's
 * inflate): the string table starts with "" and holds each string once, a byte that is
 * not UTF-8 is U+FFFD, equal frames are one location and one function with their file and
 * line, samples keep their stacks, values and label; a failed write says why. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "census/srcloc.h"
#include "sink/pprof.h"
#include "sink/profile.pb-c.h"
#include "testkit.h"

struct srcloc_case {
    const char *name, *text, *file;
    long line;
};

static const struct srcloc_case srclocs[] = {
    { "line:columns", "Main.hs:12:9-40", "Main.hs", 12 },
    { "a span over lines", "src/Data/Map.hs:(12,9)-(13,73)", "src/Data/Map.hs", 12 },
    { "a point", "leak.hs:17:37", "leak.hs", 17 },
    { "no span", "Main.hs", "Main.hs", 0 },
    { "an empty span after the file", "Main.hs:", "Main.hs", 0 },
    { "built in", "<built-in>", "", 0 },
    { "the whole module", "<entire-module>", "", 0 },
    { "nothing", "", "", 0 },
    { "no file, no span", ":", "", 0 },
    { "a colon in the directory", "C:/w/Main.hs:3:1-5", "C:/w/Main.hs", 3 },
};

static void srcloc_case(void **state)
{
    const struct srcloc_case *c = *state;
    size_t file_len;
    long line;
    srcloc_split(c->text, strlen(c->text), &file_len, &line);
    assert_int_equal(file_len, strlen(c->file));
    assert_memory_equal(c->text, c->file, file_len);
    assert_int_equal(line, c->line);
}

/* The profile the tests write: two sample types, four frames (one given twice, two whose
 * names read alike once made UTF-8), two samples. */
static struct pprof *sample_profile(void)
{
    struct pprof *p = pprof_new("prog +RTS -hc", 4);
    assert_non_null(p);
    assert_int_equal(pprof_sample_type(p, "samples", "count"), 0);
    assert_int_equal(pprof_sample_type(p, "cpu", "nanoseconds"), 0);
    assert_int_equal(pprof_period(p, "cpu", "nanoseconds", 1000000), 0);
    assert_int_equal(pprof_comment(p, "a comment"), 0);
    pprof_times(p, 7, 9);
    struct pprof_frame leaf = { "Main.go", 7, "Main.hs", 7, 12 };
    struct pprof_frame root = { "Main.main", 9, "Main.hs", 7, 3 };
    struct pprof_frame bad = { "bad\xff", 4, "", 0, 0 };
    /* reads as bad's name: one string, two functions */
    struct pprof_frame also_bad = { "bad\xfe", 4, "", 0, 0 };
    uint64_t d;
    assert_int_equal(pprof_location(p, &also_bad, &d), 0);
    uint64_t a, b, again, c;
    assert_int_equal(pprof_location(p, &leaf, &a), 0);
    assert_int_equal(pprof_location(p, &root, &b), 0);
    assert_int_equal(pprof_location(p, &leaf, &again), 0);
    assert_int_equal(pprof_location(p, &bad, &c), 0);
    assert_int_equal(a, again);
    assert_int_not_equal(a, b);
    uint64_t stack[] = { a, b };
    int64_t values[] = { 3, 3000000 };
    assert_int_equal(pprof_sample(p, stack, 2, values, "band", "go/main", 7), 0);
    int64_t more[] = { 1, 1000000 };
    assert_int_equal(pprof_sample(p, &c, 1, more, NULL, NULL, 0), 0);
    return p;
}

static Perftools__Profiles__Profile *written(bool gzip)
{
    struct pprof *p = sample_profile();
    struct testkit_memout m;
    assert_int_equal(pprof_write(p, testkit_memout_open(&m), gzip), 0);
    char *buf = testkit_memout_text(&m);
    size_t len = m.len;
    pprof_free(p);
    unsigned char *plain = (unsigned char *)buf;
    size_t plain_len = len;
    if (gzip) {
        assert_true(len > 2 && plain[0] == 0x1f && plain[1] == 0x8b);
        plain = malloc(1 << 16);
        assert_non_null(plain);
        z_stream z = { 0 };
        assert_int_equal(inflateInit2(&z, 31), Z_OK);
        z.next_in = (Bytef *)buf;
        z.avail_in = (uInt)len;
        z.next_out = plain;
        z.avail_out = 1 << 16;
        assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
        plain_len = z.total_out;
        inflateEnd(&z);
        free(buf);
    }
    Perftools__Profiles__Profile *profile =
        perftools__profiles__profile__unpack(NULL, plain_len, plain);
    free(plain);
    assert_non_null(profile);
    return profile;
}

static const char *text(const Perftools__Profiles__Profile *p, int64_t i)
{
    assert_true(i >= 0 && (size_t)i < p->n_string_table);
    return p->string_table[i];
}

static void check_profile(const Perftools__Profiles__Profile *p)
{
    assert_true(p->n_string_table > 0);
    assert_string_equal(p->string_table[0], "");
    for (size_t i = 0; i < p->n_string_table; i++)
        for (size_t j = i + 1; j < p->n_string_table; j++)
            assert_string_not_equal(p->string_table[i], p->string_table[j]);
    assert_int_equal(p->n_sample_type, 2);
    assert_string_equal(text(p, p->sample_type[1]->type), "cpu");
    assert_string_equal(text(p, p->sample_type[1]->unit), "nanoseconds");
    assert_non_null(p->period_type);
    assert_int_equal(p->period, 1000000);
    assert_int_equal(p->time_nanos, 7);
    assert_int_equal(p->duration_nanos, 9);
    assert_int_equal(p->n_comment, 1);
    assert_string_equal(text(p, p->comment[0]), "a comment");
    assert_int_equal(p->n_mapping, 1);
    assert_true(p->mapping[0]->has_functions);
    assert_string_equal(text(p, p->mapping[0]->filename), "prog");
    /* four frames: four locations, four functions, linked by id */
    assert_int_equal(p->n_location, 4);
    assert_int_equal(p->n_function, 4);
    const Perftools__Profiles__Sample *s = p->sample[0];
    assert_int_equal(p->n_sample, 2);
    assert_int_equal(s->n_location_id, 2);
    assert_int_equal(s->n_value, 2);
    assert_int_equal(s->value[0], 3);
    assert_int_equal(s->value[1], 3000000);
    assert_int_equal(s->n_label, 1);
    assert_string_equal(text(p, s->label[0]->key), "band");
    assert_string_equal(text(p, s->label[0]->str), "go/main");
    const Perftools__Profiles__Location *loc = p->location[s->location_id[0] - 1];
    assert_int_equal(loc->id, s->location_id[0]);
    assert_int_equal(loc->n_line, 1);
    const Perftools__Profiles__Function *f = p->function[loc->line[0]->function_id - 1];
    assert_string_equal(text(p, f->name), "Main.go");
    assert_string_equal(text(p, f->filename), "Main.hs");
    assert_int_equal(f->start_line, 12);
    assert_int_equal(loc->line[0]->line, 12);
    /* the byte that is not UTF-8 */
    const Perftools__Profiles__Location *odd = p->location[p->sample[1]->location_id[0] - 1];
    f = p->function[odd->line[0]->function_id - 1];
    assert_string_equal(text(p, f->name), "bad\xef\xbf\xbd");
    assert_int_equal(p->sample[1]->n_label, 0);
}

static void plain_profile(void **state)
{
    (void)state;
    Perftools__Profiles__Profile *p = written(false);
    check_profile(p);
    perftools__profiles__profile__free_unpacked(p, NULL);
}

static void gzipped_profile(void **state)
{
    (void)state;
    Perftools__Profiles__Profile *p = written(true);
    check_profile(p);
    perftools__profiles__profile__free_unpacked(p, NULL);
}

static void write_failure(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    setvbuf(full, NULL, _IONBF, 0);
    struct pprof *p = sample_profile();
    errno = 0;
    assert_int_equal(pprof_write(p, full, true), -1);
    assert_int_equal(errno, ENOSPC);
    pprof_free(p);
    fclose(full);
}

int main(void)
{
    struct CMUnitTest tests[sizeof srclocs / sizeof srclocs[0] + 3];
    size_t n = 0;
    for (size_t i = 0; i < sizeof srclocs / sizeof srclocs[0]; i++)
        tests[n++] = (struct CMUnitTest){ srclocs[i].name, srcloc_case, NULL, NULL,
                                          (void *)&srclocs[i] };
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(plain_profile);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(gzipped_profile);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(write_failure);
    return _cmocka_run_group_tests("pprof", tests, n, NULL, NULL);
}
