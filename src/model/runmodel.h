/* runmodel.h: one run, read once, as every chart, report and summary output draws it.
 *
 * The input is read once; what the drawing outputs need of it is kept here, fed once per
 * census, marker and heap total (convert.c feeds it, and a --compare base its own):
 *
 *   - one profile (profile.h) at the finest resolution any requested output needs, with
 *     the filters, window and band selection of the charts (the outputs of one run share
 *     one set of chart options). At the end of input it is reduced once to each coarser
 *     resolution asked for (profile_reduce: exactly what a profile of that resolution
 *     would have kept), and outputs borrow the one of their resolution
 *     (run_model_chart): `-o a.svg -o a.png -o a.html` costs one profile's feeding and
 *     one reduction, not three profiles;
 *   - a second profile only when the summary's feed differs from the charts' (it lists
 *     every band: --include/--exclude do not apply to it; a base's summary has no
 *     window), which no reduction can recover;
 *   - the exact peak census (the summary, the report, --max-peak);
 *   - every marker up to SUMMARY_MAX_MARKERS, in time order (the summary lists them all:
 *     a profile keeps one per bucket past a bound);
 *   - the number of heap censuses, and the time profile (owned by the input).
 *
 * What each output needs is said before reading (run_model_needs, filled by sink_needs
 * for every requested format); streaming outputs (.hp, CSV, JSON) need nothing here.
 */
#ifndef EV2HP_RUNMODEL_H
#define EV2HP_RUNMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "model/capstats.h"
#include "model/frame.h"
#include "model/gcstats.h"
#include "model/ticky.h"
#include "model/peak.h"
#include "model/profile.h"
#include "model/runend.h"

struct timeprof;   /* census/timeprof.h */
struct costcentres;   /* census/costcentres.h */

#define RUN_MODEL_RESOLUTIONS 4         /* distinct chart resolutions of one run */

/* What the requested outputs need of a run; zeroed, then each need added. */
struct run_model_needs {
    bool chart;                          /* a chart or the report draws the censuses */
    struct profile_options chart_feed;   /* their options; columns: the finest */
    unsigned columns[RUN_MODEL_RESOLUTIONS]; /* each resolution asked for, held to limits */
    size_t resolutions;
    unsigned live_only;                  /* bit i: columns[i] is asked only by the live
                                          * server, which draws from copies reduced at
                                          * once (run_model_copy): not reduced at the end */
    bool summary;                        /* band statistics of every band */
    struct profile_options summary_feed; /* its window (no filters) */
    /* --from/--to: the peak and --at's census are of the censuses in this window (the
     * profiles apply their own options' window, the same: profile_window). */
    bool windowed;
    struct time_window window;
    /* The report with --from/--to opens on the window with the whole run there: its own
     * profile of every census (report_feed: the report's options without the window). */
    bool report_whole;
    struct profile_options report_feed;
    bool peak;                           /* the exact peak census */
    bool has_at;                         /* --at: also the last census at or before */
    uint64_t at_ns;                      /* this time (run_model_census) */
    bool markers;                        /* every marker, listed */
    bool gc;                             /* the collector's statistics (gcstats.h) */
    bool ticky;                          /* ticky counters' totals (ticky.h) */
    bool end;                            /* what led up to the end (runend.h); with gc */
    bool caps;                           /* each capability's shares (capstats.h); with gc */
    /* --phases (census/phases.h): each phase's window, in order of their starts; the model
     * keeps band statistics of every band over each (run_model_phase), for
     * facts/phases.h. NULL: none. */
    const struct time_window *phases;
    size_t phase_count;
};

/* A chart or report of feed's options, at feed's columns. 0, or -1 when the run asks for
 * more than RUN_MODEL_RESOLUTIONS resolutions. */
int run_model_need_chart(struct run_model_needs *n, const struct profile_options *feed);
/* A summary of feed's window (feed's filters are ignored: a summary lists every band). */
void run_model_need_summary(struct run_model_needs *n, const struct profile_options *feed);

/* The collections of a phase (--phases with the collector's gates): those whose pause
 * began in its window (the leader's GC_START, as gcstats pairs them). */
struct phase_gc {
    uint64_t collections;
    uint64_t pause_ns;                     /* their pauses summed, each cut at the window's
                                            * end */
    unsigned generations;                  /* generations collected: 0 .. oldest */
    uint64_t worst_ns[GC_STATS_MAX_GENS];  /* the longest pause of each */
};

struct run_marker {
    uint64_t time_ns;
    uint64_t seq;                  /* arrival order: equal times stay in it */
    char *text;                    /* at most PROFILE_MAX_MARKER_TEXT bytes, NUL-terminated */
};

struct run_model {
    struct run_model_needs needs;  /* what it was asked for */
    const char *name;              /* for titles and messages */
    const struct run_info *info;   /* set by the owner once the input is open */
    const struct bands *bands;
    const struct timeprof *timeprof; /* or NULL: none read */
    const struct costcentres *ccs; /* an eventlog's cost centres (set by the owner); NULL
                                    * for a .hp */
    struct profile *profile;       /* the charts' feed at the finest columns; or NULL */
    struct profile *reduced[RUN_MODEL_RESOLUTIONS]; /* at needs.columns[i], by
                                    * run_model_finish; NULL for the finest (profile) */
    struct profile *every;         /* the summary's, when its feed is not the charts' */
    struct profile *report;        /* needs.report_whole: the report's, the whole run */
    bool track_peak;
    struct peak peak;              /* sorted by run_model_finish */
    struct peak at;                /* needs.has_at: the last census at or before it */
    bool keep_markers;
    struct run_marker *markers;    /* in time order after run_model_finish */
    size_t marker_count, marker_cap;
    uint64_t markers_not_listed;   /* past SUMMARY_MAX_MARKERS */
    uint64_t censuses;             /* heap censuses fed */
    struct gc_stats *gc;           /* needs.gc: the collector's statistics; else NULL */
    struct ticky *ticky;           /* needs.ticky: ticky counters' totals; else NULL */
    struct run_end *end;           /* needs.end: the run's last moments; else NULL */
    struct cap_stats *caps;        /* needs.caps: each capability's shares; else NULL */
    struct profile **phase;        /* needs.phases: a profile of every band per phase,
                                    * fed only the censuses in its window */
    struct phase_gc *phase_gc;     /* needs.phases with needs.gc: each phase's collections */
    /* The phases a census can fall in, as censuses come in time order: those begun
     * (before phase_next) and not yet ended, by index; phase_last_ns: the last census's
     * time (a census before it is looked up among every phase). */
    size_t *phase_active;
    size_t phase_active_count, phase_next;
    uint64_t phase_last_ns;
};

/* An empty model of what needs asks for: 0, or -1 with err set (a bad pattern, or out of
 * memory). m is to be freed with run_model_free in any case. */
int run_model_init(struct run_model *m, const struct run_model_needs *needs,
                   struct ev_error *err);
void run_model_free(struct run_model *m);

/* Feeding, in the input's order: 0, or -1 when out of memory (errno ENOMEM). */
int run_model_frame(struct run_model *m, const struct census_frame *frame);
int run_model_marker(struct run_model *m, uint64_t time_ns, const char *text, size_t len);
int run_model_total(struct run_model *m, enum heap_total kind, uint64_t time_ns,
                    uint64_t bytes);
/* The collector's events (census_events.gc); a model that does not keep them (needs.gc
 * unset) is not to be fed them. */
int run_model_gc_event(struct run_model *m, const struct gc_event *event);
/* The collector's figures: false (out untouched) when the model keeps none (needs.gc
 * unset) or the input had no collection. */
bool run_model_gc(const struct run_model *m, struct gc_summary *out);
/* Ticky counters' events (census_events.ticky), for a model with needs.ticky. */
int run_model_ticky_event(struct run_model *m, const struct ticky_event *event);
/* The ticky counters, or NULL when the model keeps none or the input had no ticky event. */
const struct ticky *run_model_ticky(const struct run_model *m);
/* What led up to the end of an eventlog (runend.h): false (out untouched) when the model
 * keeps none (needs.end unset) or the input is no eventlog (run_info.ending). */
bool run_model_end(const struct run_model *m, struct run_end_summary *out);
/* Each capability's shares of the run (capstats.h): how many have scheduler events (0
 * when the model keeps none); out (may be NULL) receives up to cap of them. */
size_t run_model_caps(const struct run_model *m, struct cap_share *out, size_t cap);
/* The strips per capability the run shows (cap_stats_strips), and the index-th one's
 * timeline at the run's end (false past them). */
size_t run_model_cap_strips(const struct run_model *m);
bool run_model_cap_timeline(const struct run_model *m, size_t index, struct cap_timeline *out);
/* The nonmoving collector's phases along the run at its end (cap_stats_nonmoving):
 * false without them. */
bool run_model_nonmoving_timeline(const struct run_model *m, struct nonmoving_timeline *out);
/* The end of input: the peak's bands and the markers put in order, the profile reduced
 * to each coarser resolution asked for (but those only the live server asks for). 0, or
 * -1 with err set when out of memory. */
int run_model_finish(struct run_model *m, struct ev_error *err);

/* The profile of phase i (below needs.phase_count; NULL when none was asked): every band
 * over the censuses of the phase's window, statistics only (no shapes, the least
 * resolution). Lent: valid until run_model_free. */
const struct profile *run_model_phase(const struct run_model *m, size_t i);
/* The collections of phase i; NULL when the model keeps none (needs.gc unset). */
const struct phase_gc *run_model_phase_gc(const struct run_model *m, size_t i);

/* One whole census of the run, for the outputs that show one moment of the heap (a
 * census as a flame graph or folded stacks, a pprof profile): with --at
 * (needs.has_at) the last census at or before it, else the exact peak (needs.peak).
 * Valid until run_model_free; entries largest first once the model is finished. */
struct run_census {
    bool found;                    /* false: no census (none at or before --at) */
    bool at;                       /* chosen by --at, not the peak */
    uint64_t time_ns, bytes;       /* its time and total */
    const struct census_entry *entries;
    size_t count;
    const struct bands *bands;     /* names the entries' bands */
};
void run_model_census(const struct run_model *m, struct run_census *out);

/* A copy of m as it stands, without touching m: what the live server draws while the
 * input goes on. columns: 0 for every resolution m keeps, or the one resolution a drawing
 * needs (the profile reduced to it at once: exact, and half the copy or less). summary:
 * the copy is to draw a summary; else it leaves out what only a summary reads (the bands'
 * shapes, the summary's own profile: a third of the copy with 100,000 bands), and
 * run_model_summary of it fails. Unfinished: the caller calls run_model_finish on it
 * (outside any lock it holds on m). info, bands, name and timeprof are left NULL for the
 * caller to set. 0, or -1 with err set; copy is to be freed with run_model_free in any
 * case. */
int run_model_copy(const struct run_model *m, struct run_model *copy, unsigned columns,
                   bool summary, struct ev_error *err);

/* The profile a chart or the report of opt draws (lent: valid until run_model_free):
 * the model's at opt's columns, which must have been asked for (run_model_need_chart)
 * with the same options. NULL with err set when it was not. */
const struct profile *run_model_chart(const struct run_model *m,
                                      const struct profile_options *opt, struct ev_error *err);
/* The report's profile of the whole run when a window is given (needs.report_whole), lent
 * like run_model_chart's; NULL without one (the report then draws run_model_chart's). */
const struct profile *run_model_report_whole(const struct run_model *m);
/* The summary's: every band in the summary's window, ordered by opt's sort. */
struct profile *run_model_summary(const struct run_model *m, const struct profile_options *opt,
                                  struct ev_error *err);

#endif
