/* spool.h: records kept on disk until the end of the input.
 *
 * Some outputs can only be written once the input is over: a CSV's header row names every
 * band, and bands keep appearing until the last census. Rather than hold every census in
 * memory, such sinks append compact records to an anonymous temporary file (tmpfile) and
 * replay them at the end, so memory stays bounded whatever the length of the run.
 */
#ifndef EV2HP_SPOOL_H
#define EV2HP_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/frame.h"

struct spool {
    FILE *file;       /* NULL until the first record */
};

/* Appends a census. 0, or -1 (errno set). */
int spool_put_frame(struct spool *s, const struct census_frame *frame);

/* Replays every census in order: fn gets each with entries valid during the call.
 * 0, -1 on a read error or when fn returns non-zero. */
int spool_replay(struct spool *s, int (*fn)(void *ctx, const struct census_frame *frame),
                 void *ctx);

void spool_close(struct spool *s);

#endif
