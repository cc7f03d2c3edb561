/* elfsyms.h: the symbols of a program's ELF symbol table, read with libelf.
 *
 * A GHC program's executable names every info table it links in its symbol table
 * (.symtab): "ghczmprim_GHCziTypes_ZC_con_info", "stg_STACK_info". --binary PROG reads
 * them so that a -hi census's addresses the eventlog has no IPE event for can be named
 * (census/symnames.h says how). Only the symbols whose name ends with a given suffix are
 * kept (GHC's "_info"), defined ones (not undefined imports), local and global alike,
 * ordered by address and then by name, so that a look-up is a binary search and its
 * answer the same on every run.
 *
 * Nothing is printed: a file that cannot serve says why in an ev_error, in words a
 * person can act on (not an ELF file; no symbol table, as a stripped program has).
 */
#ifndef EV2HP_ELFSYMS_H
#define EV2HP_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct elf_symbols;

/* The symbols of path whose name ends with suffix; NULL with err set (what, no file
 * name: the caller names the file) when path cannot be read, is not an ELF file, has no
 * symbol table, has no such symbol, or memory runs out. */
struct elf_symbols *elfsyms_read(const char *path, const char *suffix, struct ev_error *err);
void elfsyms_free(struct elf_symbols *s);

/* The size of an address of the file's machine in bytes: 4 (ELFCLASS32) or 8. */
unsigned elfsyms_word_bytes(const struct elf_symbols *s);
size_t elfsyms_count(const struct elf_symbols *s);

/* The symbols at exactly this address: the index of the first (in name order) and
 * how many there are (0: none). */
size_t elfsyms_at(const struct elf_symbols *s, uint64_t address, size_t *first);
/* Symbol i's name and address. */
const char *elfsyms_name(const struct elf_symbols *s, size_t i);
uint64_t elfsyms_address(const struct elf_symbols *s, size_t i);

#endif
