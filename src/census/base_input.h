/* base_input.h: --compare BASE, read whole before INPUT.
 *
 * BASE (an eventlog or a .hp) goes through the same input path as INPUT (input.h), to
 * the end, before INPUT is opened; its censuses, markers and heap totals go to the
 * caller's callbacks (convert.c feeds a run model of the base, model/runmodel.h), which
 * keep no more than bounded memory of it. The input stays open afterwards: the base's run
 * information and labels live in it, and the outputs name the base's bands at finish.
 */
#ifndef EV2HP_BASE_INPUT_H
#define EV2HP_BASE_INPUT_H

#include "census/input.h"

struct base_input {
    const char *name;              /* for titles and messages */
    struct input *input;           /* open until base_input_free */
};

/* Told the base's run information and labels once BASE is open, before the first event
 * reaches the callbacks (ctx: the callbacks' own). */
typedef void (*base_ready_fn)(void *ctx, const struct run_info *info, const struct bands *bands);

/* Reads all of BASE (opt->path; NULL or "-" is standard input) through events. INPUT_OK
 * (damaged or not: see out), or INPUT_BAD with err set; a callback that stops the read is
 * taken for running out of memory. b is to be freed with base_input_free in any case. */
enum input_status base_input_read(struct base_input *b, const struct input_options *opt,
                                  const struct census_events *events, base_ready_fn ready,
                                  struct input_outcome *out, struct ev_error *err);
void base_input_free(struct base_input *b);

#endif
