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
