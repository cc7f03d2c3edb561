/* heldback.c: censuses held back in the runtime's buffers, told and explained (see
 * heldback.h). */
#include "census/heldback.h"

#include <stdio.h>
#include <string.h>

#include "base/format.h"

/* Whether the events read reach further into the run than the last census than a census
 * interval explains. */
static bool ahead(const struct heldback_facts *f)
{
    uint64_t by = f->reached_ns > f->last_census_ns ? f->reached_ns - f->last_census_ns : 0;
    return by > HELDBACK_RUN_NS && !(f->period_ns && by / 3 <= f->period_ns);
}

/* Starts the wait for the next census at f. */
static void restart(struct heldback *h, const struct heldback_facts *f)
{
    h->started = true;
    h->since = f->now;
    h->censuses = f->censuses;
    h->last_census_ns = f->last_census_ns;
    h->ahead_since = ahead(f) ? f->now : -1;
}

static enum heldback_verdict say(struct heldback *h, enum heldback_verdict v)
{
    h->said = true;
    h->verdict = v;
    return v;
}

bool heldback_runtime_flushes(const char *program, const char *rts_version)
{
    const char *rts = program ? strstr(program, "+RTS") : NULL;
    if (rts && strstr(rts, "--eventlog-flush-interval"))
        return true;
    unsigned major, minor;
    return rts_version && sscanf(rts_version, "GHC-%u.%u", &major, &minor) == 2 &&
           (major > 9 || (major == 9 && minor >= 16));
}

enum heldback_verdict heldback_check(struct heldback *h, const struct heldback_facts *f)
{
    if (f->flushing)
        return HELDBACK_NO;
    if (!h->started) {
        restart(h, f);
        return HELDBACK_NO;
    }
    if (f->censuses != h->censuses) {
        double held = h->ahead_since < 0 ? 0 : f->now - h->ahead_since;
        uint64_t came = f->censuses - h->censuses;
        restart(h, f);
        if (h->said || held < HELDBACK_BURST_SECONDS)
            return HELDBACK_NO;
        h->held_seconds = held;
        h->burst = came;
        return say(h, HELDBACK_BURST);
    }
    if (h->ahead_since < 0 && ahead(f))
        h->ahead_since = f->now;
    if (h->said || f->ended || f->now - h->since < HELDBACK_WAIT_SECONDS || !ahead(f))
        return HELDBACK_NO;
    return say(h, HELDBACK_WAITING);
}

/* The cause and the remedy, the second half of both sentences. */
#define WHY_AND_WHAT "the GHC runtime buffers its events and writes them only when a " \
                     "buffer fills; to see censuses as they are taken, run the program " \
                     "with +RTS --eventlog-flush-interval=1 (GHC 9.2 and later) or " \
                     "stream it through eventlog-socket"

void heldback_explain(const struct heldback *h, const struct heldback_facts *f, char *out,
                      size_t size)
{
    if (h->verdict == HELDBACK_BURST) {
        format_snprintf(out, size,
                        "%llu census%s came at once, held back %.0f s while the program's "
                        "other events arrived: " WHY_AND_WHAT,
                        (unsigned long long)h->burst, h->burst == 1 ? "" : "es",
                        h->held_seconds);
        return;
    }
    char since[64] = "yet";
    if (f->censuses)
        format_snprintf(since, sizeof since, "since the one at %.2f s",
                        f->last_census_ns / 1e9);
    format_snprintf(out, size,
                    "no census %s, though the program's events have arrived up to %.2f s "
                    "into its run (censuses may come late, in one burst): " WHY_AND_WHAT,
                    since, f->reached_ns / 1e9);
}
