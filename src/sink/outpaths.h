/* outpaths.h: refusing outputs that would clobber what a run reads, or each other.
 *
 * A run names its outputs (-o) and the files it reads (the input, --compare's base,
 * --trend's summaries). Before anything is opened, an output that is one of those files,
 * or one file named twice as an output (under two names, or standard output and
 * /dev/stdout), is refused: either would clobber what is being read, or interleave two
 * outputs. Identity is the file's, not its name's (outfile.h: struct file_id).
 */
#ifndef EV2HP_OUTPATHS_H
#define EV2HP_OUTPATHS_H

#include <stddef.h>

#include "base/error.h"
#include "sink/formats.h"

/* A file a run reads, and how the refusal calls it ("the input", "the --compare base"). */
struct read_path {
    const char *path;     /* NULL or "-": standard input */
    const char *role;
};

/* 0 when the outputs clash with nothing; else -1 with err saying why and *bad the
 * clashing output's name ("(standard output)" for standard output). Only regular files
 * that are read count: a FIFO read and written is the user's plumbing. */
int outpaths_check(const struct output_request *outputs, size_t output_count,
                   const struct read_path *reads, size_t read_count,
                   const char **bad, struct ev_error *err);

#endif
