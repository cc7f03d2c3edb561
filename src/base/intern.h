/* intern.h: a table that gives each distinct byte string a dense number.
 *
 * Census labels repeat in every census; interning them once means a census entry is a
 * number and a byte count, and a band keeps its identity across censuses. Numbers start
 * at 0 and follow first appearance. The table owns copies of its keys. Its size is capped
 * (intern_new) so that no input can make it grow without bound.
 */
#ifndef EV2HP_INTERN_H
#define EV2HP_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/table.h"

struct intern;

struct intern *intern_new(uint32_t max_keys, size_t max_bytes);
void intern_free(struct intern *t);
/* A copy of t sized exactly (its keys, their bytes and its slots; none of the room t
 * keeps to grow): the live server's snapshots copy the band table's. NULL when out of
 * memory. */
struct intern *intern_copy(const struct intern *t);

/* Finds key or adds it: TABLE_OK with *id its number either way, and *added (unless
 * NULL) telling which; *id is not set on TABLE_FULL / TABLE_NO_MEMORY. */
enum table_status intern_get(struct intern *t, const void *key, size_t len, uint32_t *id,
                             bool *added);

/* Finds key without adding it: 0 and *id when present, -1 when not. */
int intern_find(const struct intern *t, const void *key, size_t len, uint32_t *id);

uint32_t intern_count(const struct intern *t);

/* Forgets the keys numbered count and above (the latest ones), as if never added. With
 * linear probing in insertion order, no earlier key's probe ran through their slots, so
 * emptying them in reverse order keeps every other key found. */
void intern_truncate(struct intern *t, uint32_t count);

/* The key numbered id (id < intern_count); valid until the next intern_get. */
const char *intern_key(const struct intern *t, uint32_t id, size_t *len);

#endif
