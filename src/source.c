/* source.c: the file-descriptor and in-memory byte sources. */
#include "source.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

ssize_t source_fd_read(void *ctx, unsigned char *buf, size_t n)
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
    if (p->pos < p->len) {
        size_t k = p->len - p->pos < n ? p->len - p->pos : n;
        memcpy(buf, p->head + p->pos, k);
        p->pos += k;
        return (ssize_t)k;
    }
    return p->inner.read(p->inner.ctx, buf, n);
}
