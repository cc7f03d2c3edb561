/* trend.h: the heap across commits (--trend): a run per commit, in commit order.
 *
 * Each run is what one `--summary=json` says that a trend draws: the commit it was made
 * at (the summary's `commit` object, which --commit writes; else the summary file's name
 * stands for it), the peak, the heap's growth over the run, every band's peak, and the
 * gates it failed. Bands are told apart across runs by their label without the "(n)"
 * that numbers a stack within one run (bands_person_name): the numbers follow the order
 * stacks were first seen, which a change elsewhere in the program shifts, while the
 * label is the stack's own. The trend owns everything in it (copies of the texts).
 *
 * read/summaryread.h fills a run from a file; chart/trendchart.h draws the trend.
 */
#ifndef EV2HP_TREND_H
#define EV2HP_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The commit a run was made at, as --commit, --commit-time and --commit-subject give it
 * to the summary (its `commit` object: `sha`, `time`, `subject`); NULL where not given. */
struct trend_commit {
    const char *sha;       /* hexadecimal, 4 to 64 digits */
    const char *time;      /* ISO 8601, as `git log --format=%cI` prints it */
    const char *subject;   /* the first line of its message */
};

/* The characters of a sha the x axis shows, as `git log --oneline` does. */
#define TREND_SHORT_SHA 7

struct trend_band_peak {
    uint32_t band;         /* the trend's band (trend_band_label) */
    uint64_t peak;         /* bytes */
};

struct trend_run {
    char *file;            /* the summary's path, as named */
    char *sha, *time, *subject;   /* its commit; NULL where the summary has none */
    char *name;            /* what the axis calls it: the short sha, or the file's name
                            * without its directory and a ".json" */
    uint64_t peak;         /* bytes: the largest census total */
    double peak_time_s;
    double growth;         /* bytes per second: the least-squares slope of the census
                            * totals (the sum of every band's, exact: slopes add) */
    struct trend_band_peak *bands;
    size_t band_count, band_cap;
    size_t gates;          /* the gates the run was checked against */
    size_t gates_failed;
    char failed[256];      /* the failed gates' names, ", " between them */
};

struct trend {
    struct trend_run *runs;
    size_t count, cap;
    struct intern *labels; /* band labels without "(n)", across every run */
};

/* An empty trend; NULL when out of memory. */
struct trend *trend_new(void);
void trend_free(struct trend *t);

/* A new run at the end (zeroed, file copied): NULL when out of memory or past
 * TREND_MAX_RUNS. */
struct trend_run *trend_add_run(struct trend *t, const char *file);
/* Drops the last run (one that turned out unusable). */
void trend_drop_last(struct trend *t);

/* Sets run's texts (copies; sha or file decides its name): 0, or -1 out of memory. */
int trend_run_set_commit(struct trend_run *run, const char *sha, const char *time,
                         const char *subject);
/* Adds a band's peak to run (label as the summary writes it, "(n)" and all): 0, or -1
 * when out of memory or past the band limits. A label seen twice in one run (two stacks
 * numbered apart whose names are the same text) keeps the larger peak. */
int trend_run_add_band(struct trend *t, struct trend_run *run, const char *label, size_t len,
                       uint64_t peak);
/* Adds a gate's verdict. */
void trend_run_add_gate(struct trend_run *run, const char *name, bool failed);

/* The label of a trend band: *len bytes, not NUL-terminated. */
const char *trend_band_label(const struct trend *t, uint32_t band, size_t *len);
/* The peak of band in run: 0 where the run lacks it (its summary lists every band that
 * held bytes, so a band it does not list held none). */
uint64_t trend_run_band_peak(const struct trend_run *run, uint32_t band);

/* The number of distinct bands of every run. */
size_t trend_band_count(const struct trend *t);

/* The n bands drawn: those with the largest peak in any run, largest first (ties by
 * label, in byte order); their number, at most n. -1 when out of memory. */
long trend_top_bands(const struct trend *t, size_t n, uint32_t *out);

#endif
