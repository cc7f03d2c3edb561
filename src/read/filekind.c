/* filekind.c: kinds of input that are not an eventlog, by their first bytes (see
 * filekind.h). */
#include "read/filekind.h"

#include <stdbool.h>
#include <string.h>

/* How a GHC program writes the eventlog ev2hp reads, said by every kind below. */
#define GIVE_EVENTLOG "and give ev2hp the PROG.eventlog it writes"

static bool starts(const unsigned char *head, size_t len, const char *magic)
{
    size_t n = strlen(magic);
    return len >= n && memcmp(head, magic, n) == 0;
}

/* Printable ASCII, tabs and line ends, or UTF-8's lead and continuation bytes. */
static bool texty(const unsigned char *head, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (head[i] < 0x20 && head[i] != '\t' && head[i] != '\n' && head[i] != '\r')
            return false;
    return head[0] != 0x7f;
}

/* The runtime's .prof begins with a tab and the date: "\tMon Nov 23 06:48 2026 Time and
 * Allocation Profiling Report". */
static bool prof_report(const unsigned char *head, size_t len)
{
    static const char days[] = "MonTueWedThuFriSatSun";
    if (len < 5 || head[0] != '\t' || head[4] != ' ')
        return false;
    for (size_t d = 0; d < 7; d++)
        if (memcmp(head + 1, days + 3 * d, 3) == 0)
            return true;
    return false;
}

const char *filekind_not_eventlog(const unsigned char *head, size_t len)
{
    if (len == 0)
        return "the input is empty; a GHC program run with +RTS -hT -l -RTS writes its "
               "eventlog to PROG.eventlog";
    if (prof_report(head, len))
        return "this is a GHC profiling report (.prof, from +RTS -p); run the program with "
               "+RTS -p -l -RTS (a heap profile: -hc -l) " GIVE_EVENTLOG;
    if (starts(head, len, "{\"program\""))
        return "this is a GHC profiling report in JSON (.prof, from +RTS -pj); run the "
               "program with +RTS -p -l -RTS (a heap profile: -hc -l) " GIVE_EVENTLOG;
    if (starts(head, len, "\x7f" "ELF"))
        return "this is a program, not its eventlog; run it with +RTS -hT -l -RTS (built "
               "with -rtsopts) " GIVE_EVENTLOG;
    if (texty(head, len))
        return "this is a text file, and ev2hp reads eventlogs and .hp files; a GHC program "
               "run with +RTS -hT -l -RTS writes its eventlog to PROG.eventlog";
    return NULL;
}
