/* replay.c: runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer.
 *
 *     replay_NAME DIR|FILE...
 *
 * Every regular file of each directory (sorted by name; names beginning with '.' and
 * README files are skipped) is read into a buffer of exactly its size, so that the
 * sanitizers see an overread, and handed to the target. A crash or a failed invariant
 * aborts, naming the file first; otherwise it prints how many inputs ran. This is how
 * `make check` keeps the seed corpus and every saved crash passing in every build.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int read_file(const char *path, unsigned char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            }
            buf = grown;
        }
    }
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return -1;
    }
    /* An exact-size copy: bytes past the input must be out of bounds. */
    *data = malloc(len ? len : 1);
    if (!*data) {
        free(buf);
        return -1;
    }
    memcpy(*data, buf, len);
    free(buf);
    *size = len;
    return 0;
}

static int run_file(const char *path)
{
    unsigned char *data;
    size_t size;
    if (read_file(path, &data, &size) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(stderr, "replay: %s\n", path);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int skipped(const char *name)
{
    return name[0] == '.' || strncmp(name, "README", 6) == 0;
}

static int run_dir(const char *dir, unsigned long *count)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int status = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (!skipped(names[i]->d_name) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) != 0)
                status = -1;
            else
                ++*count;
        }
        free(names[i]);
    }
    free(names);
    return status;
}

int main(int argc, char **argv)
{
    unsigned long count = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            status = 1;
        } else if (S_ISDIR(st.st_mode)) {
            if (run_dir(argv[i], &count) != 0)
                status = 1;
        } else if (run_file(argv[i]) != 0) {
            status = 1;
        } else {
            count++;
        }
    }
    printf("replay: %lu inputs, no crash\n", count);
    return status;
}
