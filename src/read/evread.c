/* evread.c: the streaming eventlog reader (see evread.h).
 *
 * Bytes flow through one buffer {buf, pos, len}: fill() moves what is left to the front
 * and reads more until the bytes asked for are there or the source ends. An event is at
 * most 2 + 8 + 2 + 65535 bytes, so a buffer of 64 KiB and a little more always holds one;
 * the default is larger so that reads are big. Header descriptions, whose declared length
 * can be anything up to 4 GiB, are skipped by streaming, never held.
 */
#include "read/evread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "read/evdecode.h"
#include "read/evdefs.h"

#define MAGIC_HEADER_BEGIN 0x68647262u /* "hdrb" */
#define MAGIC_HEADER_END   0x68647265u /* "hdre" */
#define MAGIC_HET_BEGIN    0x68657462u /* "hetb" */
#define MAGIC_HET_END      0x68657465u /* "hete" */
#define MAGIC_ET_BEGIN     0x65746200u /* "etb\0" */
#define MAGIC_ET_END       0x65746500u /* "ete\0" */
#define MAGIC_DATA_BEGIN   0x64617462u /* "datb" */

#define LARGEST_EVENT (2 + 8 + 2 + 65535)
#define DEFAULT_BUFFER (1u << 20)

struct ev_reader {
    struct ev_source src;
    unsigned char *buf;
    size_t cap;
    size_t pos;            /* next unread byte */
    size_t len;            /* bytes valid in buf */
    uint64_t buf_offset;   /* input offset of buf[0] */
    bool at_eof;
    int read_errno;        /* non-zero once the source failed */
    int16_t size_of[65536];
    uint8_t declared[65536 / 8];
    uint8_t unwanted[65536]; /* 1 = read and check the event, but do not return it */
    uint64_t latest_time;    /* the largest timestamp of any event read, skipped or not */
    /* What the fast path needs to know of a tag, in one load: 0 = go the slow way
     * (undeclared, end-of-data); else FAST_VARIABLE, or the whole event's fixed length
     * in the low 16 bits; and FAST_UNWANTED. Built from the three tables above. */
    uint32_t fast[65536];
};

#define FAST_LENGTH 0xffffu
#define FAST_VARIABLE (1u << 16)
#define FAST_UNWANTED (1u << 17)

struct ev_reader *ev_reader_new(struct ev_source src, size_t buffer_size)
{
    if (buffer_size == 0)
        buffer_size = DEFAULT_BUFFER;
    if (buffer_size < LARGEST_EVENT)
        buffer_size = LARGEST_EVENT;
    struct ev_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->buf = malloc(buffer_size);
    if (!r->buf) {
        free(r);
        return NULL;
    }
    r->src = src;
    r->cap = buffer_size;
    return r;
}

void ev_reader_free(struct ev_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r);
}

static uint64_t offset_of(const struct ev_reader *r, size_t pos)
{
    return r->buf_offset + pos;
}

uint64_t ev_reader_offset(const struct ev_reader *r)
{
    return offset_of(r, r->pos);
}

/* Makes at least need bytes available at buf + pos; false when the input ends first or a
 * read fails (read_errno tells which). */
static bool fill(struct ev_reader *r, size_t need)
{
    if (r->len - r->pos >= need)
        return true;
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->buf_offset += r->pos;
        r->len -= r->pos;
        r->pos = 0;
    }
    while (r->len < need && !r->at_eof) {
        ssize_t got = r->src.read(r->src.ctx, r->buf + r->len, r->cap - r->len);
        if (got < 0) {
            r->read_errno = errno ? errno : EIO;
            r->at_eof = true;
        } else if (got == 0) {
            r->at_eof = true;
        } else {
            r->len += (size_t)got;
        }
    }
    return r->len >= need;
}

/* The status and message for input that ended before need bytes at pos. */
static enum ev_status short_input(struct ev_reader *r, struct ev_error *err, const char *inside)
{
    if (r->read_errno) {
        const char *why = r->src.why ? r->src.why(r->src.ctx) : NULL;
        if (why)
            ev_error_at(err, offset_of(r, r->len), "%s", why);
        else
            ev_error_at(err, offset_of(r, r->len), "read failed: %s", strerror(r->read_errno));
        return EV_IO_ERROR;
    }
    ev_error_at(err, offset_of(r, r->pos), "the file ends inside %s", inside);
    return EV_DAMAGED;
}

static bool skip(struct ev_reader *r, uint64_t n)
{
    while (n > 0) {
        if (r->pos == r->len && !fill(r, 1))
            return false;
        size_t step = r->len - r->pos;
        if (step > n)
            step = (size_t)n;
        r->pos += step;
        n -= step;
    }
    return true;
}

static bool take32(struct ev_reader *r, uint32_t *out)
{
    if (!fill(r, 4))
        return false;
    *out = be32(r->buf + r->pos);
    r->pos += 4;
    return true;
}

static enum ev_status expect_magic(struct ev_reader *r, uint32_t magic, const char *name,
                                   struct ev_error *err)
{
    uint64_t at = ev_reader_offset(r);
    uint32_t word;
    if (!take32(r, &word))
        return short_input(r, err, "the header");
    if (word != magic) {
        ev_error_at(err, at, "bad header: expected \"%s\"", name);
        return EV_DAMAGED;
    }
    return EV_OK;
}

static enum ev_status read_event_type(struct ev_reader *r, struct ev_error *err)
{
    uint64_t at = ev_reader_offset(r);
    if (!fill(r, 8))
        return short_input(r, err, "the header");
    uint16_t tag = be16(r->buf + r->pos);
    int16_t size = (int16_t)be16(r->buf + r->pos + 2);
    uint32_t desc_len = be32(r->buf + r->pos + 4);
    r->pos += 8;
    if (size < EV_SIZE_VARIABLE) {
        ev_error_at(err, at, "bad header: event type %u has size %d", tag, size);
        return EV_DAMAGED;
    }
    uint32_t extra_len;
    if (!skip(r, desc_len) || !take32(r, &extra_len) || !skip(r, extra_len))
        return short_input(r, err, "the header");
    enum ev_status st = expect_magic(r, MAGIC_ET_END, "ete", err);
    if (st != EV_OK)
        return st;
    r->size_of[tag] = size;
    r->declared[tag / 8] |= (uint8_t)(1u << (tag % 8));
    return EV_OK;
}

static void build_fast_table(struct ev_reader *r)
{
    for (uint32_t tag = 0; tag < 65536; tag++) {
        uint32_t kind = 0;
        /* IPE events go the slow way: their written size may differ from the declared one
         * (ev_payload_written); they come once per info table, not per census. */
        if (tag != EV_TAG_DATA_END && tag != EV_IPE &&
            (r->declared[tag / 8] & (1u << (tag % 8)))) {
            int size = r->size_of[tag];
            kind = size == EV_SIZE_VARIABLE ? FAST_VARIABLE : (uint32_t)(10 + size);
            if (r->unwanted[tag])
                kind |= FAST_UNWANTED;
        }
        r->fast[tag] = kind;
    }
}

enum ev_status ev_reader_read_header(struct ev_reader *r, struct ev_error *err)
{
    uint32_t word;
    if (!take32(r, &word) || word != MAGIC_HEADER_BEGIN) {
        if (r->read_errno)
            return short_input(r, err, "the header");
        ev_error_at(err, 0, "not an eventlog (it does not start with \"hdrb\")");
        return EV_NOT_EVENTLOG;
    }
    enum ev_status st = expect_magic(r, MAGIC_HET_BEGIN, "hetb", err);
    if (st != EV_OK)
        return st;
    for (;;) {
        uint64_t at = ev_reader_offset(r);
        if (!take32(r, &word))
            return short_input(r, err, "the header");
        if (word == MAGIC_HET_END)
            break;
        if (word != MAGIC_ET_BEGIN) {
            ev_error_at(err, at, "bad header: expected an event type (\"etb\") or \"hete\"");
            return EV_DAMAGED;
        }
        st = read_event_type(r, err);
        if (st != EV_OK)
            return st;
    }
    st = expect_magic(r, MAGIC_HEADER_END, "hdre", err);
    if (st == EV_OK)
        st = expect_magic(r, MAGIC_DATA_BEGIN, "datb", err);
    /* GHC 6.12 (told by its 8-byte CREATE_THREAD) declares STARTUP with size 0 but writes
     * its 2-byte capability count; read it as ghc-events does, or every event after the
     * first would be read from the wrong place. */
    if (st == EV_OK && ev_reader_declared(r, EV_CREATE_THREAD, NULL) &&
        r->size_of[EV_CREATE_THREAD] == 8 && ev_reader_declared(r, EV_STARTUP, NULL) &&
        r->size_of[EV_STARTUP] == 0)
        r->size_of[EV_STARTUP] = 2;
    build_fast_table(r);
    return st;
}

bool ev_reader_declared(const struct ev_reader *r, uint16_t tag, int *size)
{
    if (!(r->declared[tag / 8] & (1u << (tag % 8))))
        return false;
    if (size)
        *size = r->size_of[tag];
    return true;
}

void ev_reader_skip_unwanted(struct ev_reader *r, bool (*wanted)(uint16_t tag))
{
    for (uint32_t tag = 0; tag < 65536; tag++)
        r->unwanted[tag] = wanted && !wanted((uint16_t)tag);
    build_fast_table(r);
}

uint64_t ev_reader_latest_time(const struct ev_reader *r)
{
    return r->latest_time;
}

/* The slow path of ev_reader_next: refills the buffer as needed and tells every kind of
 * damage apart. */
static enum ev_status next_checked(struct ev_reader *r, struct ev_event *ev,
                                   struct ev_error *err)
{
    if (!fill(r, 2)) {
        if (r->len == r->pos && !r->read_errno) {
            ev_error_at(err, ev_reader_offset(r),
                        "the file ends without the end-of-data marker");
            return EV_DAMAGED;
        }
        return short_input(r, err, "an event");
    }
    const unsigned char *p = r->buf + r->pos;
    uint16_t tag = be16(p);
    if (tag == EV_TAG_DATA_END) {
        r->pos += 2;
        return EV_END;
    }
    int size;
    if (!ev_reader_declared(r, tag, &size)) {
        ev_error_at(err, ev_reader_offset(r),
                    "event type %u is not declared in the header", tag);
        return EV_DAMAGED;
    }
    size_t head = size == EV_SIZE_VARIABLE ? 12 : 10;
    if (!fill(r, head))
        return short_input(r, err, "an event");
    p = r->buf + r->pos;
    uint32_t payload = size == EV_SIZE_VARIABLE ? be16(p + 10) : (uint32_t)size;
    if (!fill(r, head + payload))
        return short_input(r, err, "an event");
    p = r->buf + r->pos;
    /* A GHC 9.10+ IPE event is one byte shorter than declared; that byte is the next
     * event's, so it stays unread (evdecode.h, ev_payload_written). */
    if (size == EV_SIZE_VARIABLE && tag == EV_IPE)
        payload = (uint32_t)ev_payload_written(tag, p + head, payload);
    ev->tag = tag;
    ev->time = be64(p + 2);
    ev->payload = p + head;
    ev->size = payload;
    ev->offset = ev_reader_offset(r);
    r->pos += head + payload;
    return EV_OK;
}

/* The whole length of the event at p, of a tag whose fast-table entry is kind. */
static inline size_t event_length(uint32_t kind, const unsigned char *p)
{
    return kind & FAST_VARIABLE ? 12 + (size_t)be16(p + 10) : (kind & FAST_LENGTH);
}

/* The fast path takes an event lying whole in the buffer, of a declared type, with one
 * table load and one bounds check, and skips unwanted ones in a tight loop. Anything else
 * (the end of the buffer, the end-of-data marker, damage) goes the slow way, which gives
 * the same event or the precise error. */
enum ev_status ev_reader_next(struct ev_reader *r, struct ev_event *ev, struct ev_error *err)
{
    for (;;) {
        /* Locals, not r->pos and r->latest_time: stores through r could alias the byte
         * buffer, which would make the compiler reload them on every skipped event. */
        const unsigned char *buf = r->buf;
        size_t pos = r->pos, len = r->len;
        uint64_t latest = r->latest_time;
        for (;;) {
            size_t avail = len - pos;
            const unsigned char *p = buf + pos;
            uint32_t kind;
            size_t length;
            if (avail < 12 || (kind = r->fast[be16(p)]) == 0 ||
                (length = event_length(kind, p)) > avail)
                break;
            uint64_t time = be64(p + 2);
            if (time > latest)
                latest = time;
            if (kind & FAST_UNWANTED) {
                pos += length;
                continue;
            }
            ev->tag = be16(p);
            ev->time = time;
            ev->payload = p + (kind & FAST_VARIABLE ? 12 : 10);
            ev->size = (uint32_t)(length - (kind & FAST_VARIABLE ? 12 : 10));
            ev->offset = r->buf_offset + pos;
            r->pos = pos + length;
            r->latest_time = latest;
            return EV_OK;
        }
        r->pos = pos;
        r->latest_time = latest;
        enum ev_status st = next_checked(r, ev, err);
        if (st != EV_OK)
            return st;
        if (ev->time > r->latest_time)
            r->latest_time = ev->time;
        if (!r->unwanted[ev->tag])
            return EV_OK;
    }
}
