/* evread.h: the streaming eventlog reader.
 *
 * The reader pulls one event at a time from a source through a buffer of fixed size, so
 * memory does not depend on the input, and it never seeks, so pipes and standard input
 * work as files do. The header is read first: it declares every event type's payload
 * size (fixed, or variable with a Word16 length in each event), and that declaration is
 * the only truth about sizes. Events of types ev2hp does not know are returned all the
 * same (callers skip them); an event type the header never declared is damage.
 *
 * Ownership: the reader owns its buffer; an event's payload points into it and is valid
 * until the next call to ev_reader_next().
 */
#ifndef EV2HP_EVREAD_H
#define EV2HP_EVREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "read/source.h"

struct ev_reader;

struct ev_event {
    uint16_t tag;
    uint64_t time;                  /* nanoseconds since the program started */
    const unsigned char *payload;
    uint32_t size;                  /* payload bytes */
    uint64_t offset;                /* byte offset of the event in the input */
    uint16_t cap;                   /* the capability whose block holds it (its block
                                     * marker's), or EV_NO_CAP outside a capability's */
};

/* The capability of an event in no block, or in the runtime's global block (whose
 * marker says 0xffff itself). */
#define EV_NO_CAP 0xffffu

enum ev_status {
    EV_OK = 0,        /* an event was returned */
    EV_END,           /* the end-of-data marker: the eventlog is complete */
    EV_NOT_EVENTLOG,  /* the input does not start like an eventlog */
    EV_DAMAGED,       /* the input ends early or holds bytes that are not events */
    EV_IO_ERROR,      /* reading failed (errno in the message) */
    EV_SKIPPED,       /* recovery: a damaged region was skipped (ev_reader_last_region);
                       * err says where and why; reading goes on with the next call */
};

/* A damaged region recovery skipped: bytes [offset, offset + length) of the input. */
struct ev_region {
    uint64_t offset;
    uint64_t length;
};

/* Payload size of a variable-size event type in the header. */
#define EV_SIZE_VARIABLE (-1)

/* Creates a reader over src with a buffer of buffer_size bytes (0 = the default, 1 MiB;
 * at least 64 KiB + 12 are always used so any event fits). NULL when out of memory. */
struct ev_reader *ev_reader_new(struct ev_source src, size_t buffer_size);
void ev_reader_free(struct ev_reader *r);

/* Reads the header. EV_OK, or EV_NOT_EVENTLOG / EV_DAMAGED / EV_IO_ERROR with err set. */
enum ev_status ev_reader_read_header(struct ev_reader *r, struct ev_error *err);

/* Reads the next event. EV_OK with *ev filled, EV_END, or EV_DAMAGED / EV_IO_ERROR with
 * err set (the events returned before stay good). */
enum ev_status ev_reader_next(struct ev_reader *r, struct ev_event *ev, struct ev_error *err);

/* Makes ev_reader_next read and check, but not return, the events whose tag wanted()
 * refuses (wanted NULL: return every event again). A conversion wants a few tags out of
 * the dozens a program writes; --dump wants them all. */
void ev_reader_skip_unwanted(struct ev_reader *r, bool (*wanted)(uint16_t tag));

/* Recovery (off by default). GHC 9.6-9.10's non-threaded runtime with a heap and a time
 * profile at once corrupts its own eventlog (a timer tick and a census write into one
 * buffer without a lock). With recovery on, the reader does not stop at damage: it
 * searches forward, within the current block (block markers stay consistent) and within a
 * budget, for the next offset from which a chain of events parses cleanly, and goes on
 * from there, returning EV_SKIPPED once per region. A block whose marker goes back in
 * time for its capability (a byte copy of an earlier block, written when the race hits a
 * buffer flush) is skipped whole. With recovery off, damage is EV_DAMAGED as before. The
 * checks that find damage are the same either way: an undeclared event type, an event
 * crossing its block's end, a timestamp outside its block's span, an end-of-data marker
 * inside a block, a block marker that is not one. */
void ev_reader_recover(struct ev_reader *r, bool on);

/* The offset where the current block ends, or 0 outside any block of known size. */
uint64_t ev_reader_block_end(const struct ev_reader *r);

/* The region of the last EV_SKIPPED. */
struct ev_region ev_reader_last_region(const struct ev_reader *r);

/* Recovery asked by a caller that found an event to be damage (too short for its fields,
 * a second HEAP_PROF_BEGIN): the event at offset at, the last one returned, starts a
 * damaged region; the reader resynchronises after it. whole_block: skip to the end of the
 * current block instead (a duplicated block), when the block's end is known. EV_SKIPPED
 * (region and err set), or EV_DAMAGED / EV_IO_ERROR when nothing parses again before the
 * input ends or the search budget is spent. */
enum ev_status ev_reader_resync(struct ev_reader *r, uint64_t at, bool whole_block,
                                struct ev_error *err);

/* The largest timestamp of the events read so far, returned or skipped. */
uint64_t ev_reader_latest_time(const struct ev_reader *r);

/* What the header declared for tag: true and *size (EV_SIZE_VARIABLE or >= 0) if declared. */
bool ev_reader_declared(const struct ev_reader *r, uint16_t tag, int *size);

/* Bytes consumed from the source so far (the offset just past the last event). */
uint64_t ev_reader_offset(const struct ev_reader *r);

/* A stream read in parts (a live program's connections, each starting with its header):
 * the offsets of a new reader, before anything is read, start at offset, so that
 * messages count the bytes of all parts. */
void ev_reader_start_at(struct ev_reader *r, uint64_t offset);
/* Whether two readers' headers declare the same event types with the same sizes (the
 * same runtime writes them). */
bool ev_reader_same_declarations(const struct ev_reader *a, const struct ev_reader *b);

#endif
