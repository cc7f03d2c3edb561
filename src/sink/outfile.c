/* outfile.c: temporary file, then rename (see outfile.h). */
#include "sink/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_BUFFER (1u << 20)

static int open_direct(struct outfile *o, FILE *fp, struct ev_error *err)
{
    o->fp = fp;
    o->live = true;
    setvbuf(fp, NULL, _IOFBF, OUTPUT_BUFFER);
    (void)err;
    return 0;
}

int outfile_open(struct outfile *o, const char *path, struct ev_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0)
        return open_direct(o, stdout, err);
    o->path = path;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        FILE *fp = fopen(path, "w");
        if (!fp) {
            ev_error_set(err, "cannot open for writing: %s", strerror(errno));
            return -1;
        }
        return open_direct(o, fp, err);
    }
    /* "dir/.name.XXXXXX" beside the target, so the rename stays in one file system. */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    size_t size = strlen(path) + 16;
    o->temp_path = malloc(size);
    if (!o->temp_path) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    snprintf(o->temp_path, size, "%.*s.%s.XXXXXX", (int)dir_len, path, path + dir_len);
    int fd = mkstemp(o->temp_path);
    if (fd < 0) {
        ev_error_set(err, "cannot create a temporary file beside it: %s", strerror(errno));
        free(o->temp_path);
        o->temp_path = NULL;
        return -1;
    }
    /* mkstemp makes the file 0600; an output should get the usual umask permissions. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        ev_error_set(err, "cannot open for writing: %s", strerror(errno));
        close(fd);
        outfile_abort(o);
        return -1;
    }
    setvbuf(o->fp, NULL, _IOFBF, OUTPUT_BUFFER);
    return 0;
}

int outfile_commit(struct outfile *o, struct ev_error *err)
{
    int failed = fflush(o->fp) != 0 || ferror(o->fp);
    int saved = errno;
    if (o->fp != stdout) {
        if (fclose(o->fp) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
    }
    o->fp = NULL;
    if (failed) {
        ev_error_set(err, "cannot write: %s", strerror(saved ? saved : EIO));
        outfile_abort(o);
        return -1;
    }
    if (o->temp_path) {
        if (rename(o->temp_path, o->path) != 0) {
            ev_error_set(err, "cannot rename the finished output into place: %s",
                         strerror(errno));
            outfile_abort(o);
            return -1;
        }
        free(o->temp_path);
        o->temp_path = NULL;
    }
    return 0;
}

void outfile_abort(struct outfile *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    if (o->temp_path) {
        unlink(o->temp_path);
        free(o->temp_path);
        o->temp_path = NULL;
    }
}
