/* breakdown.c: the names of the breakdowns (see breakdown.h). */
#include "model/breakdown.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *breakdown_words(uint32_t breakdown, char *scratch, size_t scratch_size)
{
    static const char *const words[] = {
        [BREAKDOWN_UNKNOWN] = "breakdown unknown",
        [BREAKDOWN_COST_CENTRE] = "by cost-centre stack",
        [BREAKDOWN_MODULE] = "by module",
        [BREAKDOWN_CLOSURE_DESCR] = "by closure description",
        [BREAKDOWN_TYPE_DESCR] = "by type",
        [BREAKDOWN_RETAINER] = "by retainer set",
        [BREAKDOWN_BIOGRAPHY] = "by biography",
        [BREAKDOWN_CLOSURE_TYPE] = "by closure type",
        [BREAKDOWN_INFO_TABLE] = "by info table",
        [BREAKDOWN_ERA] = "by era",
    };
    if (breakdown < sizeof words / sizeof *words && words[breakdown])
        return words[breakdown];
    snprintf(scratch, scratch_size, "by breakdown %lu", (unsigned long)breakdown);
    return scratch;
}

bool breakdown_mismatch(uint32_t now, uint32_t base, char *out, size_t size)
{
    if (now == base || now == BREAKDOWN_UNKNOWN || base == BREAKDOWN_UNKNOWN)
        return false;
    char a[32], b[32];
    snprintf(out, size, "this run is broken down %s and the --compare base %s: their bands "
             "do not correspond", breakdown_words(now, a, sizeof a),
             breakdown_words(base, b, sizeof b));
    return true;
}

uint32_t breakdown_from_job(const char *job)
{
    /* the last -hX among the runtime's options (+RTS ... -RTS) of the command line */
    static const struct { char letter; uint32_t breakdown; } letters[] = {
        { 'c', BREAKDOWN_COST_CENTRE }, { 'm', BREAKDOWN_MODULE },
        { 'd', BREAKDOWN_CLOSURE_DESCR }, { 'y', BREAKDOWN_TYPE_DESCR },
        { 'r', BREAKDOWN_RETAINER }, { 'b', BREAKDOWN_BIOGRAPHY },
        { 'T', BREAKDOWN_CLOSURE_TYPE }, { 'i', BREAKDOWN_INFO_TABLE },
        { 'e', BREAKDOWN_ERA },
    };
    uint32_t found = BREAKDOWN_UNKNOWN;
    bool rts = false;
    for (const char *p = job; p && *p;) {
        while (*p == ' ')
            p++;
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 4 && memcmp(p, "+RTS", 4) == 0)
            rts = true;
        else if (n == 4 && memcmp(p, "-RTS", 4) == 0)
            rts = false;
        else if (rts && n >= 3 && p[0] == '-' && p[1] == 'h')
            for (size_t i = 0; i < sizeof letters / sizeof *letters; i++)
                if (letters[i].letter == p[2])
                    found = letters[i].breakdown;
        p += n;
    }
    return found;
}
