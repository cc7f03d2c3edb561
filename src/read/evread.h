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
};

enum ev_status {
    EV_OK = 0,        /* an event was returned */
    EV_END,           /* the end-of-data marker: the eventlog is complete */
    EV_NOT_EVENTLOG,  /* the input does not start like an eventlog */
    EV_DAMAGED,       /* the input ends early or holds bytes that are not events */
    EV_IO_ERROR,      /* reading failed (errno in the message) */
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

/* The largest timestamp of the events read so far, returned or skipped. */
uint64_t ev_reader_latest_time(const struct ev_reader *r);

/* What the header declared for tag: true and *size (EV_SIZE_VARIABLE or >= 0) if declared. */
bool ev_reader_declared(const struct ev_reader *r, uint16_t tag, int *size);

/* Bytes consumed from the source so far (the offset just past the last event). */
uint64_t ev_reader_offset(const struct ev_reader *r);

#endif
