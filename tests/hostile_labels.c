/* hostile_labels.c: writes eventlogs whose labels and program arguments a program could
 * give but a naive reader or writer breaks on, for tests/serve_labels.sh.
 *
 *     hostile_labels hc|hi OUTPUT
 *
 * hc: a -hc run whose cost centres are named with a line feed, a carriage return, U+2028
 * (a line separator to JavaScript), two with the same name and module (distinct stacks
 * with the same text) and two that differ only in bytes that are not UTF-8; its program
 * arguments hold a line feed and a carriage return; a marker holds a line feed.
 * hi: a -hi run whose info tables are named and typed with the same line breaks (the
 * report parses "name :: type at source" out of their labels).
 * Ten censuses of every band, with bytes that differ by band and by census.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evwriter.h"

#define CENSUSES 10
#define SECOND 1000000000ull

static const char *const names[] = {
    "line\nfeed", "carriage\rreturn", "para\xe2\x80\xa8separator", "Dup", "Dup",
    "bad\xff", "bad\xfe", "plain",
};
#define BANDS (sizeof names / sizeof *names)

static const char *const argv_hostile[] = { "hostile\nprogram", "arg\rument", "+RTS", "-hc",
                                            "-l", "-RTS" };

static void hc(struct evw *w)
{
    evw_ghc9_header(w, true);
    evw_program_args(w, 1, argv_hostile, 6);
    for (uint32_t cc = 1; cc <= BANDS; cc++)
        evw_cost_centre(w, 2, cc, names[cc - 1], "Main");
    evw_prof_begin(w, 3, 1 /* cost centre stack */, SECOND / 10);
    for (uint64_t i = 1; i <= CENSUSES; i++) {
        uint64_t t = i * SECOND / 10;
        evw_sample_begin(w, t, i);
        for (uint32_t cc = 1; cc <= BANDS; cc++)
            evw_sample_stack(w, t + 1, 1000 * cc + 8 * i, &cc, 1);
        evw_sample_end(w, t + 2, i);
        if (i == CENSUSES / 2)
            evw_marker(w, t + 3, "half\nway");
    }
}

static void hi(struct evw *w)
{
    evw_hi_header(w);
    evw_program_args(w, 0, argv_hostile, 6);
    char key[32];
    for (size_t b = 0; b < BANDS; b++) {
        struct evw_ipe e = { names[b], "21", b % 2 ? "Maybe\nInt" : "Int\r\xe2\x80\xa8", "go",
                             "Main", "src/Main.hs:12:3-14" };
        evw_ipe(w, 1, 0x4000 + b, &e);
    }
    evw_prof_begin(w, 2, 8 /* info table */, SECOND / 10);
    for (uint64_t i = 1; i <= CENSUSES; i++) {
        uint64_t t = i * SECOND / 10;
        evw_sample_begin(w, t, i);
        for (size_t b = 0; b < BANDS; b++) {
            snprintf(key, sizeof key, "0x%llx", (unsigned long long)(0x4000 + b));
            evw_sample_string(w, t + 1, key, 1000 * (b + 1) + 8 * i);
        }
        evw_sample_end(w, t + 2, i);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "hc") != 0 && strcmp(argv[1], "hi") != 0)) {
        fputs("usage: hostile_labels hc|hi OUTPUT\n", stderr);
        return 2;
    }
    struct evw *w = evw_new();
    if (strcmp(argv[1], "hc") == 0)
        hc(w);
    else
        hi(w);
    evw_data_end(w);
    int rc = evw_save(w, argv[2]) != 0;
    evw_free(w);
    if (rc)
        perror(argv[2]);
    return rc;
}
