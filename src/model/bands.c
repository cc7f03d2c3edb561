/* bands.c: band numbering and labels over two intern tables (see bands.h).
 *
 * Strings and stacks have a table each, so a stack is looked up by its raw cost-centre
 * numbers straight from the event, with no copy and no kind prefix to tell it from a
 * label (copying the key and storing a prefix byte before hashing it cost a
 * store-forwarding stall per census entry). Band numbers are shared: each table's dense
 * key numbers map to band numbers through string_band / stack_band. labels holds the label
 * text of stack bands (a string band's label is its key). stack_number is per band: 0 for
 * strings.
 */
#include "model/bands.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/grow.h"
#include "base/utf8.h"

struct band {
    uint32_t label_id;      /* strings: its key in strings; stacks: in labels, or UNNAMED */
    uint32_t stack_number;
    uint32_t description_id; /* in labels, or UINT32_MAX when there is none */
    uint32_t attr_id[BAND_ATTRS]; /* in labels, or UINT32_MAX when there is none */
    uint32_t stack_key;     /* stacks: its key in stacks (the raw cost-centre numbers) */
    bool is_string;
    bool line_break;        /* its label holds a line feed or a carriage return */
};

#define UNNAMED UINT32_MAX

/* Band numbers of a table's keys, indexed by key number. */
struct band_map {
    uint32_t *band;
    size_t cap;
};

struct bands {
    struct intern *strings;
    struct intern *stacks;
    struct intern *labels;
    struct band_map string_band, stack_band;
    struct band *band;
    uint32_t count;
    size_t cap;
    uint32_t next_stack_number;
};

void bands_free(struct bands *b)
{
    if (!b)
        return;
    intern_free(b->strings);
    intern_free(b->stacks);
    intern_free(b->labels);
    free(b->string_band.band);
    free(b->stack_band.band);
    free(b->band);
    free(b);
}

struct bands *bands_new(void)
{
    struct bands *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->strings = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    b->stacks = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    b->labels = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    if (!b->strings || !b->stacks || !b->labels) {
        bands_free(b);
        return NULL;
    }
    return b;
}

/* A map's first n entries (those it has of them), sized exactly. */
static int copy_map(struct band_map *to, const struct band_map *from, size_t n)
{
    if (n > from->cap)
        n = from->cap;   /* a key whose band could not be numbered has no entry */
    to->band = copy_array(from->band, n, sizeof *from->band);
    to->cap = n;
    return to->band ? 0 : -1;
}

/* Table by table, sized exactly: a copy made by adding every band again would keep the
 * room the tables grow by (a third more for 100,000 bands), in every snapshot. */
struct bands *bands_copy(const struct bands *b)
{
    struct bands *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *b;
    c->strings = intern_copy(b->strings);
    c->stacks = intern_copy(b->stacks);
    c->labels = intern_copy(b->labels);
    c->string_band.band = c->stack_band.band = NULL;
    c->band = copy_array(b->band, b->count, sizeof *b->band);
    c->cap = b->count;
    if (!c->strings || !c->stacks || !c->labels || !c->band ||
        copy_map(&c->string_band, &b->string_band, intern_count(b->strings)) != 0 ||
        copy_map(&c->stack_band, &b->stack_band, intern_count(b->stacks)) != 0) {
        bands_free(c);
        return NULL;
    }
    return c;
}

uint32_t bands_count(const struct bands *b)
{
    return b->count;
}

void bands_mark(const struct bands *b, struct bands_mark *m)
{
    *m = (struct bands_mark){ b->count, intern_count(b->strings), intern_count(b->stacks),
                              b->next_stack_number };
}

void bands_rollback(struct bands *b, const struct bands_mark *m)
{
    if (b->count <= m->count)
        return;
    intern_truncate(b->strings, m->strings);
    intern_truncate(b->stacks, m->stacks);
    b->count = m->count;
    b->next_stack_number = m->next_stack_number;
}

static bool has_line_break(const char *s, size_t len)
{
    return memchr(s, '\n', len) || memchr(s, '\r', len);
}

/* Numbers the band of a key just added to a table as key_id. */
static enum table_status new_band(struct bands *b, struct band_map *map, uint32_t key_id,
                                  struct band rec, uint32_t *band)
{
    if (b->count >= BANDS_MAX)
        return TABLE_FULL;
    if (GROW_ARRAY(map->band, &map->cap, (size_t)key_id + 1) != 0 ||
        GROW_ARRAY(b->band, &b->cap, (size_t)b->count + 1) != 0)
        return TABLE_NO_MEMORY;
    *band = b->count++;
    map->band[key_id] = *band;
    b->band[*band] = rec;
    return TABLE_OK;
}

/* The band of a string (is_string) or a stack key, numbering a new band when the key is
 * new to its table; *added says whether it was (set even when numbering then fails). */
static inline enum table_status band_of_key(struct bands *b, bool is_string, const void *key,
                                            size_t len, uint32_t *band, bool *added)
{
    struct intern *table = is_string ? b->strings : b->stacks;
    struct band_map *map = is_string ? &b->string_band : &b->stack_band;
    uint32_t key_id;
    enum table_status st = intern_get(table, key, len, &key_id, added);
    if (st != TABLE_OK)
        return st;
    if (!*added) {
        *band = map->band[key_id];
        return TABLE_OK;
    }
    struct band rec = is_string ? (struct band){ key_id, 0, UINT32_MAX, { 0 }, 0, true,
                                                 has_line_break(key, len) }
                                : (struct band){ UNNAMED, 0, UINT32_MAX, { 0 }, key_id, false,
                                                 false };
    for (int a = 0; a < BAND_ATTRS; a++)
        rec.attr_id[a] = UINT32_MAX;
    return new_band(b, map, key_id, rec, band);
}

enum table_status bands_string(struct bands *b, const char *label, size_t len, uint32_t *band)
{
    bool added;
    return band_of_key(b, true, label, len, band, &added);
}

enum table_status bands_stack(struct bands *b, const unsigned char *ids, size_t ids_len,
                              uint32_t *band, int *is_new)
{
    bool added;
    enum table_status st = band_of_key(b, false, ids, ids_len, band, &added);
    *is_new = added;
    return st;
}

enum table_status bands_name_stack(struct bands *b, uint32_t band, const char *label,
                                   size_t label_len, int numbered)
{
    uint32_t label_id;
    enum table_status st = intern_get(b->labels, label, label_len, &label_id, NULL);
    if (st != TABLE_OK)
        return st;
    b->band[band].label_id = label_id;
    b->band[band].line_break = has_line_break(label, label_len);
    b->band[band].stack_number = numbered ? ++b->next_stack_number : 0;
    return TABLE_OK;
}

const char *bands_label(const struct bands *b, uint32_t band, size_t *len)
{
    const struct band *rec = &b->band[band];
    if (rec->is_string)
        return intern_key(b->strings, rec->label_id, len);
    if (rec->label_id == UNNAMED) {
        *len = 0;
        return "";
    }
    return intern_key(b->labels, rec->label_id, len);
}

void bands_line(const struct bands *b, uint32_t band, struct band_line *line)
{
    const struct band *rec = &b->band[band];
    line->label = bands_label(b, band, &line->len);
    line->stack_number = rec->stack_number;
    line->line_break = rec->line_break;
}

const unsigned char *bands_stack_ids(const struct bands *b, uint32_t band, size_t *ids_len)
{
    const struct band *rec = &b->band[band];
    if (rec->is_string) {
        *ids_len = 0;
        return NULL;
    }
    return (const unsigned char *)intern_key(b->stacks, rec->stack_key, ids_len);
}

uint32_t bands_stack_number(const struct bands *b, uint32_t band)
{
    return b->band[band].stack_number;
}

int bands_find_string(const struct bands *b, const char *label, size_t len, uint32_t *band)
{
    uint32_t key_id;
    if (intern_find(b->strings, label, len, &key_id) != 0)
        return -1;
    *band = b->string_band.band[key_id];
    return 0;
}

enum table_status bands_describe(struct bands *b, uint32_t band, const char *text, size_t len)
{
    uint32_t id;
    enum table_status st = intern_get(b->labels, text, len, &id, NULL);
    if (st != TABLE_OK)
        return st;
    b->band[band].description_id = id;
    return TABLE_OK;
}

enum table_status bands_set_attr(struct bands *b, uint32_t band, enum band_attr attr,
                                 const char *text, size_t len)
{
    uint32_t id;
    enum table_status st = intern_get(b->labels, text, len, &id, NULL);
    if (st == TABLE_OK)
        b->band[band].attr_id[attr] = id;
    return st;
}

const char *bands_attr(const struct bands *b, uint32_t band, enum band_attr attr, size_t *len)
{
    uint32_t id = b->band[band].attr_id[attr];
    return id == UINT32_MAX ? NULL : intern_key(b->labels, id, len);
}

const char *bands_display_label(const struct bands *b, uint32_t band, size_t *len)
{
    uint32_t id = b->band[band].description_id;
    if (id == UINT32_MAX)
        return bands_label(b, band, len);
    return intern_key(b->labels, id, len);
}

/* The length of a leading "(123)" in a label of len bytes, or 0 when there is none or
 * nothing follows it. */
static size_t number_prefix(const char *label, size_t len)
{
    if (len < 3 || label[0] != '(' || label[1] < '0' || label[1] > '9')
        return 0;
    size_t i = 1;
    while (i < len && label[i] >= '0' && label[i] <= '9')
        i++;
    return i + 1 < len && label[i] == ')' ? i + 1 : 0;
}

const char *bands_shown_label(const char *label, size_t len, size_t *shown_len)
{
    size_t prefix = number_prefix(label, len);
    if (shown_len)
        *shown_len = len - prefix;
    return label + prefix;
}

size_t bands_person_name(const struct bands *b, uint32_t band, char *buf, size_t cap)
{
    size_t len;
    const char *label = bands_display_label(b, band, &len);
    uint32_t number = bands_stack_number(b, band);
    int n = number ? snprintf(buf, cap, "(%" PRIu32 ")", number) : 0;
    size_t used = n > 0 ? (size_t)n : 0;
    if (used >= cap)
        used = cap - 1;
    if (len > cap - 1 - used)
        len = utf8_boundary(label, cap - 1 - used);   /* never inside a character */
    memcpy(buf + used, label, len);
    buf[used + len] = '\0';
    return used + len;
}
