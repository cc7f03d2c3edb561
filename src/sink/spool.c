/* spool.c: census records in a temporary file (see spool.h).
 *
 * Record layout, native byte order (the file never leaves this process): time, era,
 * count, then count census_entry structs.
 */
#include "sink/spool.h"
#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>

struct record_head {
    uint64_t time_ns;
    uint64_t era;
    uint64_t count;
};

int spool_put_frame(struct spool *s, const struct census_frame *frame)
{
    if (!s->file && !(s->file = tmpfile()))
        return -1;
    struct record_head head = { frame->time_ns, frame->era, frame->count };
    if (fwrite(&head, sizeof head, 1, s->file) != 1)
        return -1;
    if (frame->count &&
        fwrite(frame->entries, sizeof *frame->entries, frame->count, s->file) != frame->count)
        return -1;
    return 0;
}

int spool_replay(struct spool *s, int (*fn)(void *ctx, const struct census_frame *frame),
                 void *ctx)
{
    if (!s->file)
        return 0;
    if (fflush(s->file) != 0 || fseek(s->file, 0, SEEK_SET) != 0)
        return -1;
    struct census_entry *entries = NULL;
    size_t cap = 0;
    struct record_head head;
    int status = 0;
    while (status == 0 && fread(&head, sizeof head, 1, s->file) == 1) {
        if (GROW_ARRAY(entries, &cap, head.count) != 0) {
            status = -1;
            break;
        }
        if (head.count && fread(entries, sizeof *entries, head.count, s->file) != head.count) {
            status = -1;
            break;
        }
        struct census_frame frame = { head.time_ns, head.era, head.count, entries };
        if (fn(ctx, &frame) != 0)
            status = -1;
    }
    if (status == 0 && ferror(s->file))
        status = -1;
    free(entries);
    return status;
}

void spool_close(struct spool *s)
{
    if (s->file)
        fclose(s->file);
    s->file = NULL;
}
