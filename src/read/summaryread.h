/* summaryread.h: a run's `--summary=json` read back, as one run of a trend (--trend).
 *
 * The file is parsed with jansson (a tree is right here: a summary is read whole, and
 * it is small next to the eventlog it came from), and what a trend draws is taken from
 * it: `commit` {`sha`, `time`, `subject`} when the summary has one (--commit), `peak`
 * {`bytes`, `time_s`}, `growth_bytes_per_s` (or, in a summary written before it was
 * there, the sum of every band's: slopes add), every band's `label` and `peak`, and each
 * gate's `gate` and `verdict`. A summary whose `peak` is null had no census (a time
 * profile): there is nothing of the heap to draw, and the run is skipped, not an error.
 */
#ifndef EV2HP_SUMMARYREAD_H
#define EV2HP_SUMMARYREAD_H

#include "base/error.h"
#include "model/trend.h"

enum summary_read_status {
    SUMMARY_READ_OK = 0,       /* a run added to the trend */
    SUMMARY_READ_SKIPPED = 1,  /* a summary without a census: err->what says so */
    SUMMARY_READ_FAILED = -1,  /* not a summary (or unreadable, or out of memory): err
                                * says what, at a byte offset where the JSON broke */
};

enum summary_read_status summary_read(struct trend *t, const char *path, struct ev_error *err);

#endif
