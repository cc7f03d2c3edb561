/* test_outfile.c: outputs appear whole or not at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sink/outfile.h"

static char dir[] = "/tmp/ev2hp-outfile-XXXXXX";

static char *read_file(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static size_t entries(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ls -A %s | wc -l", dir);
    FILE *p = popen(cmd, "r");
    unsigned long n = 0;
    assert_int_equal(fscanf(p, "%lu", &n), 1);
    pclose(p);
    return n;
}

static void commit_renames_into_place(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/out.hp", dir);
    struct outfile o;
    struct ev_error err;
    assert_int_equal(outfile_open(&o, path, &err), 0);
    fputs("new", o.fp);
    assert_null(read_file(path));             /* nothing visible before the commit */
    assert_int_equal(outfile_commit(&o, &err), 0);
    assert_string_equal(read_file(path), "new");
    assert_int_equal(entries(), 1);
}

static void abort_keeps_the_previous_file(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/out.hp", dir);
    struct outfile o;
    struct ev_error err;
    assert_int_equal(outfile_open(&o, path, &err), 0);
    fputs("half a fi", o.fp);
    outfile_abort(&o);
    assert_string_equal(read_file(path), "new");
    assert_int_equal(entries(), 1);           /* no temporary file left behind */
}

static void a_full_device_fails_at_commit(void **state)
{
    (void)state;
    struct outfile o;
    struct ev_error err;
    assert_int_equal(outfile_open(&o, "/dev/full", &err), 0);
    assert_null(o.temp_path);                 /* devices are written directly */
    fputs("x", o.fp);
    assert_int_equal(outfile_commit(&o, &err), -1);
    assert_non_null(strstr(err.what, "No space left"));
}

static void an_unwritable_directory_fails_at_open(void **state)
{
    (void)state;
    struct outfile o;
    struct ev_error err;
    assert_int_equal(outfile_open(&o, "/nonexistent-dir/x.hp", &err), -1);
    assert_non_null(strstr(err.what, "temporary file"));
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_renames_into_place),
        cmocka_unit_test(abort_keeps_the_previous_file),
        cmocka_unit_test(a_full_device_fails_at_commit),
        cmocka_unit_test(an_unwritable_directory_fails_at_open),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
