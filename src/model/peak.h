/* peak.h: the census with the largest total, tracked exactly while reading.
 *
 * A memory budget (--max-peak) and the summary both need the peak residency: the largest
 * sum of a census's entries over every census, when it happened, and what it was made of.
 * The tracker keeps a copy of that one census (bounded by CENSUS_MAX_ENTRIES) and a few
 * running numbers, so it costs one pass over each census's entries and nothing more. The
 * same tracker keeps, for --at, the last census at or before a time (peak_add_until).
 */
#ifndef EV2HP_PEAK_H
#define EV2HP_PEAK_H

#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

struct peak {
    uint64_t censuses;
    uint64_t first_ns, last_ns;    /* times of the first and last census */
    uint64_t bytes;                /* the largest census total */
    uint64_t time_ns;              /* its time */
    struct census_entry *entries;  /* its entries, largest first after peak_sort */
    size_t count, cap;
    bool kept;                     /* a census is held (peak_add_until: one was at or
                                    * before the time) */
};

/* Adds a census: 0, or -1 when out of memory. */
int peak_add(struct peak *p, const struct census_frame *frame);

/* Adds a census to a tracker that keeps, instead of the largest, the last census at or
 * before at_ns (censuses arrive in time order): bytes, time_ns and entries are that
 * census's, censuses and the first and last times count every census. 0, or -1 when out
 * of memory. */
int peak_add_until(struct peak *p, const struct census_frame *frame, uint64_t at_ns);

/* A copy of p's census into copy (a deep copy of the entries): 0, or -1 when out of
 * memory (copy then holds no entries). */
int peak_copy(const struct peak *p, struct peak *copy);

/* Orders the peak census's entries by bytes, largest first (equal bytes by band). */
void peak_sort(struct peak *p);

void peak_free(struct peak *p);

/* Parses a size: bytes, or with a K, M or G suffix (powers of 1024, "MiB" and "M"
 * alike). 0, or -1 when it is not one. */
int peak_parse_size(const char *text, uint64_t *bytes);

#endif
