/* cliadvice.c: runtime flags told from ev2hp's, and the nearest option to a slip (see
 * cliadvice.h). */
#include "cliadvice.h"

#include <string.h>

/* Short flags of the GHC runtime (`+RTS -? -RTS`) that ev2hp has no option for, as their
 * first letter: -A64m, -C, -D, -F2, -G3, -H, -I0, -K, -M2g, -N4, -P, -RTS, -S, -T, -Z,
 * -c, -i0.1, -l, -p, -s, -xc. Letters the runtime shares with ev2hp (-h, -L, -q, -V, -o)
 * are told apart by what follows them; lower-case letters people also type for other
 * tools (-v, -t, -e, -r, ...) are left to getopt's "unknown option". */
static const char RTS_LETTERS[] = "ACDFGHIKMNPRSTZcilpsx";

/* The runtime's long flags, which nobody means as ev2hp's. */
static const char *const RTS_LONGS[] = {
    "eventlog-flush-interval", "nonmoving-gc", "copying-gc", "numa", "io-manager",
    "install-signal-handlers", "disable-delayed-os-memory-return", "null-eventlog-writer",
    "internal-counters", "machine-readable", "RTS",
};

/* An argument that cannot be ev2hp's (whose short options are shorts): the runtime's. */
static bool rts_like(const char *arg, const char *shorts)
{
    if (strncmp(arg, "+RTS", 4) == 0)
        return true;
    if (arg[0] != '-' || !arg[1])
        return false;
    if (arg[1] == '-') {
        size_t n = strcspn(arg + 2, "=");
        for (size_t i = 0; i < sizeof RTS_LONGS / sizeof *RTS_LONGS; i++)
            if (strlen(RTS_LONGS[i]) == n && strncmp(arg + 2, RTS_LONGS[i], n) == 0)
                return true;
        return false;
    }
    /* -hc, -hT, -hi, -hy...: a heap profile's mode (ev2hp's -h is alone); -qg, -qa...:
     * the parallel runtime's (ev2hp's -q is alone or among its own letters) */
    if (arg[1] == 'h' && arg[2])
        return true;
    if (arg[1] == 'q' && arg[2] && strchr("abgimn", arg[2]))
        return true;
    /* a letter ev2hp takes for an option of its own one day stays its own */
    return strchr(RTS_LETTERS, arg[1]) != NULL && !strchr(shorts, arg[1]);
}

/* The long option named by text[0..n) as getopt_long finds it (exact, or the only one it
 * begins), or NULL. */
static const struct option *long_named(const char *text, size_t n,
                                       const struct option *longs)
{
    const struct option *found = NULL;
    for (const struct option *o = longs; o->name; o++) {
        if (strncmp(o->name, text, n) != 0)
            continue;
        if (strlen(o->name) == n)
            return o;
        if (found)
            return NULL;   /* ambiguous */
        found = o;
    }
    return found;
}

/* Whether the short cluster arg (`-qo`, `-ofile`) leaves its option's argument to the
 * next word of argv. */
static bool short_wants_next(const char *arg, const char *shorts)
{
    for (const char *c = arg + 1; *c; c++) {
        const char *at = strchr(shorts, *c);
        if (!at || *c == ':')
            return false;
        if (at[1] == ':')
            return c[1] == '\0';
    }
    return false;
}

const char *cliadvice_rts_flag(int argc, char *const *argv, const struct option *longs,
                               const char *shorts)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            return NULL;
        if (rts_like(a, shorts))
            return a;
        if (a[0] != '-' || !a[1])
            continue;   /* an operand */
        if (a[1] == '-') {
            size_t n = strcspn(a + 2, "=");
            const struct option *o = long_named(a + 2, n, longs);
            if (o && o->has_arg == required_argument && !a[2 + n])
                i++;   /* its argument, whatever it looks like */
        } else if (short_wants_next(a, shorts)) {
            i++;
        }
    }
    return NULL;
}

/* The optimal string alignment distance between a and b (insertions, deletions,
 * substitutions and swaps of neighbours), or more than limit when it exceeds it. */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb, size_t limit)
{
    enum { MAX = 40 };
    if (na > MAX || nb > MAX)
        return limit + 1;
    size_t d[MAX + 1][MAX + 1];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= na; i++) {
        for (size_t j = 1; j <= nb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[na][nb];
}

const char *cliadvice_nearest_option(const char *arg, const struct option *longs)
{
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    const char *name = arg + 2;
    size_t n = strcspn(name, "=");
    /* one slip in a short name, two in a longer one: "--to" is not a slip of "--at" */
    size_t limit = n <= 4 ? 1 : 2;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (const struct option *o = longs; o->name; o++) {
        size_t d = edit_distance(name, n, o->name, strlen(o->name), limit);
        if (d < best_d) {   /* ties: the first in the table, so the answer never varies */
            best_d = d;
            best = o->name;
        }
    }
    return best_d <= limit && best_d < n ? best : NULL;
}
