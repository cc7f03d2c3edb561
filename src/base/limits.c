/* limits.c: the checks that combine limits (see limits.h). */
#include "base/limits.h"

#include <math.h>

int png_pixel_size(double width, double height, double scale, int *px_width, int *px_height,
                   struct ev_error *err)
{
    if (!(scale >= PNG_SCALE_MIN && scale <= PNG_SCALE_MAX)) {
        ev_error_set(err, "scale %g is outside %g to %g", scale, PNG_SCALE_MIN,
                     PNG_SCALE_MAX);
        return -1;
    }
    double w = round(width * scale), h = round(height * scale);
    if (!(w >= 1 && h >= 1)) {
        ev_error_set(err, "image of %g x %g pixels: nothing to draw", w, h);
        return -1;
    }
    if (w > PNG_MAX_SIDE || h > PNG_MAX_SIDE || w * h > PNG_MAX_PIXELS) {
        ev_error_set(err, "image of %.0f x %.0f pixels is too big (at most %d a side and "
                     "%u pixels)", w, h, PNG_MAX_SIDE, PNG_MAX_PIXELS);
        return -1;
    }
    *px_width = (int)w;
    *px_height = (int)h;
    return 0;
}
