/* hpread.h: a streaming reader of GHC's .hp heap profiles.
 *
 * The .hp grammar (as the runtime writes it and hp2ps reads it):
 *     JOB "text"  DATE "text"  SAMPLE_UNIT "text"  VALUE_UNIT "text"   (header lines;
 *                 a quote inside the text is doubled)
 *     BEGIN_SAMPLE t  /  label<TAB>bytes ...  /  END_SAMPLE t          (a census)
 *     MARK t                                                          (a marker)
 * The reader feeds the same census_events callbacks as the eventlog's census assembler,
 * with its own run_info and band table, so every sink works unchanged: .hp -> .hp keeps
 * every census, .hp -> .svg replaces hp2pretty.
 *
 * The runtime writes an empty census at 0.0 first and one at exit last; the .hp sink
 * writes those itself, so the reader drops an empty first census at 0 and takes a final
 * empty census as the end of the run (run_info.end_time_ns) instead of a census. A .hp
 * round trip is therefore byte for byte.
 *
 * Memory is bounded: one line (at most HP_MAX_LINE bytes) and one census (at most
 * CENSUS_MAX_ENTRIES entries) at a time, plus the band labels. Errors say the line:
 * err->what starts with "line N: ".
 */
#ifndef EV2HP_HPREAD_H
#define EV2HP_HPREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/limits.h"
#include "model/bands.h"
#include "model/frame.h"
#include "base/error.h"
#include "read/source.h"


enum hp_status {
    HP_OK = 0,        /* the whole input was read */
    HP_TRUNCATED,     /* the input ends inside a census: the censuses before it stand */
    HP_BAD,           /* a line that is not .hp (err says which line and why) */
    HP_IO_ERROR,
    HP_NO_MEMORY,
    HP_LIMIT,         /* a documented limit was reached */
    HP_STOPPED,       /* a callback returned non-zero */
};

struct hp_reader;

/* NULL when out of memory. */
struct hp_reader *hp_reader_new(struct ev_source src, const struct census_events *events);
void hp_reader_free(struct hp_reader *r);

/* Reads the whole input, reporting censuses and markers as they complete. */
enum hp_status hp_reader_run(struct hp_reader *r, struct ev_error *err);

/* Filled as the header is read; valid until hp_reader_free. */
const struct run_info *hp_reader_run_info(const struct hp_reader *r);
const struct bands *hp_reader_bands(const struct hp_reader *r);
uint64_t hp_reader_censuses(const struct hp_reader *r);

/* After a run: whether something was read that the reader changed (a census whose time
 * goes backwards is put at the time of the one before), with the warning in w. */
bool hp_reader_warning(const struct hp_reader *r, struct ev_error *w);

/* True when the first bytes of an input (4 are enough) start like a .hp header keyword
 * (JOB, DATE, SAMPLE_UNIT, VALUE_UNIT, BEGIN_SAMPLE, MARK) rather than an eventlog. */
bool hp_looks_like(const unsigned char *head, size_t len);

#endif
