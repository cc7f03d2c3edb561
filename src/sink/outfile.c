/* outfile.c: temporary file, then rename; gzip; cleanup on signals (see outfile.h).
 *
 * The signal handler may run at any instruction, so what it reads is kept simple: a fixed
 * table of temporary paths, each published only once its string is complete and cleared
 * before it is freed. The handler calls only async-signal-safe functions (unlink,
 * sigaction, raise). Commits run with those signals blocked, so an output is either in
 * place or its temporary file is removed, never half of each.
 */
#include "sink/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* stdio's buffer of each output: a live .hp (flushed at each census) goes out in one
 * write(2) per census of up to this size. */
#define OUTPUT_BUFFER (64u << 10)
#define MAX_TEMPS 64               /* outputs alive at once (the CLI allows 16) */
#define MAX_SYMLINKS 40            /* as the kernel's own limit on a path */

/* --- signals ------------------------------------------------------------------------- */

static char *volatile temps[MAX_TEMPS];
static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < MAX_TEMPS; i++) {
        char *path = temps[i];
        if (path)
            unlink(path);
    }
    /* Die of the signal itself, so the parent sees the conventional status. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig);
    errno = saved;
}

void outfile_catch_signals(void)
{
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
        struct sigaction old, sa;
        if (sigaction(caught[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;   /* ignored by whoever started us (nohup, a background job): keep it */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < sizeof caught / sizeof *caught; j++)
            sigaddset(&sa.sa_mask, caught[j]);   /* one cleanup at a time */
        sigaction(caught[i], &sa, NULL);
    }
}

static void block_signals(sigset_t *saved)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(SIG_BLOCK, &set, saved);
}

static int register_temp(char *path)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temps[i]) {
            temps[i] = path;
            return i;
        }
    return -1;
}

/* Forgets the temporary file: cleared before the caller frees the string. */
static void unregister_temp(struct outfile *o)
{
    if (o->slot >= 0)
        temps[o->slot] = NULL;
    o->slot = -1;
}

/* --- gzip ---------------------------------------------------------------------------- */

struct outfile_gzip {
    z_stream zs;
    FILE *to;
    bool live;                     /* flush each write through, for a reader following */
    unsigned char out[64u << 10];
};

/* Deflates n bytes (Z_FINISH with n 0 ends the stream) into the underlying file. */
static int gz_deflate(struct outfile_gzip *g, const char *buf, size_t n, int flush)
{
    g->zs.next_in = (unsigned char *)(uintptr_t)buf;
    g->zs.avail_in = (unsigned)n;
    int ret;
    do {
        g->zs.next_out = g->out;
        g->zs.avail_out = sizeof g->out;
        ret = deflate(&g->zs, flush);
        if (ret == Z_STREAM_ERROR) {
            errno = EIO;
            return -1;
        }
        size_t have = sizeof g->out - g->zs.avail_out;
        if (have && fwrite(g->out, 1, have, g->to) != have)
            return -1;
    } while (g->zs.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
    return 0;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t n)
{
    struct outfile_gzip *g = cookie;
    size_t done = 0;
    while (done < n) {
        size_t step = n - done > UINT_MAX ? UINT_MAX : n - done;
        if (gz_deflate(g, buf + done, step, g->live ? Z_SYNC_FLUSH : Z_NO_FLUSH) != 0)
            return -1;
        done += step;
    }
    if (g->live && fflush(g->to) != 0)
        return -1;
    return (ssize_t)n;
}

/* Ends the gzip stream; the underlying file stays open (commit closes it). */
static int gz_close(void *cookie)
{
    struct outfile_gzip *g = cookie;
    int failed = gz_deflate(g, "", 0, Z_FINISH);
    deflateEnd(&g->zs);
    free(g);
    return failed ? EOF : 0;
}

static FILE *gz_open(struct outfile *o, struct ev_error *err)
{
    struct outfile_gzip *g = calloc(1, sizeof *g);
    if (!g || deflateInit2(&g->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                           Z_DEFAULT_STRATEGY) != Z_OK) {
        free(g);
        ev_error_set(err, "out of memory");
        return NULL;
    }
    g->to = o->raw;
    g->live = o->live;
    cookie_io_functions_t io = { NULL, gz_write, NULL, gz_close };
    FILE *fp = fopencookie(g, "w", io);
    if (!fp) {
        deflateEnd(&g->zs);
        free(g);
        ev_error_set(err, "out of memory");
        return NULL;
    }
    o->gz = g;
    return fp;
}

bool outfile_is_gzip(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 3 && strcasecmp(path + n - 3, ".gz") == 0;
}

/* --- paths --------------------------------------------------------------------------- */

/* path with every symbolic link along the last component followed (malloc'd): the file
 * an output replaces. A dangling link gives the missing file it points to. NULL with
 * errno set (ELOOP, ENOMEM). */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        if (hops == MAX_SYMLINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;   /* raced away: the name itself will do */
        link[n] = '\0';
        const char *slash = strrchr(cur, '/');
        char *next;
        if (link[0] == '/' || !slash) {
            next = strdup(link);
        } else {
            size_t dir = (size_t)(slash - cur) + 1;
            next = malloc(dir + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dir);
                memcpy(next + dir, link, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

static void id_from_stat(const struct stat *st, struct file_id *id)
{
    id->exists = true;
    id->dev = st->st_dev;
    id->ino = st->st_ino;
    id->name[0] = '\0';
    id->regular = S_ISREG(st->st_mode);
    id->stream = S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode);
}

bool file_id_of_fd(int fd, struct file_id *id)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    id_from_stat(&st, id);
    return true;
}

bool file_id_of_path(const char *path, struct file_id *id)
{
    memset(id, 0, sizeof *id);
    struct stat st;
    if (stat(path, &st) == 0) {
        /* the kernel follows every link, /dev/stdout's into a pipe included */
        id_from_stat(&st, id);
        return true;
    }
    char *target = follow_links(path);
    if (!target)
        return false;
    bool known = false;
    if (stat(target, &st) == 0) {
        id_from_stat(&st, id);
        known = true;
    } else {
        /* Not there yet: its directory and name identify it. */
        char *slash = strrchr(target, '/');
        const char *dir = ".";
        if (slash) {
            *slash = '\0';
            dir = slash == target ? "/" : target;
        }
        if (stat(dir, &st) == 0) {
            id->dev = st.st_dev;
            id->ino = st.st_ino;
            known = true;
        }
        snprintf(id->name, sizeof id->name, "%s", slash ? slash + 1 : target);
    }
    free(target);
    return known;
}

bool file_id_same(const struct file_id *a, const struct file_id *b)
{
    if (a->exists != b->exists || a->dev != b->dev || a->ino != b->ino)
        return false;
    return a->exists || strcmp(a->name, b->name) == 0;
}

/* --- open, commit, abort --------------------------------------------------------------- */

/* Makes fp fully buffered with OUTPUT_BUFFER bytes; returns the buffer to free after
 * fclose, or NULL. setvbuf with a NULL buffer keeps stdio's own, of st_blksize bytes (4
 * KiB for a pipe or /dev/null) whatever size it is told: a live .hp then took three
 * write(2) calls per census. Standard output's buffer lasts as long as the process;
 * without memory, stdio's own serves. */
static char *give_buffer(FILE *fp)
{
    static char stdout_buffer[OUTPUT_BUFFER];
    static bool stdout_buffered;
    if (fp == stdout) {
        if (!stdout_buffered)
            setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
        stdout_buffered = true;
        return NULL;
    }
    char *buf = malloc(OUTPUT_BUFFER);
    setvbuf(fp, buf, _IOFBF, OUTPUT_BUFFER);
    return buf;
}

/* The last step of every way of opening, once o->raw is open: its buffer, and gzip on
 * top for a .gz name. 0, or -1 with err set and the output aborted. */
static int finish_open(struct outfile *o, struct ev_error *err)
{
    o->raw_buffer = give_buffer(o->raw);
    o->fp = o->raw;
    if (o->path && outfile_is_gzip(o->path)) {
        o->fp = gz_open(o, err);
        if (!o->fp) {
            outfile_abort(o);
            return -1;
        }
        o->fp_buffer = give_buffer(o->fp);
    }
    return 0;
}

static int open_direct(struct outfile *o, FILE *fp, struct ev_error *err)
{
    o->raw = fp;
    o->live = true;
    return finish_open(o, err);
}

/* The target exists, is writable, but no file can be made beside it: stage the output in
 * an anonymous temporary file and copy it over the target at commit. */
static int open_in_place(struct outfile *o, struct ev_error *err)
{
    o->in_place_fd = open(o->target, O_WRONLY);
    if (o->in_place_fd < 0) {
        ev_error_set(err, "cannot open for writing: %s", strerror(errno));
        return -1;
    }
    o->raw = tmpfile();
    if (!o->raw) {
        ev_error_set(err, "cannot create a temporary file to stage the output: %s",
                     strerror(errno));
        outfile_abort(o);
        return -1;
    }
    return finish_open(o, err);
}

int outfile_open(struct outfile *o, const char *path, struct ev_error *err)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    o->in_place_fd = -1;
    if (!path || strcmp(path, "-") == 0)
        return open_direct(o, stdout, err);
    o->path = path;
    if (strcmp(path, "/dev/stdout") == 0)
        return open_direct(o, stdout, err);   /* as "-": appending stays appending */
    if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0) {
        /* Devices and /dev/fd/N, /proc/self/fd/N: their links lead to names such as
         * "pipe:[123]" that are not paths, and nothing there is replaced by a rename. */
        FILE *fp = fopen(path, "w");
        if (!fp) {
            ev_error_set(err, "cannot open for writing: %s", strerror(errno));
            return -1;
        }
        return open_direct(o, fp, err);
    }
    o->target = follow_links(path);
    if (!o->target) {
        ev_error_set(err, "cannot follow the symbolic link: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    bool exists = stat(o->target, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        FILE *fp = fopen(o->target, "w");
        if (!fp) {
            ev_error_set(err, "cannot open for writing: %s", strerror(errno));
            outfile_abort(o);
            return -1;
        }
        return open_direct(o, fp, err);
    }
    /* "dir/.name.XXXXXX" beside the target, so the rename stays in one file system. */
    const char *slash = strrchr(o->target, '/');
    size_t dir_len = slash ? (size_t)(slash - o->target) + 1 : 0;
    size_t size = strlen(o->target) + 16;
    char *temp = malloc(size);
    if (!temp) {
        ev_error_set(err, "out of memory");
        outfile_abort(o);
        return -1;
    }
    snprintf(temp, size, "%.*s.%s.XXXXXX", (int)dir_len, o->target, o->target + dir_len);
    /* Signals are held from the file's creation to its registration, so that a signal in
     * between cannot leave it behind. */
    sigset_t saved;
    block_signals(&saved);
    int fd = mkstemp(temp);
    int saved_errno = errno;
    if (fd >= 0) {
        o->temp_path = temp;
        o->slot = register_temp(temp);
    }
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (fd < 0) {
        free(temp);
        if ((saved_errno == EACCES || saved_errno == EPERM) && exists &&
            access(o->target, W_OK) == 0)
            return open_in_place(o, err);
        ev_error_set(err, "cannot create a temporary file beside it: %s", strerror(saved_errno));
        outfile_abort(o);
        return -1;
    }
    if (exists) {
        /* A replaced file keeps its mode, and its owner and group where we may set them
        * (fchown clears set-id bits, so the mode comes after; a set-id bit is kept only
         * with the owner it was given for.) */
        mode_t mode = st.st_mode & 07777;
        if (fchown(fd, st.st_uid, st.st_gid) != 0) {
            mode &= ~(mode_t)S_ISUID;
            if (fchown(fd, (uid_t)-1, st.st_gid) != 0)
                mode &= ~(mode_t)S_ISGID;
        }
        fchmod(fd, mode);
    } else {
        /* mkstemp makes the file 0600; a new output gets the usual umask permissions. */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    o->raw = fdopen(fd, "w");
    if (!o->raw) {
        ev_error_set(err, "cannot open for writing: %s", strerror(errno));
        close(fd);
        outfile_abort(o);
        return -1;
    }
    return finish_open(o, err);
}

/* Copies the staged output over the target, then cuts the target to its length. */
static int copy_in_place(struct outfile *o)
{
    if (fflush(o->raw) != 0 || fseeko(o->raw, 0, SEEK_SET) != 0)
        return -1;
    unsigned char buf[64u << 10];
    off_t total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, o->raw)) > 0) {
        for (size_t done = 0; done < n;) {
            ssize_t w = pwrite(o->in_place_fd, buf + done, n - done, total);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                return -1;
            }
            done += (size_t)w;
            total += w;
        }
    }
    if (ferror(o->raw) || ftruncate(o->in_place_fd, total) != 0)
        return -1;
    return 0;
}

int outfile_commit(struct outfile *o, struct ev_error *err)
{
    sigset_t saved;
    block_signals(&saved);
    int failed = 0, saved_errno = 0;
    if (o->fp != o->raw) {
        /* Closing the gzip stream writes its end into raw. */
        if (fclose(o->fp) != 0) {
            failed = 1;
            saved_errno = errno;
        }
        o->gz = NULL;
        free(o->fp_buffer);
        o->fp_buffer = NULL;
    }
    o->fp = NULL;
    if (!failed && (fflush(o->raw) != 0 || ferror(o->raw))) {
        failed = 1;
        saved_errno = errno;
    }
    const char *what = "cannot write";
    if (!failed && o->in_place_fd >= 0) {
        what = "cannot write in place (the file may now be incomplete)";
        if (copy_in_place(o) != 0 || close(o->in_place_fd) != 0) {
            failed = 1;
            saved_errno = errno;
        }
        o->in_place_fd = -1;
    }
    if (o->raw != stdout) {
        if (fclose(o->raw) != 0 && !failed) {
            failed = 1;
            saved_errno = errno;
        }
    }
    o->raw = NULL;
    free(o->raw_buffer);
    o->raw_buffer = NULL;
    if (!failed && o->temp_path) {
        if (rename(o->temp_path, o->target) != 0) {
            what = "cannot rename the finished output into place";
            failed = 1;
            saved_errno = errno;
        } else {
            unregister_temp(o);
            free(o->temp_path);
            o->temp_path = NULL;
        }
    }
    if (failed) {
        ev_error_set(err, "%s: %s", what, strerror(saved_errno ? saved_errno : EIO));
        outfile_abort(o);
    } else {
        free(o->target);
        o->target = NULL;
    }
    sigprocmask(SIG_SETMASK, &saved, NULL);
    return failed ? -1 : 0;
}

void outfile_abort(struct outfile *o)
{
    if (o->fp && o->fp != o->raw)
        fclose(o->fp);   /* the gzip stream */
    o->fp = NULL;
    o->gz = NULL;
    free(o->fp_buffer);
    o->fp_buffer = NULL;
    if (o->raw && o->raw != stdout)
        fclose(o->raw);
    o->raw = NULL;
    free(o->raw_buffer);
    o->raw_buffer = NULL;
    if (o->in_place_fd >= 0)
        close(o->in_place_fd);
    o->in_place_fd = -1;
    if (o->temp_path) {
        unlink(o->temp_path);
        unregister_temp(o);
        free(o->temp_path);
        o->temp_path = NULL;
    }
    free(o->target);
    o->target = NULL;
}
