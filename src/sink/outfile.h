/* outfile.h: output files that appear whole or not at all.
 *
 * A regular-file output is written to a temporary file in the same directory and renamed
 * over the target only when complete, so a failed run never leaves half a file nor
 * clobbers the previous one. The replaced file's mode (and owner, where the user may set
 * it) is kept; a symbolic link is followed, so its target is what gets replaced. Where no
 * temporary file can be made beside the target (a read-only directory) but the target is
 * an existing writable file, the output is staged in an anonymous temporary file and
 * copied over the target at commit: a failed run still leaves it untouched, but a failure
 * during the copy itself (a full disk) can leave it partly written. Standard output, and
 * targets that are not regular files (/dev/null, /dev/full, a FIFO), are written directly.
 *
 * A path ending in ".gz" (any case) is written gzip-compressed (zlib), whatever the
 * format inside.
 *
 * Temporary files are registered with a signal handler (outfile_catch_signals): SIGINT,
 * SIGTERM, SIGHUP or SIGPIPE removes them, then the process dies of the signal as it
 * would have, so its status is the conventional 128 + signal number.
 */
#ifndef EV2HP_OUTFILE_H
#define EV2HP_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <limits.h>
#include <sys/types.h>

#include "base/error.h"

struct outfile_gzip;

struct outfile {
    const char *path;     /* as named; NULL for standard output */
    char *target;         /* the file replaced: path with symbolic links followed */
    char *temp_path;      /* the temporary file beside it, or NULL */
    int slot;             /* its place in the signal handler's list, or -1 */
    int in_place_fd;      /* written in place at commit: the target, open; else -1 */
    FILE *raw;            /* the file or stream written to */
    FILE *fp;             /* what sinks write to: raw, or a gzip stream into raw */
    char *raw_buffer;     /* stdio's buffers of raw and of the gzip stream (NULL: */
    char *fp_buffer;      /* stdio's own, or standard output's, which is static) */
    struct outfile_gzip *gz;
    bool live;            /* written directly: someone may be reading it as it grows */
};

/* Opens path (NULL or "-" = standard output). 0, or -1 with err set. */
int outfile_open(struct outfile *o, const char *path, struct ev_error *err);

/* Flushes, closes and puts the output in place. 0, or -1 with err set (the target
 * untouched, except when written in place, where err says so). */
int outfile_commit(struct outfile *o, struct ev_error *err);

/* Drops a partly written output: the temporary file is removed. */
void outfile_abort(struct outfile *o);

/* Whether a path names a gzip-compressed output (ends in ".gz", any case). */
bool outfile_is_gzip(const char *path);

/* Installs the handler that removes temporary files on SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE, then dies of the signal. Signals ignored at startup stay ignored. */
void outfile_catch_signals(void);

/* The identity of a file, to tell two names of one file apart from two files. */
struct file_id {
    bool exists;          /* dev and ino are the file's own */
    dev_t dev;            /* else: those of its directory, and name its last component */
    ino_t ino;
    char name[NAME_MAX + 1];
    bool regular;         /* an existing regular file */
    bool stream;          /* an existing FIFO or socket: two writers would interleave */
};

/* The identity of path (symbolic links followed), or of standard output/input for NULL
 * with fd. false when it cannot be told (a missing directory: opening will say why). */
bool file_id_of_path(const char *path, struct file_id *id);
bool file_id_of_fd(int fd, struct file_id *id);
/* Whether two identities are one file. */
bool file_id_same(const struct file_id *a, const struct file_id *b);

#endif
