/* intern.c: open-addressing hash table over an arena of key bytes (see intern.h).
 *
 * Slots hold id + 1 (0 = empty) and the table stays at most half full, so probes are
 * short. Keys live back to back in one arena; each id remembers its offset, length and
 * hash, so growing the table never rehashes a key's bytes.
 */
#include "base/intern.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

struct key_ref {
    size_t offset;
    size_t len;
    uint64_t hash;
};

struct intern {
    uint32_t *slots;
    size_t slot_mask;
    struct key_ref *keys;
    uint32_t count;
    size_t keys_cap;
    char *arena;
    size_t arena_len;
    size_t arena_cap;
    uint32_t max_keys;
    size_t max_bytes;
};

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* The last 1 to 7 bytes of a key shorter than 8, in one word, without a variable-length
 * memcpy: that compiles to byte stores followed by a word load, which the processor cannot
 * forward, and the stall was a fifth of ev2hp's time on -hc eventlogs. */
static inline uint64_t short_key_word(const unsigned char *p, size_t len)
{
    if (len >= 4) {
        uint32_t head, tail;
        memcpy(&head, p, 4);
        memcpy(&tail, p + len - 4, 4);
        return (uint64_t)head << 32 | tail;
    }
    if (len > 0)
        return (uint64_t)p[0] << 16 | (uint64_t)p[len / 2] << 8 | p[len - 1];
    return 0;
}

/* A fast multiplicative hash, 8 bytes at a time; good enough for labels and stacks. The
 * bytes past the last whole word are read as the key's last 8 bytes (overlapping the word
 * before); the length is mixed in first, so keys that differ only in length still differ. */
static inline uint64_t hash_bytes(const unsigned char *p, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    const unsigned char *end = p + len;
    uint64_t w;
    while (end - p >= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
        p += 8;
    }
    if (p == end)
        w = 0;
    else if (len >= 8)
        memcpy(&w, end - 8, 8);
    else
        w = short_key_word(p, len);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
    h ^= h >> 29;
    return h;
}

void intern_free(struct intern *t)
{
    if (!t)
        return;
    free(t->slots);
    free(t->keys);
    free(t->arena);
    free(t);
}

struct intern *intern_new(uint32_t max_keys, size_t max_bytes)
{
    struct intern *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->slot_mask = 1023;
    t->slots = calloc(t->slot_mask + 1, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    t->max_keys = max_keys;
    t->max_bytes = max_bytes;
    return t;
}

struct intern *intern_copy(const struct intern *t)
{
    struct intern *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *t;
    c->slots = copy_array(t->slots, t->slot_mask + 1, sizeof *t->slots);
    c->keys = copy_array(t->keys, t->count, sizeof *t->keys);
    c->arena = copy_array(t->arena, t->arena_len, 1);
    c->keys_cap = t->count;
    c->arena_cap = t->arena_len;
    if (!c->slots || !c->keys || !c->arena) {
        intern_free(c);
        return NULL;
    }
    return c;
}

uint32_t intern_count(const struct intern *t)
{
    return t->count;
}

const char *intern_key(const struct intern *t, uint32_t id, size_t *len)
{
    *len = t->keys[id].len;
    return t->arena + t->keys[id].offset;
}

static int grow_slots(struct intern *t)
{
    size_t n = (t->slot_mask + 1) * 2;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t id = 0; id < t->count; id++) {
        size_t i = t->keys[id].hash & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_mask = n - 1;
    return 0;
}

static int append_key(struct intern *t, const void *key, size_t len, uint64_t hash)
{
    if (GROW_ARRAY(t->keys, &t->keys_cap, (size_t)t->count + 1) != 0)
        return -1;
    /* Also for a first key that is empty: arena + 0 on a NULL arena is undefined. */
    if (len > SIZE_MAX - t->arena_len - 1 ||
        GROW_ARRAY(t->arena, &t->arena_cap, t->arena_len + len + 1) != 0)
        return -1;
    memcpy(t->arena + t->arena_len, key, len);
    t->keys[t->count] = (struct key_ref){ t->arena_len, len, hash };
    t->arena_len += len;
    t->count++;
    return 0;
}

/* Whether the len bytes at a and b are equal. A key that matched the hash nearly always
 * matches: stacks and labels of up to 32 bytes (most of them) are compared in words that
 * may overlap, without a call to memcmp, which costs more than the comparison there. */
static inline bool same_key(const unsigned char *a, const unsigned char *b, size_t len)
{
    if (len > 32)
        return memcmp(a, b, len) == 0;
    if (len >= 8) {
        uint64_t x = load64(a) ^ load64(b), y = load64(a + len - 8) ^ load64(b + len - 8);
        if (len > 16)
            x |= (load64(a + 8) ^ load64(b + 8)) | (load64(a + len - 16) ^ load64(b + len - 16));
        return (x | y) == 0;
    }
    return short_key_word(a, len) == short_key_word(b, len);
}

/* The slot holding key, or the empty slot where it would go. Always inlined: GCC would
 * otherwise keep it out of intern_get, which runs for every census entry. */
static inline __attribute__((always_inline)) size_t probe(const struct intern *t,
                                                          const void *key, size_t len,
                                                          uint64_t hash)
{
    size_t i = hash & t->slot_mask;
    for (uint32_t slot; (slot = t->slots[i]) != 0; i = (i + 1) & t->slot_mask) {
        const struct key_ref *k = &t->keys[slot - 1];
        if (k->hash == hash && k->len == len &&
            same_key((const unsigned char *)t->arena + k->offset, key, len))
            break;
    }
    return i;
}

int intern_find(const struct intern *t, const void *key, size_t len, uint32_t *id)
{
    size_t i = probe(t, key, len, hash_bytes(key, len));
    if (!t->slots[i])
        return -1;
    *id = t->slots[i] - 1;
    return 0;
}

void intern_truncate(struct intern *t, uint32_t count)
{
    while (t->count > count) {
        const struct key_ref *k = &t->keys[t->count - 1];
        size_t i = probe(t, t->arena + k->offset, k->len, k->hash);
        t->slots[i] = 0;
        t->arena_len = k->offset;
        t->count--;
    }
}

enum table_status intern_get(struct intern *t, const void *key, size_t len, uint32_t *id,
                             bool *added)
{
    uint64_t hash = hash_bytes(key, len);
    size_t i = probe(t, key, len, hash);
    if (added)
        *added = false;
    if (t->slots[i]) {
        *id = t->slots[i] - 1;
        return TABLE_OK;
    }
    if (t->count >= t->max_keys || t->arena_len + len > t->max_bytes)
        return TABLE_FULL;
    if (append_key(t, key, len, hash) != 0)
        return TABLE_NO_MEMORY;
    t->slots[i] = t->count;
    *id = t->count - 1;
    if ((size_t)t->count * 2 > t->slot_mask && grow_slots(t) != 0)
        return TABLE_NO_MEMORY;
    if (added)
        *added = true;
    return TABLE_OK;
}
