/* censusstore.h: kept censuses on disk, so memory does not grow with the number of bands.
 *
 * A chart keeps a few censuses per pixel column whole (model/buckets.h). With tens of
 * thousands of bands per census (-hi runs), a few thousand kept censuses are gigabytes;
 * which bands a chart will draw is known only at the end (by area). So past a bound the
 * profile keeps in memory, per kept census, only its time, total and where its entries
 * lie in this store, an unlinked temporary file; at the end the view reads each kept
 * census back once and keeps only the bands it draws. Only the censuses a bucket keeps
 * are written (a census its bucket drops at once never is).
 *
 * One writer (the thread reading the input) appends with pwrite; any thread reads with
 * pread what was written before it got its offset, so copies of a profile (the live
 * server draws from copies while the input goes on) share the store: it is reference
 * counted and freed with its last user.
 */
#ifndef EV2HP_CENSUSSTORE_H
#define EV2HP_CENSUSSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "model/frame.h"

struct census_store;

/* An empty store (its file in TMPDIR, or /tmp), one reference; NULL with errno set. */
struct census_store *census_store_new(void);
/* Another reference to s. */
struct census_store *census_store_ref(struct census_store *s);
/* Drops a reference; the last one closes the file. */
void census_store_unref(struct census_store *s);

/* Appends count entries; *where is where they lie. 0, or -1 with errno set. */
int census_store_put(struct census_store *s, const struct census_entry *entries, uint32_t count,
                     uint64_t *where);
/* Reads the count entries put at where into *buf (grown as needed, *cap entries).
 * 0, or -1 with errno set. */
int census_store_get(const struct census_store *s, uint64_t where, uint32_t count,
                     struct census_entry **buf, size_t *cap);

#endif
