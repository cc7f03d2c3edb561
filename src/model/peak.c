/* peak.c: the peak census tracker, sizes and their words (see peak.h). */
#include "model/peak.h"
#include "base/grow.h"
#include "base/order.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts a census and returns its total. */
static uint64_t count_census(struct peak *p, const struct census_frame *frame)
{
    uint64_t total = 0;
    for (size_t i = 0; i < frame->count; i++)
        total += frame->entries[i].bytes;
    if (p->censuses++ == 0)
        p->first_ns = frame->time_ns;
    p->last_ns = frame->time_ns;
    return total;
}

/* Keeps frame as the tracked census. */
static int keep(struct peak *p, const struct census_frame *frame, uint64_t total)
{
    if (GROW_ARRAY(p->entries, &p->cap, frame->count) != 0)
        return -1;
    if (frame->count)
        memcpy(p->entries, frame->entries, frame->count * sizeof *p->entries);
    p->count = frame->count;
    p->kept = true;
    p->bytes = total;
    p->time_ns = frame->time_ns;
    return 0;
}

int peak_add(struct peak *p, const struct census_frame *frame)
{
    uint64_t total = count_census(p, frame);
    if (p->censuses > 1 && total <= p->bytes)
        return 0;
    return keep(p, frame, total);
}

int peak_add_until(struct peak *p, const struct census_frame *frame, uint64_t at_ns)
{
    uint64_t total = count_census(p, frame);
    return frame->time_ns <= at_ns ? keep(p, frame, total) : 0;
}

int peak_copy(const struct peak *p, struct peak *copy)
{
    *copy = *p;
    copy->entries = NULL;
    copy->cap = copy->count = 0;
    if (!p->count)
        return 0;
    if (!(copy->entries = copy_array(p->entries, p->count, sizeof *p->entries)))
        return -1;
    copy->count = copy->cap = p->count;
    return 0;
}

static int larger_first(const void *a, const void *b)
{
    const struct census_entry *x = a, *y = b;
    int c = order_u64(y->bytes, x->bytes);
    return c ? c : order_u64(x->band, y->band);
}

void peak_sort(struct peak *p)
{
    if (p->count > 1)
        qsort(p->entries, p->count, sizeof *p->entries, larger_first);
}

void peak_free(struct peak *p)
{
    free(p->entries);
    memset(p, 0, sizeof *p);
}

int peak_parse_size(const char *text, uint64_t *bytes)
{
    char *end;
    if (!isdigit((unsigned char)text[0]))
        return -1;
    double value = strtod(text, &end);
    int shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0))
        end += strlen(end);
    else if (!shift && strcmp(end, "B") == 0)
        end++;
    if (*end)
        return -1;
    double result = value * (double)((uint64_t)1 << shift);
    if (result >= 18446744073709551615.0)
        return -1;
    *bytes = (uint64_t)result;
    return 0;
}
