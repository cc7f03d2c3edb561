/* textcopy.h: a NUL-terminated copy of a counted string.
 *
 * Labels, names and marker texts arrive as (pointer, length) slices of a buffer that is
 * reused, and are kept after it. strndup would stop at a NUL inside the slice and leave a
 * stored length longer than the copy; this copies every byte, so the length stays true.
 */
#ifndef EV2HP_TEXTCOPY_H
#define EV2HP_TEXTCOPY_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A malloc'd copy of text[0..len) with a NUL after it; NULL when out of memory. */
static inline char *text_copy(const char *text, size_t len)
{
    char *copy = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (copy) {
        memcpy(copy, text, len);
        copy[len] = '\0';
    }
    return copy;
}

#endif
