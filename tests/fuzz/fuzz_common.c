/* fuzz_common.c: the sliced source, the invariant check and the sliced-vs-whole
 * comparison every reader target makes (see fuzz_common.h). */
#include "fuzz_common.h"

#include "sink/sink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", file, line, what);
    abort();
}

void fuzz_hp_close(struct sink *sink, FILE *hp)
{
    if (sink)
        sink->ops->destroy(sink);
    FUZZ_CHECK(fclose(hp) == 0);
}

/* The context of these callbacks is a sink pointer (fuzz_events_to). */
static int on_frame(void *ctx, const struct census_frame *frame)
{
    struct sink *s = *(struct sink **)ctx;
    return s->ops->frame ? s->ops->frame(s, frame) : 0;
}

static int on_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct sink *s = *(struct sink **)ctx;
    return s->ops->marker ? s->ops->marker(s, time_ns, text, len) : 0;
}

static int on_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    struct sink *s = *(struct sink **)ctx;
    return s->ops->total ? s->ops->total(s, kind, time_ns, bytes) : 0;
}

struct census_events fuzz_events_to(struct sink **sink)
{
    return (struct census_events){ on_frame, on_marker, on_total, sink, NULL, NULL };
}

/* xorshift64*: tiny, and good enough to vary slice sizes. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

void fuzz_slices_init(struct fuzz_slices *s, const uint8_t *data, size_t size, int sliced)
{
    s->data = data;
    s->size = size;
    s->pos = 0;
    s->rng = 0;
    if (!sliced)
        return;
    /* FNV-1a of the input: every mutation also changes how the input is sliced. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    s->rng = h ? h : 1;
}

/* Mostly tiny slices (1 byte, a few bytes), sometimes a page, sometimes all. */
static size_t slice_size(struct fuzz_slices *s, size_t want)
{
    if (!s->rng)
        return want;
    uint64_t r = next_random(&s->rng);
    size_t n;
    switch (r & 3) {
    case 0: n = 1; break;
    case 1: n = 1 + (size_t)(r >> 8) % 16; break;
    case 2: n = 1 + (size_t)(r >> 8) % 4096; break;
    default: n = want; break;
    }
    return n < want ? n : want;
}

static ssize_t slices_read(void *ctx, unsigned char *buf, size_t n)
{
    struct fuzz_slices *s = ctx;
    size_t left = s->size - s->pos;
    if (n > left)
        n = left;
    n = slice_size(s, n);
    if (n)
        memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    return (ssize_t)n;
}

struct ev_source fuzz_slices_source(struct fuzz_slices *s)
{
    return (struct ev_source){ .read = slices_read, .ctx = s };
}

/* fontconfig keeps process-lifetime caches that cairo's text measuring fills on first
 * use; LeakSanitizer would report them after every run of a chart target. (The sanitizer
 * runtime calls this hook when it is linked in; otherwise it is unused.) */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

void fuzz_same_output(struct fuzz_output *sliced, struct fuzz_output *whole)
{
    FUZZ_CHECK(sliced->reader_status == whole->reader_status);
    FUZZ_CHECK(sliced->census_status == whole->census_status);
    FUZZ_CHECK(sliced->censuses == whole->censuses);
    FUZZ_CHECK(strcmp(sliced->what, whole->what) == 0);
    FUZZ_CHECK(sliced->hp_len == whole->hp_len);
    FUZZ_CHECK(memcmp(sliced->hp, whole->hp, whole->hp_len) == 0);
    free(sliced->hp);
    free(whole->hp);
}

void fuzz_sliced_and_whole(const uint8_t *data, size_t size, fuzz_run_fn *run)
{
    struct fuzz_output sliced, whole;
    run(data, size, 1, &sliced);
    run(data, size, 0, &whole);
    fuzz_same_output(&sliced, &whole);
}
