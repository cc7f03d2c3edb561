/* markerwindow.c: a window's ends at markers, found by a first read (markerwindow.h).
 *
 * The read decodes the markers alone (input_options.markers_only: the reader skips every
 * other event, no census is assembled): each marker's text is compared with the two
 * prefixes as it comes. Markers of different capabilities reach the file in their own blocks, so the
 * file's order is not time order: the whole file is read, and "first" is decided on the
 * times (the earliest match for the start; the earliest after the start for the end).
 * The first few distinct texts are kept, in time order, for the error that names them.
 */
#include "census/markerwindow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/order.h"
#include "base/utf8.h"

/* Texts named by the error at most, and bytes of each. */
#define NAMED_MARKERS 8
#define NAMED_TEXT 40

struct named {
    uint64_t time_ns;
    char text[NAMED_TEXT + 1];
};

struct scan {
    const struct marker_window *w;
    bool has_from;
    uint64_t from_ns;             /* the earliest marker matching w->from */
    uint64_t *to_ns;              /* every marker matching w->to */
    size_t to_count, to_cap;
    struct named named[NAMED_MARKERS];   /* the earliest distinct texts */
    size_t named_count;
    bool more;                    /* a distinct text was left out of named */
    uint64_t markers;
};

static bool begins_with(const char *text, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return n <= len && memcmp(text, prefix, n) == 0;
}

/* Keeps text among the earliest NAMED_MARKERS distinct texts (cut to NAMED_TEXT bytes at
 * most, at a character's start); more is set when a distinct text is left out. */
static void remember(struct scan *s, uint64_t time_ns, const char *text, size_t len)
{
    if (len > NAMED_TEXT)
        len = utf8_boundary(text, NAMED_TEXT);   /* never inside a character */
    for (size_t i = 0; i < s->named_count; i++)
        if (strlen(s->named[i].text) == len && memcmp(s->named[i].text, text, len) == 0) {
            if (time_ns < s->named[i].time_ns)
                s->named[i].time_ns = time_ns;
            return;
        }
    size_t at = s->named_count;
    if (at == NAMED_MARKERS) {   /* replace the latest, if this one is earlier */
        s->more = true;
        at = 0;
        for (size_t i = 1; i < NAMED_MARKERS; i++)
            if (s->named[i].time_ns > s->named[at].time_ns)
                at = i;
        if (s->named[at].time_ns <= time_ns)
            return;
    } else {
        s->named_count++;
    }
    s->named[at].time_ns = time_ns;
    memcpy(s->named[at].text, text, len);
    s->named[at].text[len] = '\0';
}

static int on_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct scan *s = ctx;
    s->markers++;
    remember(s, time_ns, text, len);
    if (s->w->from && begins_with(text, len, s->w->from) &&
        (!s->has_from || time_ns < s->from_ns)) {
        s->has_from = true;
        s->from_ns = time_ns;
    }
    if (s->w->to && begins_with(text, len, s->w->to)) {
        if (GROW_ARRAY(s->to_ns, &s->to_cap, s->to_count + 1) != 0)
            return -1;
        s->to_ns[s->to_count++] = time_ns;
    }
    return 0;
}

static int on_frame(void *ctx, const struct census_frame *frame)
{
    (void)ctx, (void)frame;
    return 0;
}

static int on_total(void *ctx, enum heap_total kind, uint64_t time_ns, uint64_t bytes)
{
    (void)ctx, (void)kind, (void)time_ns, (void)bytes;
    return 0;
}

int marker_scan(const struct input_options *iopt,
                int (*marker)(void *ctx, uint64_t time_ns, const char *text, size_t len),
                void *ctx, struct ev_error *err)
{
    struct input_options first = { .path = iopt->path, .ccs_length = iopt->ccs_length,
                                   .read_buffer = iopt->read_buffer,
                                   .group_by = iopt->group_by,
                                   .stop_at_damage = iopt->stop_at_damage,
                                   .markers_only = true };
    struct census_events events = { on_frame, marker, on_total, ctx, NULL, NULL };
    struct input *in = input_open(&first, &events, err);
    if (!in)
        return -1;
    struct input_outcome outcome;
    enum input_status st = input_read(in, &outcome, err);
    input_free(in);
    if (st == INPUT_STOPPED)
        ev_error_set(err, "out of memory");
    return st == INPUT_OK ? 0 : -1;
}

static int by_time(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    return order_u64(x->time_ns, y->time_ns);
}

/* The error for an option whose marker is not there: the markers the run has. */
static void unknown(struct scan *s, const char *option, const char *text, const char *after,
                    struct ev_error *err)
{
    char list[160] = "";
    size_t used = 0;
    qsort(s->named, s->named_count, sizeof *s->named, by_time);
    for (size_t i = 0; i < s->named_count; i++) {
        int n = snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "",
                         s->named[i].text);
        if (n < 0 || (size_t)n >= sizeof list - used) {
            list[used] = '\0';
            s->more = true;   /* the rest did not fit */
            break;
        }
        used += (size_t)n;
    }
    if (!s->markers)
        ev_error_set(err, "--%s %s%s: the run has no marker (traceMarker)", option,
                     MARKER_WINDOW_PREFIX, text);
    else
        ev_error_set(err, "--%s %s%s: no marker%s begins with \"%s\"; the run's markers: "
                     "%s%s", option, MARKER_WINDOW_PREFIX, text, after, text, list,
                     s->more ? ", ..." : "");
}


enum marker_window_status marker_window_resolve(const struct input_options *iopt,
                                                const struct marker_window *w,
                                                struct profile_options *pr,
                                                struct ev_error *err)
{
    struct scan s = { .w = w };
    enum marker_window_status result = MARKER_WINDOW_OK;
    if (marker_scan(iopt, on_marker, &s, err) != 0) {
        result = MARKER_WINDOW_BAD_INPUT;
        goto done;
    }
    if (w->from) {
        if (!s.has_from) {
            unknown(&s, "from", w->from, "", err);
            result = MARKER_WINDOW_UNKNOWN;
            goto done;
        }
        pr->has_from = true;
        pr->from_seconds = time_window_seconds(s.from_ns);
    }
    if (w->to) {
        /* the end's marker is the first after the start, whichever way it was given */
        uint64_t after = pr->has_from ? (uint64_t)(pr->from_seconds * 1e9) : 0;
        bool found = false;
        uint64_t to_ns = 0;
        for (size_t i = 0; i < s.to_count; i++)
            if ((!pr->has_from || s.to_ns[i] > after) && (!found || s.to_ns[i] < to_ns)) {
                found = true;
                to_ns = s.to_ns[i];
            }
        if (!found) {
            char where[48] = "";
            if (pr->has_from)
                snprintf(where, sizeof where, " after %.6f s", pr->from_seconds);
            unknown(&s, "to", w->to, where, err);
            result = MARKER_WINDOW_UNKNOWN;
            goto done;
        }
        pr->has_to = true;
        pr->to_seconds = time_window_seconds(to_ns);
    }
    if (pr->has_from && pr->has_to && pr->to_seconds <= pr->from_seconds) {
        ev_error_set(err, "--to (%.6f s) must be after --from (%.6f s)", pr->to_seconds,
                     pr->from_seconds);
        result = MARKER_WINDOW_UNKNOWN;
    }
done:
    free(s.to_ns);
    return result;
}
