/* base_input.c: --compare BASE, read whole before INPUT (see base_input.h). */
#include "census/base_input.h"

#include <string.h>

enum input_status base_input_read(struct base_input *b, const struct input_options *opt,
                                  const struct census_events *events, base_ready_fn ready,
                                  struct input_outcome *out, struct ev_error *err)
{
    memset(b, 0, sizeof *b);
    memset(out, 0, sizeof *out);
    b->name = input_name(opt->path);
    b->input = input_open(opt, events, err);
    if (!b->input)
        return INPUT_BAD;
    if (ready)
        ready(events->ctx, input_run_info(b->input), input_bands(b->input));
    enum input_status st = input_read(b->input, out, err);
    if (st == INPUT_STOPPED) {
        ev_error_set(err, "out of memory");
        return INPUT_BAD;
    }
    return st;
}

void base_input_free(struct base_input *b)
{
    input_free(b->input);
    memset(b, 0, sizeof *b);
}
