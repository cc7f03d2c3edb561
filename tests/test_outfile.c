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
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>

#include "sink/outfile.h"
#include "testkit.h"

static size_t entries(void)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "ls -A %s | wc -l", testkit_dir());
    FILE *p = popen(cmd, "r");
    unsigned long n = 0;
    assert_int_equal(fscanf(p, "%lu", &n), 1);
    pclose(p);
    return n;
}

/* o opened on path, text written to it, not yet committed. */
static void open_writing(struct outfile *o, const char *path, const char *text)
{
    struct ev_error err;
    assert_int_equal(outfile_open(o, path, &err), 0);
    fputs(text, o->fp);
}

static void commit_renames_into_place(void **state)
{
    (void)state;
    const char *path = testkit_path("out.hp");
    struct outfile o;
    open_writing(&o, path, "new");
    assert_null(testkit_read(path));             /* nothing visible before the commit */
    struct ev_error err;
    assert_int_equal(outfile_commit(&o, &err), 0);
    assert_string_equal(testkit_read(path), "new");
    assert_int_equal(entries(), 1);
}

static void abort_keeps_the_previous_file(void **state)
{
    (void)state;
    const char *path = testkit_path("out.hp");
    struct outfile o;
    open_writing(&o, path, "half a fi");
    outfile_abort(&o);
    assert_string_equal(testkit_read(path), "new");
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

static void gz_output_is_gzip_compressed(void **state)
{
    (void)state;
    const char *path = testkit_path("out.HP.Gz");
    assert_true(outfile_is_gzip(path));
    assert_false(outfile_is_gzip("x.hp"));
    assert_false(outfile_is_gzip(".gz"));
    struct outfile o;
    struct ev_error err;
    assert_int_equal(outfile_open(&o, path, &err), 0);
    for (int i = 0; i < 20000; i++)
        fprintf(o.fp, "line %d\n", i);
    assert_int_equal(outfile_commit(&o, &err), 0);
    gzFile gz = gzopen(path, "rb");
    assert_non_null(gz);
    char line[64];
    for (int i = 0; i < 20000; i++) {
        char want[64];
        snprintf(want, sizeof want, "line %d\n", i);
        assert_non_null(gzgets(gz, line, sizeof line));
        assert_string_equal(line, want);
    }
    assert_null(gzgets(gz, line, sizeof line));
    gzclose(gz);
    unlink(path);
}

static void identity_sees_through_names(void **state)
{
    (void)state;
    char a[4352], b[4352], missing_a[8704], missing_b[8704], other[4352];
    snprintf(a, sizeof a, "%s/out.hp", testkit_dir());
    snprintf(b, sizeof b, "%s/./out.hp", testkit_dir());
    snprintf(missing_a, sizeof missing_a, "%s/new.svg", testkit_dir());
    snprintf(missing_b, sizeof missing_b, "%s/../%s/new.svg", testkit_dir(), strrchr(testkit_dir(), '/') + 1);
    snprintf(other, sizeof other, "%s/other.svg", testkit_dir());
    struct file_id x, y;
    assert_true(file_id_of_path(a, &x));
    assert_true(x.exists && x.regular);
    assert_true(file_id_of_path(b, &y));
    assert_true(file_id_same(&x, &y));
    assert_true(file_id_of_path(missing_a, &x));   /* not there: its directory and name */
    assert_false(x.exists);
    assert_true(file_id_of_path(missing_b, &y));
    assert_true(file_id_same(&x, &y));
    assert_true(file_id_of_path(other, &y));
    assert_false(file_id_same(&x, &y));
    assert_false(file_id_of_path("/nonexistent-dir/x.hp", &x));
}

static void a_replaced_file_keeps_its_mode(void **state)
{
    (void)state;
    const char *path = testkit_path("out.hp");
    assert_int_equal(chmod(path, 0640), 0);
    struct outfile o;
    struct ev_error err;
    assert_int_equal(outfile_open(&o, path, &err), 0);
    fputs("newer", o.fp);
    assert_int_equal(outfile_commit(&o, &err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_string_equal(testkit_read(path), "newer");
}

/* A child opens an output, then is killed: its temporary file goes, it dies of the
 * signal, and the previous file stays. */
static void a_signal_removes_the_temporary_file(void **state)
{
    (void)state;
    const char *path = testkit_path("out.hp");
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct outfile o;
        struct ev_error err;
        outfile_catch_signals();
        if (outfile_open(&o, path, &err) != 0)
            _exit(1);
        fputs("half a fi", o.fp);
        fflush(o.fp);
        if (write(ready[1], "x", 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(entries(), 2);            /* the output and its temporary file */
    kill(pid, SIGTERM);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_int_equal(entries(), 1);
    assert_string_equal(testkit_read(path), "newer");
    close(ready[0]);
    close(ready[1]);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_renames_into_place),
        cmocka_unit_test(abort_keeps_the_previous_file),
        cmocka_unit_test(a_full_device_fails_at_commit),
        cmocka_unit_test(an_unwritable_directory_fails_at_open),
        cmocka_unit_test(gz_output_is_gzip_compressed),
        cmocka_unit_test(identity_sees_through_names),
        cmocka_unit_test(a_replaced_file_keeps_its_mode),
        cmocka_unit_test(a_signal_removes_the_temporary_file),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
