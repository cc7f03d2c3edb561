/* hpread.c: the .hp reader (see hpread.h).
 *
 * Lines come out of one buffer {buf, pos, len} refilled from the source, so pipes work;
 * a line longer than HP_MAX_LINE is an error rather than unbounded growth. Numbers are
 * parsed by hand: sample times in seconds become nanoseconds exactly for the six decimals
 * the runtime writes, so times survive a round trip.
 */
#include "read/hpread.h"
#include "base/grow.h"
#include "model/breakdown.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define READ_CHUNK (64u << 10)

struct hp_reader {
    struct ev_source src;
    struct census_events events;
    unsigned char *buf;
    size_t cap, pos, len;
    bool at_eof;
    int read_errno;
    uint64_t line_no;
    bool unterminated;           /* the last line returned had no newline: input ended */

    struct run_info info;
    struct bands *bands;

    bool in_sample;
    uint64_t sample_ns;
    uint64_t sample_line;
    struct census_entry *entries;
    size_t count, entry_cap;

    bool seen_sample;            /* any sample at all */
    bool pending_empty;          /* an empty census held: dropped if it is the last */
    uint64_t pending_ns;
    uint64_t censuses;
    uint64_t last_ns;
    uint64_t sample_total;       /* bytes of the open census so far */

    uint64_t backwards;          /* censuses whose time went backwards (clamped) */
    uint64_t backwards_line;     /* the first of them */
    uint64_t backwards_ns, backwards_prev_ns;
};

/* A .hp starts with a header keyword (JOB, as the runtime writes it, or any other a
 * hand-made file may put first); anything else goes to the eventlog reader, whose "not an
 * eventlog" is the right message for noise. */
bool hp_looks_like(const unsigned char *head, size_t len)
{
    static const char *const starts[] = { "JOB", "DATE", "SAMP", "VALU", "BEGI", "MARK" };
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        size_t n = strlen(starts[i]);
        if (len >= n && memcmp(head, starts[i], n) == 0)
            return true;
    }
    return false;
}

void hp_reader_free(struct hp_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    bands_free(r->bands);
    free(r->entries);
    free(r->info.program);
    free(r);
}

struct hp_reader *hp_reader_new(struct ev_source src, const struct census_events *events)
{
    struct hp_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->src = src;
    r->events = *events;
    r->info.labels_cut = true;   /* the runtime wrote stacks cut at -L */
    r->cap = READ_CHUNK * 2;
    r->buf = malloc(r->cap);
    r->bands = bands_new();
    if (!r->buf || !r->bands) {
        hp_reader_free(r);
        return NULL;
    }
    return r;
}

const struct run_info *hp_reader_run_info(const struct hp_reader *r)
{
    return &r->info;
}

const struct bands *hp_reader_bands(const struct hp_reader *r)
{
    return r->bands;
}

uint64_t hp_reader_censuses(const struct hp_reader *r)
{
    return r->censuses;
}

bool hp_reader_warning(const struct hp_reader *r, struct ev_error *w)
{
    if (!r->backwards)
        return false;
    ev_error_set(w, "line %llu: the census at %.6f s is before the one at %.6f s; %llu "
                 "census%s going backwards %s put at the time of the one before",
                 (unsigned long long)r->backwards_line, r->backwards_ns / 1e9,
                 r->backwards_prev_ns / 1e9, (unsigned long long)r->backwards,
                 r->backwards == 1 ? "" : "es", r->backwards == 1 ? "was" : "were");
    return true;
}

/* --- lines ---------------------------------------------------------------------------- */

/* The next line, without its end of line, NUL-terminated in place; NULL at the end of
 * input or on error (*st says which: HP_OK at the end). */
static char *next_line(struct hp_reader *r, size_t *line_len, enum hp_status *st,
                       struct ev_error *err)
{
    size_t scanned = r->pos;
    *st = HP_OK;
    for (;;) {
        unsigned char *nl = memchr(r->buf + scanned, '\n', r->len - scanned);
        if (nl || (r->at_eof && r->pos < r->len)) {
            size_t end = nl ? (size_t)(nl - r->buf) : r->len;
            char *line = (char *)r->buf + r->pos;
            size_t n = end - r->pos;
            if (!nl && r->len == r->cap)
                break;   /* no room for the NUL: treated as too long below */
            r->pos = nl ? end + 1 : end;
            r->unterminated = !nl;
            if (n && line[n - 1] == '\r')
                n--;
            line[n] = '\0';
            r->line_no++;
            *line_len = n;
            return line;
        }
        if (r->at_eof) {
            if (r->read_errno) {
                ev_error_set(err, "line %llu: read failed: %s",
                             (unsigned long long)r->line_no + 1, strerror(r->read_errno));
                *st = HP_IO_ERROR;
            }
            return NULL;
        }
        /* make room: move the partial line to the front, grow up to the line limit */
        if (r->pos > 0) {
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
            r->len -= r->pos;
            r->pos = 0;
        }
        scanned = r->len;
        if (r->cap - r->len < READ_CHUNK) {
            if (r->cap >= HP_MAX_LINE + READ_CHUNK)
                break;
            if (GROW_ARRAY(r->buf, &r->cap, r->cap * 2) != 0) {
                ev_error_set(err, "out of memory");
                *st = HP_NO_MEMORY;
                return NULL;
            }
        }
        r->len += source_read_some(&r->src, r->buf + r->len, r->cap - r->len - 1,
                                   &r->at_eof, &r->read_errno);
    }
    ev_error_set(err, "line %llu: longer than %u bytes", (unsigned long long)r->line_no + 1,
                 HP_MAX_LINE);
    *st = HP_LIMIT;
    return NULL;
}

/* An error quoting the line as it is (its first 60 bytes, never cut inside a UTF-8
 * character). */
static enum hp_status bad(struct hp_reader *r, struct ev_error *err, const char *what,
                          const char *line)
{
    size_t n = strlen(line), shown = n;
    if (n > 60) {
        shown = 60;
        while (shown > 0 && ((unsigned char)line[shown] & 0xc0) == 0x80)
            shown--;
    }
    ev_error_set(err, "line %llu: %s: '%.*s%s'", (unsigned long long)r->line_no, what,
                 (int)shown, line, shown < n ? "..." : "");
    return HP_BAD;
}

/* --- fields --------------------------------------------------------------------------- */

/* Seconds as nanoseconds: digits with an optional fraction; exponents through strtod. */
static bool parse_seconds(const char *s, uint64_t *ns)
{
    const char *p = s;
    uint64_t whole = 0, frac = 0, scale = 1000000000u;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (whole > UINT64_MAX / 10 / 1000000000u)
            return false;
        whole = whole * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++) {
            if (scale > 1) {
                scale /= 10;
                frac += (uint64_t)(*p - '0') * scale;
            }
        }
    }
    if (*p == 'e' || *p == 'E') {
        char *end;
        double v = strtod(s, &end);
        if (*end || !(v >= 0) || v > 1.8e10)
            return false;
        *ns = (uint64_t)(v * 1e9 + 0.5);
        return true;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p)
        return false;
    *ns = whole * 1000000000u + frac;
    return true;
}

static bool parse_bytes(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
            return false;
        v = v * 10 + d;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    *out = v;
    return *s == '\0';
}

/* Whether s is one quoted string ("" for a quote), with blanks around it. */
static bool is_quoted(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s++ != '"')
        return false;
    for (;; s++) {
        if (*s == '\0')
            return false;
        if (*s == '"') {
            if (s[1] != '"')
                break;
            s++;
        }
    }
    for (s++; *s == ' ' || *s == '\t'; s++)
        ;
    return *s == '\0';
}

/* A quoted header string, with "" for a quote, unquoted in place; NULL, with the line
 * left as it was (for the message), when it is not one. */
static char *parse_quoted(char *s)
{
    if (!is_quoted(s))
        return NULL;
    while (*s == ' ' || *s == '\t')
        s++;
    /* is_quoted found the closing quote: copy up to it, each "" as one quote */
    char *out = s;
    for (char *in = s + 1; *in != '"' || in[1] == '"'; in++) {
        in += *in == '"';
        *out++ = *in;
    }
    *out = '\0';
    return s;
}

/* The runtime's DATE ("Sun Nov 22 03:30 2026", local time) as Unix seconds. */
static bool parse_date(const char *text, int64_t *seconds)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(text, "%a %b %d %H:%M %Y", &tm);
    if (!end || *end)
        return false;
    tm.tm_isdst = -1;
    time_t t = mktime(&tm);
    if (t == (time_t)-1)
        return false;
    *seconds = (int64_t)t;
    return true;
}

/* --- censuses ----------------------------------------------------------------------- */

static enum hp_status report(struct hp_reader *r, uint64_t time_ns, const struct census_entry *e,
                             size_t count, struct ev_error *err)
{
    /* Outputs take time to go forward (a chart's areas, the .hp itself): a census before
     * the one reported last is put at that one's time, and the warning says so. */
    if (r->censuses > 0 && time_ns < r->last_ns) {
        if (r->backwards++ == 0) {
            r->backwards_line = r->sample_line;
            r->backwards_ns = time_ns;
            r->backwards_prev_ns = r->last_ns;
        }
        time_ns = r->last_ns;
    }
    struct census_frame frame = { time_ns, 0, count, e };
    if (r->events.frame && r->events.frame(r->events.ctx, &frame) != 0) {
        ev_error_set(err, "line %llu: stopped by an output", (unsigned long long)r->line_no);
        return HP_STOPPED;
    }
    r->censuses++;
    r->last_ns = time_ns;
    return HP_OK;
}

/* A census is complete: empty ones are held back (see hpread.h). */
static enum hp_status end_sample(struct hp_reader *r, struct ev_error *err)
{
    r->in_sample = false;
    bool first = !r->seen_sample;
    r->seen_sample = true;
    if (r->pending_empty) {
        r->pending_empty = false;
        enum hp_status st = report(r, r->pending_ns, NULL, 0, err);
        if (st != HP_OK)
            return st;
    }
    if (r->count == 0) {
        if (!(first && r->sample_ns == 0)) {
            r->pending_empty = true;
            r->pending_ns = r->sample_ns;
        }
        return HP_OK;
    }
    return report(r, r->sample_ns, r->entries, r->count, err);
}

static enum hp_status add_entry(struct hp_reader *r, char *line, size_t len, struct ev_error *err)
{
    char *sep = strrchr(line, '\t');
    if (!sep)
        sep = strrchr(line, ' ');
    uint64_t bytes;
    if (!sep || sep == line || !parse_bytes(sep + 1, &bytes))
        return bad(r, err, "expected a label, a tab and a number of bytes", line);
    if (bytes > UINT64_MAX - r->sample_total) {
        ev_error_set(err, "line %llu: the census begun at line %llu totals more than 2^64 "
                     "bytes", (unsigned long long)r->line_no,
                     (unsigned long long)r->sample_line);
        return HP_LIMIT;
    }
    r->sample_total += bytes;
    size_t label_len = (size_t)(sep - line);
    uint32_t band;
    enum table_status bs = bands_string(r->bands, line, label_len, &band);
    if (bs == TABLE_NO_MEMORY) {
        ev_error_set(err, "out of memory");
        return HP_NO_MEMORY;
    }
    if (bs == TABLE_FULL) {
        ev_error_set(err, "line %llu: more than %u distinct bands", (unsigned long long)r->line_no,
                     BANDS_MAX);
        return HP_LIMIT;
    }
    if (r->count == r->entry_cap) {
        if (r->entry_cap >= CENSUS_MAX_ENTRIES) {
            ev_error_set(err, "line %llu: a census of more than %u entries",
                         (unsigned long long)r->line_no, CENSUS_MAX_ENTRIES);
            return HP_LIMIT;
        }
        if (GROW_ARRAY(r->entries, &r->entry_cap, r->count + 1) != 0) {
            ev_error_set(err, "out of memory");
            return HP_NO_MEMORY;
        }
    }
    r->entries[r->count++] = (struct census_entry){ band, bytes };
    (void)len;
    return HP_OK;
}

/* The keyword at the start of line, if it is word; *rest points past it. */
static bool keyword(char *line, const char *word, char **rest)
{
    size_t n = strlen(word);
    if (strncmp(line, word, n) != 0 || (line[n] != ' ' && line[n] != '\t' && line[n] != '\0'))
        return false;
    *rest = line + n;
    while (**rest == ' ' || **rest == '\t')
        (*rest)++;
    return true;
}

static enum hp_status header_line(struct hp_reader *r, char *line, char *rest,
                                  const char *word, struct ev_error *err)
{
    char *text = parse_quoted(rest);
    if (!text)
        return bad(r, err, "expected a quoted string after the keyword", line);
    if (strcmp(word, "JOB") == 0) {
        char *copy = strdup(text);
        if (!copy) {
            ev_error_set(err, "out of memory");
            return HP_NO_MEMORY;
        }
        free(r->info.program);
        r->info.program = copy;
        /* a .hp is a heap profile; its JOB line says which breakdown the run asked for */
        r->info.has_heap_profile = true;
        r->info.breakdown = breakdown_from_job(copy);
    } else if (strcmp(word, "DATE") == 0) {
        r->info.has_start_time = parse_date(text, &r->info.start_time);
    }
    return HP_OK;
}

/* "BEGIN_SAMPLE t": a census opens. */
static enum hp_status begin_sample(struct hp_reader *r, const char *line, char *rest,
                                   struct ev_error *err)
{
    uint64_t ns;
    if (!parse_seconds(rest, &ns))
        return bad(r, err, "expected a time in seconds", line);
    r->in_sample = true;
    r->sample_ns = ns;
    r->sample_line = r->line_no;
    r->count = 0;
    r->sample_total = 0;
    return HP_OK;
}

static enum hp_status sample_line(struct hp_reader *r, char *line, size_t len,
                                  struct ev_error *err)
{
    char *rest;
    uint64_t ns;
    if (keyword(line, "END_SAMPLE", &rest)) {
        if (!parse_seconds(rest, &ns))
            return bad(r, err, "expected a time in seconds", line);
        return end_sample(r, err);
    }
    if (keyword(line, "BEGIN_SAMPLE", &rest)) {
        /* a census that never ended: close it as the runtime would have */
        enum hp_status st = end_sample(r, err);
        return st == HP_OK ? begin_sample(r, line, rest, err) : st;
    }
    return add_entry(r, line, len, err);
}

static enum hp_status any_line(struct hp_reader *r, char *line, size_t len, struct ev_error *err)
{
    static const char *const headers[] = { "JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT" };
    char *rest;
    uint64_t ns;
    if (len == 0)
        return HP_OK;
    if (r->in_sample)
        return sample_line(r, line, len, err);
    for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
        if (keyword(line, headers[i], &rest))
            return header_line(r, line, rest, headers[i], err);
    if (keyword(line, "BEGIN_SAMPLE", &rest))
        return begin_sample(r, line, rest, err);
    if (keyword(line, "MARK", &rest)) {
        if (!parse_seconds(rest, &ns))
            return bad(r, err, "expected a time in seconds", line);
        if (r->events.marker && r->events.marker(r->events.ctx, ns, "", 0) != 0) {
            ev_error_set(err, "line %llu: stopped by an output", (unsigned long long)r->line_no);
            return HP_STOPPED;
        }
        return HP_OK;
    }
    if (keyword(line, "END_SAMPLE", &rest))
        return bad(r, err, "END_SAMPLE without BEGIN_SAMPLE", line);
    /* Text that is not a .hp either: say "not an eventlog" as for any other input. */
    return bad(r, err,
               r->line_no == 1 ? "not an eventlog, nor a .hp heap profile (expected JOB)"
                               : "expected a header line or BEGIN_SAMPLE",
               line);
}

enum hp_status hp_reader_run(struct hp_reader *r, struct ev_error *err)
{
    enum hp_status st = HP_OK;
    size_t len;
    char *line;
    while ((line = next_line(r, &len, &st, err)) != NULL) {
        if (len != strlen(line))
            return bad(r, err, "a NUL byte in the line", line);
        st = any_line(r, line, len, err);
        if (st == HP_BAD && r->unterminated && r->in_sample)
            break;   /* a census cut off in the middle of its last line: truncation */
        if (st != HP_OK)
            return st;
    }
    if (st == HP_BAD)
        st = HP_OK;
    if (st != HP_OK)
        return st;
    if (r->pending_empty)
        r->info.end_time_ns = r->pending_ns;   /* the runtime's closing empty census */
    if (r->info.end_time_ns < r->last_ns)
        r->info.end_time_ns = r->last_ns;
    if (r->in_sample) {
        ev_error_set(err, "line %llu: the file ends inside the census begun at line %llu "
                     "(%.2f s), which was not kept; kept %llu censuses",
                     (unsigned long long)r->line_no, (unsigned long long)r->sample_line,
                     r->sample_ns / 1e9, (unsigned long long)r->censuses);
        return HP_TRUNCATED;
    }
    if (!r->seen_sample && !r->info.program) {
        ev_error_set(err, "line %llu: no .hp header and no census", (unsigned long long)r->line_no);
        return HP_BAD;
    }
    return HP_OK;
}
