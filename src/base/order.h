/* order.h: the one three-way comparison of two keys, for qsort and bsearch comparators.
 *
 * A comparator returns below, at or above zero as its first element goes before, with or
 * after its second. Each comparator of ev2hp is a chain of keys: the first key that tells
 * the two apart decides, the next is asked only on a tie. These functions are one key:
 * -1, 0 or 1 as a comes before, with or after b in ascending order; a key that ranks
 * larger first is the same call with its arguments swapped (order_u64(y->peak, x->peak)).
 * A difference (a - b) would be shorter and wrong: it wraps for unsigned and 64-bit keys.
 */
#ifndef EV2HP_ORDER_H
#define EV2HP_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Unsigned integers of any width up to 64 bits: times, byte counts, ids, indices. */
static inline int order_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

/* Signed integers up to 64 bits: changes that can be negative. */
static inline int order_i64(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

/* Doubles, by < and >. The keys ordered this way (areas, growths, deviations, changes of
 * finite byte counts and shares) are never NaN; a NaN would compare equal to every
 * number, leaving the order to the comparator's next key. */
static inline int order_double(double a, double b)
{
    return (a > b) - (a < b);
}

/* Counted byte strings (not NUL-terminated, may hold NUL): byte order, and a string that
 * is the start of the other first. */
static inline int order_bytes(const void *a, size_t a_len, const void *b, size_t b_len)
{
    int c = memcmp(a, b, a_len < b_len ? a_len : b_len);
    return c ? c : order_u64(a_len, b_len);
}

#endif
