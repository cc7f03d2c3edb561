/* pprof.h: a profile in pprof's format (profile.proto), built up and written gzipped.
 *
 * What the pprof sink (sink_pprof.c) and the live server's /debug/pprof paths build their
 * profiles with, knowing nothing of the format's encoding: value types, frames and
 * samples go in; pprof_write packs them with protobuf-c (profile.pb-c.h, made from
 * profile.proto) and compresses them with zlib. Strings are de-duplicated (one entry of
 * the string table each, entry 0 the empty string, as the format asks) and made valid
 * UTF-8 (U+FFFD for a byte that does not start a character). A frame is a function with
 * its file and first line, and the one location that runs it; equal frames are one.
 *
 * Every call returns 0, or -1 when out of memory or past PPROF_MAX_STRINGS (errno ENOMEM
 * or E2BIG); the profile stays valid, and pprof_free frees it in any case.
 */
#ifndef EV2HP_PPROF_H
#define EV2HP_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pprof;

/* An empty profile of the program named program[0..len) (the one mapping's file). */
struct pprof *pprof_new(const char *program, size_t len);
void pprof_free(struct pprof *p);

/* Adds a sample type: each sample's values are one per sample type, in the order added. */
int pprof_sample_type(struct pprof *p, const char *type, const char *unit);
/* The sampling period: what one event is (type, unit) and its size (0: none). */
int pprof_period(struct pprof *p, const char *type, const char *unit, int64_t period);
/* When the profile was taken, in nanoseconds since the Unix epoch (0: not known), and
 * over how long. */
void pprof_times(struct pprof *p, int64_t time_nanos, int64_t duration_nanos);
/* A comment shown with the profile (go tool pprof prints them with -comments). */
int pprof_comment(struct pprof *p, const char *text);

/* A frame: a function's name, its source file (len 0: none) and first line (0: none). */
struct pprof_frame {
    const char *name;
    size_t name_len;
    const char *file;
    size_t file_len;
    int64_t line;
};
/* The location of frame f, the same id for an equal frame: *id. */
int pprof_location(struct pprof *p, const struct pprof_frame *f, uint64_t *id);
/* A sample: its stack (location ids, leaf first; n of them), its values (one per sample
 * type) and a label key = text (key NULL: no label). */
int pprof_sample(struct pprof *p, const uint64_t *stack, size_t n, const int64_t *values,
                 const char *key, const char *text, size_t text_len);

/* The profile serialized onto out (not flushed), gzipped unless out compresses already
 * (gzip false: an output named x.pb.gz, which outfile.c gzips). 0, or -1 (errno). */
int pprof_write(struct pprof *p, FILE *out, bool gzip);

#endif
