/* progress.c: when to report progress and how it reads (see progress.h). */
#include "read/progress.h"

#include "base/format.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

bool progress_wanted(enum progress_mode mode, bool stderr_is_terminal, bool input_is_regular,
                     uint64_t input_size)
{
    switch (mode) {
    case PROGRESS_ON:
        return true;
    case PROGRESS_OFF:
        return false;
    case PROGRESS_AUTO:
        break;
    }
    return stderr_is_terminal && input_is_regular && input_size >= PROGRESS_AUTO_MIN_SIZE;
}

double progress_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_sleep_ms(unsigned ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

void progress_meter_start(struct progress_meter *m, double now)
{
    m->start = now;
    m->last = now;
}

bool progress_meter_due(struct progress_meter *m, double now)
{
    if (now - m->last < PROGRESS_INTERVAL)
        return false;
    m->last = now;
    return true;
}

int progress_format(const struct progress_report *r, char *buf, size_t size)
{
    /* MB are 10^6 bytes, as disks and the benchmark count them. */
    double mb = (double)r->bytes_read / 1e6;
    double rate = r->elapsed > 0 ? mb / r->elapsed : 0;
    const char *noun = r->censuses == 1 ? "census" : "censuses";
    if (r->input_size > 0) {
        double percent = 100.0 * (double)r->bytes_read / (double)r->input_size;
        if (percent > 100)
            percent = 100;
        return format_snprintf(buf, size,
                               "ev2hp: %3.0f%% of %.0f MB, %.0f MB/s, %" PRIu64 " %s", percent, (double)r->input_size / 1e6, rate, r->censuses, noun);
    }
    return format_snprintf(buf, size, "ev2hp: %.0f MB read, %.0f MB/s, %" PRIu64 " %s", mb,
                           rate, r->censuses, noun);
}
