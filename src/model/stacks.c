/* stacks.c: weighted stacks and their calling-context tree (see stacks.h).
 *
 * Frames and stacks are two interning tables: a frame's key is its name, a stack's its
 * frame numbers as bytes. The tree is built on demand with a hash table of its edges,
 * (parent node, frame) -> node, so each stack costs one look-up per frame; the table
 * holds node numbers only and compares the nodes' own parent and frame, so an edge costs
 * no key of its own (an interning table of the pairs took a third of the tree's memory,
 * 9 MB of a report of 87,000 stacks).
 */
#include "model/stacks.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/intern.h"
#include "base/limits.h"
#include "base/textcopy.h"

struct frame_info {
    char *module;
    size_t module_len;
    char *detail;
};

struct stacks {
    struct intern *frames, *keys;
    struct frame_info *info;
    size_t info_cap;
    uint64_t (*values)[2];
    size_t values_cap;
    uint64_t total[2];
    bool differential;
};

struct stacks *stacks_new(uint32_t max_stacks)
{
    struct stacks *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->frames = intern_new(BANDS_MAX, BANDS_MAX_TEXT);
    s->keys = intern_new(max_stacks, BANDS_MAX_TEXT);
    if (!s->frames || !s->keys) {
        stacks_free(s);
        return NULL;
    }
    return s;
}

void stacks_free(struct stacks *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->frames && i < intern_count(s->frames); i++) {
        free(s->info[i].module);
        free(s->info[i].detail);
    }
    intern_free(s->frames);
    intern_free(s->keys);
    free(s->info);
    free(s->values);
    free(s);
}

enum table_status stacks_frame(struct stacks *s, const char *name, size_t len,
                               const char *module, size_t module_len, const char *detail,
                               uint32_t *frame)
{
    if (GROW_ARRAY(s->info, &s->info_cap, (size_t)intern_count(s->frames) + 1) != 0)
        return TABLE_NO_MEMORY;
    bool added;
    enum table_status st = intern_get(s->frames, name, len, frame, &added);
    if (st != TABLE_OK || !added)
        return st;
    struct frame_info *f = &s->info[*frame];
    f->module = text_copy(module, module_len);
    f->detail = strdup(detail ? detail : "");
    if (!f->module || !f->detail) {
        free(f->module);
        free(f->detail);
        intern_truncate(s->frames, *frame);
        return TABLE_NO_MEMORY;
    }
    f->module_len = module_len;
    return TABLE_OK;
}

enum table_status stacks_add(struct stacks *s, const uint32_t *frames, unsigned depth,
                             enum stacks_column column, uint64_t value, uint32_t *stack)
{
    if (GROW_ARRAY(s->values, &s->values_cap, (size_t)intern_count(s->keys) + 1) != 0)
        return TABLE_NO_MEMORY;
    uint32_t id;
    bool added;
    enum table_status st = intern_get(s->keys, frames, depth * sizeof *frames, &id, &added);
    if (st != TABLE_OK)
        return st;
    if (added)
        s->values[id][0] = s->values[id][1] = 0;
    s->values[id][column] += value;
    s->total[column] += value;
    if (stack)
        *stack = id;
    return TABLE_OK;
}

void stacks_set_differential(struct stacks *s)
{
    s->differential = true;
}

bool stacks_differential(const struct stacks *s)
{
    return s->differential;
}

uint32_t stacks_count(const struct stacks *s)
{
    return intern_count(s->keys);
}

const uint32_t *stacks_get(const struct stacks *s, uint32_t i, unsigned *depth,
                           uint64_t value[2])
{
    size_t len;
    const char *key = intern_key(s->keys, i, &len);
    *depth = (unsigned)(len / sizeof(uint32_t));
    value[0] = s->values[i][0];
    value[1] = s->values[i][1];
    return (const uint32_t *)(const void *)key;
}

uint64_t stacks_total(const struct stacks *s, enum stacks_column column)
{
    return s->total[column];
}

const char *stacks_frame_name(const struct stacks *s, uint32_t frame, size_t *len)
{
    return intern_key(s->frames, frame, len);
}

const char *stacks_frame_module(const struct stacks *s, uint32_t frame, size_t *len)
{
    *len = s->info[frame].module_len;
    return s->info[frame].module;
}

const char *stacks_frame_detail(const struct stacks *s, uint32_t frame)
{
    return s->info[frame].detail;
}

void stacks_clean_name(char *name, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (name[i] == ';')
            name[i] = ':';
        else if (name[i] == '\n' || name[i] == '\r')
            name[i] = ' ';
}

/* The edges of a tree being built: open addressing over node numbers (0: empty, as the
 * root is no one's child), at most half full. */
struct edges {
    uint32_t *slot;
    size_t mask;
};

static size_t edge_hash(uint32_t parent, uint32_t frame)
{
    uint64_t h = (uint64_t)parent << 32 | frame;   /* murmur3's finaliser */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return (size_t)h;
}

/* Twice the slots, every node but the root placed again. */
static int grow_edges(struct edges *e, const struct stacks_tree *t)
{
    size_t n = (e->mask + 1) * 2;
    uint32_t *slot = calloc(n, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t id = 1; id < t->count; id++) {
        size_t i = edge_hash(t->nodes[id].parent, t->nodes[id].frame) & (n - 1);
        while (slot[i])
            i = (i + 1) & (n - 1);
        slot[i] = id;
    }
    free(e->slot);
    e->slot = slot;
    e->mask = n - 1;
    return 0;
}

/* A child of parent for frame: its node, added (linked after its siblings) if new. */
static int child(struct stacks_tree *t, struct edges *e, uint32_t **last, size_t *cap,
                 size_t *nodes_cap, uint32_t parent, uint32_t frame, uint32_t *node)
{
    size_t i = edge_hash(parent, frame) & e->mask;
    for (uint32_t id; (id = e->slot[i]) != 0; i = (i + 1) & e->mask)
        if (t->nodes[id].parent == parent && t->nodes[id].frame == frame) {
            *node = id;
            return 0;
        }
    if (t->count == UINT32_MAX ||
        GROW_ARRAY(t->nodes, nodes_cap, (size_t)t->count + 1) != 0 ||
        GROW_ARRAY(*last, cap, (size_t)t->count + 1) != 0)
        return -1;
    *node = t->count;
    struct stacks_node *n = &t->nodes[*node];
    *n = (struct stacks_node){ frame, parent, UINT32_MAX, UINT32_MAX,
                               t->nodes[parent].depth + 1, { 0, 0 }, { 0, 0 } };
    (*last)[*node] = UINT32_MAX;
    if ((*last)[parent] == UINT32_MAX)
        t->nodes[parent].first_child = *node;
    else
        t->nodes[(*last)[parent]].next_sibling = *node;
    (*last)[parent] = *node;
    e->slot[i] = *node;
    t->count = *node + 1;
    if (n->depth > t->max_depth)
        t->max_depth = n->depth;
    if ((size_t)t->count * 2 > e->mask + 1 && grow_edges(e, t) != 0)
        return -1;
    return 0;
}

int stacks_tree(const struct stacks *s, struct stacks_tree *out)
{
    memset(out, 0, sizeof *out);
    size_t nodes_cap = 0, last_cap = 0;
    uint32_t *last = NULL;   /* per node, its last child so far */
    struct edges edges = { calloc(1024, sizeof *edges.slot), 1023 };
    if (!edges.slot || GROW_ARRAY(out->nodes, &nodes_cap, 1) != 0 ||
        GROW_ARRAY(last, &last_cap, 1) != 0)
        goto fail;
    out->nodes[0] = (struct stacks_node){ UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, 0,
                                          { 0, 0 }, { 0, 0 } };
    last[0] = UINT32_MAX;
    out->count = 1;
    for (uint32_t i = 0; i < stacks_count(s); i++) {
        unsigned depth;
        uint64_t v[2];
        const uint32_t *frames = stacks_get(s, i, &depth, v);
        uint32_t node = 0;
        for (int c = 0; c < 2; c++)
            out->nodes[0].total[c] += v[c];
        for (unsigned k = 0; k < depth; k++) {
            if (child(out, &edges, &last, &last_cap, &nodes_cap, node, frames[k], &node) != 0)
                goto fail;
            for (int c = 0; c < 2; c++)
                out->nodes[node].total[c] += v[c];
        }
        for (int c = 0; c < 2; c++)
            out->nodes[node].self[c] += v[c];
    }
    free(edges.slot);
    free(last);
    return 0;
fail:
    free(edges.slot);
    free(last);
    stacks_tree_free(out);
    return -1;
}

void stacks_tree_free(struct stacks_tree *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
}
