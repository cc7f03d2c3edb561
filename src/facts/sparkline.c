/* sparkline.c: a band over the run in block characters (sparkline.h). */
#include "facts/sparkline.h"

#include <stdbool.h>
#include <string.h>

/* U+2581 to U+2588, each three bytes of UTF-8. */
static const char *const blocks[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };

_Static_assert(SPARKLINE_CELLS == BAND_SHAPE_SLOTS, "a cell per shape slot");

/* cells values as blocks into out, on the scale 0 to top; a cell not in filled repeats
 * the one before. Returns the length in bytes. */
static size_t draw(const double *value, const bool *filled, size_t cells, double top, char *out)
{
    size_t len = 0;
    double held = 0;
    for (size_t c = 0; c < cells; c++) {
        if (filled[c])
            held = value[c];
        unsigned level = top > 0 ? (unsigned)(held / top * 7.0 + 0.5) : 0;
        if (level > 7)
            level = 7;
        memcpy(out + len, blocks[level], 3);
        len += 3;
    }
    out[len] = '\0';
    return len;
}

size_t sparkline_of(const struct profile_view *v, size_t band, char *out, size_t size)
{
    size_t n = v->point_count, w = v->band_count;
    out[0] = '\0';
    if (!n || band >= w || size < SPARKLINE_SIZE)
        return 0;
    uint32_t id = v->bands[band].band;
    if (id != PROFILE_OTHER && id < v->shape_bands && v->shape_slots &&
        v->shape_slots <= SPARKLINE_CELLS) {
        /* the band's exact shape; its peak as a float, as the shape holds it */
        double value[SPARKLINE_CELLS];
        bool filled[SPARKLINE_CELLS];
        for (unsigned c = 0; c < v->shape_slots; c++) {
            value[c] = v->shapes[(size_t)c * v->shape_bands + id];
            filled[c] = (v->shape_filled >> c) & 1;
        }
        return draw(value, filled, v->shape_slots, (float)v->bands[band].stats.peak, out);
    }
    size_t cells = n < SPARKLINE_CELLS ? n : SPARKLINE_CELLS;
    uint64_t first = v->time_ns[0], span = v->time_ns[n - 1] - first;
    double cell_max[SPARKLINE_CELLS] = { 0 };
    bool seen[SPARKLINE_CELLS] = { false };
    uint64_t top = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t value = v->values[k * w + band];
        /* the cell of this census: its share of the span, the last census in the last */
        size_t c = span ? (size_t)((double)(v->time_ns[k] - first) / (double)span * (double)cells)
                        : k * cells / n;
        if (c >= cells)
            c = cells - 1;
        if (!seen[c] || (double)value > cell_max[c])
            cell_max[c] = (double)value;
        seen[c] = true;
        if (value > top)
            top = value;
    }
    return draw(cell_max, seen, cells, (double)top, out);
}
