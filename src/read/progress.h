/* progress.h: the progress line of long conversions.
 *
 * Converting a gigabyte eventlog takes seconds; a person at a terminal should see that
 * something happens. convert_run reports how far it got through a callback, at most ten
 * times a second (a progress_meter decides when, checked once per input read, never per
 * event), and once more when the input is done. Library code never prints: main decides
 * whether progress is wanted (progress_wanted), formats the line (progress_format) and
 * prints it, in place on a terminal, one line per report elsewhere.
 */
#ifndef EV2HP_PROGRESS_H
#define EV2HP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reports come at most this often (seconds), plus a last one when the input is done. */
#define PROGRESS_INTERVAL 0.1
/* Without --progress, only inputs this large show progress (smaller ones are done in a
 * fraction of a second). */
#define PROGRESS_AUTO_MIN_SIZE ((uint64_t)64 << 20)

struct progress_report {
    uint64_t bytes_read;
    uint64_t input_size;        /* 0 = unknown: a pipe or standard input */
    uint64_t censuses;          /* complete censuses so far */
    double elapsed;             /* seconds since the input was opened */
    bool done;                  /* the input has been read (the last report) */
};

typedef void (*progress_fn)(void *ctx, const struct progress_report *report);

enum progress_mode {
    PROGRESS_AUTO = 0,          /* on a terminal, for a large regular file */
    PROGRESS_ON,                /* --progress: always */
    PROGRESS_OFF,               /* --no-progress: never */
};

/* AUTO shows progress only when standard error is a terminal and the input is a regular
 * file of at least PROGRESS_AUTO_MIN_SIZE: never in pipes, logs or CI unless asked. */
bool progress_wanted(enum progress_mode mode, bool stderr_is_terminal, bool input_is_regular,
                     uint64_t input_size);

/* Decides when a report is due. */
struct progress_meter {
    double start;
    double last;
};

/* Seconds on a monotonic clock. */
double progress_clock(void);
/* Sleeps ms milliseconds (less when a signal arrives: callers poll their stop flag). */
void progress_sleep_ms(unsigned ms);
void progress_meter_start(struct progress_meter *m, double now);
/* True when PROGRESS_INTERVAL has passed since the start or the last true answer. */
bool progress_meter_due(struct progress_meter *m, double now);

/* "ev2hp: 42% of 1074 MB, 612 MB/s, 3812 censuses" (or "ev2hp: 451 MB read, ..." when the
 * size is unknown) into buf; returns its length, as snprintf does. */
int progress_format(const struct progress_report *r, char *buf, size_t size);

#endif
