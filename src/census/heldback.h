/* heldback.h: whether a followed run's runtime is holding its censuses back.
 *
 * The GHC runtime buffers its events, one buffer per capability and one global buffer
 * (census events go into the latter), and writes a buffer out only when it fills, when
 * the program ends, or every --eventlog-flush-interval (GHC 9.2 and later; off by
 * default before 9.16). Followed live (--follow, a FIFO, a socket), the capabilities'
 * buffers of garbage collections come in while the censuses stay behind: a real GHC
 * 9.10.3 -hi run had its first census event after 80 % of its eventlog's bytes, its
 * HEAP_PROF_BEGIN with it, and the events before it reached 1.15 s of its 1.15 s run. A
 * live page then shows "0 censuses" for the whole stream. The rules here tell that case
 * from a run that simply takes its censuses rarely, so that the user is told once why
 * nothing is drawn, or why everything came at once, and what to run instead.
 *
 * "Ahead": the events read reach further into the run than the last census by more than
 * HELDBACK_RUN_NS, and by more than three census intervals when the interval is known
 * (HEAP_PROF_BEGIN seen: a run with +RTS -i10 is not held back for going 10 s without
 * one). Two rules, on the reader's clock, each checked at least once a second while the
 * input waits for bytes, and the second once more at its end:
 *   - waiting: ahead, and no new census for HELDBACK_WAIT_SECONDS;
 *   - a late burst: new censuses came after the events had been ahead of the last one
 *     for HELDBACK_BURST_SECONDS or more (a run whose censuses all came at its end, a
 *     few seconds after its other events; a file read at full speed never waits that
 *     long).
 * Said once a run, by whichever rule comes first; never for a runtime that flushes its
 * buffers on a timer (heldback_runtime_flushes): its censuses cannot wait in a buffer
 * longer than the interval, and a program idle on the CPU takes none (the census timer
 * counts CPU time), which is no matter of buffers.
 */
#ifndef EV2HP_HELDBACK_H
#define EV2HP_HELDBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HELDBACK_WAIT_SECONDS 5.0
#define HELDBACK_BURST_SECONDS 2.0
#define HELDBACK_RUN_NS 500000000ull   /* 0.5 s of the run: five default census intervals */
#define HELDBACK_TEXT 512              /* heldback_explain's sentence fits */

enum heldback_verdict {
    HELDBACK_NO,
    HELDBACK_WAITING,           /* no census comes (the first rule) */
    HELDBACK_BURST,             /* censuses came late, at once (the second) */
};

struct heldback {
    bool started;
    double since;               /* the reader's clock at the last new census (or start) */
    double ahead_since;         /* when the events got ahead of it; < 0: not ahead */
    uint64_t censuses;          /* the census count then */
    uint64_t last_census_ns;    /* the last census's time in the run then */
    bool said;
    /* what the verdict is about (heldback_explain) */
    enum heldback_verdict verdict;
    double held_seconds;        /* a burst: how long the censuses were held back */
    uint64_t burst;             /* a burst: how many came */
};

/* What the reader knows now. */
struct heldback_facts {
    double now;                 /* seconds, monotonic */
    uint64_t censuses;          /* censuses read so far */
    uint64_t last_census_ns;    /* the last one's time in the run (0: none yet) */
    uint64_t reached_ns;        /* the latest time of any event read */
    uint64_t period_ns;         /* the census interval, 0 when not known yet */
    bool ended;                 /* the input has ended: nothing is waited for any more,
                                 * only a burst that came at its end can be told */
    bool flushing;              /* heldback_runtime_flushes: nothing is said */
};

/* Whether the run's runtime writes its buffers on a timer: given
 * --eventlog-flush-interval among its +RTS options (program: the run's arguments, as the
 * JOB line has them), or GHC 9.16 and later, where it is on by default (rts_version:
 * RTS_IDENTIFIER, "GHC-9.16.1 rts_thr"). Either may be NULL (not seen yet). Flags given
 * through GHCRTS or -with-rtsopts are not in the eventlog and cannot be seen. */
bool heldback_runtime_flushes(const char *program, const char *rts_version);

/* HELDBACK_NO, or once a run the rule that found the censuses held back (see the top). */
enum heldback_verdict heldback_check(struct heldback *h, const struct heldback_facts *f);

/* The sentence that says so (no final period), for standard error and the live page:
 * what happened, why, and what to run instead; after a verdict of heldback_check. */
void heldback_explain(const struct heldback *h, const struct heldback_facts *f, char *out,
                      size_t size);

#endif
