/* testkit.c: the shared plumbing of testkit.h. */
#include "testkit.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char dir[4096];

int testkit_setup_dir(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ev2hp-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

int testkit_teardown_dir(void **state)
{
    (void)state;
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

const char *testkit_dir(void)
{
    return dir;
}

const char *testkit_path(const char *name)
{
    static char paths[4][sizeof dir + 256];
    static unsigned next;
    char *p = paths[next++ % 4];
    int n = snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < sizeof paths[0]);
    return p;
}

char *testkit_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, (cap *= 2) + 1);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    assert_non_null(buf);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

const char *testkit_read(const char *path)
{
    static char *last;
    free(last);
    last = testkit_slurp(path, NULL);
    return last;
}

int testkit_convert(const char *input, const char *output, enum output_format format,
                    struct convert_options opt, struct convert_result *res)
{
    static struct convert_result ignored;   /* large: not on the stack */
    struct output_request req = { output, format };
    opt.input_path = input;
    opt.outputs = &req;
    opt.output_count = 1;
    if (!res)
        res = &ignored;
    convert_run(&opt, res);
    return res->exit_status;
}

const char *testkit_converted(const char *input, const char *output, enum output_format format,
                              struct convert_options opt, struct convert_result *res)
{
    static struct convert_result own;   /* large: not on the stack */
    if (!res)
        res = &own;
    const char *path = testkit_path(output);
    if (testkit_convert(input, path, format, opt, res) != 0)
        fail_msg("%s to %s: status %d: %s", input, output, res->exit_status, res->error.what);
    const char *text = testkit_read(path);
    assert_non_null(text);
    return text;
}

FILE *testkit_memout_open(struct testkit_memout *m)
{
    m->text = NULL;
    m->len = 0;
    m->f = open_memstream(&m->text, &m->len);
    assert_non_null(m->f);
    return m->f;
}

char *testkit_memout_text(struct testkit_memout *m)
{
    assert_int_equal(fclose(m->f), 0);
    m->f = NULL;
    return m->text;
}

void testkit_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void testkit_save(const struct evw *w, const char *path)
{
    if (evw_save(w, path) != 0)
        fail_msg("%s: %s", path, strerror(errno));
}

void testkit_finish(struct evw *w, const char *path)
{
    evw_data_end(w);
    testkit_save(w, path);
    evw_free(w);
}
