/* diffseries.h: the change between two runs band by band, as numbers (--view diff).
 *
 * One rule for every output that shows this run minus a base: the diff view's picture
 * (chart/view_diff.c), its CSV and JSON export (sink/sink_diff.c) and the report's Diff
 * tab (its alignment at first, sink_html.c). Each pair of bands the two views show
 * (paired by model/bandmatch.h, OTHER left out) is one line, now's bytes minus the
 * base's; a band one run does not have counts 0 in that run. A run that has ended is
 * never read as 0: the lines exist only where both runs have censuses.
 *
 * Alignment. By time, a moment is the same seconds from the start in both runs, and the
 * lines span the overlap of the two runs' censuses (up to the shorter run's end). By
 * progress, a moment is the same share of each run (0 at its first census, 1 at its
 * last), and both runs cover all of 0..1. Asked for nothing (DIFF_ALIGN_AUTO), runs whose
 * lengths (first to last census) differ by more than a fifth (the longer more than 1.2
 * times the shorter) are aligned by progress, others by time. A run of one census has no
 * length to share out: it is aligned by time whatever was asked, and the lines are that
 * one moment if the other run covers it.
 *
 * The points are every kept census of either run inside the span, in aligned
 * coordinates: each run's band is linear between its own censuses, so their difference
 * is linear between these points, and the lines through them are exact.
 */
#ifndef EV2HP_DIFFSERIES_H
#define EV2HP_DIFFSERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/bands.h"
#include "model/frame.h"
#include "model/profile.h"

/* --align: what the user asked; DIFF_ALIGN_AUTO (the default) chooses by the rule above. */
enum diff_align { DIFF_ALIGN_AUTO = 0, DIFF_ALIGN_TIME, DIFF_ALIGN_PROGRESS };

/* Why the alignment is the one used, for the words that say so. */
enum diff_align_reason {
    DIFF_ALIGN_ASKED,          /* --align */
    DIFF_ALIGN_LENGTHS_CLOSE,  /* the default: lengths within a fifth, by time */
    DIFF_ALIGN_LENGTHS_DIFFER, /* the default: lengths apart by more, by progress */
    DIFF_ALIGN_NO_LENGTH,      /* a run of fewer than two censuses: by time */
};

/* The longer run more than this many times the shorter: aligned by progress. */
#define DIFF_LENGTH_RATIO 1.2

/* One run as the diff reads it. */
struct diff_input {
    const struct profile_view *view;
    const struct bands *bands;
    const struct run_info *info;
};

/* A line: the pair's indices in the two views (SIZE_MAX: the run has no such band),
 * the label it is shown under (now's, else the base's; owned by the view) and the
 * change at the peak (its peak in now minus its peak in the base, bytes). */
struct diff_line {
    size_t base, now;
    const char *label;
    double change;
};

struct diff_series {
    enum diff_align align;            /* DIFF_ALIGN_TIME or DIFF_ALIGN_PROGRESS */
    enum diff_align_reason reason;
    double base_length_s, now_length_s; /* first to last census of each (the windows') */
    double base_first_s, base_last_s;   /* each run's kept censuses' extent: what the */
    double now_first_s, now_last_s;     /* lines can be read over */
    /* The span the lines cover: seconds by time, shares 0..1 by progress; empty when
     * the runs have no moment in common (x0 > x1). */
    double x0, x1;
    size_t line_count;                /* largest growth first, then by label */
    struct diff_line *lines;
    size_t point_count;               /* 0 when the span is empty */
    double *x;                        /* the points, increasing, x0 first and x1 last */
    const struct profile_view *base_view, *now_view; /* borrowed */
};

/* The diff of now minus base, aligned as asked: 0, or -1 when out of memory (nothing to
 * free). The views must outlive the series. */
int diff_series_make(const struct diff_input *base, const struct diff_input *now,
                     enum diff_align asked, struct diff_series *s);
void diff_series_free(struct diff_series *s);

/* Whether the lines cover any moment. */
bool diff_series_has_span(const struct diff_series *s);

/* Line k's change at x (in the series' coordinates, inside [x0, x1]): bytes. */
double diff_series_value(const struct diff_series *s, size_t k, double x);

/* Each run's time at x: x itself by time; the run's first census plus x of its span
 * by progress. */
double diff_series_base_time(const struct diff_series *s, double x);
double diff_series_now_time(const struct diff_series *s, double x);

/* "time" or "progress"; a reason as the JSON outputs write it: "asked",
 * "lengths_close", "lengths_differ" or "no_length". */
const char *diff_align_name(enum diff_align align);
const char *diff_align_reason_name(enum diff_align_reason reason);

/* The alignment in words, for subtitles and headers: "aligned by share of each run
 * (progress): the runs' lengths, 3.31 s and 7.68 s, differ by more than a fifth (--align
 * time for seconds)", "aligned by time (--align time), where both runs have censuses:
 * 0.07 s to 3.38 s; this run goes on to 7.75 s". Into out (size bytes, cut if needed). */
void diff_series_describe(const struct diff_series *s, char *out, size_t size);

#endif
