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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/grow.h"
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

/* Recovery. An event's timestamp may lie this far before its block's start (events posted
 * with a timestamp taken earlier, e.g. GC_START) before it counts as damage; never after
 * the block's end, which the runtime stamps when it flushes the block. */
#define BLOCK_TIME_SLACK 1000000000ull
/* A block holds one capability's events in the order they were posted, so in time order
 * but for the few posted with a timestamp taken a moment earlier (GC_END, by tens of
 * microseconds in real eventlogs). An event earlier than the block's latest confirmed
 * time, or later than the event after it, by more than this is damage. */
#define MONOTONE_SLACK 100000000ull
/* The bytes of the next event's header the time check looks at. */
#define NEXT_HEADER 10
/* A block marker: tag, time, then Word32 size, Word64 end time, Word16 capability. */
#define BLOCK_MARKER_LENGTH (10 + 14)
/* A resynchronisation point is proven by this many events in a row parsing cleanly, or by
 * a chain reaching its block's end exactly. */
#define CHAIN_EVENTS 8
/* Without a block end to bound it, the search gives up after this many bytes. */
#define RESYNC_BUDGET (4u << 20)
/* Per-capability end of the previous block (time), for the duplicated-block check. */
#define CAP_SLOTS 64

struct ev_reader {
    struct ev_source src;
    unsigned char *buf;
    size_t cap;
    size_t pos;            /* next unread byte */
    size_t len;            /* bytes valid in buf */
    uint64_t buf_offset;   /* input offset of buf[0] */
    bool at_eof;
    int read_errno;        /* non-zero once the source failed */
    /* What the header declared of each event type, indexed by tag, for the tags below
     * tag_count (the largest declared + 1; an event of a larger tag is undeclared). A
     * header declares a few hundred of the 65,536 tags: tables of all of them made every
     * reader a 468 KB allocation, which cost each small run and each reconnection. */
    struct tag_info *tags;
    uint32_t tag_count;
    /* Every tag's fast-table entry (tag_info), all 65,536 of them, so the fast path looks
     * a tag up with no bounds check: 0 but for the declared ones. Its pages are the
     * kernel's zero page until written, and only the few holding declared tags are. */
    uint32_t *fast;
    bool (*wanted)(uint16_t tag); /* ev_reader_skip_unwanted's; NULL = every event */
    uint64_t latest_time;    /* the largest timestamp of any event read, skipped or not */
    /* Recovery (ev_reader_recover). The current block, from its marker: where it ends
     * (0 = unknown) and the span its events' timestamps must lie in, as the fast path
     * checks it: (time - win_lo) > win_span is outside. Without a block, any time passes. */
    bool recover;
    uint64_t block_end;
    uint64_t win_lo, win_span;
    /* Inside a block marker's scope (closed or not): its events are one capability's, in
     * time order; frontier is the latest time an event there was confirmed at (by the
     * event after it, or the block's end). seen_block: the file has block markers, so
     * every event lies in a block. */
    bool in_block, seen_block;
    uint16_t block_cap;       /* the current block's capability, or EV_NO_CAP */
    uint64_t frontier;
    struct { bool used; uint16_t cap; uint64_t end; } caps[CAP_SLOTS];
    uint64_t open_block_time; /* start of the last block marker of size 0, or 0 */
    struct ev_region region;  /* the last region skipped */
    /* The event at pos as the fast path left it after the one it returned, when it knew
     * it good (ev_reader_next): whole in the buffer (ahead_length bytes), of a type it
     * takes (ahead_kind, its fast-table entry; 0 = nothing known), in the current block
     * with its time (ahead_time) in the span and in order. Everything else that moves pos
     * or changes what the fast path checks against forgets it (forget_ahead). */
    uint32_t ahead_kind;
    uint64_t ahead_time;
    size_t ahead_length;
};

/* One declared event type. Its entry in the fast table (the reader's fast) is what the
 * fast path needs to know of it, in one load: FAST_TAKE when the fast path may take its
 * events (not end-of-data, IPE or block markers), with FAST_VARIABLE or the whole event's
 * fixed length in the low 16 bits, and FAST_UNWANTED; FAST_WITNESS when an event of the
 * type can confirm the time of the one before it (witness_of: declared, not
 * end-of-data). 0 for an undeclared tag. Built from the rest. */
struct tag_info {
    int16_t size;       /* declared payload size, or EV_SIZE_VARIABLE */
    bool declared;
    bool unwanted;      /* read and check the event, but do not return it */
};

#define FAST_LENGTH 0xffffu
#define FAST_VARIABLE (1u << 16)
#define FAST_UNWANTED (1u << 17)
#define FAST_TAKE (1u << 18)
#define FAST_WITNESS (1u << 19)

void ev_reader_free(struct ev_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->tags);
    free(r->fast);
    free(r);
}

struct ev_reader *ev_reader_new(struct ev_source src, size_t buffer_size)
{
    if (buffer_size == 0)
        buffer_size = DEFAULT_BUFFER;
    if (buffer_size < LARGEST_EVENT + NEXT_HEADER)
        buffer_size = LARGEST_EVENT + NEXT_HEADER;
    struct ev_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->buf = malloc(buffer_size);
    r->fast = calloc(65536, sizeof *r->fast);
    if (!r->buf || !r->fast) {
        free(r->buf);
        free(r->fast);
        free(r);
        return NULL;
    }
    r->src = src;
    r->cap = buffer_size;
    r->win_span = UINT64_MAX;
    r->block_cap = EV_NO_CAP;
    return r;
}

static uint64_t offset_of(const struct ev_reader *r, size_t pos)
{
    return r->buf_offset + pos;
}

uint64_t ev_reader_offset(const struct ev_reader *r)
{
    return offset_of(r, r->pos);
}

/* The fast path's knowledge of the next event no longer holds. */
static void forget_ahead(struct ev_reader *r)
{
    r->ahead_kind = 0;
}

void ev_reader_start_at(struct ev_reader *r, uint64_t offset)
{
    forget_ahead(r);
    r->buf_offset = offset;
}

bool ev_reader_same_declarations(const struct ev_reader *a, const struct ev_reader *b)
{
    /* The tables may have grown past the 65,536 tags (grow_array doubles); none is
     * declared there. */
    uint32_t count = a->tag_count > b->tag_count ? a->tag_count : b->tag_count;
    if (count > 65536)
        count = 65536;
    for (uint32_t tag = 0; tag < count; tag++) {
        int size_a, size_b;
        bool in_a = ev_reader_declared(a, (uint16_t)tag, &size_a);
        if (in_a != ev_reader_declared(b, (uint16_t)tag, &size_b) || (in_a && size_a != size_b))
            return false;
    }
    return true;
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
    while (r->len < need && !r->at_eof)
        r->len += source_read_some(&r->src, r->buf + r->len, r->cap - r->len, &r->at_eof,
                                   &r->read_errno);
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

/* Makes room for the tags below count, the new ones undeclared. */
static bool grow_tags(struct ev_reader *r, uint32_t count)
{
    size_t cap = r->tag_count;
    if (GROW_ARRAY_ZEROED(r->tags, &cap, count) != 0)
        return false;
    r->tag_count = (uint32_t)cap;
    return true;
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
    if (tag >= r->tag_count && !grow_tags(r, (uint32_t)tag + 1)) {
        ev_error_at(err, at, "out of memory");
        return EV_IO_ERROR;
    }
    r->tags[tag].size = size;
    r->tags[tag].declared = true;
    return EV_OK;
}

/* Fills fast and unwanted for the declared tags, the only ones an event can have (an
 * undeclared tag is damage, found on the slow path). */
static void build_fast_table(struct ev_reader *r)
{
    forget_ahead(r);
    for (uint32_t tag = 0; tag < r->tag_count; tag++) {
        struct tag_info *t = &r->tags[tag];
        if (!t->declared)
            continue;
        t->unwanted = r->wanted && !r->wanted((uint16_t)tag);
        uint32_t kind = tag != EV_TAG_DATA_END ? FAST_WITNESS : 0;
        /* IPE events go the slow way: their written size may differ from the declared one
         * (ev_payload_written); they come once per info table, not per census. */
        /* Block markers go the slow way too: they set the block's end and time span. */
        if (tag != EV_TAG_DATA_END && tag != EV_IPE && tag != EV_BLOCK_MARKER) {
            kind |= FAST_TAKE;
            kind |= t->size == EV_SIZE_VARIABLE ? FAST_VARIABLE : (uint32_t)(10 + t->size);
            if (t->unwanted)
                kind |= FAST_UNWANTED;
        }
        r->fast[tag] = kind;
    }
}

/* GHC 6.12 declared some sizes it did not write: a thread id as 8 bytes where it wrote
 * 4, and STARTUP as 0 bytes where it wrote its 2-byte capability count (ghc-events read
 * them so with its "ghc6Parsers" until 2022). Its header is told by CREATE_THREAD
 * declared with 8 bytes, which no later GHC did. Each event of these types is read with
 * the size written, or every event after the first would be read from the wrong place. */
static const struct { uint16_t tag; int16_t declared, written; } ghc612_sizes[] = {
    { EV_STARTUP, 0, 2 },
    { EV_CREATE_THREAD, 8, 4 },       /* thread */
    { EV_RUN_THREAD, 8, 4 },
    { EV_THREAD_RUNNABLE, 8, 4 },
    { EV_RUN_SPARK, 8, 4 },
    { EV_CREATE_SPARK_THREAD, 8, 4 },
    { EV_STOP_THREAD, 10, 6 },        /* thread, status */
    { EV_MIGRATE_THREAD, 10, 6 },     /* thread, capability */
    { EV_STEAL_SPARK, 10, 6 },
    { EV_THREAD_WAKEUP, 10, 6 },
};

static void correct_ghc612_sizes(struct ev_reader *r)
{
    int size;
    if (!ev_reader_declared(r, EV_CREATE_THREAD, &size) || size != 8)
        return;
    for (size_t i = 0; i < sizeof ghc612_sizes / sizeof *ghc612_sizes; i++) {
        uint16_t tag = ghc612_sizes[i].tag;
        if (ev_reader_declared(r, tag, &size) && size == ghc612_sizes[i].declared)
            r->tags[tag].size = ghc612_sizes[i].written;
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
    if (st == EV_OK)
        correct_ghc612_sizes(r);
    build_fast_table(r);
    return st;
}

bool ev_reader_declared(const struct ev_reader *r, uint16_t tag, int *size)
{
    if (tag >= r->tag_count || !r->tags[tag].declared)
        return false;
    if (size)
        *size = r->tags[tag].size;
    return true;
}

void ev_reader_skip_unwanted(struct ev_reader *r, bool (*wanted)(uint16_t tag))
{
    r->wanted = wanted;
    build_fast_table(r);
}

uint64_t ev_reader_latest_time(const struct ev_reader *r)
{
    return r->latest_time;
}

void ev_reader_recover(struct ev_reader *r, bool on)
{
    r->recover = on;
}

uint64_t ev_reader_block_end(const struct ev_reader *r)
{
    return r->block_end;
}

struct ev_region ev_reader_last_region(const struct ev_reader *r)
{
    return r->region;
}

/* Whether time lies in the current block's span (always, outside any block). */
static inline bool time_in_block(const struct ev_reader *r, uint64_t time)
{
    return time - r->win_lo <= r->win_span;
}

static void leave_block(struct ev_reader *r)
{
    r->block_end = 0;
    r->win_lo = 0;
    r->win_span = UINT64_MAX;
    r->in_block = false;
    r->block_cap = EV_NO_CAP;
}

/* The span of times of a block from start to end (end 0: never closed, open above): what
 * time_in_block checks, as (time - *lo) <= *span. */
static void block_span(uint64_t start, uint32_t size, uint64_t end, uint64_t *lo,
                       uint64_t *span)
{
    *lo = start > BLOCK_TIME_SLACK ? start - BLOCK_TIME_SLACK : 0;
    *span = (size ? end : UINT64_MAX) - *lo;
}

/* Enters the block whose marker (start time, size, end time) is at offset at. A size of
 * 0 (a block never closed) leaves its end unknown and its span open above. */
static void enter_block(struct ev_reader *r, uint64_t at, uint64_t start, uint32_t size,
                        uint64_t end, uint16_t cap)
{
    r->block_cap = cap;
    r->block_end = size ? at + size : 0;
    block_span(start, size, end, &r->win_lo, &r->win_span);
    r->in_block = r->seen_block = true;
    r->frontier = r->win_lo;
}

/* Whether the header at next (NEXT_HEADER bytes there) is a witness to the time of the
 * event before it: an event of a declared type (not end-of-data) whose own time is in the
 * block's span (win_lo, win_span) and not before the frontier. Its time in *t. On
 * explicit values, so the fast path of ev_reader_next applies the same rule to its local
 * copies; it also gets the witness's fast-table entry, its own next event's (0 when not a
 * witness). */
static inline uint32_t witness_kind(const uint32_t *fast, uint64_t win_lo, uint64_t win_span,
                                    uint64_t frontier, const unsigned char *next, uint64_t *t)
{
    uint32_t kind = fast[be16(next)];
    *t = be64(next + 2);
    return (kind & FAST_WITNESS) && *t - win_lo <= win_span && *t + MONOTONE_SLACK >= frontier
               ? kind : 0;
}

static inline bool witness_of(const uint32_t *fast, uint64_t win_lo, uint64_t win_span,
                              uint64_t frontier, const unsigned char *next, uint64_t *t)
{
    return witness_kind(fast, win_lo, win_span, frontier, next, t) != 0;
}

/* The time order of a block (MONOTONE_SLACK), on explicit values: 0 when time, of an
 * event in the block's span, is consistent with the events around it, and *frontier
 * moves to it when the event after it (witnessed, at next_time) or the block's end
 * (at_block_end) confirms it; -1 when it is earlier than the frontier, 1 when later than
 * the event after it. */
static inline int order_in_block(uint64_t time, uint64_t *frontier, bool at_block_end,
                                 bool witnessed, uint64_t next_time)
{
    if (time + MONOTONE_SLACK < *frontier)
        return -1;
    if (!at_block_end && !witnessed)
        return 0;   /* unconfirmed: the frontier stays */
    if (!at_block_end && time > next_time + MONOTONE_SLACK)
        return 1;
    if (time > *frontier)
        *frontier = time;
    return 0;
}

/* order_in_block for the event before next (avail bytes there, up to the block's end).
 * Outside blocks every time is consistent (eventlogs without block markers interleave
 * capabilities). */
static int time_order(struct ev_reader *r, uint64_t time, const unsigned char *next,
                      size_t avail, bool at_block_end, uint64_t *next_time)
{
    if (!r->in_block)
        return 0;
    bool witnessed = !at_block_end && avail >= NEXT_HEADER &&
                     witness_of(r->fast, r->win_lo, r->win_span, r->frontier, next,
                                next_time);
    return order_in_block(time, &r->frontier, at_block_end, witnessed, *next_time);
}

/* The previous block's end time of capability cap, or false when none is known. Writes
 * the new end (0 for a block never closed: unknown). */
static bool cap_swap_end(struct ev_reader *r, uint16_t cap, uint64_t end, uint64_t *prev)
{
    unsigned slot = cap % CAP_SLOTS;
    bool known = r->caps[slot].used && r->caps[slot].cap == cap && r->caps[slot].end != 0;
    *prev = r->caps[slot].end;
    r->caps[slot].used = true;
    r->caps[slot].cap = cap;
    r->caps[slot].end = end;
    return known;
}

/* GHC 9.6 and later declare an IPE event one byte longer than they write (the byte after
 * it is the next event's; evdecode.h, ev_payload_written). When the runtime flushes a
 * block right after an IPE event, the block marker declares the end of what was written,
 * so that event's declared end lies one byte past its block's (GHC 9.10.3: at the 2 MiB
 * block boundaries of the IPE events it posts at startup). Such an event is whole: it is
 * an IPE event of variable size whose written bytes, six strings as GHC lays them out,
 * end exactly at the block's end. Whether the event at p (avail bytes there; whole its
 * declared length, at its offset) is one; end: its block's end offset. */
static bool ipe_ends_block(uint16_t tag, int size, const unsigned char *p, size_t avail,
                           uint64_t at, size_t whole, uint64_t end)
{
    return tag == EV_IPE && size == EV_SIZE_VARIABLE && end && whole > 12 + 8 + 6 &&
           at + whole - 1 == end && avail >= whole - 1 &&
           ev_ipe_written_short(p + 12, whole - 13);
}

/* What a chain of events is checked against while resynchronising: the block it is in
 * (end offset, 0 = unknown; its span as time_in_block has it) and, inside a block, the
 * time the next event may not be earlier than. */
struct chain_view {
    uint64_t end;
    uint64_t lo, span;
    bool in_block;
    uint64_t last;
};

/* Whether the event at buf + pos (with at least 2 bytes there) is whole in the buffer and
 * parses cleanly where it is: a declared type, inside its block, its time in the block's
 * span and, in a block, not before the event before it (MONOTONE_SLACK). *length: its
 * whole length. *at_block_end: it ends exactly where the block does. Only reads; fills
 * nothing. */
static bool plausible_at(const struct ev_reader *r, size_t pos, struct chain_view *v,
                         size_t *length, bool *at_block_end)
{
    const unsigned char *p = r->buf + pos;
    uint64_t at = offset_of(r, pos);
    uint16_t tag = be16(p);
    int size;
    *at_block_end = false;
    if (tag == EV_TAG_DATA_END || !ev_reader_declared(r, tag, &size))
        return false;
    size_t head = size == EV_SIZE_VARIABLE ? 12 : 10;
    if (r->len - pos < head)
        return false;
    size_t whole = head + (size == EV_SIZE_VARIABLE ? be16(p + 10) : (size_t)size);
    uint64_t time = be64(p + 2);
    /* as next_checked: an IPE event may be one byte shorter than declared, also as the
     * last event of its block (ipe_ends_block) */
    if (tag == EV_IPE && size == EV_SIZE_VARIABLE && r->len - pos >= whole)
        whole = head + ev_payload_written(tag, p + head, whole - head);
    if (r->len - pos < whole || time - v->lo > v->span || tag == EV_BLOCK_MARKER)
        return false;
    if (v->in_block) {
        if (time + MONOTONE_SLACK < v->last)
            return false;
        v->last = time;
    }
    if (v->end) {
        if (at + whole > v->end)
            return false;
        *at_block_end = at + whole == v->end;
    }
    *length = whole;
    return true;
}

/* Whether the block marker at buf + pos (BLOCK_MARKER_LENGTH bytes there) could be one
 * where it is: a block that can be, not before its capability's previous block; if so, v
 * becomes that block. A file with block markers has every event in a block: outside one,
 * a resynchronisation point is a block marker. */
static bool plausible_block_at(const struct ev_reader *r, size_t pos, struct chain_view *v)
{
    const unsigned char *p = r->buf + pos;
    int size;
    if (be16(p) != EV_BLOCK_MARKER || !ev_reader_declared(r, EV_BLOCK_MARKER, &size) ||
        size < BLOCK_MARKER_LENGTH - 10)
        return false;
    uint64_t start = be64(p + 2), end = be64(p + 14);
    uint32_t length = be32(p + 10);
    uint16_t cap = be16(p + 22);
    if (length != 0 && (length < 10 + (uint32_t)size || end < start))
        return false;
    unsigned slot = cap % CAP_SLOTS;
    if (r->caps[slot].used && r->caps[slot].cap == cap && start < r->caps[slot].end)
        return false;
    v->end = length ? offset_of(r, pos) + length : 0;
    block_span(start, length, end, &v->lo, &v->span);
    v->in_block = true;
    v->last = v->lo;
    return true;
}

/* Whether the end-of-data marker at buf + pos ends the input where it must: as the last
 * bytes of its block (GHC 9.6+ writes it into the last block), or (outside any known
 * block) as the input's last two bytes. */
static bool data_end_at(struct ev_reader *r, size_t pos, uint64_t block_end)
{
    if (block_end)
        return offset_of(r, pos) + 2 == block_end;
    fill(r, pos - r->pos + 3);
    return r->at_eof && r->len - pos == 2;
}

/* Whether a chain of events parses cleanly from r->pos: CHAIN_EVENTS in a row, or fewer
 * reaching the block's end (or the end-of-data marker) exactly, or (marker_ends, outside
 * any block) reaching a block marker. Fills what it reads,
 * never more than the buffer holds; offsets are kept relative to r->pos, which fill keeps
 * in place while it moves the buffer. */
static bool chain_from(struct ev_reader *r, bool marker_ends)
{
    size_t rel = 0;
    struct chain_view v = { r->block_end, r->win_lo, r->win_span, r->in_block, r->frontier };
    if (!marker_ends && !r->block_end && r->seen_block) {
        fill(r, BLOCK_MARKER_LENGTH);
        if (r->len - r->pos < BLOCK_MARKER_LENGTH || !plausible_block_at(r, r->pos, &v))
            return false;
        int size;
        ev_reader_declared(r, EV_BLOCK_MARKER, &size);
        rel = 10 + (size_t)size;
    }
    for (int k = 0; k < CHAIN_EVENTS; k++) {
        if (rel + 12 > r->cap)
            return k >= 3;
        fill(r, rel + 12);
        size_t avail = r->len - r->pos;
        if (avail < rel + 2)
            return false;
        const unsigned char *p = r->buf + r->pos + rel;
        uint16_t tag = be16(p);
        if (tag == EV_TAG_DATA_END)
            return data_end_at(r, r->pos + rel, v.end);
        if (marker_ends && tag == EV_BLOCK_MARKER && k > 0)
            return true;
        int size;
        if (!ev_reader_declared(r, tag, &size) || avail < rel + 12)
            return false;
        size_t whole = size == EV_SIZE_VARIABLE ? 12 + (size_t)be16(p + 10) : 10 + (size_t)size;
        if (rel + whole > r->cap)
            return k >= 3;
        fill(r, rel + whole);
        size_t length;
        bool at_end;
        if (!plausible_at(r, r->pos + rel, &v, &length, &at_end))
            return false;
        if (at_end)
            return true;
        rel += length;
    }
    return true;
}

/* Resynchronises after damage found at offset start (not before r->buf_offset): skips to
 * the first offset past it from which a chain of events parses cleanly, else to the end
 * of the block, else gives up. err holds the reason on entry; on EV_SKIPPED it says what
 * was skipped. */
static enum ev_status resync(struct ev_reader *r, uint64_t start, struct ev_error *err)
{
    char why[sizeof err->what];
    snprintf(why, sizeof why, "%s", err->what);
    uint64_t bound = r->block_end > start ? r->block_end : start + RESYNC_BUDGET;
    r->pos = (size_t)(start - r->buf_offset);
    uint64_t found = 0;
    for (uint64_t x = start + 1; x < bound; x++) {
        r->pos = (size_t)(x - r->buf_offset);
        if (!fill(r, 2)) {
            if (r->read_errno)
                return short_input(r, err, "a damaged region");
            ev_error_at(err, start, "%s; the file ends %" PRIu64 " bytes later without "
                        "another event that parses", why, offset_of(r, r->len) - start);
            r->pos = r->len;
            return EV_DAMAGED;
        }
        if (chain_from(r, false)) {
            found = x;
            break;
        }
    }
    if (!found) {
        if (!r->block_end || bound != r->block_end) {
            ev_error_at(err, start, "%s; no event parses again within %u bytes", why,
                        RESYNC_BUDGET);
            return EV_DAMAGED;
        }
        /* Nothing chains before the block's end: the next block starts there. */
        r->pos = (size_t)(bound - 1 - r->buf_offset);
        if (!skip(r, 1))
            return short_input(r, err, "a damaged region");
        found = bound;
    }
    r->pos = (size_t)(found - r->buf_offset);
    if (found == r->block_end)
        leave_block(r);
    r->region = (struct ev_region){ start, found - start };
    ev_error_at(err, start, "damaged region of %" PRIu64 " bytes skipped (%s)", found - start,
                why);
    return EV_SKIPPED;
}

/* Whether events of this type carry a time of their own, not the run's clock: the Eden
 * runtime's CREATE_MACHINE is stamped with a machine's start (ghc-events shows such an
 * event at 965 ns inside a block of a run's first second). Its time is not checked
 * against its block's span, and it is not taken as a time the run reached. */
static inline bool own_clock(uint16_t tag)
{
    return tag == EV_CREATE_MACHINE;
}

/* Damage at offset at (err set): EV_DAMAGED, or with recovery the region skipped. */
static enum ev_status damage(struct ev_reader *r, uint64_t at, struct ev_error *err)
{
    return r->recover ? resync(r, at, err) : EV_DAMAGED;
}

enum ev_status ev_reader_resync(struct ev_reader *r, uint64_t at, bool whole_block,
                                struct ev_error *err)
{
    forget_ahead(r);
    if (at < r->buf_offset || at >= offset_of(r, r->len)) {
        ev_error_at(err, at, "%s", err->what);
        return EV_DAMAGED;
    }
    if (whole_block && r->block_end > at) {
        char why[sizeof err->what];
        snprintf(why, sizeof why, "%s", err->what);
        uint64_t end = r->block_end;
        r->pos = (size_t)(at - r->buf_offset);
        if (!skip(r, end - at))
            return short_input(r, err, "a duplicated block");
        leave_block(r);
        r->region = (struct ev_region){ at, end - at };
        ev_error_at(err, at, "damaged region of %" PRIu64 " bytes skipped (%s)", end - at,
                    why);
        return EV_SKIPPED;
    }
    return resync(r, at, err);
}

/* A block marker, whole in the buffer at pos with payload bytes: sets the block, or is
 * damage (a size that cannot be, a duplicated block). */
static enum ev_status take_block_marker(struct ev_reader *r, const unsigned char *p,
                                        uint32_t payload, struct ev_error *err)
{
    uint64_t at = ev_reader_offset(r);
    if (payload < BLOCK_MARKER_LENGTH - 10) {
        ev_error_at(err, at, "a block marker of %" PRIu32 " bytes", payload);
        return damage(r, at, err);
    }
    uint64_t start = be64(p + 2);
    uint32_t size = be32(p + 10);
    uint64_t end = be64(p + 14);
    uint16_t cap = be16(p + 22);
    if (size != 0 && (size < 10 + payload || end < start)) {
        ev_error_at(err, at, "a block marker that cannot be (size %" PRIu32 ", from %"
                    PRIu64 " to %" PRIu64 " ns)", size, start, end);
        return damage(r, at, err);
    }
    /* A block never closed (size 0) tells no end: its capability's next block must still
     * begin after it began, and so must the next block of any capability (what follows
     * such a marker is a copy of an earlier block when the race hit a buffer flush). */
    uint64_t open_time = r->open_block_time, prev, before = 0;
    r->open_block_time = size ? 0 : start;
    bool known = cap_swap_end(r, cap, size ? end : start, &prev);
    if (known && start < prev)
        before = prev;     /* a capability's blocks are flushed in order */
    else if (open_time && start < open_time)
        before = open_time;
    if (before) {
        ev_error_at(err, at, "a block of capability %u begins at %" PRIu64 " ns, before the "
                    "previous one (%" PRIu64 " ns): a duplicated block", cap, start, before);
        if (!r->recover)
            return EV_DAMAGED;
        /* The copy moves nothing on: the next real block is checked as this one was. */
        cap_swap_end(r, cap, known ? prev : 0, &prev);
        r->open_block_time = open_time;
        if (size) {
            enter_block(r, at, start, size, end, cap);
            return ev_reader_resync(r, at, true, err);
        }
        return resync(r, at, err);
    }
    enter_block(r, at, start, size, end, cap);
    return EV_OK;
}

/* The time order of the event of length bytes at r->pos (whole in the buffer), of tag
 * at offset at: EV_OK, or damage when its time is out of order (time_order). Fetches
 * the next event's header when the input has it (the buffer may move). */
static enum ev_status check_time_order(struct ev_reader *r, uint64_t at, uint16_t tag,
                                       uint64_t time, size_t length, struct ev_error *err)
{
    /* The next header, but no more than the input will have: not past the block's end,
     * and not past an end-of-data marker (a followed file or a live socket stops there,
     * and waiting for bytes that never come would hold the run, or the census, back). */
    size_t want = NEXT_HEADER;
    if (r->block_end && r->block_end - (at + length) < want)
        want = (size_t)(r->block_end - (at + length));
    if (want > 2 && fill(r, length + 2) && be16(r->buf + r->pos + length) == EV_TAG_DATA_END)
        want = 2;
    fill(r, length + want);
    size_t avail = r->len - r->pos - length;
    bool at_end = false;
    if (r->block_end) {
        uint64_t left = r->block_end - (at + length);
        at_end = left == 0;
        if (avail > left)
            avail = (size_t)left;
    }
    uint64_t next_time = 0;
    int order = time_order(r, time, r->buf + r->pos + length, avail, at_end, &next_time);
    if (order == 0)
        return EV_OK;
    if (order < 0)
        ev_error_at(err, at, "event type %u has a timestamp (%" PRIu64 " ns) before the "
                    "events before it in its block (%" PRIu64 " ns)", tag, time, r->frontier);
    else
        ev_error_at(err, at, "event type %u has a timestamp (%" PRIu64 " ns) after the event "
                    "after it (%" PRIu64 " ns)", tag, time, next_time);
    return damage(r, at, err);
}

/* The slow path of ev_reader_next: refills the buffer as needed and tells every kind of
 * damage apart. Not inlined: in ev_reader_next its registers would crowd the fast path's. */
static __attribute__((noinline)) enum ev_status next_checked(struct ev_reader *r,
                                                             struct ev_event *ev,
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
    uint64_t at = ev_reader_offset(r);
    const unsigned char *p = r->buf + r->pos;
    uint16_t tag = be16(p);
    if (r->block_end && at == r->block_end) {
        leave_block(r);
        /* Between blocks a writer may put events of no block (the Mercury runtime's last
         * capability events): they are events when a chain of them parses from here, up
         * to the next block marker or the end of data. Anything else is damage. */
        if (tag != EV_BLOCK_MARKER && tag != EV_TAG_DATA_END && !chain_from(r, true)) {
            ev_error_at(err, at, "event type %u where a block ended (a block marker or the "
                        "end-of-data marker was due)", tag);
            return damage(r, at, err);
        }
    }
    if (tag == EV_TAG_DATA_END) {
        /* GHC 9.6+ writes it as the last event of the last block; anywhere else in a
         * block it is two bytes of something else. */
        if (r->block_end && at + 2 != r->block_end) {
            ev_error_at(err, at, "an end-of-data marker inside a block that ends at offset %"
                        PRIu64, r->block_end);
            return damage(r, at, err);
        }
        r->pos += 2;
        return EV_END;
    }
    int size;
    if (!ev_reader_declared(r, tag, &size)) {
        ev_error_at(err, at, "event type %u is not declared in the header", tag);
        return damage(r, at, err);
    }
    size_t head = size == EV_SIZE_VARIABLE ? 12 : 10;
    if (!fill(r, head))
        return short_input(r, err, "an event");
    p = r->buf + r->pos;
    uint32_t payload = size == EV_SIZE_VARIABLE ? be16(p + 10) : (uint32_t)size;
    bool short_at_end = false;
    if (r->block_end && at + head + payload > r->block_end) {
        /* an IPE event ending its block, declared one byte past it (ipe_ends_block) */
        if (at + head + payload - 1 == r->block_end)
            fill(r, head + payload - 1);
        short_at_end = ipe_ends_block(tag, size, r->buf + r->pos, r->len - r->pos, at,
                                      head + payload, r->block_end);
        if (!short_at_end) {
            ev_error_at(err, at, "event type %u of %zu bytes crosses the end of its block "
                        "at offset %" PRIu64, tag, head + payload, r->block_end);
            return damage(r, at, err);
        }
        payload--;
    }
    uint64_t time = be64(p + 2);
    if (!time_in_block(r, time) && !own_clock(tag)) {
        ev_error_at(err, at, "event type %u has a timestamp (%" PRIu64 " ns) outside its "
                    "block's span", tag, time);
        return damage(r, at, err);
    }
    if (!fill(r, head + payload))
        return short_input(r, err, "an event");
    p = r->buf + r->pos;
    /* A GHC 9.6+ IPE event is one byte shorter than declared; that byte is the next
     * event's, so it stays unread (evdecode.h, ev_payload_written). */
    if (size == EV_SIZE_VARIABLE && tag == EV_IPE && !short_at_end)
        payload = (uint32_t)ev_payload_written(tag, p + head, payload);
    if (r->in_block && tag != EV_BLOCK_MARKER) {
        enum ev_status st = check_time_order(r, at, tag, time, head + payload, err);
        if (st != EV_OK)
            return st;
        p = r->buf + r->pos;
    }
    if (tag == EV_BLOCK_MARKER) {
        enum ev_status st = take_block_marker(r, p, payload, err);
        if (st != EV_OK)
            return st;
        p = r->buf + r->pos;
    }
    ev->tag = tag;
    ev->time = time;
    ev->payload = p + head;
    ev->size = payload;
    ev->offset = ev_reader_offset(r);
    ev->cap = r->block_cap;
    r->pos += head + payload;
    return EV_OK;
}

/* The whole length of the event at p, of a tag whose fast-table entry is kind. */
static inline size_t event_length(uint32_t kind, const unsigned char *p)
{
    return kind & FAST_VARIABLE ? 12 + (size_t)be16(p + 10) : (kind & FAST_LENGTH);
}

/* Whether the event at p (avail bytes from there to the end of the buffer or the block)
 * is one the fast path takes on its own: whole, of a type it takes, its time in the span.
 * Its fast-table entry, whole length and time in *kind, *length and *time. */
static inline bool fast_event(const uint32_t *fast, uint64_t win_lo, uint64_t win_span,
                              const unsigned char *p, size_t avail, uint32_t *kind,
                              size_t *length, uint64_t *time)
{
    if (avail < 12 || !((*kind = fast[be16(p)]) & FAST_TAKE) ||
        (*length = event_length(*kind, p)) > avail)
        return false;
    *time = be64(p + 2);
    return *time - win_lo <= win_span;
}

/* The fast path takes an event lying whole in the buffer, of a declared type, with one
 * table load, and skips unwanted ones in a tight loop. Anything else (the end of the
 * buffer, the end-of-data marker, damage) goes the slow way, which gives the same event
 * or the precise error.
 *
 * Inside a block the time of each event is confirmed by the header after it (witness_of,
 * order_in_block), and that header is the next event's: the loop keeps what it learnt of
 * it. The common case is one test: the header is of a witness's type, in the block's
 * span, and its time (with MONOTONE_SLACK) not before the event's nor the frontier; then
 * the event is in order, the frontier moves to it, and the next event, known in the span
 * and not before the new frontier, needs only its own length checked. Otherwise either
 * the header is a witness and the event later than it (the slow way reports it), or it is
 * no witness: the event stands unconfirmed, and the next event fails one of the fast
 * path's own checks (an undeclared tag or end-of-data, a time out of the span or before
 * the frontier), so the loop leaves it to the slow way. Without blocks only the span
 * (everything) is checked. */
enum ev_status ev_reader_next(struct ev_reader *r, struct ev_event *ev, struct ev_error *err)
{
    for (;;) {
        /* Locals, not r->pos and r->latest_time: stores through r could alias the byte
         * buffer, which would make the compiler reload them on every skipped event. */
        const unsigned char *buf = r->buf;
        size_t len = r->len;
        uint64_t latest = r->latest_time;
        /* Within a block, the fast path stops at its end (the slow path checks what comes
         * there) and at any timestamp outside its span. */
        const uint64_t block_len = r->block_end ? r->block_end - r->buf_offset : UINT64_MAX;
        if (block_len < len)
            len = (size_t)block_len;
        const unsigned char *p = buf + r->pos, *const end = buf + len;
        const uint64_t win_lo = r->win_lo, win_span = r->win_span;
        const uint32_t *const fast = r->fast;
        uint64_t frontier = r->frontier;
        uint32_t kind, next_kind;
        size_t length, rest;
        uint64_t time, next_time;
        const unsigned char *next;
        if (r->ahead_kind) {
            /* The event after the one returned last, known good. */
            kind = r->ahead_kind;
            time = r->ahead_time;
            length = r->ahead_length;
            forget_ahead(r);
            goto in_block;
        }
        /* The first event is checked whole. */
        if (!fast_event(fast, win_lo, win_span, p, (size_t)(end - p), &kind, &length, &time))
            goto slow;
        if (!r->in_block) {
            for (;;) {
                if (time > latest)
                    latest = time;
                if (!(kind & FAST_UNWANTED))
                    goto take;
                p += length;
                if (!fast_event(fast, win_lo, win_span, p, (size_t)(end - p), &kind, &length,
                                &time))
                    goto slow;
            }
        }
        /* In a block: the event at p is whole, of a type taken here, in the span. */
        if (time + MONOTONE_SLACK < frontier)
            goto slow;   /* order_in_block's -1: the slow path reports it */
in_block:
        /* avail: the bytes from p to the end (the buffer's or the block's), carried so
         * that the loop keeps no pointer to the end. */
        for (size_t avail = (size_t)(end - p);; avail = rest) {
            next = p + length;
            rest = avail - length;
            if (rest < 12)
                goto near_end;
            next_kind = fast[be16(next)];
            next_time = be64(next + 2);
            uint64_t confirmed = time > frontier ? time : frontier;
            if (!(next_kind & FAST_WITNESS) || next_time - win_lo > win_span ||
                next_time + MONOTONE_SLACK < confirmed)
                goto unconfirmed;
            frontier = confirmed;
            if (time > latest)
                latest = time;
            /* The next event: its time known good, its length checked here. */
            size_t next_length = 0;
            bool next_good = (next_kind & FAST_TAKE) &&
                             (next_length = event_length(next_kind, next)) <= rest;
            if (!(kind & FAST_UNWANTED)) {
                r->ahead_kind = next_good ? next_kind : 0;
                r->ahead_time = next_time;
                r->ahead_length = next_length;
                goto take;
            }
            p = next;
            if (!next_good)
                goto slow;
            kind = next_kind;
            time = next_time;
            length = next_length;
        }
near_end:
        /* Fewer than 12 bytes after the event, to the buffer's or the block's end: at the
         * block's end the event is confirmed by it; with a whole header after it, as
         * above, but the next event goes the slow way; short of a header, the slow way
         * fetches it. */
        if (rest < NEXT_HEADER) {
            if ((size_t)(next - buf) != block_len)
                goto slow;
            if (time > frontier)
                frontier = time;
        } else if (witness_of(fast, win_lo, win_span, frontier, next, &next_time)) {
            if (time > next_time + MONOTONE_SLACK)
                goto slow;   /* order_in_block's 1 */
            if (time > frontier)
                frontier = time;
        }
        goto last;
unconfirmed:
        if (witness_of(fast, win_lo, win_span, frontier, next, &next_time))
            goto slow;   /* a witness, earlier than the event: order_in_block's 1 */
last:
        /* The event stands; the next goes the slow way. */
        if (time > latest)
            latest = time;
        if (!(kind & FAST_UNWANTED))
            goto take;
        p = next;
        goto slow;
take:
        ev->tag = be16(p);
        ev->time = time;
        ev->payload = p + (kind & FAST_VARIABLE ? 12 : 10);
        ev->size = (uint32_t)(length - (kind & FAST_VARIABLE ? 12 : 10));
        ev->offset = r->buf_offset + (uint64_t)(p - buf);
        ev->cap = r->block_cap;
        r->pos = (size_t)(p - buf) + length;
        r->latest_time = latest;
        r->frontier = frontier;
        return EV_OK;
slow:
        r->pos = (size_t)(p - buf);
        r->latest_time = latest;
        r->frontier = frontier;
        enum ev_status st = next_checked(r, ev, err);
        if (st != EV_OK)
            return st;
        if (ev->time > r->latest_time && !own_clock(ev->tag))
            r->latest_time = ev->time;
        if (ev->tag >= r->tag_count || !r->tags[ev->tag].unwanted)
            return EV_OK;
    }
}
