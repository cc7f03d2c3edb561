/* robust_run.c: the temporary-file plumbing of robust_run.h. Test code: a setup failure
 * aborts loudly rather than letting a test pass on nothing. */
#include "robust_run.h"

#include "testkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what)
{
    perror(what);
    abort();
}

static char *temp_name(const char *tag)
{
    const char *dir = getenv("TMPDIR");
    char *path = malloc(4096);
    if (!path)
        die("malloc");
    snprintf(path, 4096, "%s/ev2hp-%s-XXXXXX", dir && *dir ? dir : "/tmp", tag);
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp");
    close(fd);
    return path;
}

bool robust_stop_at_damage;

void robust_convert(const void *data, size_t size, bool strict, struct robust_run *run)
{
    robust_convert_to(data, size, strict, FORMAT_HP, run);
}

void robust_convert_to(const void *data, size_t size, bool strict, enum output_format format,
                       struct robust_run *run)
{
    char *in = temp_name("in"), *out = temp_name("out");
    testkit_write(in, data, size);
    /* The output must not exist yet, so "nothing committed" shows as no file. */
    unlink(out);
    struct output_request req = { out, format };
    struct convert_options opt = { .input_path = in, .strict = strict,
                                   .stop_at_damage = robust_stop_at_damage, .outputs = &req,
                                   .output_count = 1 };
    memset(run, 0, sizeof *run);
    convert_run(&opt, &run->result);
    run->hp = testkit_slurp(out, &run->hp_len);
    unlink(in);
    unlink(out);
    free(in);
    free(out);
}

void robust_run_free(struct robust_run *run)
{
    free(run->hp);
    run->hp = NULL;
}

bool robust_warned(const struct robust_run *run, const char *needle)
{
    for (size_t i = 0; i < run->result.warning_count; i++)
        if (strstr(run->result.warnings[i].what, needle))
            return true;
    return false;
}

int robust_censuses(const struct robust_run *run)
{
    int n = 0;
    for (const char *p = run->hp; p && (p = strstr(p, "BEGIN_SAMPLE ")); p++)
        n++;
    return n - 2;
}

unsigned char *robust_read_data(const char *relpath, size_t *size)
{
    const char *srcdir = getenv("SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir && *srcdir ? srcdir : ".", relpath);
    char *data = testkit_slurp(path, size);
    if (!data)
        die(path);
    return (unsigned char *)data;
}
