/* gen_censuses.c: a long stream of heap censuses, for the live benchmark (make bench).
 *
 * The live server must keep memory flat however long a program runs: a service censused
 * once a second for a week makes 600,000 censuses. This writes such a stream without
 * holding it: a GHC 9 header, HEAP_PROF_BEGIN (-hy), then N censuses of B string bands
 * (each present, with drifting byte counts) every INTERVAL milliseconds of program time,
 * a heap size total with each, and the end-of-data marker, to standard output or a file,
 * block by block. With -O FILE it also writes the byte offset just past each census's
 * HEAP_PROF_SAMPLE_END (one per line), for the latency measurement (tests/bench/live.py).
 *
 *     gen_censuses [-n CENSUSES] [-b BANDS] [-i MILLISECONDS] [-O OFFSETS] [OUTPUT]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evwriter.h"
#include "read/evdecode.h"

#define FLUSH_AT (1u << 20)

static int flush(struct evw *w, FILE *out, unsigned long long *written)
{
    if (w->len && fwrite(w->data, 1, w->len, out) != w->len)
        return -1;
    *written += w->len;
    w->len = 0;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long long censuses = 1000000, bands = 20, interval_ms = 1000;
    const char *offsets_path = NULL;
    int c;
    while ((c = getopt(argc, argv, "n:b:i:O:")) != -1) {
        switch (c) {
        case 'n': censuses = strtoull(optarg, NULL, 10); break;
        case 'b': bands = strtoull(optarg, NULL, 10); break;
        case 'i': interval_ms = strtoull(optarg, NULL, 10); break;
        case 'O': offsets_path = optarg; break;
        default:
            fprintf(stderr, "usage: gen_censuses [-n CENSUSES] [-b BANDS] [-i MILLISECONDS] "
                            "[-O OFFSETS] [OUTPUT]\n");
            return 2;
        }
    }
    FILE *out = optind < argc ? fopen(argv[optind], "wb") : stdout;
    FILE *offsets = offsets_path ? fopen(offsets_path, "w") : NULL;
    struct evw *w = evw_new();
    if (!out || (offsets_path && !offsets) || !w || bands == 0 || bands > 10000) {
        perror("gen_censuses");
        return 1;
    }
    unsigned long long written = 0;
    evw_ghc9_header(w, true);
    const char *argv0[] = { "service", "+RTS", "-hy", "-i1", "-l", "-RTS" };
    evw_program_args(w, 0, argv0, 6);
    evw_prof_begin(w, 0, 4, interval_ms * 1000000ull);
    char label[64];
    unsigned long long seed = 88172645463325252ull;
    for (unsigned long long n = 1; n <= censuses; n++) {
        uint64_t t = n * interval_ms * 1000000ull;
        uint64_t total = 0;
        evw_sample_begin(w, t, n);
        for (unsigned long long b = 0; b < bands; b++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            uint64_t bytes = (b + 1) * 100000 + seed % 50000 + (n % 3600) * (b % 3) * 10;
            snprintf(label, sizeof label, "Data.Type%llu", b);
            evw_sample_string(w, t, label, bytes);
            total += bytes;
        }
        evw_sample_end(w, t, n);
        if (offsets)
            fprintf(offsets, "%llu\n", written + w->len);
        evw_heap_size(w, EV_HEAP_SIZE, t, total * 2);
        if (w->len >= FLUSH_AT && flush(w, out, &written) != 0) {
            perror("gen_censuses");
            return 1;
        }
    }
    evw_data_end(w);
    if (flush(w, out, &written) != 0 || fflush(out) != 0 || (offsets && fclose(offsets) != 0)) {
        perror("gen_censuses");
        return 1;
    }
    evw_free(w);
    return out == stdout ? 0 : fclose(out) != 0;
}
