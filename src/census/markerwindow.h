/* markerwindow.h: --from marker:TEXT and --to marker:TEXT, the window's ends in seconds.
 *
 * A window may start or end at a traceMarker of the run instead of a time in seconds. A
 * marker matches TEXT when its text begins with TEXT ("marker:load" matches "load" and
 * "load 3 files"; an exact text is its own prefix); the window starts at the first
 * matching marker, and ends at the first matching marker after that start (the run's
 * first when there is no start, or the start is in seconds). The markers are known only
 * once read, and the outputs stream as the input is read, so a marker's time is found by
 * a first read of the input that looks at markers alone and stops at the end's marker
 * (nothing is decoded into a model; a window costs at most one more pass over the part of
 * the file before its end). That needs an input read twice: a regular file. A pipe, a
 * socket or a file still being written (--follow, --serve) cannot be, and a marker
 * window on one is a usage error (convert.c says so; give seconds instead).
 */
#ifndef EV2HP_MARKERWINDOW_H
#define EV2HP_MARKERWINDOW_H

#include "base/error.h"
#include "census/input.h"
#include "model/profile.h"

/* The prefix of --from and --to that names a marker instead of seconds. */
#define MARKER_WINDOW_PREFIX "marker:"

/* The texts --from and --to gave after "marker:", or NULL where they gave seconds (or
 * nothing). */
struct marker_window {
    const char *from, *to;
};

enum marker_window_status {
    MARKER_WINDOW_OK,           /* pr's has_from/from_seconds, has_to/to_seconds set */
    MARKER_WINDOW_UNKNOWN,      /* no marker matches (a usage error): err names the
                                 * option, the text and the markers the run has */
    MARKER_WINDOW_BAD_INPUT,    /* the input could not be read: err says why */
};

/* Reads the markers of the input iopt names (only its path, -L and --group-by matter;
 * no time profile, no dump, no progress) and sets the window's ends that w names as
 * markers into pr; an end given in seconds stays as it is. With both ends known, the end
 * must come after the start (MARKER_WINDOW_UNKNOWN otherwise, as a usage error too). */
enum marker_window_status marker_window_resolve(const struct input_options *iopt,
                                                const struct marker_window *w,
                                                struct profile_options *pr,
                                                struct ev_error *err);

/* The first read of a window's or phases' markers: the input iopt names (only its path,
 * -L, --group-by, the buffer and --stop-at-damage matter) read for its markers alone,
 * each given to marker (in the file's order, which is not time order across
 * capabilities). 0, or -1 with err set when the input cannot be read (or marker
 * failed: out of memory). */
int marker_scan(const struct input_options *iopt,
                int (*marker)(void *ctx, uint64_t time_ns, const char *text, size_t len),
                void *ctx, struct ev_error *err);

#endif
