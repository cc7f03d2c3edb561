/* heldback.c: censuses held back in the runtime's buffers, told and explained (see
 * heldback.h). */
#include "census/heldback.h"

#include "base/format.h"

bool heldback_check(struct heldback *h, const struct heldback_facts *f)
{
    if (!h->started || f->censuses != h->censuses) {
        h->started = true;
        h->since = f->now;
        h->censuses = f->censuses;
        return false;
    }
    if (h->said || f->now - h->since < HELDBACK_WAIT_SECONDS)
        return false;
    uint64_t ahead = f->reached_ns > f->last_census_ns ? f->reached_ns - f->last_census_ns : 0;
    if (ahead <= HELDBACK_RUN_NS || (f->period_ns && ahead / 3 <= f->period_ns))
        return false;
    h->said = true;
    return true;
}

void heldback_explain(const struct heldback_facts *f, char *out, size_t size)
{
    char since[64] = "yet";
    if (f->censuses)
        format_snprintf(since, sizeof since, "since the one at %.2f s",
                        f->last_census_ns / 1e9);
    format_snprintf(out, size,
                    "no census %s, though the program's events have arrived up to %.2f s "
                    "into its run: the GHC runtime buffers its events and writes them only "
                    "when a buffer fills, so its censuses may come late, in one burst; to "
                    "see them as they are taken, run it with +RTS "
                    "--eventlog-flush-interval=1 (GHC 9.2 and later) or stream it through "
                    "eventlog-socket",
                    since, f->reached_ns / 1e9);
}
