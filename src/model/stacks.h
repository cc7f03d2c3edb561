/* stacks.h: weighted stacks, the one shape of folded stacks and flame graphs.
 *
 * A time profile (samples per cost-centre stack) and a heap census of -hc or -hi (bytes
 * per stack, or per module and info table) are both a set of stacks of named frames,
 * outermost first, each with a value. Folded output writes them one line per stack; the
 * flame and icicle graphs draw their calling-context tree. With --compare a stack has two
 * values, this run's and the base's (the differential form: flamegraph's difffolded.pl
 * writes "stack base now", a differential flame graph is sized by now and coloured by the
 * change), so both runs go into one set and a stack both runs have is one stack.
 *
 * Frames are interned by name; each has a module (the flame graph colours a module
 * alike) and a detail for tooltips (a source location). Stacks are interned by their
 * frame numbers and keep the order they first appeared in, so the same input gives the
 * same bytes. Memory follows the number of distinct frames and stacks.
 */
#ifndef EV2HP_STACKS_H
#define EV2HP_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/table.h"

/* The two values of a stack: this run's, and with --compare the base's. */
enum stacks_column { STACKS_NOW = 0, STACKS_BASE = 1 };

struct stacks;

/* max_stacks: the most distinct stacks it will hold (TABLE_FULL past it). NULL when out
 * of memory. */
struct stacks *stacks_new(uint32_t max_stacks);
void stacks_free(struct stacks *s);

/* The number of the frame called name (len bytes; ';' and line breaks are the caller's
 * to replace). module and detail (NUL-terminated, may be "") are kept the first time the
 * name is seen. */
enum table_status stacks_frame(struct stacks *s, const char *name, size_t len,
                               const char *module, size_t module_len, const char *detail,
                               uint32_t *frame);

/* Adds value to column of the stack of these frames (outermost first; depth 0 is a
 * stack of no frame, which callers avoid by naming one, "MAIN"); *stack (unless NULL)
 * its number (stacks_get). */
enum table_status stacks_add(struct stacks *s, const uint32_t *frames, unsigned depth,
                             enum stacks_column column, uint64_t value, uint32_t *stack);

/* Marks the set differential (a base was read): outputs write and draw both columns. */
void stacks_set_differential(struct stacks *s);
bool stacks_differential(const struct stacks *s);

uint32_t stacks_count(const struct stacks *s);
/* Stack i's frames (outermost first), *depth of them, and its two values. */
const uint32_t *stacks_get(const struct stacks *s, uint32_t i, unsigned *depth,
                           uint64_t value[2]);
/* A column's sum over every stack. */
uint64_t stacks_total(const struct stacks *s, enum stacks_column column);

/* A frame's name, module and detail; the module and the detail are NUL-terminated. */
const char *stacks_frame_name(const struct stacks *s, uint32_t frame, size_t *len);
const char *stacks_frame_module(const struct stacks *s, uint32_t frame, size_t *len);
const char *stacks_frame_detail(const struct stacks *s, uint32_t frame);

/* The calling-context tree: node 0 is the root (every stack); each other node is one
 * stack prefix. Values per column: self (stacks that end here) and total (stacks that
 * pass through). Children are in the order they first appeared. */
struct stacks_node {
    uint32_t frame;                 /* root: UINT32_MAX */
    uint32_t parent;                /* root: UINT32_MAX */
    uint32_t first_child, next_sibling;   /* UINT32_MAX: none */
    unsigned depth;                 /* root 0 */
    uint64_t self[2], total[2];
};

struct stacks_tree {
    struct stacks_node *nodes;
    uint32_t count;
    unsigned max_depth;
};

/* 0, or -1 when out of memory. */
int stacks_tree(const struct stacks *s, struct stacks_tree *out);
void stacks_tree_free(struct stacks_tree *t);

/* A folded-stack frame name: ';' becomes ':' and a line break a space, so a folded line
 * stays one line of ';'-joined frames. In place, len bytes. */
void stacks_clean_name(char *name, size_t len);

#endif
