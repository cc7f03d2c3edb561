/* testkit.h: what the cmocka programs share besides the eventlog writer: one temporary
 * directory per program (cmocka group setup and teardown; mkdtemp, so programs run in
 * parallel under `make -j check`), names in it, a built eventlog saved into it, a file
 * read whole, what a writer wrote to a stream in memory, and a conversion run as ev2hp
 * runs it (and its output read back).
 */
#ifndef EV2HP_TESTKIT_H
#define EV2HP_TESTKIT_H

#include <stddef.h>
#include <stdio.h>

#include "convert.h"
#include "evwriter.h"

/* Group setup and teardown: make the directory under $TMPDIR (default /tmp); remove it
 * and what the tests left in it. */
int testkit_setup_dir(void **state);
int testkit_teardown_dir(void **state);

/* The directory made by testkit_setup_dir. */
const char *testkit_dir(void);

/* testkit_dir()/name, in one of four static buffers used in turn: enough for the input
 * and outputs one call of the code under test names. */
const char *testkit_path(const char *name);

/* The whole file, NUL-terminated (its length in *len when len is not NULL), in memory
 * the caller frees; NULL when it cannot be opened. */
char *testkit_slurp(const char *path, size_t *len);

/* The whole file, NUL-terminated, kept until the next call; NULL when it cannot be
 * opened. */
const char *testkit_read(const char *path);

/* What code under test writes to a stream, kept in memory (open_memstream):
 * testkit_memout_open returns the stream (a failure fails the test); testkit_memout_text
 * closes it (a failed close fails the test) and returns the text, NUL-terminated, its
 * length in m->len, in memory the caller frees. */
struct testkit_memout {
    FILE *f;
    char *text;
    size_t len;
};
FILE *testkit_memout_open(struct testkit_memout *m);
char *testkit_memout_text(struct testkit_memout *m);

/* Writes len bytes of data to path; a failure fails the test. */
void testkit_write(const char *path, const void *data, size_t len);

/* Writes the eventlog built in w to path; a failure fails the test. */
void testkit_save(const struct evw *w, const char *path);

/* Ends the eventlog built in w as a run that exits ends it (the end-of-data marker),
 * writes it to path as testkit_save does, and frees w. */
void testkit_finish(struct evw *w, const char *path);

/* Converts input to output in format, as ev2hp does, with the options in opt besides the
 * input and the one output (which are set here); the result in *res when res is not
 * NULL. Returns the exit status. */
int testkit_convert(const char *input, const char *output, enum output_format format,
                    struct convert_options opt, struct convert_result *res);

/* A conversion run and read back: input converted to testkit_path(output) as
 * testkit_convert does (the result in *res when res is not NULL), which must succeed (a
 * failure fails the test, with the error), and the output's text, kept as testkit_read
 * keeps it. */
const char *testkit_converted(const char *input, const char *output, enum output_format format,
                              struct convert_options opt, struct convert_result *res);

#endif
