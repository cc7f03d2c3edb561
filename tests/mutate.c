/* mutate.c: writes a randomly damaged copy of an eventlog, reproducibly.
 *
 *     mutate SEED OUT IN [DONOR]
 *
 * The damage is what files suffer and what hostile files try: bit flips, a cut, a splice
 * with the tail of another file (DONOR, or IN itself), random bytes inserted, a range
 * duplicated, a range zeroed or filled with 0xff. One to four of these, chosen by SEED,
 * so robust_damaged.sh can name a failing case by its seed and replay it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPLICE_MAX (4 * 65536)

static uint64_t state;

static uint64_t next(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
}

static size_t below(size_t n)
{
    return n ? (size_t)(next() % n) : 0;
}

static unsigned char *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    /* Room to grow: a splice adds at most SPLICE_MAX, the other steps 4 KiB each. */
    unsigned char *buf = malloc((size_t)n + SPLICE_MAX + 4 * 4096 + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void make_room(unsigned char *b, size_t *len, size_t at, size_t n)
{
    memmove(b + at + n, b + at, *len - at);
    *len += n;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: mutate SEED OUT IN [DONOR]\n");
        return 2;
    }
    state = strtoull(argv[1], NULL, 10) * 0x9e3779b97f4a7c15ull + 1;
    size_t len, donor_len;
    unsigned char *b = load(argv[3], &len);
    unsigned char *donor = load(argc > 4 ? argv[4] : argv[3], &donor_len);
    size_t splice_end = len + SPLICE_MAX;
    int steps = 1 + (int)below(4);
    for (int s = 0; s < steps && len > 0; s++) {
        size_t at = below(len), n;
        switch (below(6)) {
        case 0:   /* bit flips, clustered or spread */
            for (size_t k = 1 + below(16); k > 0; k--) {
                size_t i = next() & 1 ? below(len) : (at + below(64)) % len;
                b[i] ^= (unsigned char)(1u << below(8));
            }
            break;
        case 1:   /* a cut */
            len = at;
            break;
        case 2:   /* splice: the tail of the donor from somewhere */
            if (at >= splice_end)
                break;
            n = donor_len - below(donor_len);
            if (n > SPLICE_MAX)
                n = SPLICE_MAX;
            if (at + n > splice_end)   /* splices grow the file by SPLICE_MAX at most */
                n = splice_end - at;
            memcpy(b + at, donor + (donor_len - n), n);
            len = at + n;
            break;
        case 3:   /* random bytes inserted */
            n = 1 + below(64);
            make_room(b, &len, at, n);
            for (size_t i = 0; i < n; i++)
                b[at + i] = (unsigned char)next();
            break;
        case 4:   /* a range duplicated */
            n = 1 + below(len - at < 4096 ? len - at : 4096);
            make_room(b, &len, at, n);
            memcpy(b + at, b + at + n, n);
            break;
        default:  /* a range zeroed or set to 0xff */
            n = 1 + below(len - at < 256 ? len - at : 256);
            memset(b + at, next() & 1 ? 0 : 0xff, n);
            break;
        }
    }
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(b, 1, len, out) != len || fclose(out) != 0) {
        perror(argv[2]);
        return 2;
    }
    free(b);
    free(donor);
    return 0;
}
