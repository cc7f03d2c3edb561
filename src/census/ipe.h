/* ipe.h: names for info-table addresses, from the IPE events of -hi profiles.
 *
 * A -hi (info table) census names each band by the address of an info table, printed as
 * the runtime prints a pointer ("0x4a6e80"). With -finfo-table-map the eventlog also
 * carries an IPE event per table: its name, type and source location. This table maps
 * the printed address to those parts, from which a description a person can read is
 * made, "Data.Map.Bin :: Map k v at src/Data/Map.hs:12:3-40" (ipe_info_describe; the
 * band table keeps it, so the table does not). At most max_count addresses are kept.
 *
 * An address no IPE event describes may be named from the program's symbol table instead
 * (--binary: census/symnames.h, ipe_names_add_symbol): its record has the symbol's
 * decoded name as its table name, its module and package, and nothing else.
 *
 * What the table says of an address is a record made once and never changed: an address's
 * second event makes a new one. So a view (ipe_names_view) can answer, in another thread,
 * for the bands of a snapshot while the table goes on taking events, holding no copy.
 */
#ifndef EV2HP_IPE_H
#define EV2HP_IPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/evdecode.h"
#include "base/table.h"

struct bands;   /* model/bands.h */
struct sym_name;   /* census/symnames.h */
struct ipe_names;


struct ipe_names *ipe_names_new(uint32_t max_count);
void ipe_names_free(struct ipe_names *t);

/* Records what an IPE event says; *key (and *key_len) is the address as a -hi
 * label prints it, so the caller can describe a band already seen. */
enum table_status ipe_names_add(struct ipe_names *t, const struct ev_IPE *ipe, const char **key,
                              size_t *key_len);

/* What an IPE event says of one info table, each part NUL-terminated (empty when the
 * event left it out): pprof frames are made of the parts, not the description. */
struct ipe_info {
    const char *table_name;     /* "sat_s4Fr_info" */
    const char *closure_desc;   /* the closure type, as the runtime wrote it ("17") */
    const char *type_desc;      /* "ByteString" */
    const char *label;          /* the binding it belongs to ("main") */
    const char *module;         /* "Main" */
    const char *file;           /* "leak.hs" */
    const char *location;       /* the whole source location ("leak.hs:12:3-14") */
    long line;                  /* the first line of its span; 0: not known */
    /* Named from the symbol table (--binary), not by an IPE event: table_name is the
     * symbol's decoded name ("ghc-prim:GHC.Types.:"), module and package its parts; no
     * type, closure type or source. */
    bool from_symbol;
    const char *package;        /* the symbol's package ("containers-0.7", "rts"), or "" */
};
/* Names the table at the address a -hi label prints from its symbol (ipe_info's
 * from_symbol), unless an IPE event named it. */
enum table_status ipe_names_add_symbol(struct ipe_names *t, const char *label, size_t len,
                                       const struct sym_name *symbol);

/* The parts of the table the address a -hi label prints, or NULL. */
const struct ipe_info *ipe_names_info(const struct ipe_names *t, const char *label, size_t len);
/* The description of a table for people, "name :: type at file:span" (the parts that are
 * there), malloc'd, *len bytes and a NUL; info is one ipe_names_info returned. NULL when
 * out of memory. */
char *ipe_info_describe(const struct ipe_info *info, size_t *len);

/* What t says of the bands of a band table as they stand, for reading in another thread
 * while t goes on taking events (the live server's drawings: snapshot.h): a pointer per
 * band to t's record of its address, no copy of any. ipe_names_info answers on the view
 * for those bands' labels, with what t said when it was made. Made where t is changed,
 * under the lock that orders its events (live.h's); read and freed (ipe_names_free) in
 * any thread, before t is freed, with bands alive meanwhile. A record a new event
 * replaces is freed only once no view is left. NULL when out of memory. */
struct ipe_names *ipe_names_view(const struct ipe_names *t, const struct bands *bands);

#endif
