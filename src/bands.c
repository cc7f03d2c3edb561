/* bands.c: band numbering and labels over two intern tables (see bands.h).
 *
 * keys maps a band's key to its number; labels holds the label text of stack bands (a
 * string band's label is its key). stack_number is per band: 0 for strings.
 */
#include "bands.h"

#include <stdlib.h>
#include <string.h>

#include "intern.h"

struct band {
    uint32_t label_id;      /* in labels, or UINT32_MAX when the key is the label */
    uint32_t stack_number;
    uint32_t description_id; /* in labels, or UINT32_MAX when there is none */
};

struct bands {
    struct intern *keys;
    struct intern *labels;
    struct band *band;
    uint32_t cap;
    uint32_t next_stack_number;
    unsigned char *key_scratch;
    size_t key_scratch_cap;
};

struct bands *bands_new(void)
{
    struct bands *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->keys = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    b->labels = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    if (!b->keys || !b->labels) {
        bands_free(b);
        return NULL;
    }
    return b;
}

void bands_free(struct bands *b)
{
    if (!b)
        return;
    intern_free(b->keys);
    intern_free(b->labels);
    free(b->band);
    free(b->key_scratch);
    free(b);
}

uint32_t bands_count(const struct bands *b)
{
    return intern_count(b->keys);
}

static enum bands_status from_intern(enum intern_status st)
{
    return st == INTERN_FULL ? BANDS_FULL : BANDS_NO_MEMORY;
}

/* Makes room for the band record of a key just added. */
static enum bands_status record(struct bands *b, uint32_t band, uint32_t label_id,
                                uint32_t stack_number)
{
    if (band >= b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 256;
        struct band *grown = realloc(b->band, cap * sizeof *grown);
        if (!grown)
            return BANDS_NO_MEMORY;
        b->band = grown;
        b->cap = cap;
    }
    b->band[band] = (struct band){ label_id, stack_number, UINT32_MAX };
    return BANDS_OK;
}

enum bands_status bands_string(struct bands *b, const char *label, size_t len, uint32_t *band)
{
    enum intern_status st = intern_get(b->keys, label, len, band);
    if (st == INTERN_FOUND)
        return BANDS_OK;
    if (st != INTERN_ADDED)
        return from_intern(st);
    return record(b, *band, UINT32_MAX, 0);
}

static const unsigned char *stack_key(struct bands *b, const unsigned char *ids, size_t len)
{
    if (b->key_scratch_cap < len + 1) {
        unsigned char *grown = realloc(b->key_scratch, len + 1);
        if (!grown)
            return NULL;
        b->key_scratch = grown;
        b->key_scratch_cap = len + 1;
    }
    b->key_scratch[0] = 0;
    memcpy(b->key_scratch + 1, ids, len);
    return b->key_scratch;
}

enum bands_status bands_stack(struct bands *b, const unsigned char *ids, size_t ids_len,
                              uint32_t *band, int *is_new)
{
    const unsigned char *key = stack_key(b, ids, ids_len);
    if (!key)
        return BANDS_NO_MEMORY;
    enum intern_status st = intern_get(b->keys, key, ids_len + 1, band);
    *is_new = st == INTERN_ADDED;
    if (st == INTERN_FOUND)
        return BANDS_OK;
    if (st != INTERN_ADDED)
        return from_intern(st);
    return record(b, *band, UINT32_MAX, 0);
}

enum bands_status bands_name_stack(struct bands *b, uint32_t band, const char *label,
                                   size_t label_len, int numbered)
{
    uint32_t label_id;
    enum intern_status st = intern_get(b->labels, label, label_len, &label_id);
    if (st != INTERN_FOUND && st != INTERN_ADDED)
        return from_intern(st);
    b->band[band].label_id = label_id;
    b->band[band].stack_number = numbered ? ++b->next_stack_number : 0;
    return BANDS_OK;
}

const char *bands_label(const struct bands *b, uint32_t band, size_t *len)
{
    uint32_t label_id = b->band[band].label_id;
    if (label_id == UINT32_MAX)
        return intern_key(b->keys, band, len);
    return intern_key(b->labels, label_id, len);
}

uint32_t bands_stack_number(const struct bands *b, uint32_t band)
{
    return b->band[band].stack_number;
}

int bands_find_string(const struct bands *b, const char *label, size_t len, uint32_t *band)
{
    return intern_find(b->keys, label, len, band);
}

enum bands_status bands_describe(struct bands *b, uint32_t band, const char *text, size_t len)
{
    uint32_t id;
    enum intern_status st = intern_get(b->labels, text, len, &id);
    if (st != INTERN_FOUND && st != INTERN_ADDED)
        return from_intern(st);
    b->band[band].description_id = id;
    return BANDS_OK;
}

const char *bands_display_label(const struct bands *b, uint32_t band, size_t *len)
{
    uint32_t id = b->band[band].description_id;
    if (id == UINT32_MAX)
        return bands_label(b, band, len);
    return intern_key(b->labels, id, len);
}
