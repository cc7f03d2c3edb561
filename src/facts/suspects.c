/* suspects.c: the leak suspects of a view (suspects.h). */
#include "facts/suspects.h"

size_t suspects_of(const struct profile_view *v, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < v->band_count; i++) {
        if (v->bands[i].band == PROFILE_OTHER ||
            !profile_is_suspect(&v->bands[i].stats, v->first_ns, v->peak_total))
            continue;
        /* insertion by slope, largest first, keeping the best max */
        size_t j = n < max ? n++ : max;
        while (j > 0 && v->bands[out[j - 1]].stats.rise < v->bands[i].stats.rise) {
            if (j < max)
                out[j] = out[j - 1];
            j--;
        }
        if (j < max)
            out[j] = i;
    }
    return n;
}
