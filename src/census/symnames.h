/* symnames.h: names for -hi info tables from the program's symbol table (--binary PROG).
 *
 * A -hi census names a band by the address of an info table. The eventlog names the
 * tables of code built with -finfo-table-map (IPE events: census/ipe.h); a library built
 * without it (Debian's base, containers, ...) and the runtime's own tables (STACK, TSO,
 * ARR_WORDS ...) get none, and stay addresses. The program's executable names all of
 * them in its ELF symbol table (read/elfsyms.h): "ghczmprim_GHCziTypes_ZC_con_info" is
 * ghc-prim's (:), "stg_STACK_info" the runtime's STACK.
 *
 * The address rule (doc/DESIGN.md, "Info tables named from the binary"): with
 * tables-next-to-code, a closure's info pointer and the symbol X_info both point at the
 * end of the info table (where the entry code begins); the runtime's -hi census and the
 * IPE events give get_itbl(), the start of the StgInfoTable struct, which is two words
 * before it (layout, type and SRT field), four in a profiled program (StgProfInfo's two
 * offsets come first). So the census's address A is the table of the symbol at
 * A + 2 words (A + 4 words profiled), exactly: no nearest symbol is taken.
 *
 * The name (symnames_parse): GHC writes a symbol as "package_Module_name_info" (the
 * program's own unit without the package), each part z-encoded (symnames_zdecode:
 * "ZC" is ':', "zi" '.', "zm" '-' ...), "_con_info" for a data constructor's table,
 * "_Module_N" before it for a table -fdistinct-constructor-tables made in Module; the
 * runtime's tables are "stg_NAME_info" and are shown as NAME. A package shows as its
 * unit id without the build's suffix ("containers-0.7-inplace" and a hash after the
 * version are dropped): "containers-0.7:Data.Map.Internal.Bin".
 */
#ifndef EV2HP_SYMNAMES_H
#define EV2HP_SYMNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct elf_symbols;   /* read/elfsyms.h */

enum sym_kind {
    SYM_CONSTRUCTOR,   /* ..._con_info: a data constructor's table */
    SYM_CLOSURE,       /* another Haskell table: a function, thunk, return frame */
    SYM_RUNTIME,       /* stg_..._info: the runtime's */
    SYM_RAW,           /* a symbol of no shape GHC writes: shown as it is */
};

/* A decoded symbol: each part NUL-terminated ("" when not there). */
struct sym_name {
    enum sym_kind kind;
    const char *package;   /* "containers-0.7", "rts"; "" for the program's own unit */
    const char *module;    /* "Data.Map.Internal"; "" for the runtime's tables */
    const char *name;      /* what a person reads: "containers-0.7:Data.Map.Internal.Bin" */
    const char *symbol;    /* as the symbol table has it */
    char text[];
};

/* GHC's z-decoding of len bytes of z into out (cap bytes, NUL-terminated, code points
 * past ASCII in UTF-8): the decoded length, or -1 when z is not z-encoded text (an
 * escape GHC does not write) or out is too small. */
long symnames_zdecode(const char *z, size_t len, char *out, size_t cap);

/* The parts of a symbol ending in "_info" (malloc'd, one block; free() it), or NULL when
 * out of memory. A symbol of no shape GHC writes is SYM_RAW, named as it is. */
struct sym_name *symnames_parse(const char *symbol);

/* The address rule: where the symbol of the table a census names by address is. */
uint64_t symnames_symbol_address(uint64_t census_address, unsigned word_bytes, bool profiled);

/* The address a -hi label prints ("0x4a6e80", as the runtime's "%p"): true and *address,
 * or false when label is not one. */
bool symnames_label_address(const char *label, size_t len, uint64_t *address);

/* Whether an RTS_IDENTIFIER ("GHC-9.10.3 rts_thr_p") is a profiled runtime's. */
bool symnames_rts_profiled(const char *rts_identifier);

/* The program's info tables' symbols (those ending in "_info"), read from path
 * (elfsyms_read; elfsyms_free frees them); NULL with err set. */
struct elf_symbols *symnames_read(const char *path, struct ev_error *err);

/* The name of the table a -hi label names (by the address rule) in symbols (as
 * symnames_read gives them), malloc'd as symnames_parse's; NULL when the symbol table
 * has none there (errno 0) or out of memory (errno ENOMEM). */
struct sym_name *symnames_lookup(const struct elf_symbols *symbols, const char *label,
                                 size_t len, bool profiled);

#endif
