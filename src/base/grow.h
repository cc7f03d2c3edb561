/* grow.h: the one growable array of ev2hp, and the one copy of such an array.
 *
 * Tables grow while input is read (census entries, band records, interned keys, display
 * items), so the size of an allocation comes from the input. Every such array grows
 * through grow_array, which checks that count * element size cannot wrap around size_t
 * (nor pass PTRDIFF_MAX, the largest object C allows) before it asks realloc: a wrapped size would give a short buffer that later writes run
 * past. Capacity at least doubles, so appending n elements costs O(n) copying.
 *
 * A copy of an array (the live server's snapshots of these tables, a polygon's points in
 * the display list) is sized exactly: copy_array makes every one, with the same check.
 */
#ifndef EV2HP_GROW_H
#define EV2HP_GROW_H

#include <stddef.h>

/* Makes room for at least need elements of elem_size bytes in the array *items, whose
 * capacity is *cap elements: when need > *cap, reallocates it to max(need, 2 * *cap, 8)
 * elements (no more than PTRDIFF_MAX bytes). Returns 0, or -1 when the size would overflow or
 * memory is out, in which case *items and *cap are unchanged (the array stays valid).
 * New elements are not initialised.
 *
 * items is the address of the caller's pointer variable (of any object pointer type); it
 * is read and written with memcpy, so no pointer is accessed through the wrong type. */
int grow_array(void *items, size_t *cap, size_t need, size_t elem_size);

/* grow_array for a typed pointer variable: GROW_ARRAY(t->names, &t->cap, id + 1). */
#define GROW_ARRAY(ptr, capp, need) grow_array(&(ptr), (capp), (need), sizeof *(ptr))

/* grow_array, with the new elements (up to the new capacity) set to zero bytes. */
int grow_array_zeroed(void *items, size_t *cap, size_t need, size_t elem_size);
#define GROW_ARRAY_ZEROED(ptr, capp, need) grow_array_zeroed(&(ptr), (capp), (need), sizeof *(ptr))

/* grow_array_zeroed to need and an eighth more, not twice the capacity: for the large
 * arrays of a record per band, which grow with the band table and stay for the run
 * (doubling left up to half of 24 MB unused with 100,000 bands). Appending n elements
 * one at a time still costs O(n) copying (each growth is by an eighth). */
int grow_array_tight(void *items, size_t *cap, size_t need, size_t elem_size);
#define GROW_ARRAY_TIGHT(ptr, capp, need) grow_array_tight(&(ptr), (capp), (need), sizeof *(ptr))

/* A copy of the first count elements of items (elem_size bytes each) in an allocation of
 * exactly that many (one when count is 0, so NULL only ever means failure); NULL when
 * the size would overflow or memory is out. */
void *copy_array(const void *items, size_t count, size_t elem_size);

#endif
