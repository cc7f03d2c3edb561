/* gen_eventlog.c: writes a large, realistic GHC eventlog for `make bench`.
 *
 * The benchmark needs eventlogs of hundreds of megabytes to gigabytes that look like what
 * a profiled, threaded GHC 9 program writes: a header declaring the event types GHC
 * declares, then blocks (each opened by a BLOCK_MARKER) of scheduler, allocation and GC
 * events per capability, and global blocks holding heap totals and heap censuses of
 * hundreds of bands. About half the bytes are censuses, half everything else, which is the
 * mix of the real 115 MB eventlog the performance issue quotes (3,742 censuses, 1.55
 * million entries).
 *
 * Bands are either cost-centre stacks (-hc: entries are HEAP_PROF_SAMPLE_COST_CENTRE with
 * stacks of 1 to 8 numbers over a few hundred defined cost centres) or strings (-hy style
 * type names, HEAP_PROF_SAMPLE_STRING). Each census holds most bands, a varying subset, with
 * byte counts that drift from census to census, so neither the set of bands nor the numbers
 * repeat exactly. Everything comes from a seeded generator: the same options give the same
 * bytes.
 *
 * With -k ipe the bands are info tables (-hi): strings printing an address, each described
 * by an IPE event (169) before the first census (type, closure type, module, source file
 * and location, spread over a few hundred values each, as a program built with
 * -finfo-table-map has), so the grouping keys have something to group.
 *
 * With -k time the eventlog is a time profile (+RTS -p -l, no heap censuses): PROF_BEGIN,
 * then every 1 ms tick one PROF_SAMPLE_COST_CENTRE per capability, its stack (4 to 24
 * frames deep, as -fprof-auto programs have) drawn from a few thousand distinct stacks
 * with a skew (a few hot loops take most ticks), among the same scheduler traffic.
 *
 * The file is built with the in-memory writer of the tests (tests/evwriter.h) and written
 * out block by block, so the generator's memory stays small whatever size is asked for.
 *
 *     gen_eventlog [-s MIB] [-k stack|string|ipe|time] [-b BANDS] [-c CAPS] [-S SEED] [-n LEN]
 *                  OUTPUT
 *
 * -n LEN gives cost centres names of LEN characters (at most 200), as long qualified
 * names are in real programs: with -b 4000, the band list of --bands 0 passes a MiB.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evwriter.h"

/* Event tags (see src/read/evdefs.h). */
enum {
    T_CREATE_THREAD = 0, T_RUN_THREAD = 1, T_STOP_THREAD = 2, T_THREAD_RUNNABLE = 3,
    T_MIGRATE_THREAD = 4, T_THREAD_WAKEUP = 8, T_GC_START = 9, T_GC_END = 10,
    T_REQUEST_SEQ_GC = 11, T_BLOCK_MARKER = 18, T_GC_IDLE = 20, T_GC_WORK = 21,
    T_GC_DONE = 22, T_CAPSET_CREATE = 25, T_CAPSET_ASSIGN_CAP = 27, T_RTS_IDENTIFIER = 29,
    T_PROGRAM_ARGS = 30, T_OSPROCESS_PID = 32, T_WALL_CLOCK_TIME = 43, T_CAP_CREATE = 45,
    T_HEAP_ALLOCATED = 49, T_HEAP_SIZE = 50, T_HEAP_LIVE = 51, T_HEAP_INFO_GHC = 52,
    T_GC_STATS_GHC = 53, T_GC_GLOBAL_SYNC = 54, T_USER_MARKER = 58, T_BLOCKS_SIZE = 91,
};

#define GLOBAL_CAP 0xffffu        /* the cap GHC writes in markers of its global buffer */
#define FLUSH_AT (4u << 20)       /* write the writer's bytes out past this */
#define MAX_DEPTH 8
#define CENSUS_INTERVAL_NS 10000000u  /* -i0.01 */

struct options {
    unsigned long mib;
    int strings;               /* string bands (-hy) instead of stacks (-hc) */
    int ipe;                   /* string bands that are info tables with IPE events (-hi) */
    int time;                  /* a time profile (-p) instead of heap censuses */
    unsigned bands;
    unsigned caps;
    unsigned long long seed;
    unsigned name_len;         /* -n: cost-centre names this long (0: short ones) */
    const char *output;
};

struct band {
    unsigned depth;
    uint32_t stack[MAX_DEPTH];
    char label[64];
    uint64_t bytes;            /* drifts from census to census */
};

struct gen {
    struct options opt;
    struct evw *w;
    FILE *out;
    unsigned long long rng;
    uint64_t now;              /* nanoseconds */
    uint64_t written;          /* bytes written to out */
    struct band *band;
    unsigned cost_centres;
    uint32_t next_thread;
};

static uint64_t next_random(struct gen *g)
{
    /* xorshift64*: fast, and the same seed gives the same file everywhere. */
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 0x2545f4914f6cdd1dull;
}

static unsigned below(struct gen *g, unsigned n)
{
    return (unsigned)(next_random(g) % n);
}

static void die(const char *what)
{
    fprintf(stderr, "gen_eventlog: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void flush_writer(struct gen *g)
{
    if (g->w->len && fwrite(g->w->data, 1, g->w->len, g->out) != g->w->len)
        die(g->opt.output);
    g->written += g->w->len;
    g->w->len = 0;
}

static uint64_t total_size(const struct gen *g)
{
    return g->written + g->w->len;
}

/* The event types and sizes GHC 9.0 declares for the events written here. */
static void write_header(struct gen *g)
{
    static const struct { uint16_t tag; int16_t size; const char *name; } types[] = {
        { T_CREATE_THREAD, 4, "Create thread" }, { T_RUN_THREAD, 4, "Run thread" },
        { T_STOP_THREAD, 10, "Stop thread" }, { T_THREAD_RUNNABLE, 4, "Thread runnable" },
        { T_MIGRATE_THREAD, 6, "Migrate thread" }, { T_THREAD_WAKEUP, 6, "Wakeup thread" },
        { T_GC_START, 0, "Start GC" }, { T_GC_END, 0, "Stop GC" },
        { T_REQUEST_SEQ_GC, 0, "Request sequential GC" },
        { T_BLOCK_MARKER, 14, "Block marker" }, { T_GC_IDLE, 0, "GC idle" },
        { T_GC_WORK, 0, "GC working" }, { T_GC_DONE, 0, "GC done" },
        { T_CAPSET_CREATE, 6, "Create capability set" },
        { T_CAPSET_ASSIGN_CAP, 6, "Add capability to capability set" },
        { T_RTS_IDENTIFIER, -1, "RTS name and version" },
        { T_PROGRAM_ARGS, -1, "Program arguments" },
        { T_OSPROCESS_PID, 8, "Process ID" }, { T_WALL_CLOCK_TIME, 16, "Wall clock time" },
        { T_CAP_CREATE, 2, "Create capability" },
        { T_HEAP_ALLOCATED, 12, "Total heap mem ever allocated" },
        { T_HEAP_SIZE, 12, "Current heap size" }, { T_HEAP_LIVE, 12, "Current heap live data" },
        { T_HEAP_INFO_GHC, 38, "Heap static parameters" },
        { T_GC_STATS_GHC, 50, "GC statistics" }, { T_GC_GLOBAL_SYNC, 0, "Synchronise stop-the-world GC" },
        { T_USER_MARKER, -1, "User marker" },
        { T_BLOCKS_SIZE, 12, "Report the size of the heap in blocks" },
        { 160, -1, "Start of heap profile" }, { 161, -1, "Cost center definition" },
        { 162, 8, "Start of heap profile sample" },
        { 163, -1, "Heap profile cost-centre sample" },
        { 164, -1, "Heap profile string sample" },
        { 165, 8, "End of heap profile sample" },
        { 166, 16, "Start of heap profile (biographical) sample" },
        { 167, -1, "Time profile cost-centre stack" },
        { 168, 8, "Start of a time profile" },
    };
    evw_header_begin(g->w);
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        evw_declare(g->w, types[i].tag, types[i].size, types[i].name);
    if (g->opt.ipe)
        evw_declare(g->w, 169, -1, "An IPE entry");
    evw_header_end(g->w);
}

/* A block starts with a marker whose size and end time are known only at its end. */
static size_t begin_block(struct gen *g)
{
    static struct evw_payload p;
    size_t at = g->w->len;
    evw_p_reset(&p);
    evw_event(g->w, T_BLOCK_MARKER, g->now, &p);
    return at;
}

static void put_be(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static void end_block(struct gen *g, size_t at, uint16_t cap)
{
    unsigned char *m = g->w->data + at + 2 + 8;   /* past the marker's tag and time */
    put_be(m, g->w->len - at, 4);
    put_be(m + 4, g->now, 8);
    put_be(m + 12, cap, 2);
    if (g->w->len >= FLUSH_AT)
        flush_writer(g);
}

static void event_u32(struct gen *g, uint16_t tag, uint32_t v)
{
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u32(&p, v);
    evw_event(g->w, tag, g->now, &p);
}

static void event_empty(struct gen *g, uint16_t tag)
{
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_event(g->w, tag, g->now, &p);
}

static void stop_thread(struct gen *g, uint32_t thread)
{
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u32(&p, thread);
    evw_p_u16(&p, (uint16_t)(1 + below(g, 5)));   /* heap overflow, yield, blocked... */
    evw_p_u32(&p, 0);
    evw_event(g->w, T_STOP_THREAD, g->now, &p);
}

static void capset_bytes(struct gen *g, uint16_t tag, uint64_t bytes)
{
    evw_heap_size(g->w, tag, g->now, bytes);
}

static void gc_stats(struct gen *g)
{
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u32(&p, 0);
    evw_p_u16(&p, (uint16_t)below(g, 2));
    for (int i = 0; i < 3; i++)
        evw_p_u64(&p, next_random(g) % (1u << 24));
    evw_p_u32(&p, g->opt.caps);
    evw_p_u64(&p, next_random(g) % (1u << 22));
    evw_p_u64(&p, next_random(g) % (1u << 21));
    evw_event(g->w, T_GC_STATS_GHC, g->now, &p);
}

/* One capability's share of the run between two censuses: threads running and
 * stopping, allocation reports, about `budget` bytes of events. */
static void scheduler_block(struct gen *g, uint16_t cap, size_t budget)
{
    size_t at = begin_block(g);
    size_t start = g->w->len;
    while (g->w->len - start < budget) {
        uint32_t thread = 1 + below(g, g->next_thread);
        g->now += 1000 + below(g, 20000);
        event_u32(g, T_RUN_THREAD, thread);
        if (below(g, 16) == 0)
            event_u32(g, T_CREATE_THREAD, g->next_thread++);
        if (below(g, 4) == 0)
            event_u32(g, T_THREAD_RUNNABLE, 1 + below(g, g->next_thread));
        g->now += 5000 + below(g, 50000);
        stop_thread(g, thread);
        if (below(g, 8) == 0)
            capset_bytes(g, T_HEAP_ALLOCATED, g->now * 3);
    }
    end_block(g, at, cap);
}

/* A stop-the-world collection: every capability takes part, then the heap totals. */
static void garbage_collection(struct gen *g, uint64_t live)
{
    for (uint16_t cap = 0; cap < g->opt.caps; cap++) {
        size_t at = begin_block(g);
        event_empty(g, T_REQUEST_SEQ_GC);
        event_empty(g, T_GC_START);
        event_empty(g, T_GC_WORK);
        g->now += 20000 + below(g, 200000);
        event_empty(g, T_GC_IDLE);
        event_empty(g, T_GC_DONE);
        event_empty(g, T_GC_END);
        end_block(g, at, cap);
    }
    size_t at = begin_block(g);
    event_empty(g, T_GC_GLOBAL_SYNC);
    gc_stats(g);
    capset_bytes(g, T_HEAP_SIZE, live * 2 + (64u << 20));
    capset_bytes(g, T_HEAP_LIVE, live);
    capset_bytes(g, T_BLOCKS_SIZE, live + live / 4);
    end_block(g, at, GLOBAL_CAP);
}

/* The next residency of a band: a random walk that stays positive, in words. */
static uint64_t drift(struct gen *g, uint64_t bytes)
{
    uint64_t step = bytes / 8 + 8;
    uint64_t r = next_random(g) % (2 * step + 1);
    bytes = bytes + r > step ? bytes + r - step : 8;
    return bytes & ~(uint64_t)7;
}

/* One heap census in the global buffer; returns the bytes it reported. */
static uint64_t census(struct gen *g, uint64_t number)
{
    size_t at = begin_block(g);
    uint64_t total = 0;
    evw_sample_begin(g->w, g->now, 0);   /* the era is 0 in every -hc sample of GHC 9.0 */
    for (unsigned i = 0; i < g->opt.bands; i++) {
        struct band *b = &g->band[i];
        b->bytes = drift(g, b->bytes);
        /* About four bands in five are alive in a census, a different set each time. */
        if ((number * 2654435761u + i * 40503u) % 5 == 0)
            continue;
        g->now += 50 + below(g, 200);
        if (g->opt.strings)
            evw_sample_string(g->w, g->now, b->label, b->bytes);
        else
            evw_sample_stack(g->w, g->now, b->bytes, b->stack, b->depth);
        total += b->bytes;
    }
    evw_sample_end(g->w, g->now, 0);
    end_block(g, at, GLOBAL_CAP);
    return total;
}

static const char *const modules[] = {
    "Main", "Data.Map.Internal", "Data.IntMap.Internal", "Data.Text.Internal",
    "Control.Monad.State.Strict", "Network.Wai.Handler.Warp.Run", "Data.Aeson.Types.Internal",
    "Database.PostgreSQL.Simple.Internal", "Service.Handler.Orders", "Service.Cache.LRU",
};

static const char *const types_[] = {
    "[]", "Map", "IntMap", "Text", "ByteString", "(,)", "Maybe", "Either", "Vector",
    "HashMap", "Integer", "Double", "ARR_WORDS", "MUT_ARR_PTRS_CLEAN", "Order", "Customer",
};

static void make_bands(struct gen *g)
{
    g->band = calloc(g->opt.bands, sizeof *g->band);
    if (!g->band)
        die("out of memory");
    for (unsigned i = 0; i < g->opt.bands; i++) {
        struct band *b = &g->band[i];
        b->depth = 1 + below(g, MAX_DEPTH);
        for (unsigned d = 0; d < b->depth; d++)
            b->stack[d] = 1 + below(g, g->cost_centres);
        /* A few bands hold most of the heap, as in a real leak. */
        b->bytes = (uint64_t)(i % 17 == 0 ? 1u << 22 : 1u << (6 + below(g, 12)));
        const char *t1 = types_[below(g, sizeof types_ / sizeof *types_)];
        const char *t2 = types_[below(g, sizeof types_ / sizeof *types_)];
        if (g->opt.ipe)   /* the address of the band's info table, as the runtime prints it */
            snprintf(b->label, sizeof b->label, "0x%x", 0x4a0000u + 0x38u * i);
        else
            snprintf(b->label, sizeof b->label, "%s %s.T%u %s", t1,
                     modules[i % (sizeof modules / sizeof *modules)], i, t2);
    }
}

/* -k ipe: an IPE event per band, a thousand to a global block, as GHC dumps its info
 * tables when the eventlog starts. */
static void describe_bands(struct gen *g)
{
    size_t at = 0;
    for (unsigned i = 0; i < g->opt.bands; i++) {
        if (i % 1000 == 0)
            at = begin_block(g);
        char name[32], closure[16], type_desc[96], label[16], srcloc[96];
        unsigned type = below(g, 400), file = below(g, 300);
        snprintf(name, sizeof name, "sat_s%u_info", i);
        snprintf(closure, sizeof closure, "%u", 1 + below(g, 60));   /* closure type, a number */
        snprintf(type_desc, sizeof type_desc, "%s T%u",
                 types_[type % (sizeof types_ / sizeof *types_)], type);
        snprintf(label, sizeof label, "go%u", i % 5000);
        snprintf(srcloc, sizeof srcloc, "src/M%u.hs:%u:%u-%u", file, 1 + below(g, 2000),
                 1 + below(g, 40), 41 + below(g, 80));
        evw_ipe(g->w, g->now, 0x4a0000u + 0x38u * i,
                &(struct evw_ipe){ name, closure, type_desc, label,
                                   modules[file % (sizeof modules / sizeof *modules)], srcloc });
        if (i % 1000 == 999 || i + 1 == g->opt.bands)
            end_block(g, at, GLOBAL_CAP);
    }
}

static void define_cost_centres(struct gen *g)
{
    for (unsigned cc = 1; cc <= g->cost_centres; cc++) {
        char label[256];
        const char *module = modules[cc % (sizeof modules / sizeof *modules)];
        if (cc % 23 == 0)
            snprintf(label, sizeof label, "CAF");
        else if (g->opt.name_len)   /* "function12.go" behind a long qualifier */
            snprintf(label, sizeof label, "%.*sfunction%u.go",
                     (int)(g->opt.name_len > 16 ? g->opt.name_len - 16 : 0),
                     "Internal.Streaming.Pipeline.Stage.Worker.Loop.Step.Go.Internal.Streaming."
                     "Pipeline.Stage.Worker.Loop.Step.Go.Internal.Streaming.Pipeline.Stage."
                     "Worker.Loop.Step.Go.Internal.Streaming.Pipeline.Stage.Worker.Loop.Step.",
                     cc);
        else
            snprintf(label, sizeof label, "function%u.go", cc);
        evw_cost_centre(g->w, g->now, cc, label, module);
    }
}

static void preamble(struct gen *g)
{
    const char *const argv[] = {
        "/srv/bench/service", "--port", "8080", "+RTS",
        g->opt.time ? "-p" : g->opt.ipe ? "-hi" : "-hc", "-l",
        "-i0.01", "-N4",
    };
    size_t at = begin_block(g);
    static struct evw_payload p;
    evw_p_reset(&p);
    evw_p_u32(&p, 0);
    evw_p_u16(&p, 2);
    evw_event(g->w, T_CAPSET_CREATE, g->now, &p);
    evw_p_reset(&p);
    evw_p_u32(&p, 0);
    evw_p_bytes(&p, "GHC-9.0.2 rts_thr_p", 19);
    evw_event(g->w, T_RTS_IDENTIFIER, g->now, &p);
    evw_program_args(g->w, g->now, argv, 8);
    evw_wall_clock(g->w, g->now, 1763782200, 0);
    for (uint16_t cap = 0; cap < g->opt.caps; cap++) {
        evw_p_reset(&p);
        evw_p_u16(&p, cap);
        evw_event(g->w, T_CAP_CREATE, g->now, &p);
    }
    if (!g->opt.time)
        evw_prof_begin(g->w, g->now, g->opt.ipe ? 8 : g->opt.strings ? 4 : 1, CENSUS_INTERVAL_NS);
    if (!g->opt.strings)
        define_cost_centres(g);
    end_block(g, at, GLOBAL_CAP);
}

#define TIME_STACKS 4096
#define TIME_MAX_DEPTH 24
#define TICK_NS 1000000u

/* The stacks of a time profile: deep, sharing their outer frames as real call trees do. */
static uint32_t (*make_time_stacks(struct gen *g, unsigned *depths))[TIME_MAX_DEPTH]
{
    uint32_t (*stacks)[TIME_MAX_DEPTH] = calloc(TIME_STACKS, sizeof *stacks);
    if (!stacks)
        die("out of memory");
    for (unsigned i = 0; i < TIME_STACKS; i++) {
        depths[i] = 4 + below(g, TIME_MAX_DEPTH - 4 + 1);
        /* outermost frames from a small set, inner ones from all cost centres */
        for (unsigned d = 0; d < depths[i]; d++) {
            unsigned outer = depths[i] - 1 - d;   /* 0 = outermost */
            stacks[i][d] = outer < 3 ? 1 + (i >> (10 - 3 * outer)) % 7 + outer * 7
                                     : 1 + below(g, g->cost_centres);
        }
    }
    return stacks;
}

static void time_sample(struct gen *g, uint16_t cap, uint64_t tick, const uint32_t *stack,
                        unsigned depth)
{
    evw_time_sample(g->w, g->now, cap, tick, stack, depth);
}

/* -k time: ticks of samples, 20 ticks a block per capability, then scheduler traffic of
 * a quarter of their bytes. */
static void generate_time(struct gen *g)
{
    uint64_t target = (uint64_t)g->opt.mib << 20;
    unsigned depths[TIME_STACKS];
    uint32_t (*stacks)[TIME_MAX_DEPTH] = make_time_stacks(g, depths);
    static struct evw_payload p;
    size_t at = begin_block(g);
    evw_p_reset(&p);
    evw_p_u64(&p, TICK_NS);
    evw_event(g->w, 168, g->now, &p);
    end_block(g, at, GLOBAL_CAP);
    uint64_t tick = 0;
    while (total_size(g) < target) {
        uint64_t before = total_size(g), start = g->now;
        for (uint16_t cap = 0; cap < g->opt.caps; cap++) {
            g->now = start;
            at = begin_block(g);
            for (unsigned t = 0; t < 20; t++) {
                /* a skew: half the ticks in 16 hot stacks */
                unsigned s = below(g, 2) ? below(g, 16) : below(g, TIME_STACKS);
                g->now = start + (uint64_t)t * TICK_NS + cap;
                time_sample(g, cap, tick + t, stacks[s], depths[s]);
            }
            end_block(g, at, cap);
        }
        tick += 20;
        size_t sample_bytes = (size_t)(total_size(g) - before);
        for (uint16_t cap = 0; cap < g->opt.caps; cap++)
            scheduler_block(g, cap, sample_bytes / 4 / g->opt.caps);
        if (g->now < tick * TICK_NS)
            g->now = tick * TICK_NS;
    }
    free(stacks);
    evw_data_end(g->w);
    flush_writer(g);
}

static void generate(struct gen *g)
{
    if (g->opt.time) {
        write_header(g);
        preamble(g);
        generate_time(g);
        return;
    }
    uint64_t target = (uint64_t)g->opt.mib << 20;
    write_header(g);
    preamble(g);
    make_bands(g);
    if (g->opt.ipe)
        describe_bands(g);
    uint64_t live = 0;
    for (uint64_t n = 0; total_size(g) < target; n++) {
        /* Scheduler traffic of about the census's own size, shared by the capabilities. */
        uint64_t before = total_size(g);
        live = census(g, n);
        size_t census_bytes = (size_t)(total_size(g) - before);
        for (uint16_t cap = 0; cap < g->opt.caps; cap++)
            scheduler_block(g, cap, census_bytes / g->opt.caps);
        garbage_collection(g, live);
        if (n % 1000 == 999) {
            size_t at = begin_block(g);
            evw_marker(g->w, g->now, "checkpoint");
            end_block(g, at, 0);
        }
        uint64_t next = (n + 1) * (uint64_t)CENSUS_INTERVAL_NS;
        if (g->now < next)
            g->now = next;
    }
    evw_data_end(g->w);
    flush_writer(g);
}

static void usage(void)
{
    fputs("usage: gen_eventlog [-s MIB] [-k stack|string|ipe|time] [-b BANDS] [-c CAPS] [-S SEED] "
          "[-n LEN] OUTPUT\n", stderr);
    exit(2);
}

static void parse(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .mib = 64, .bands = 400, .caps = 4, .seed = 42 };
    int c;
    while ((c = getopt(argc, argv, "s:k:b:c:S:n:")) != -1) {
        switch (c) {
        case 's': o->mib = strtoul(optarg, NULL, 10); break;
        case 'k':
            if (strcmp(optarg, "stack") && strcmp(optarg, "string") && strcmp(optarg, "ipe") &&
                strcmp(optarg, "time"))
                usage();
            o->ipe = strcmp(optarg, "ipe") == 0;
            o->strings = strcmp(optarg, "string") == 0 || o->ipe;
            o->time = strcmp(optarg, "time") == 0;
            break;
        case 'b': o->bands = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'c': o->caps = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'S': o->seed = strtoull(optarg, NULL, 10); break;
        case 'n': o->name_len = (unsigned)strtoul(optarg, NULL, 10); break;
        default: usage();
        }
    }
    if (optind != argc - 1 || o->mib == 0 || o->bands == 0 || o->caps == 0 || o->caps > 64 ||
        o->name_len > 200)
        usage();
    o->output = argv[optind];
}

int main(int argc, char **argv)
{
    struct gen g = { 0 };
    parse(argc, argv, &g.opt);
    g.rng = g.opt.seed * 2 + 1;
    g.cost_centres = 300;
    g.next_thread = 16;
    g.w = evw_new();
    g.out = fopen(g.opt.output, "wb");
    if (!g.out)
        die(g.opt.output);
    generate(&g);
    if (fclose(g.out) != 0)
        die(g.opt.output);
    evw_free(g.w);
    free(g.band);
    return 0;
}
