/* evwriter.h: builds eventlogs in memory, byte for byte, for tests and benchmarks.
 *
 * A test declares the event types it wants in the header (with the sizes a given GHC
 * version would declare, or odd ones), then appends events. Fixed-size events are padded
 * with zero bytes up to their declared size, so "extra trailing fields" is just a larger
 * declaration; variable-size events get their Word16 length. evw_raw appends anything,
 * for the hostile cases.
 */
#ifndef EV2HP_EVWRITER_H
#define EV2HP_EVWRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evw {
    unsigned char *data;
    size_t len;
    size_t cap;
    int32_t size_of[65536];   /* declared sizes; INT32_MIN when not declared */
};

/* A payload under construction. */
struct evw_payload {
    unsigned char bytes[65536];
    size_t len;
};

struct evw *evw_new(void);
void evw_free(struct evw *w);

void evw_raw(struct evw *w, const void *bytes, size_t len);
void evw_u8(struct evw *w, uint8_t v);
void evw_u16(struct evw *w, uint16_t v);
void evw_u32(struct evw *w, uint32_t v);
void evw_u64(struct evw *w, uint64_t v);

void evw_header_begin(struct evw *w);
void evw_declare(struct evw *w, uint16_t tag, int16_t size, const char *description);
void evw_header_end(struct evw *w);   /* "hete", "hdre", "datb" */
void evw_data_end(struct evw *w);     /* the 0xffff end-of-data marker */

/* The header GHC 9.0 writes for the events ev2hp uses (with_sample_end false gives the
 * GHC 8.2-8.8 layout, which has no HEAP_PROF_SAMPLE_END). */
void evw_ghc9_header(struct evw *w, bool with_sample_end);
/* The header of a -hi run: the program's arguments, the heap profile's events (each
 * census with its end) and IPE (169), sized as GHC declares them. */
void evw_hi_header(struct evw *w);
/* The declarations of evw_hi_header alone, for a header with more (between
 * evw_header_begin and evw_header_end). */
void evw_hi_declarations(struct evw *w);

void evw_event(struct evw *w, uint16_t tag, uint64_t time, const struct evw_payload *p);
/* A variable-size event whose length field says declared, whatever p holds: GHC 9.6 and
 * later declare each IPE event one byte longer than they write it; more is damage. */
void evw_event_declared(struct evw *w, uint16_t tag, uint64_t time,
                        const struct evw_payload *p, uint16_t declared);

void evw_p_reset(struct evw_payload *p);
void evw_p_u8(struct evw_payload *p, uint8_t v);
void evw_p_u16(struct evw_payload *p, uint16_t v);
void evw_p_u32(struct evw_payload *p, uint32_t v);
void evw_p_u64(struct evw_payload *p, uint64_t v);
void evw_p_str(struct evw_payload *p, const char *s);          /* with its NUL */
void evw_p_bytes(struct evw_payload *p, const void *b, size_t n);

/* The heap events, laid out as GHC 9.0 writes them. */
void evw_prof_begin(struct evw *w, uint64_t time, uint32_t breakdown, uint64_t period);
void evw_cost_centre(struct evw *w, uint64_t time, uint32_t cc, const char *label,
                     const char *module);
/* A cost centre with its source location (evw_cost_centre says "<built-in>"). */
void evw_cost_centre_at(struct evw *w, uint64_t time, uint32_t cc, const char *label,
                        const char *module, const char *srcloc);
/* Time profile: PROF_BEGIN and one PROF_SAMPLE_COST_CENTRE (stack innermost first). */
void evw_time_begin(struct evw *w, uint64_t time, uint64_t interval_ns);
void evw_time_sample(struct evw *w, uint64_t time, uint32_t cap, uint64_t tick,
                     const uint32_t *ccs, unsigned depth);
/* A new eventlog of a time-profiled run (+RTS -p) as GHC 9 begins it: the header, the
 * time profile's begin (a tick a millisecond) at 1 ns, and cost centre main_cc, main in
 * module Main at main_srcloc, at 2 ns. */
struct evw *evw_time_run(uint32_t main_cc, const char *main_srcloc);
void evw_sample_begin(struct evw *w, uint64_t time, uint64_t era);
void evw_bio_sample_begin(struct evw *w, uint64_t time, uint64_t era, uint64_t sample_time);
void evw_sample_end(struct evw *w, uint64_t time, uint64_t era);
void evw_sample_string(struct evw *w, uint64_t time, const char *label, uint64_t bytes);
/* A census of two string bands: SAMPLE_BEGIN at time, label_a's and label_b's entries at
 * time + 1 and + 2, SAMPLE_END at time + 3. */
void evw_two_band_census(struct evw *w, uint64_t time, const char *label_a, uint64_t bytes_a,
                         const char *label_b, uint64_t bytes_b);
void evw_sample_stack(struct evw *w, uint64_t time, uint64_t bytes, const uint32_t *ccs,
                      unsigned depth);
/* An info table's IPE entry as GHC 9.6 and later write it: six strings, the source file
 * and span joined by a ':' into srcloc (":" when the table has no source location). */
struct evw_ipe {
    const char *table_name, *closure_desc, *type_desc, *label, *module, *srcloc;
};
/* Its payload: the info table's address, then the six strings; appended to p. */
void evw_p_ipe(struct evw_payload *p, uint64_t info, const struct evw_ipe *e);
/* Its event, declared as long as it is written (for GHC's one byte more, evw_p_ipe and
 * evw_event_declared). */
void evw_ipe(struct evw *w, uint64_t time, uint64_t info, const struct evw_ipe *e);
void evw_program_args(struct evw *w, uint64_t time, const char *const *argv, int argc);
void evw_wall_clock(struct evw *w, uint64_t time, uint64_t sec, uint32_t nsec);
void evw_marker(struct evw *w, uint64_t time, const char *text);
void evw_heap_size(struct evw *w, uint16_t tag, uint64_t time, uint64_t bytes);
void evw_rts_identifier(struct evw *w, uint64_t time, const char *name);
/* A time-profile tick (PROF_SAMPLE_COST_CENTRE, as GHC 9 writes it on capability 0). */
void evw_tick(struct evw *w, uint64_t time, uint64_t tick, const uint32_t *ccs, unsigned depth);

/* Blocks: evw_block_begin writes a BLOCK_MARKER for capability cap and returns its offset;
 * evw_block_end fills in its size (up to the bytes written so far) and end time, as the
 * runtime does when it flushes the buffer. */
size_t evw_block_begin(struct evw *w, uint64_t time, uint16_t cap);
void evw_block_end(struct evw *w, size_t marker, uint64_t end_time);

/* Writes the eventlog built so far to path: 0, or -1 with errno set when it could not be
 * written whole. */
int evw_save(const struct evw *w, const char *path);

#endif
