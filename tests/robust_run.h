/* robust_run.h: running the whole pipeline (convert_run) on bytes, for the robustness
 * tests (test_hostile, test_damage).
 *
 * convert_run reads a path and writes paths, as ev2hp does; these helpers put the bytes
 * in a temporary file, convert them to a temporary .hp, and hand back the result and the
 * .hp text, so a test checks exactly what a user would get.
 */
#ifndef EV2HP_ROBUST_RUN_H
#define EV2HP_ROBUST_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "convert.h"

struct robust_run {
    struct convert_result result;
    char *hp;             /* the output written (the .hp, or what robust_convert_to asked),
                             NUL-terminated; NULL when none was committed */
    size_t hp_len;
};

/* --stop-at-damage for the conversions that follow (false: recover, the default). */
extern bool robust_stop_at_damage;

/* Converts data[0..size) to .hp. Aborts the test on a setup failure. */
void robust_convert(const void *data, size_t size, bool strict, struct robust_run *run);
/* The same into another format (FORMAT_CSV, FORMAT_JSON: a text one); run->hp holds it. */
void robust_convert_to(const void *data, size_t size, bool strict, enum output_format format,
                       struct robust_run *run);
void robust_run_free(struct robust_run *run);

/* Whether some warning's text contains needle. */
bool robust_warned(const struct robust_run *run, const char *needle);

/* The number of censuses in the .hp: BEGIN_SAMPLE lines minus the runtime's two empty
 * samples (at 0.0 and at the end). */
int robust_censuses(const struct robust_run *run);

/* Reads a whole file (tests/data/...) relative to $SRCDIR. Aborts when missing. */
unsigned char *robust_read_data(const char *relpath, size_t *size);

#endif
