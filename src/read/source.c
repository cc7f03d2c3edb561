/* source.c: the file-descriptor and in-memory byte sources.
 *
 * A descriptor is read as it comes (a FIFO or a socket hands out what is there), with
 * gzip undone underneath. A live input (source_live) waits instead of ending: a followed
 * file at its end is looked at again every LIVE_POLL_MS, and reads of a socket or pipe
 * wait in poll() steps of that length, so that a stop request is seen promptly even when
 * the signal that asked for it went to another thread.
 */
#include "read/source.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "read/progress.h"

/* Reads from an open file descriptor, retrying when a signal interrupts. */
static ssize_t source_fd_read(void *ctx, unsigned char *buf, size_t n)
{
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t got = read(fd, buf, n);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

ssize_t source_memory_read(void *ctx, unsigned char *buf, size_t n)
{
    struct source_memory *m = ctx;
    size_t left = m->size - m->pos;
    if (n > left)
        n = left;
    if (m->slice && n > m->slice)
        n = m->slice;
    if (n)
        memcpy(buf, m->data + m->pos, n);
    m->pos += n;
    return (ssize_t)n;
}

#define INPUT_CHUNK (256u << 10)

struct source_auto {
    int fd;
    struct source_live live;
    bool is_live;
    bool stopped;              /* ended because live.stop was set */
    bool at_eof;               /* the descriptor returned its end */
    uint64_t fd_bytes;         /* bytes read from fd: a followed file must not shrink */
    bool sniffed;
    bool gzip;
    bool in_member;            /* inside a gzip member: its end has not been seen */
    z_stream zs;
    const char *why;           /* what the last failure means, or NULL for errno */
    unsigned char *in;         /* bytes read from fd, not yet consumed */
    size_t in_pos, in_len;
};

struct source_auto *source_auto_new(int fd)
{
    struct source_auto *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->in = malloc(INPUT_CHUNK);
    if (!s->in) {
        free(s);
        return NULL;
    }
    s->fd = fd;
    return s;
}

void source_auto_free(struct source_auto *s)
{
    if (!s)
        return;
    if (s->gzip)
        inflateEnd(&s->zs);
    if (s->fd > STDIN_FILENO)
        close(s->fd);
    free(s->in);
    free(s);
}

void source_auto_live(struct source_auto *s, const struct source_live *live)
{
    s->live = *live;
    s->is_live = true;
}

bool source_auto_stopped(const struct source_auto *s)
{
    return s->stopped;
}

bool source_auto_at_eof(const struct source_auto *s)
{
    return s->at_eof;
}

uint64_t source_auto_bytes(const struct source_auto *s)
{
    return s->fd_bytes;
}

static bool stop_asked(struct source_auto *s)
{
    if (s->live.stop && *s->live.stop)
        s->stopped = true;
    return s->stopped;
}

/* A followed file at its end: false when it became shorter than what was read (it was
 * truncated, or rewritten in place by another run), which following cannot make sense of. */
static bool file_still_whole(struct source_auto *s)
{
    struct stat st;
    if (fstat(s->fd, &st) == 0 && (uint64_t)st.st_size < s->fd_bytes) {
        s->why = "the file became shorter while it was followed (truncated or rewritten)";
        errno = EIO;
        return false;
    }
    return true;
}

/* A step of a live wait brought nothing: the owner may look at what it has read. */
static void idle_step(const struct source_auto *s)
{
    if (s->live.idle)
        s->live.idle(s->live.idle_ctx);
}

/* Reads the descriptor: the count read, 0 at its end (or at a stop, or when a live
 * connection was reset), -1 on an error. A live input waits for bytes instead of ending
 * (see the top of the file). */
static ssize_t fd_read(struct source_auto *s, unsigned char *buf, size_t n)
{
    if (!s->is_live) {
        ssize_t got = source_fd_read(&s->fd, buf, n);
        s->at_eof = got == 0;
        if (got > 0)
            s->fd_bytes += (uint64_t)got;
        return got;
    }
    for (;;) {
        if (stop_asked(s))
            return 0;
        if (!s->live.follow) {
            struct pollfd p = { .fd = s->fd, .events = POLLIN };
            int ready = poll(&p, 1, LIVE_POLL_MS);
            if (ready < 0 && errno != EINTR)
                return -1;
            if (ready <= 0) {
                if (ready == 0)
                    idle_step(s);
                continue;
            }
        }
        ssize_t got = read(s->fd, buf, n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        /* A connection reset or timed out is a connection that ended: the caller may
         * connect again (census/input.c), as after an orderly close. */
        if (got < 0 && (errno == ECONNRESET || errno == ETIMEDOUT || errno == EPIPE))
            got = 0;
        if (got == 0 && s->live.follow) {
            if (!file_still_whole(s))
                return -1;
            progress_sleep_ms(LIVE_POLL_MS);
            idle_step(s);
            continue;
        }
        if (got > 0)
            s->fd_bytes += (uint64_t)got;
        s->at_eof = got == 0;
        return got;
    }
}

/* Refills the input chunk: the count read, 0 at the end, -1 on an error. */
static ssize_t refill(struct source_auto *s)
{
    ssize_t got = fd_read(s, s->in, INPUT_CHUNK);
    s->in_pos = 0;
    s->in_len = got > 0 ? (size_t)got : 0;
    return got;
}

/* The first read decides: gzip magic (1f 8b) means inflate, anything else passes. */
static int sniff(struct source_auto *s)
{
    while (s->in_len < 2) {
        ssize_t got = fd_read(s, s->in + s->in_len, INPUT_CHUNK - s->in_len);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        s->in_len += (size_t)got;
    }
    s->sniffed = true;
    if (s->in_len >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b) {
        if (inflateInit2(&s->zs, 15 + 16) != Z_OK) {
            errno = ENOMEM;
            return -1;
        }
        s->gzip = true;
        s->in_member = true;
    }
    return 0;
}

static ssize_t inflate_some(struct source_auto *s, unsigned char *buf, size_t n)
{
    if (n > UINT_MAX)
        n = UINT_MAX;
    for (;;) {
        if (s->in_pos == s->in_len) {
            ssize_t got = refill(s);
            if (got < 0)
                return -1;
            if (got == 0) {
                if (!s->in_member)
                    return 0;
                s->why = "the compressed data ends early";
                errno = EIO;
                return -1;
            }
        }
        if (!s->in_member) {
            /* Another gzip member follows (as `cat a.gz b.gz` makes). */
            inflateReset(&s->zs);
            s->in_member = true;
        }
        s->zs.next_in = s->in + s->in_pos;
        s->zs.avail_in = (unsigned)(s->in_len - s->in_pos);
        s->zs.next_out = buf;
        s->zs.avail_out = (unsigned)n;
        int ret = inflate(&s->zs, Z_NO_FLUSH);
        s->in_pos = s->in_len - s->zs.avail_in;
        size_t produced = n - s->zs.avail_out;
        if (ret == Z_STREAM_END)
            s->in_member = false;
        else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            s->why = "the compressed data is corrupt";
            errno = EIO;
            return produced ? (ssize_t)produced : -1;
        }
        if (produced)
            return (ssize_t)produced;
    }
}

const char *source_auto_why(void *ctx)
{
    return ((struct source_auto *)ctx)->why;
}

ssize_t source_auto_read(void *ctx, unsigned char *buf, size_t n)
{
    struct source_auto *s = ctx;
    if (!s->sniffed && sniff(s) != 0)
        return -1;
    if (s->gzip)
        return inflate_some(s, buf, n);
    if (s->in_pos < s->in_len) {
        size_t take = s->in_len - s->in_pos;
        if (take > n)
            take = n;
        memcpy(buf, s->in + s->in_pos, take);
        s->in_pos += take;
        return (ssize_t)take;
    }
    return fd_read(s, buf, n);
}

void source_seek_init(struct source_seek *s, struct ev_source inner)
{
    memset(s, 0, sizeof *s);
    s->inner = inner;
    s->searching = true;
}

/* Fills held until it holds "hdrb" at held_pos, or the budget is spent, or the input
 * ends; the bytes before the match are discarded. */
static int seek_header(struct source_seek *s)
{
    static const unsigned char magic[4] = { 'h', 'd', 'r', 'b' };
    for (;;) {
        size_t have = s->held_len - s->held_pos;
        for (size_t i = 0; i + 4 <= have; i++) {
            if (memcmp(s->held + s->held_pos + i, magic, 4) == 0) {
                s->held_pos += i;
                s->skipped += i;
                s->searching = false;
                return 0;
            }
        }
        /* Keep the last three bytes: the magic may straddle two reads. */
        size_t keep = have < 3 ? have : 3;
        s->skipped += have - keep;
        memmove(s->held, s->held + s->held_len - keep, keep);
        s->held_pos = 0;
        s->held_len = keep;
        if (s->skipped >= SOURCE_SEEK_MAX) {
            s->searching = false;
            return 0;
        }
        ssize_t got = s->inner.read(s->inner.ctx, s->held + keep, sizeof s->held - keep);
        if (got < 0)
            return -1;
        if (got == 0) {
            s->searching = false;
            return 0;
        }
        s->held_len += (size_t)got;
    }
}

/* Hands out held[*pos..len) first, then reads inner: what a source that looked ahead
 * (seek, peek) does once it has found what it looked for. */
static ssize_t held_then_inner(const unsigned char *held, size_t *pos, size_t len,
                               const struct ev_source *inner, unsigned char *buf, size_t n)
{
    if (*pos < len) {
        size_t k = len - *pos < n ? len - *pos : n;
        memcpy(buf, held + *pos, k);
        *pos += k;
        return (ssize_t)k;
    }
    return inner->read(inner->ctx, buf, n);
}

/* What inner says its last failure means, or NULL. */
static const char *inner_why(const struct ev_source *inner)
{
    return inner->why ? inner->why(inner->ctx) : NULL;
}

ssize_t source_seek_read(void *ctx, unsigned char *buf, size_t n)
{
    struct source_seek *s = ctx;
    if (s->searching && seek_header(s) != 0)
        return -1;
    return held_then_inner(s->held, &s->held_pos, s->held_len, &s->inner, buf, n);
}

const char *source_seek_why(void *ctx)
{
    return inner_why(&((struct source_seek *)ctx)->inner);
}

int source_peek_init(struct source_peek *p, struct ev_source inner, size_t n)
{
    memset(p, 0, sizeof *p);
    p->inner = inner;
    if (n > SOURCE_PEEK_MAX)
        n = SOURCE_PEEK_MAX;
    while (p->len < n) {
        ssize_t got = inner.read(inner.ctx, p->head + p->len, n - p->len);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        p->len += (size_t)got;
    }
    return 0;
}

ssize_t source_peek_read(void *ctx, unsigned char *buf, size_t n)
{
    struct source_peek *p = ctx;
    return held_then_inner(p->head, &p->pos, p->len, &p->inner, buf, n);
}

const char *source_peek_why(void *ctx)
{
    return inner_why(&((struct source_peek *)ctx)->inner);
}

size_t source_read_some(const struct ev_source *src, unsigned char *buf, size_t n,
                        bool *at_eof, int *read_errno)
{
    ssize_t got = src->read(src->ctx, buf, n);
    if (got > 0)
        return (size_t)got;
    if (got < 0)
        *read_errno = errno ? errno : EIO;
    *at_eof = true;
    return 0;
}
