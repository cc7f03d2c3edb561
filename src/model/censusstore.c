/* censusstore.c: kept censuses in an unlinked temporary file (censusstore.h).
 *
 * Entries are written packed, 12 bytes each (the band's 4, the bytes' 8, in this
 * machine's order: the file never leaves this process), not as the 16-byte struct with
 * its padding.
 */
#include "model/censusstore.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"

#define PACKED 12   /* bytes of an entry on disk */

struct census_store {
    int fd;
    unsigned char *pack;         /* the writer's scratch */
    size_t pack_cap;
    atomic_uint refs;
    atomic_uint_least64_t end;   /* bytes written; only the writer moves it */
};

struct census_store *census_store_new(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/ev2hp-census-XXXXXX", dir && *dir ? dir : "/tmp");
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    struct census_store *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->pack = NULL;
    s->pack_cap = 0;
    s->fd = mkstemp(path);
    if (s->fd < 0) {
        free(s);
        return NULL;
    }
    unlink(path);   /* gone with the last descriptor, whatever ends the process */
    atomic_init(&s->refs, 1);
    atomic_init(&s->end, 0);
    return s;
}

struct census_store *census_store_ref(struct census_store *s)
{
    if (s)
        atomic_fetch_add(&s->refs, 1);
    return s;
}

void census_store_unref(struct census_store *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    close(s->fd);
    free(s->pack);
    free(s);
}

/* Whole writes and reads at an offset (a short one goes on; an error stops). */
static int write_all(int fd, const void *p, size_t n, uint64_t at)
{
    const char *c = p;
    while (n) {
        ssize_t k = pwrite(fd, c, n, (off_t)at);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        c += k, n -= (size_t)k, at += (uint64_t)k;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n, uint64_t at)
{
    char *c = p;
    while (n) {
        ssize_t k = pread(fd, c, n, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;   /* the store is shorter than what was put */
            return -1;
        }
        c += k, n -= (size_t)k, at += (uint64_t)k;
    }
    return 0;
}

int census_store_put(struct census_store *s, const struct census_entry *entries, uint32_t count,
                     uint64_t *where)
{
    uint64_t at = atomic_load(&s->end);
    size_t bytes = (size_t)count * PACKED;
    if (GROW_ARRAY(s->pack, &s->pack_cap, bytes ? bytes : 1) != 0) {
        errno = ENOMEM;
        return -1;
    }
    for (uint32_t i = 0; i < count; i++) {
        memcpy(s->pack + (size_t)i * PACKED, &entries[i].band, 4);
        memcpy(s->pack + (size_t)i * PACKED + 4, &entries[i].bytes, 8);
    }
    if (bytes && write_all(s->fd, s->pack, bytes, at) != 0)
        return -1;
    atomic_store(&s->end, at + bytes);
    *where = at;
    return 0;
}

int census_store_get(const struct census_store *s, uint64_t where, uint32_t count,
                     struct census_entry **buf, size_t *cap)
{
    if (GROW_ARRAY(*buf, cap, count ? count : 1) != 0) {
        errno = ENOMEM;
        return -1;
    }
    if (!count)
        return 0;
    /* read packed into the front of the buffer, then spread from the last entry down: an
     * entry's 16 bytes never reach the packed bytes of the ones before it */
    unsigned char *raw = (unsigned char *)*buf;
    if (read_all(s->fd, raw, (size_t)count * PACKED, where) != 0)
        return -1;
    for (size_t i = count; i-- > 0;) {
        uint32_t band;
        uint64_t bytes;
        memcpy(&band, raw + i * PACKED, 4);
        memcpy(&bytes, raw + i * PACKED + 4, 8);
        (*buf)[i] = (struct census_entry){ band, bytes };
    }
    return 0;
}
