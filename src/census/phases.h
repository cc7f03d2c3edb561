/* phases.h: --phases, the stretches of a run its markers bound.
 *
 * A program marks what it is doing with traceMarker ("load", "serve", "shutdown"; or
 * "test 3 start" ... "test 3 end"), and --phases turns those markers into phases, each a
 * window of the run (both ends inclusive, as --from/--to's) that facts/phases.h works out
 * the peak, growth and suspects of. Two rules:
 *
 *   - `--phases marker`: every marker starts a phase named by its text, which the next
 *     marker (in time) ends; the last ends at the run's end.
 *   - `--phases REGEX`: only the markers whose text REGEX matches (a POSIX extended
 *     regular expression, regcomp's REG_EXTENDED, found anywhere in the text as grep -E
 *     finds it) count, and of those:
 *       - "X start" (the text ends in " start") opens phase X, which the first "X end"
 *         after it closes: the phase runs from the one to the other;
 *       - any other matching text starts a phase named by it, which the next such marker
 *         ends (the last: at the run's end), as with `marker`;
 *     an "X start" no "X end" follows, an "X end" with no open "X start", and an
 *     "X start" opened again before its end (the earlier one) are dropped, each said in
 *     a note (the summaries list notes): no phase is made up to the run's end for them.
 *
 * Markers are known only once read and the outputs stream as the input is read, so the
 * phases are found by a first read of the input for its markers alone (markerwindow.h's
 * marker_scan; a regular file only, as for a marker window). Phases are in order of
 * their start (equal starts: in the markers' order); at most PHASES_MAX, the rest
 * dropped and said.
 */
#ifndef EV2HP_PHASES_H
#define EV2HP_PHASES_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "census/input.h"
#include "model/profile.h"

/* The --phases value that makes every marker start a phase. */
#define PHASES_EVERY_MARKER "marker"
/* Phases of one run at most (each keeps its own band statistics while the run is read). */
#define PHASES_MAX 1000
/* Notes of what the rule dropped, at most: three markers said one by one, then how many
 * more, then the phases past PHASES_MAX (and phase_list_clip's); see phases.c. */
#define PHASES_NOTES 6

struct phase {
    char *name;                    /* the marker's text, or X of "X start"; NUL-terminated */
    uint64_t start_ns;
    uint64_t end_ns;               /* UINT64_MAX: to the run's end */
};

struct phase_list {
    struct phase *phases;
    size_t count;
    /* what the rule dropped (unmatched starts and ends, phases past PHASES_MAX) */
    struct ev_error notes[PHASES_NOTES];
    size_t note_count;
};

enum phases_status {
    PHASES_OK,
    PHASES_USAGE,                  /* a bad REGEX, a run without markers, or a REGEX
                                    * matching none of them (err names the markers there
                                    * are) or making no phase: a usage error */
    PHASES_BAD_INPUT,              /* the input could not be read: err says why */
};

/* The phases of the input iopt names under rule (--phases' value) into *out (freed with
 * phase_list_free whatever the result). */
enum phases_status phases_resolve(const struct input_options *iopt, const char *rule,
                                  struct phase_list *out, struct ev_error *err);
void phase_list_free(struct phase_list *l);

/* --from/--to with --phases: each phase cut to the window w (a phase's end of UINT64_MAX
 * stays the run's end when the window has none), the phases wholly outside it left out;
 * how many, said in a note when there is room. */
void phase_list_clip(struct phase_list *l, struct time_window w);

#endif
