/* ipe.h: names for info-table addresses, from the IPE events of -hi profiles.
 *
 * A -hi (info table) census names each band by the address of an info table, printed as
 * the runtime prints a pointer ("0x4a6e80"). With -finfo-table-map the eventlog also
 * carries an IPE event per table: its name, type and source location. This table maps
 * the printed address to a description a person can read, "Data.Map.Bin :: Map k v at
 * src/Data/Map.hs:12:3-40". At most max_count addresses are kept.
 */
#ifndef EV2HP_IPE_H
#define EV2HP_IPE_H

#include <stddef.h>
#include <stdint.h>

#include "read/evdecode.h"
#include "base/table.h"

struct ipe_names;


struct ipe_names *ipe_names_new(uint32_t max_count);
void ipe_names_free(struct ipe_names *t);

/* Records the description of an IPE event; *key (and *key_len) is the address as a -hi
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
};
/* The parts of the table the address a -hi label prints, or NULL. */
const struct ipe_info *ipe_names_info(const struct ipe_names *t, const char *label, size_t len);
/* The description of the address a -hi label prints, or NULL. */
const char *ipe_names_find(const struct ipe_names *t, const char *label, size_t len,
                           size_t *desc_len);

#endif
