/* census.h: the census assembler, from heap events to complete census frames.
 *
 * The assembler is fed every event the reader returns and reports, as they happen,
 * complete censuses, markers and heap totals through the callbacks of census_events. It
 * follows the census rules of doc/DESIGN.md:
 *   - a census opens at HEAP_PROF_SAMPLE_BEGIN (its time is the event's timestamp) or at
 *     HEAP_BIO_PROF_SAMPLE_BEGIN (its time is the field inside: those are all written at
 *     exit), and is complete at HEAP_PROF_SAMPLE_END;
 *   - in eventlogs whose header has no SAMPLE_END type (GHC before 8.10) a census ends at
 *     the next sample begin or at the end-of-data marker;
 *   - biography censuses arrive out of order and are held until the end, then sorted;
 *   - the Word64 in BEGIN/END is the profiling era, never used as a census number;
 *   - a census still open when the input stops is incomplete and is not reported.
 * Anomalies that do not stop the assembly are counted in census_stats; main words them.
 */
#ifndef EV2HP_CENSUS_H
#define EV2HP_CENSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "model/bands.h"
#include "model/breakdown.h"
#include "model/frame.h"
#include "census/timeprof.h"
#include "base/error.h"
#include "read/evread.h"


struct census_options {
    unsigned ccs_length;        /* -L override; 0 = what the program ran with, or 25 */
    /* Assemble the time profile (PROF_BEGIN, PROF_SAMPLE_COST_CENTRE) with these
     * options; NULL: its events are not read. */
    const struct timeprof_options *time_profile;
    /* The scheduler's events (RUN_THREAD, STOP_THREAD) go to events.gc (GC_EVENT_RUN,
     * GC_EVENT_STOP: each capability's shares); false: they are not read. */
    bool sched;
    /* The reader recovers from damage (ev_reader_recover): signs of damage that every
     * event parsing cleanly does not rule out are returned as CENSUS_DUPLICATE and
     * CENSUS_SUSPECT instead of being ignored. */
    bool recover;
    /* -hi: the program's symbol table (--binary), which names the info tables no IPE
     * event names (census/symnames.h); NULL: none. Kept by the caller. */
    const struct elf_symbols *symbols;
};

struct census_stats {
    uint64_t censuses;          /* censuses reported */
    uint64_t last_time_ns;      /* time of the last census reported */
    uint64_t unknown_cost_centres; /* stack entries naming an undefined cost centre */
    uint64_t stray_entries;     /* sample entries outside any census (ignored) */
    uint64_t stray_ends;        /* SAMPLE_END without a census open (ignored) */
    uint64_t unended;           /* censuses dropped because another began inside them */
    uint64_t backwards;         /* censuses whose time went backwards (clamped) */
    uint64_t extra_prof_begins; /* HEAP_PROF_BEGIN after the first (ignored) */
    uint64_t lost_to_damage;    /* censuses dropped because they overlap damage */
    uint64_t lost_to_gaps;      /* censuses cut by a dropped connection (census_restarted) */
    uint64_t restarts;          /* census_restarted calls: connections made again */
    uint64_t copies_dropped;    /* recovery: censuses that began before the one reported
                                 * before them (copies of earlier bytes), dropped */
    uint64_t past_the_end;      /* biography censuses whose time (a field of the event,
                                 * not its timestamp) is past the end of the run, dropped */
    uint64_t time_ticks;        /* time-profile ticks seen, read into a profile or not */
    uint64_t tables_from_symbols; /* -hi: info tables named from the symbol table */
    bool open_at_end;           /* a census was open when the input stopped (dropped) */
    uint64_t open_time_ns;
};

enum census_status {
    CENSUS_OK = 0,
    CENSUS_BAD_EVENT,           /* an event too short for its fields (err says which) */
    CENSUS_LIMIT,               /* a documented limit was reached (err says which) */
    CENSUS_NO_MEMORY,
    CENSUS_STOPPED,             /* a callback returned non-zero */
    /* With census_options.recover (err says why; census_damaged is the caller's next
     * step): */
    CENSUS_DUPLICATE,           /* a second HEAP_PROF_BEGIN or a cost centre defined again:
                                 * the block is a copy of an earlier one */
    CENSUS_SUSPECT,             /* (with or without recover) a time-profile tick inside a
                                 * census of the non-threaded runtime: it may have
                                 * overwritten one of its entries */
};

struct census;
struct ipe_names;   /* ipe.h */
struct elf_symbols; /* read/elfsyms.h, as census/symnames.h reads them */

struct census *census_new(const struct census_options *opt, const struct census_events *events);
void census_free(struct census *c);

/* Checks the header's declared sizes of the events censuses depend on. CENSUS_BAD_EVENT
 * with err set when one is declared too small for its fields. */
enum census_status census_check_header(struct census *c, const struct ev_reader *r,
                                       struct ev_error *err);

enum census_status census_feed(struct census *c, const struct ev_event *ev,
                               struct ev_error *err);

/* Whether census_feed does anything with events of this tag besides noting their time.
 * The others need not be fed (convert has the reader skip them) provided the latest
 * timestamp of the input is given to census_note_time before census_finish. */
bool census_wants(uint16_t tag);
/* census_wants, and the scheduler's events: for a census given sched (and events.gc). */
bool census_wants_sched(uint16_t tag);
/* census_wants, and the time profile's events: for an assembler given time_profile. */
bool census_wants_time(uint16_t tag);
/* Both: every event of a role (census_wants_time and census_wants_sched). */
bool census_wants_time_sched(uint16_t tag);
/* The one of the four above for an assembler with or without time_profile and with or
 * without the scheduler's events (census_options.sched, with events.gc). */
bool (*census_wants_for(bool time_profile, bool sched))(uint16_t tag);
/* Only the markers (census/markerwindow.h's first read: no census is assembled). */
bool census_wants_markers(uint16_t tag);

/* The time profile, or NULL when census_options.time_profile was NULL. */
const struct timeprof *census_timeprof(const struct census *c);

/* The input was damaged at this point (a region skipped, or the event just fed is damage):
 * the census open, if any, is dropped and counted in lost_to_damage, and census events
 * until the next census begins are ignored (they belong to a census begun in the damaged
 * region, which is counted when its end is seen). */
void census_damaged(struct census *c);

/* The stream starts again from its header (a live program's connection dropped and was
 * made again): the census open, if any, is dropped and counted in lost_to_gaps, census
 * events of a census begun in the gap are ignored, and the initialisation events the
 * program sends every new client (HEAP_PROF_BEGIN, cost centres, IPE and run
 * information) are taken as the repetition they are, until the next census begins. */
void census_restarted(struct census *c);

/* Notes that the run went on at least until time_ns (the end of the run, end_time_ns). */
void census_note_time(struct census *c, uint64_t time_ns);

/* Ends the input: complete says whether the end-of-data marker was seen. Reports held
 * biography censuses in time order. */
enum census_status census_finish(struct census *c, bool complete, struct ev_error *err);

/* Whether the run is one whose eventlog the runtime itself damages: a heap and a time
 * profile at once on the non-threaded runtime, whose timer thread writes its ticks into
 * the census's buffer without a lock (GHC 9.6 to 9.10 at least, GHC issue 25165; see
 * doc/recovery-runs.md). Known once the run's runtime, a heap profile and a tick are seen. */
bool census_racing_runtime(const struct census *c);

const struct run_info *census_run_info(const struct census *c);
const struct census_stats *census_stats(const struct census *c);
const struct bands *census_bands(const struct census *c);
/* The cost centres declared so far (the names of -hc stack bands' frames). */
const struct costcentres *census_costcentres(const struct census *c);
/* The info tables the IPE events named so far (the parts of -hi bands' frames). */
const struct ipe_names *census_ipe_names(const struct census *c);
/* -hi: how many bands neither an IPE event nor the symbol table names (they stay
 * addresses), and the label of the first of them (*first, *first_len). */
uint32_t census_unnamed_tables(const struct census *c, const char **first, size_t *first_len);

#endif
