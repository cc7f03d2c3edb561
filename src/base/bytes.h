/* bytes.h: big-endian integer loads.
 *
 * Every integer in an eventlog is big-endian. These helpers read from a byte pointer
 * the caller has already bounds-checked; they never look past the width they load.
 */
#ifndef EV2HP_BYTES_H
#define EV2HP_BYTES_H

#include <stdint.h>

static inline uint16_t be16(const unsigned char *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t be64(const unsigned char *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

#endif
