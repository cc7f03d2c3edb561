/* evdefs.h: the event registry, one relation from which everything else expands.
 *
 * Each row of EV_RELATION names an eventlog event type ev2hp knows: its tag, its name, the
 * macro that lists its fields in wire order, and its role: what the event is for.
 * The decoder (evdecode.c), the names and field lines of --dump, the events the census
 * assembler reads and checks (census.c), the test eventlog writer's header and the test
 * tables are all generated from these rows, so adding an event is adding a row. Retired tags stay listed so that old eventlogs still dump by
 * name. This is the ".sol.relation" idea of the Memory Pool System telemetry design.
 *
 * Field types (see evdecode.h for their C representation):
 *   U8 U16 U32 U64  big-endian unsigned integers
 *   STR             a string ending at a NUL byte, or at the end of the payload when the
 *                   NUL is missing (GHC writes USER_MSG and RTS_IDENTIFIER without one)
 *   ARGV            the rest of the payload: NUL-terminated strings (PROGRAM_ARGS, ENV);
 *                   bytes after the last NUL are a later format's fields, left out
 *   CCS             a Word8 depth followed by that many Word32 cost-centre numbers,
 *                   innermost first
 *
 * Field layouts are those of GHC 9.x. Sizes always come from the file's own header:
 * trailing bytes past these fields are ignored (the format's extension rule: a later GHC
 * may add fields at the end; evextension.h says how a census tells that from damage); an
 * event shorter than its fields decodes as "short" (an error only for the events a census
 * depends on, see census.c). A string GHC writes without its NUL (USER_MSG, USER_MARKER,
 * RTS_IDENTIFIER) runs to the end of its payload, so fields added after it would read
 * as part of it: no reader can tell them apart.
 */
#ifndef EV2HP_EVDEFS_H
#define EV2HP_EVDEFS_H

#define EV_RELATION(EVENT)                                                             \
    EVENT(0, CREATE_THREAD, EVF_THREAD, NONE)                                          \
    EVENT(1, RUN_THREAD, EVF_THREAD, SCHED)                                            \
    EVENT(2, STOP_THREAD, EVF_STOP_THREAD, SCHED)                                      \
    EVENT(3, THREAD_RUNNABLE, EVF_THREAD, NONE)                                        \
    EVENT(4, MIGRATE_THREAD, EVF_MIGRATE_THREAD, NONE)                                 \
    EVENT(5, RUN_SPARK, EVF_THREAD, NONE)  /* retired */                               \
    EVENT(6, STEAL_SPARK, EVF_MIGRATE_THREAD, NONE)  /* retired */                     \
    EVENT(7, SHUTDOWN, EVF_NONE, NONE)  /* retired */                                  \
    EVENT(8, THREAD_WAKEUP, EVF_MIGRATE_THREAD, NONE)                                  \
    EVENT(9, GC_START, EVF_NONE, GC)                                                   \
    EVENT(10, GC_END, EVF_NONE, GC)                                                    \
    EVENT(11, REQUEST_SEQ_GC, EVF_NONE, NONE)                                          \
    EVENT(12, REQUEST_PAR_GC, EVF_NONE, NONE)                                          \
    EVENT(15, CREATE_SPARK_THREAD, EVF_THREAD, NONE)                                   \
    EVENT(16, LOG_MSG, EVF_MESSAGE, NONE)                                              \
    EVENT(17, STARTUP, EVF_STARTUP, NONE)  /* retired */                               \
    EVENT(18, BLOCK_MARKER, EVF_BLOCK_MARKER, NONE)                                    \
    EVENT(19, USER_MSG, EVF_MESSAGE, NONE)                                             \
    EVENT(20, GC_IDLE, EVF_NONE, NONE)                                                 \
    EVENT(21, GC_WORK, EVF_NONE, NONE)                                                 \
    EVENT(22, GC_DONE, EVF_NONE, NONE)                                                 \
    EVENT(25, CAPSET_CREATE, EVF_CAPSET_CREATE, NONE)                                  \
    EVENT(26, CAPSET_DELETE, EVF_CAPSET, NONE)                                         \
    EVENT(27, CAPSET_ASSIGN_CAP, EVF_CAPSET_CAP, NONE)                                 \
    EVENT(28, CAPSET_REMOVE_CAP, EVF_CAPSET_CAP, NONE)                                 \
    EVENT(29, RTS_IDENTIFIER, EVF_RTS_IDENTIFIER, RUN_INFO)                            \
    EVENT(30, PROGRAM_ARGS, EVF_CAPSET_ARGV, RUN_INFO)                                 \
    EVENT(31, PROGRAM_ENV, EVF_CAPSET_ARGV, NONE)                                      \
    EVENT(32, OSPROCESS_PID, EVF_CAPSET_PID, GC)                                       \
    EVENT(33, OSPROCESS_PPID, EVF_CAPSET_PID, NONE)                                    \
    EVENT(43, WALL_CLOCK_TIME, EVF_WALL_CLOCK_TIME, RUN_INFO)                          \
    EVENT(44, THREAD_LABEL, EVF_THREAD_LABEL, NONE)                                    \
    EVENT(45, CAP_CREATE, EVF_CAP, NONE)                                               \
    EVENT(46, CAP_DELETE, EVF_CAP, NONE)                                               \
    EVENT(47, CAP_DISABLE, EVF_CAP, NONE)                                              \
    EVENT(48, CAP_ENABLE, EVF_CAP, NONE)                                               \
    EVENT(49, HEAP_ALLOCATED, EVF_CAPSET_BYTES, GC)                                    \
    EVENT(50, HEAP_SIZE, EVF_CAPSET_BYTES, HEAP_TOTAL)                                 \
    EVENT(51, HEAP_LIVE, EVF_CAPSET_BYTES, HEAP_TOTAL)                                 \
    EVENT(52, HEAP_INFO_GHC, EVF_HEAP_INFO_GHC, NONE)                                  \
    EVENT(53, GC_STATS_GHC, EVF_GC_STATS_GHC, GC)                                      \
    EVENT(54, GC_GLOBAL_SYNC, EVF_NONE, NONE)                                          \
    EVENT(55, TASK_CREATE, EVF_TASK_CREATE, GC)                                        \
    EVENT(56, TASK_MIGRATE, EVF_TASK_MIGRATE, NONE)                                    \
    EVENT(57, TASK_DELETE, EVF_TASK, GC)                                               \
    EVENT(58, USER_MARKER, EVF_MESSAGE, MARKER)                                        \
    EVENT(65, CREATE_MACHINE, EVF_MACHINE_CREATE, NONE)  /* Eden */                    \
    EVENT(66, KILL_MACHINE, EVF_MACHINE, NONE)  /* Eden */                             \
    EVENT(90, MEM_RETURN, EVF_MEM_RETURN, NONE)                                        \
    EVENT(91, BLOCKS_SIZE, EVF_CAPSET_BYTES, HEAP_TOTAL)                               \
    EVENT(160, HEAP_PROF_BEGIN, EVF_HEAP_PROF_BEGIN, CENSUS)                           \
    EVENT(161, HEAP_PROF_COST_CENTRE, EVF_HEAP_PROF_COST_CENTRE, CENSUS)               \
    EVENT(162, HEAP_PROF_SAMPLE_BEGIN, EVF_ERA, CENSUS)                                \
    EVENT(163, HEAP_PROF_SAMPLE_COST_CENTRE, EVF_HEAP_PROF_SAMPLE_COST_CENTRE, CENSUS) \
    EVENT(164, HEAP_PROF_SAMPLE_STRING, EVF_HEAP_PROF_SAMPLE_STRING, CENSUS)           \
    EVENT(165, HEAP_PROF_SAMPLE_END, EVF_ERA, CENSUS)                                  \
    EVENT(166, HEAP_BIO_PROF_SAMPLE_BEGIN, EVF_HEAP_BIO_PROF_SAMPLE_BEGIN, CENSUS)     \
    EVENT(167, PROF_SAMPLE_COST_CENTRE, EVF_PROF_SAMPLE_COST_CENTRE, TIME_PROFILE)     \
    EVENT(168, PROF_BEGIN, EVF_PROF_BEGIN, TIME_PROFILE)                               \
    EVENT(169, IPE, EVF_IPE, RUN_INFO)                                               \
    EVENT(200, CONC_MARK_BEGIN, EVF_NONE, GC)                                          \
    EVENT(201, CONC_MARK_END, EVF_CONC_MARK_END, GC)                                   \
    EVENT(202, CONC_SYNC_BEGIN, EVF_NONE, GC)                                          \
    EVENT(203, CONC_SYNC_END, EVF_NONE, GC)                                            \
    EVENT(204, CONC_SWEEP_BEGIN, EVF_NONE, GC)                                         \
    EVENT(205, CONC_SWEEP_END, EVF_NONE, GC)                                           \
    EVENT(206, CONC_UPD_REM_SET_FLUSH, EVF_CAP, NONE)                                  \
    EVENT(207, NONMOVING_HEAP_CENSUS, EVF_NONMOVING_HEAP_CENSUS, GC)                   \
    EVENT(208, NONMOVING_PRUNED_SEGMENTS, EVF_NONMOVING_PRUNED_SEGMENTS, NONE)         \
    EVENT(210, TICKY_COUNTER_DEF, EVF_TICKY_COUNTER_DEF, TICKY)                        \
    EVENT(211, TICKY_COUNTER_SAMPLE, EVF_TICKY_COUNTER_SAMPLE, TICKY)                  \
    EVENT(212, TICKY_COUNTER_BEGIN_SAMPLE, EVF_NONE, TICKY)

/* Roles: what an event is for. The census assembler reads the events of every role but
 * NONE and TIME_PROFILE; a header that declares a CENSUS event smaller than its fields is
 * refused, and a CENSUS event too short for its fields is damage (other roles are skipped
 * when short: a run goes on without a marker). */
enum ev_role {
    EVR_NONE,          /* known by name (for --dump), not used */
    EVR_CENSUS,        /* heap profile: its beginning, cost centres, census samples */
    EVR_RUN_INFO,      /* what the run was: program, runtime, start time, info tables */
    EVR_HEAP_TOTAL,    /* the runtime's own heap totals */
    EVR_MARKER,        /* user markers (traceMarker) */
    EVR_TIME_PROFILE,  /* time-profile ticks (+RTS -p) */
    EVR_GC,            /* garbage collections and allocation: the heap view, and the
                        * collector's statistics (model/gcstats.h) */
    EVR_TICKY,         /* ticky-ticky counters (-ticky, +RTS -lT): model/ticky.h */
    EVR_SCHED,         /* a capability running a Haskell thread: model/capstats.h, read
                        * only where the collector's events are (census_wants_sched) */
};

/* Field lists: FIELD(type, name, doc). */
#define EVF_NONE(FIELD)
#define EVF_THREAD(FIELD) FIELD(U32, thread, "thread id")
#define EVF_STOP_THREAD(FIELD)                                                   \
    FIELD(U32, thread, "thread id")                                              \
    FIELD(U16, status, "why the thread stopped")                                 \
    FIELD(U32, blocked_on, "thread it is blocked on")
#define EVF_MIGRATE_THREAD(FIELD)                                                \
    FIELD(U32, thread, "thread id")                                              \
    FIELD(U16, cap, "capability")
#define EVF_MESSAGE(FIELD) FIELD(STR, text, "the message")
#define EVF_CONC_MARK_END(FIELD) FIELD(U32, marked, "objects marked in this phase")
/* GHC 9.10's layout; before it the block size was a Word8, its log2 (13 bytes: census.c
 * reads that one by its size) */
#define EVF_NONMOVING_HEAP_CENSUS(FIELD)                                         \
    FIELD(U16, block_size, "the sub-heap's block size, bytes")                   \
    FIELD(U32, active_segments, "active segments")                               \
    FIELD(U32, filled_segments, "filled segments")                               \
    FIELD(U32, live_blocks, "live blocks")
#define EVF_NONMOVING_PRUNED_SEGMENTS(FIELD)                                     \
    FIELD(U32, pruned, "segments pruned")                                        \
    FIELD(U32, free, "segments left on the free list")
#define EVF_STARTUP(FIELD) FIELD(U16, caps, "number of capabilities")
#define EVF_BLOCK_MARKER(FIELD)                                                  \
    FIELD(U32, size, "bytes in the block")                                       \
    FIELD(U64, end_time, "timestamp of the block's last event")                  \
    FIELD(U16, cap, "capability that wrote the block")
#define EVF_CAPSET(FIELD) FIELD(U32, capset, "capability set")
#define EVF_CAPSET_CREATE(FIELD)                                                 \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U16, type, "capability set type")
#define EVF_CAPSET_CAP(FIELD)                                                    \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U16, cap, "capability")
#define EVF_RTS_IDENTIFIER(FIELD)                                                \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(STR, name, "runtime system name and version")
#define EVF_CAPSET_ARGV(FIELD)                                                   \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(ARGV, args, "NUL-separated strings")
#define EVF_CAPSET_PID(FIELD)                                                    \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U32, pid, "process id")
#define EVF_WALL_CLOCK_TIME(FIELD)                                               \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U64, sec, "seconds since the Unix epoch")                              \
    FIELD(U32, nsec, "nanoseconds")
#define EVF_THREAD_LABEL(FIELD)                                                  \
    FIELD(U32, thread, "thread id")                                              \
    FIELD(STR, label, "thread label")
#define EVF_CAP(FIELD) FIELD(U16, cap, "capability")
#define EVF_CAPSET_BYTES(FIELD)                                                  \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U64, bytes, "bytes")
#define EVF_HEAP_INFO_GHC(FIELD)                                                 \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U16, generations, "number of generations")                             \
    FIELD(U64, max_heap, "maximum heap size")                                    \
    FIELD(U64, alloc_area, "allocation area size")                               \
    FIELD(U64, mblock_size, "megablock size")                                    \
    FIELD(U64, block_size, "block size")
#define EVF_GC_STATS_GHC(FIELD)                                                  \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U16, gen, "generation collected")                                      \
    FIELD(U64, copied, "bytes copied")                                           \
    FIELD(U64, slop, "bytes of slop")                                            \
    FIELD(U64, frag, "bytes of fragmentation")                                   \
    FIELD(U32, threads, "parallel GC threads")                                   \
    FIELD(U64, max_copied, "most bytes copied by one thread")                    \
    FIELD(U64, tot_copied, "bytes copied by all threads together")              \
    FIELD(U64, balanced_copied, "bytes copied as a perfectly balanced share")
#define EVF_MACHINE(FIELD) FIELD(U16, machine, "Eden machine")
#define EVF_MACHINE_CREATE(FIELD)                                                \
    FIELD(U16, machine, "Eden machine")                                          \
    FIELD(U64, realtime, "when the machine started (its own clock)")
#define EVF_TASK(FIELD) FIELD(U64, task, "task id")
#define EVF_TASK_CREATE(FIELD)                                                   \
    FIELD(U64, task, "task id")                                                  \
    FIELD(U16, cap, "capability")                                                \
    FIELD(U64, tid, "kernel thread id")
#define EVF_TASK_MIGRATE(FIELD)                                                  \
    FIELD(U64, task, "task id")                                                  \
    FIELD(U16, cap, "old capability")                                            \
    FIELD(U16, new_cap, "new capability")
#define EVF_MEM_RETURN(FIELD)                                                    \
    FIELD(U32, capset, "capability set")                                         \
    FIELD(U32, current, "megablocks allocated")                                  \
    FIELD(U32, needed, "megablocks needed")                                      \
    FIELD(U32, returned, "megablocks returned")
#define EVF_HEAP_PROF_BEGIN(FIELD)                                               \
    FIELD(U8, profile, "profile id")                                             \
    FIELD(U64, period, "sampling period in nanoseconds")                         \
    FIELD(U32, breakdown, "1 -hc, 2 -hm, 3 -hd, 4 -hy, 5 -hr, 6 -hb, 7 -hT, 8 -hi, 9 -he") \
    FIELD(STR, module_filter, "module filter")                                   \
    FIELD(STR, descr_filter, "closure description filter")                       \
    FIELD(STR, type_filter, "type filter")                                       \
    FIELD(STR, cc_filter, "cost-centre filter")                                  \
    FIELD(STR, ccs_filter, "cost-centre stack filter")                           \
    FIELD(STR, retainer_filter, "retainer filter")                               \
    FIELD(STR, bio_filter, "biography filter")
#define EVF_HEAP_PROF_COST_CENTRE(FIELD)                                         \
    FIELD(U32, cc, "cost-centre number")                                         \
    FIELD(STR, label, "cost-centre label")                                       \
    FIELD(STR, module, "module")                                                 \
    FIELD(STR, srcloc, "source location")                                        \
    FIELD(U8, flags, "1 = CAF")
#define EVF_ERA(FIELD) FIELD(U64, era, "profiling era (not a sequence number)")
#define EVF_HEAP_PROF_SAMPLE_COST_CENTRE(FIELD)                                  \
    FIELD(U8, profile, "profile id")                                             \
    FIELD(U64, bytes, "residency in bytes")                                      \
    FIELD(CCS, stack, "cost-centre stack, innermost first")
#define EVF_HEAP_PROF_SAMPLE_STRING(FIELD)                                       \
    FIELD(U8, profile, "profile id")                                             \
    FIELD(U64, bytes, "residency in bytes")                                      \
    FIELD(STR, label, "band label")
#define EVF_HEAP_BIO_PROF_SAMPLE_BEGIN(FIELD)                                    \
    FIELD(U64, era, "profiling era")                                             \
    FIELD(U64, time, "sample time in nanoseconds")
#define EVF_PROF_SAMPLE_COST_CENTRE(FIELD)                                       \
    FIELD(U32, cap, "capability")                                                \
    FIELD(U64, tick, "tick number")                                              \
    FIELD(CCS, stack, "cost-centre stack, innermost first")
#define EVF_PROF_BEGIN(FIELD) FIELD(U64, interval, "tick interval in nanoseconds")
/* IPE is decoded by its content: the info pointer, then NUL-terminated strings. GHC 9.x
 * writes six (the last is "file:span", or ":" for a table without a source location); a
 * layout with the source file and span apart has seven (src_span is then the seventh,
 * else empty: a STR at the payload's end decodes as ""). GHC 9.6 and later (every IPE
 * event of real 9.6.6 and 9.10.3 eventlogs; earlier releases not checked) declare each
 * IPE event one byte longer than they write (postIPE counts the ':' between file and
 * span twice); ev_payload_written() recognises that so the reader stays in step (see
 * evdecode.h). */
#define EVF_IPE(FIELD)                                                           \
    FIELD(U64, info, "info table address")                                       \
    FIELD(STR, table_name, "table name")                                         \
    FIELD(STR, closure_desc, "closure type")                                     \
    FIELD(STR, type_desc, "type")                                                \
    FIELD(STR, label, "source label")                                            \
    FIELD(STR, module, "source module")                                          \
    FIELD(STR, srcloc, "source location (\"file:span\"), or the file alone")     \
    FIELD(STR, src_span, "source span, when written apart from the file")

/* Ticky counters (GHC's eventlog format document, "Ticky counters"). A sample's counts
 * are those since the counter's previous sample: the runtime zeroes each counter as it
 * writes it (rts/Ticky.c), and writes only counters that moved. Its allocation is in
 * bytes, as the runtime's -r report says ("All allocation numbers are in bytes"), though
 * the format document says words. */
#define EVF_TICKY_COUNTER_DEF(FIELD)                                             \
    FIELD(U64, id, "counter id")                                                 \
    FIELD(U16, arity, "arity (or field count)")                                  \
    FIELD(STR, kinds, "argument kinds, as the -r report writes them")            \
    FIELD(STR, name, "counter name")                                             \
    FIELD(U64, info, "info table address")                                       \
    FIELD(STR, json, "JSON description of the counter")
#define EVF_TICKY_COUNTER_SAMPLE(FIELD)                                          \
    FIELD(U64, id, "counter id")                                                 \
    FIELD(U64, entries, "entries since the last sample")                         \
    FIELD(U64, allocs, "bytes it allocated since the last sample")               \
    FIELD(U64, allocd, "bytes of it allocated since the last sample (-ticky-allocd)")

/* Tags with a meaning of their own in the stream. */
#define EV_TAG_DATA_END 0xffffu

#endif
