/* grow.c: the overflow-checked growable array (see grow.h). */
#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Reallocates *items to `want` elements (held to what may be allocated), at least need;
 * need > *cap. */
static int resize(void *items, size_t *cap, size_t need, size_t want, size_t elem_size)
{
    if (elem_size == 0)
        return -1;
    /* no object may be larger than PTRDIFF_MAX bytes (glibc's malloc refuses them, and
     * pointer differences within them would overflow): the limit is checked here, before
     * realloc, so an absurd request is a plain failure under every allocator */
    size_t max = (size_t)PTRDIFF_MAX / elem_size;
    if (need > max)
        return -1;
    size_t n = want < max ? want : max;
    if (n < need)
        n = need;
    if (n < 8 && max >= 8)
        n = 8;
    void *old;
    memcpy(&old, items, sizeof old);
    void *grown = realloc(old, n * elem_size);
    if (!grown)
        return -1;
    memcpy(items, &grown, sizeof grown);
    *cap = n;
    return 0;
}

int grow_array(void *items, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return 0;
    return resize(items, cap, need, *cap <= SIZE_MAX / 2 ? *cap * 2 : SIZE_MAX, elem_size);
}

/* The elements from old_cap up to *cap set to zero bytes. */
static void zero_from(void *items, size_t old_cap, size_t cap, size_t elem_size)
{
    if (cap > old_cap) {
        char *base;
        memcpy(&base, items, sizeof base);
        memset(base + old_cap * elem_size, 0, (cap - old_cap) * elem_size);
    }
}

int grow_array_zeroed(void *items, size_t *cap, size_t need, size_t elem_size)
{
    size_t old_cap = *cap;
    if (grow_array(items, cap, need, elem_size) != 0)
        return -1;
    zero_from(items, old_cap, *cap, elem_size);
    return 0;
}

void *copy_array(const void *items, size_t count, size_t elem_size)
{
    if (elem_size == 0 || count > (size_t)PTRDIFF_MAX / elem_size)
        return NULL;
    void *copy = malloc((count ? count : 1) * elem_size);
    if (copy && count)
        memcpy(copy, items, count * elem_size);
    return copy;
}

int grow_array_tight(void *items, size_t *cap, size_t need, size_t elem_size)
{
    size_t old_cap = *cap;
    if (need <= *cap)
        return 0;
    if (resize(items, cap, need, need + need / 8, elem_size) != 0)
        return -1;
    zero_from(items, old_cap, *cap, elem_size);
    return 0;
}
