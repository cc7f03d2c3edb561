/* limits.h: every bound on what the input and the command line can make ev2hp hold.
 *
 * No input may make ev2hp grow without bound, and no option may ask for an image or a
 * table it cannot make; past a bound, input is refused with a message that names it
 * (doc/guide.md, "Limits"), never swallowed. The bounds live here, in one place, so that the
 * command line, the readers, the census assembler and the renderers agree on them and a
 * reader of the code sees them all at once. Each module's header includes this one.
 */
#ifndef EV2HP_LIMITS_H
#define EV2HP_LIMITS_H

#include <stddef.h>

#include "base/error.h"

/* --- the input: tables and censuses (doc/guide.md, "Limits") --- */
#define BANDS_MAX 1000000u                  /* distinct bands */
#define BANDS_MAX_TEXT ((size_t)64 << 20)   /* bytes of label text (and of stack keys) */
#define CENSUS_MAX_ENTRIES (4u << 20)       /* entries in one census */
#define CENSUS_MAX_HELD_ENTRIES (16u << 20) /* entries of biography censuses held to the end */
#define CENSUS_MAX_COST_CENTRES BANDS_MAX   /* cost centres, and info tables */
#define HP_MAX_LINE (1u << 20)              /* bytes of one .hp line */
#define TIMEPROF_MAX_STACKS (1u << 20)      /* distinct stacks of a time profile */
#define TIMEPROF_MAX_CAPS 256u              /* capabilities counted apart (more: together) */
#define GC_STATS_MAX_GENS 16u               /* generations counted apart (older: the last) */
#define GC_STATS_MAX_CAPS 4096u             /* capabilities followed apart (more: together) */
#define TICKY_MAX_COUNTERS (1u << 20)       /* ticky counters kept (more: counted as dropped) */
#define TICKY_SERIES_COLUMNS 128u           /* points of a counter over time (samples merge) */
#define TICKY_SERIES_MIN_COLUMNS 16u        /* ... fewer while the cells below are full */
#define TICKY_SERIES_CELLS (1u << 20)       /* points of every counter together */
/* a pprof profile's distinct strings, and their bytes: what the bands, cost centres and
 * info tables above already bound, a few times over (names, files, labels) */
#define PPROF_MAX_STRINGS (4u * BANDS_MAX)
#define PPROF_MAX_STRING_BYTES (4 * BANDS_MAX_TEXT)

/* --- the command line --- */
/* -L: the smallest that leaves room for "..." (the runtime misbehaves below it) */
#define CCS_LENGTH_MIN 4u
#define CCS_LENGTH_MAX 65535u
#define CLI_MAX_OUTPUTS 16                  /* -o and --summary outputs */
#define CLI_WAIT_DEFAULT 30.0               /* --wait: seconds for a program to listen */
#define PROFILE_MAX_FILTERS 16              /* --include, and --exclude, each */
#define CHART_MIN_SIZE 200                  /* --width, --height (layout units) */
#define CHART_MAX_SIZE 16384
#define PNG_SCALE_MIN 1.0                   /* --scale */
#define PNG_SCALE_MAX 8.0
#define TREND_MAX_RUNS 10000                /* --trend: summaries drawn */
#define TREND_MAX_FILE_BYTES ((size_t)256 << 20)   /* --trend: one summary's bytes */

/* --- what a chart keeps and draws --- */
#define PROFILE_MIN_COLUMNS 16              /* time columns of a chart's profile */
#define PROFILE_MAX_COLUMNS 16384
#define PROFILE_MAX_MARKER_TEXT 512         /* bytes of a marker's text kept */
#define PROFILE_MARKERS_WHOLE 4096          /* markers kept each with its text; more share buckets */
/* A profile's kept censuses stay in memory up to this many bytes of entries; past it they
 * go to disk (model/censusstore.h). */
#define PROFILE_KEPT_MEMORY ((uint64_t)32 << 20)
/* The same under --serve: every drawing copies the kept censuses held in memory (those
 * on disk are shared), so a live run holds fewer in memory. */
#define PROFILE_KEPT_MEMORY_SERVED ((uint64_t)8 << 20)
/* Largest image drawn: cairo's own limit per side, and a bound on memory (4 bytes a
 * pixel, so 512 MiB at most) whatever --width, --height and --scale ask for. */
#define PNG_MAX_SIDE 32767
#define PNG_MAX_PIXELS (128u * 1024u * 1024u)
#define PNG_TEXT_MAX 2048                   /* bytes of a PNG text chunk (cut at a character) */

/* --- what a run reports --- */
#define INPUT_MAX_WARNINGS 16               /* warnings kept of one input: up to 8 damaged
                                              * regions, the run line, anomalies */
#define CONVERT_MAX_WARNINGS 16             /* ... of one run */
#define SUMMARY_MAX_MARKERS 100000          /* markers --summary lists; the rest are counted */

/* The pixel size of a width x height layout drawn as a PNG at scale: each side rounded to
 * the nearest pixel, at least 1. 0, or -1 with err set when the scale is out of range or
 * the image would be too big. Here rather than in the renderer so that the command line
 * can say so before reading any input, without linking cairo. */
int png_pixel_size(double width, double height, double scale, int *px_width, int *px_height,
                   struct ev_error *err);

#endif
