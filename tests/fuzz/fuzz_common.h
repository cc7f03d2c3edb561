/* fuzz_common.h: what every fuzz target in tests/fuzz shares.
 *
 * A fuzz target is one file, tests/fuzz/fuzz_NAME.c, that defines LLVMFuzzerTestOneInput.
 * It is linked twice (see the robustness section of Makefile.am): with libFuzzer as
 * fuzz_NAME (--enable-fuzzer), and with replay.c as replay_NAME, which `make check` runs
 * over tests/fuzz/corpus/NAME and tests/fuzz/crashes/NAME without libFuzzer.
 *
 * Readers must not care how their bytes arrive, so targets feed the input through a
 * source that hands it out in slices whose sizes are drawn from a generator seeded by
 * the input itself: the same input always slices the same way (a crash replays), and
 * events straddle every kind of buffer edge.
 */
#ifndef EV2HP_FUZZ_COMMON_H
#define EV2HP_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/frame.h"
#include "read/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_slices {
    const uint8_t *data;
    size_t size;
    size_t pos;
    uint64_t rng;         /* 0 = no slicing: every read gets all it asks for */
};

/* A sliced source over data; sliced = 0 hands everything out at once (the reference run
 * a target compares the sliced run with). */
void fuzz_slices_init(struct fuzz_slices *s, const uint8_t *data, size_t size, int sliced);
struct ev_source fuzz_slices_source(struct fuzz_slices *s);

/* What one run of a reader produced: none of it may depend on how the bytes arrived. */
struct fuzz_output {
    char *hp;             /* the .hp written (open_memstream) */
    size_t hp_len;
    uint64_t censuses;
    char what[256];       /* the error or damage message */
    int reader_status;    /* the reader's last status */
    int census_status;    /* the census assembler's last status (0 without one) */
};

/* Ends a run's .hp (written to out->hp by open_memstream): its sink destroyed (when
 * there is one), the stream closed, which fills out->hp. */
struct sink;
void fuzz_hp_close(struct sink *sink, FILE *hp);

/* The events of a reader or assembler passed on to the sink *sink points to (set before
 * the first event arrives). */
struct census_events fuzz_events_to(struct sink **sink);

/* Checks that a sliced and a whole run produced the same, then frees both. */
void fuzz_same_output(struct fuzz_output *sliced, struct fuzz_output *whole);

/* A reader target's whole test: run(data, size, sliced, out) once sliced and once whole,
 * and how the bytes arrived must change nothing (fuzz_same_output). */
typedef void fuzz_run_fn(const uint8_t *data, size_t size, int sliced, struct fuzz_output *out);
void fuzz_sliced_and_whole(const uint8_t *data, size_t size, fuzz_run_fn *run);

/* Aborts with a message when cond is false: an invariant the target checks (libFuzzer
 * and the replay driver both report an abort as a crash). */
#define FUZZ_CHECK(cond) ((cond) ? (void)0 : fuzz_fail(#cond, __FILE__, __LINE__))
_Noreturn void fuzz_fail(const char *what, const char *file, int line);

#endif
