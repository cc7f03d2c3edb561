/* source.h: where the reader's bytes come from.
 *
 * A source is a read function and its context, so the reader works the same on a file, a
 * pipe, standard input, a gzip stream or a buffer in memory (tests and fuzzers, which can
 * also hand the bytes out in small slices to make events straddle buffer edges).
 */
#ifndef EV2HP_SOURCE_H
#define EV2HP_SOURCE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ev_source {
    /* Reads up to n bytes into buf: the count read, 0 at the end of input, -1 on an error
     * (errno set). */
    ssize_t (*read)(void *ctx, unsigned char *buf, size_t n);
    void *ctx;
    /* Optional: what the last failed read means, better than strerror(errno) can say. */
    const char *(*why)(void *ctx);
};

/* One read of src into buf (up to n > 0 bytes) for a reader that keeps reading until it
 * has what it needs: the count read; 0 at the end of input or on a failed read, after
 * which *at_eof is set and, for a failure, *read_errno (errno, or EIO without one). */
size_t source_read_some(const struct ev_source *src, unsigned char *buf, size_t n,
                        bool *at_eof, int *read_errno);


/* Reads a file descriptor, inflating it when it starts with the gzip magic bytes, so
 * compressed eventlogs and .hp files are read transparently from files and pipes alike.
 * Each read returns as soon as some bytes are available (a FIFO is followed live). */
struct source_auto;
/* Takes over fd (closed by source_auto_free); NULL when out of memory. */
struct source_auto *source_auto_new(int fd);
ssize_t source_auto_read(void *ctx, unsigned char *buf, size_t n);
const char *source_auto_why(void *ctx);
void source_auto_free(struct source_auto *s);

/* Live inputs: a program still writing (a followed file, a socket). Reading then waits
 * for bytes in steps of at most LIVE_POLL_MS, so a stop asked from a signal handler or
 * another thread is seen within that time; once *stop is non-zero the source ends as if
 * the input did (source_auto_stopped tells the two apart). */
#define LIVE_POLL_MS 100
struct source_live {
    bool follow;                        /* a regular file: at its end, wait for it to grow */
    const volatile sig_atomic_t *stop;  /* non-zero: stop reading; NULL: never */
    /* Called at each step of LIVE_POLL_MS that brought no byte (the reader is waiting),
     * in the reading thread: the caller may look at what it read so far. NULL: none. */
    void (*idle)(void *ctx);
    void *idle_ctx;
};
void source_auto_live(struct source_auto *s, const struct source_live *live);
/* Whether the source ended because *stop was set. */
bool source_auto_stopped(const struct source_auto *s);
/* Whether the descriptor reached its end (a closed connection, the end of a file). */
bool source_auto_at_eof(const struct source_auto *s);
/* Bytes read from the descriptor so far (compressed bytes for a gzip input). */
uint64_t source_auto_bytes(const struct source_auto *s);

/* Reads from memory, at most slice bytes per call (0 = no limit). */
struct source_memory {
    const unsigned char *data;
    size_t size;
    size_t pos;
    size_t slice;
};
ssize_t source_memory_read(void *ctx, unsigned char *buf, size_t n);

/* Reads the first bytes of another source ahead, so the kind of input can be told
 * without seeking (pipes), then hands them out again before the rest. */
#define SOURCE_PEEK_MAX 16
struct source_peek {
    struct ev_source inner;
    unsigned char head[SOURCE_PEEK_MAX];
    size_t len;                 /* bytes peeked (fewer at the end of a short input) */
    size_t pos;                 /* bytes of head handed out */
};
/* Peeks up to n bytes (at most SOURCE_PEEK_MAX); 0, or -1 when reading failed. */
int source_peek_init(struct source_peek *p, struct ev_source inner, size_t n);
ssize_t source_peek_read(void *ctx, unsigned char *buf, size_t n);
const char *source_peek_why(void *ctx);

/* Hands out another source's bytes from the first "hdrb" (an eventlog header) on,
 * discarding what comes before it, at most SOURCE_SEEK_MAX bytes. A program streaming
 * its eventlog restarts the runtime's logging for each client, and GHC 9.0's runtime can
 * flush an empty block of a capability before the new header: those bytes belong to no
 * eventlog. After SOURCE_SEEK_MAX bytes without a header, the bytes are handed out as
 * they are (the reader then says what they are not). */
#define SOURCE_SEEK_MAX (1u << 20)
struct source_seek {
    struct ev_source inner;
    unsigned char held[4096];
    size_t held_pos, held_len;   /* bytes read but not handed out */
    bool searching;
    uint64_t skipped;            /* bytes discarded before the header */
};
void source_seek_init(struct source_seek *s, struct ev_source inner);
ssize_t source_seek_read(void *ctx, unsigned char *buf, size_t n);
const char *source_seek_why(void *ctx);

#endif
