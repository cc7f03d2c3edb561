/* outfile.h: output files that appear whole or not at all.
 *
 * A regular-file output is written to a temporary file in the same directory and renamed
 * over the target only when complete, so a failed run never leaves half a file nor
 * clobbers the previous one. Standard output, and targets that are not regular files
 * (/dev/null, /dev/full, a FIFO), are written directly.
 */
#ifndef EV2HP_OUTFILE_H
#define EV2HP_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

struct outfile {
    const char *path;     /* the target; NULL for standard output */
    char *temp_path;      /* the temporary file, or NULL when written directly */
    FILE *fp;
    bool live;            /* written directly: someone may be reading it as it grows */
};

/* Opens path (NULL or "-" = standard output). 0, or -1 with err set. */
int outfile_open(struct outfile *o, const char *path, struct ev_error *err);

/* Flushes, closes and renames into place. 0, or -1 with err set (the target untouched). */
int outfile_commit(struct outfile *o, struct ev_error *err);

/* Drops a partly written output: the temporary file is removed. */
void outfile_abort(struct outfile *o);

#endif
