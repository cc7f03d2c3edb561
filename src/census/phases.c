/* phases.c: --phases, a run's phases from its markers (phases.h).
 *
 * The first read keeps the markers the rule counts (every one, or those REGEX matches),
 * with their file order for ties; they are then put in time order (markers of different
 * capabilities reach the file in their own blocks) and paired. The first few distinct
 * texts of all markers are kept for the usage error that names them when none counts.
 */
#include "census/phases.h"

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"
#include "base/order.h"
#include "base/textcopy.h"
#include "base/utf8.h"
#include "census/markerwindow.h"

#define NAMED_MARKERS 8            /* texts the usage error names at most */
#define NAMED_TEXT 40              /* bytes of each */

static const char START[] = " start", END[] = " end";

struct counted {
    uint64_t time_ns, seq;
    char *text;                    /* NUL-terminated, at most PROFILE_MAX_MARKER_TEXT */
    size_t len;
};

struct collect {
    const regex_t *re;             /* NULL: every marker counts */
    struct counted *m;
    size_t count, cap;
    uint64_t markers;              /* all markers read */
    uint64_t not_kept;             /* counted markers past SUMMARY_MAX_MARKERS */
    char named[NAMED_MARKERS][NAMED_TEXT + 1];
    size_t named_count;
    bool more_named;
};

static void name_marker(struct collect *c, const char *text, size_t len)
{
    if (len > NAMED_TEXT)
        len = utf8_boundary(text, NAMED_TEXT);
    for (size_t i = 0; i < c->named_count; i++)
        if (strlen(c->named[i]) == len && memcmp(c->named[i], text, len) == 0)
            return;
    if (c->named_count == NAMED_MARKERS) {
        c->more_named = true;
        return;
    }
    memcpy(c->named[c->named_count], text, len);
    c->named[c->named_count++][len] = '\0';
}

static int on_marker(void *ctx, uint64_t time_ns, const char *text, size_t len)
{
    struct collect *c = ctx;
    c->markers++;
    name_marker(c, text, len);
    if (len > PROFILE_MAX_MARKER_TEXT)
        len = utf8_boundary(text, PROFILE_MAX_MARKER_TEXT);   /* as the run model keeps it */
    char *copy = text_copy(text, len);
    if (!copy)
        return -1;
    if (c->re && regexec(c->re, copy, 0, NULL, 0) != 0) {
        free(copy);
        return 0;
    }
    if (c->count == SUMMARY_MAX_MARKERS) {
        c->not_kept++;
        free(copy);
        return 0;
    }
    if (GROW_ARRAY(c->m, &c->cap, c->count + 1) != 0) {
        free(copy);
        return -1;
    }
    c->m[c->count] = (struct counted){ time_ns, c->count, copy, len };
    c->count++;
    return 0;
}

static int by_time(const void *a, const void *b)
{
    const struct counted *x = a, *y = b;
    int c = order_u64(x->time_ns, y->time_ns);
    return c ? c : order_u64(x->seq, y->seq);
}

static bool ends_with(const struct counted *m, const char *suffix)
{
    size_t n = strlen(suffix);
    return m->len > n && memcmp(m->text + m->len - n, suffix, n) == 0;
}

/* The phase an "X start" or "X end" marker names: X's length. */
static size_t pair_name_len(const struct counted *m, const char *suffix)
{
    return m->len - strlen(suffix);
}

struct build {
    struct phase_list *out;
    size_t cap;
    uint64_t dropped;              /* markers dropped and not said one by one */
    uint64_t past_max;             /* phases past PHASES_MAX */
};

/* A marker the pairing could not use, said in a note (the first PHASES_NOTES - 3; the
 * rest counted in one note; the last two are for the phases past PHASES_MAX and those
 * outside --from/--to). */
static void drop(struct build *b, const struct counted *m, const char *why)
{
    struct phase_list *l = b->out;
    if (l->note_count == PHASES_NOTES - 3) {
        b->dropped++;
        return;
    }
    size_t len = m->len > NAMED_TEXT ? utf8_boundary(m->text, NAMED_TEXT) : m->len;
    ev_error_note(&l->notes[l->note_count++], "--phases: \"%.*s\" at %.6f s dropped: %s",
                  (int)len, m->text, m->time_ns / 1e9, why);
}

static int add_phase(struct build *b, const char *name, size_t len, uint64_t start_ns,
                     uint64_t end_ns)
{
    struct phase_list *l = b->out;
    if (GROW_ARRAY(l->phases, &b->cap, l->count + 1) != 0)
        return -1;
    char *copy = text_copy(name, len);
    if (!copy)
        return -1;
    l->phases[l->count++] = (struct phase){ copy, start_ns, end_ns };
    return 0;
}

/* Markers that are neither "X start" nor "X end" (every marker under `marker`): each
 * starts a phase the next ends. */
static int plain_phases(struct build *b, const struct collect *c, bool pairs)
{
    const struct counted *open = NULL;
    for (size_t i = 0; i < c->count; i++) {
        const struct counted *m = &c->m[i];
        if (pairs && (ends_with(m, START) || ends_with(m, END)))
            continue;
        if (open && add_phase(b, open->text, open->len, open->time_ns, m->time_ns) != 0)
            return -1;
        open = m;
    }
    return open ? add_phase(b, open->text, open->len, open->time_ns, UINT64_MAX) : 0;
}

static bool same_name(const struct counted *a, size_t alen, const struct counted *b,
                      size_t blen)
{
    return alen == blen && memcmp(a->text, b->text, alen) == 0;
}

/* "X start" ... "X end" pairs; what does not pair is dropped, in a note. */
static int paired_phases(struct build *b, const struct collect *c)
{
    const struct counted **open = calloc(c->count ? c->count : 1, sizeof *open);
    size_t opened = 0;
    if (!open)
        return -1;
    for (size_t i = 0; i < c->count; i++) {
        const struct counted *m = &c->m[i];
        bool start = ends_with(m, START);
        if (!start && !ends_with(m, END))
            continue;
        size_t len = pair_name_len(m, start ? START : END);
        size_t k = 0;
        while (k < opened && !same_name(open[k], pair_name_len(open[k], START), m, len))
            k++;
        if (start) {
            if (k < opened)
                drop(b, open[k], "the same start again before its end");
            else
                opened++;
            open[k] = m;
        } else if (k == opened) {
            drop(b, m, "no start before it");
        } else {
            if (add_phase(b, m->text, len, open[k]->time_ns, m->time_ns) != 0) {
                free(open);
                return -1;
            }
            open[k] = open[--opened];
        }
    }
    for (size_t k = 0; k < opened; k++)
        drop(b, open[k], "no end after it");
    free(open);
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const struct phase *x = a, *y = b;
    int c = order_u64(x->start_ns, y->start_ns);
    return c ? c : order_u64(x->end_ns, y->end_ns);
}

/* The usage error when no marker counts: the markers the run has. */
static void none_counted(const struct collect *c, const char *rule, struct ev_error *err)
{
    char list[200] = "";
    size_t used = 0;
    bool more = c->more_named;
    for (size_t i = 0; i < c->named_count; i++) {
        int n = snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "",
                         c->named[i]);
        if (n < 0 || (size_t)n >= sizeof list - used) {
            list[used] = '\0';
            more = true;
            break;
        }
        used += (size_t)n;
    }
    if (!c->markers)
        ev_error_set(err, "--phases %s: the run has no marker (traceMarker)", rule);
    else
        ev_error_set(err, "--phases %s: no marker matches; the run's markers: %s%s", rule,
                     list, more ? ", ..." : "");
}

static void free_counted(struct collect *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->m[i].text);
    free(c->m);
}

enum phases_status phases_resolve(const struct input_options *iopt, const char *rule,
                                  struct phase_list *out, struct ev_error *err)
{
    memset(out, 0, sizeof *out);
    bool every = strcmp(rule, PHASES_EVERY_MARKER) == 0;
    regex_t re;
    if (!every) {
        int rc = regcomp(&re, rule, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[128];
            regerror(rc, &re, why, sizeof why);
            ev_error_set(err, "--phases %s: not a regular expression (POSIX extended): %s",
                         rule, why);
            return PHASES_USAGE;
        }
    }
    struct collect c = { .re = every ? NULL : &re };
    enum phases_status st = PHASES_OK;
    struct build b = { .out = out };
    if (marker_scan(iopt, on_marker, &c, err) != 0) {
        st = PHASES_BAD_INPUT;
        goto done;
    }
    if (!c.count) {
        none_counted(&c, rule, err);
        st = PHASES_USAGE;
        goto done;
    }
    qsort(c.m, c.count, sizeof *c.m, by_time);
    if (plain_phases(&b, &c, !every) != 0 || (!every && paired_phases(&b, &c) != 0)) {
        ev_error_set(err, "out of memory");
        st = PHASES_BAD_INPUT;
        goto done;
    }
    if (!out->count) {
        ev_error_set(err, "--phases %s: the %zu matching markers make no phase (an \"X start\" "
                     "needs an \"X end\" after it)", rule, c.count);
        st = PHASES_USAGE;
        goto done;
    }
    qsort(out->phases, out->count, sizeof *out->phases, by_start);
    while (out->count > PHASES_MAX) {   /* the first PHASES_MAX in time are kept */
        free(out->phases[--out->count].name);
        b.past_max++;
    }
    if (b.dropped)
        ev_error_note(&out->notes[out->note_count++], "--phases: %llu more \"start\" or "
                      "\"end\" markers dropped, unmatched", (unsigned long long)b.dropped);
    if (b.past_max || c.not_kept)   /* (a marker past the bound makes no phase) */
        ev_error_note(&out->notes[out->note_count++], "--phases: the phases past the first "
                      "%d are dropped (%llu phases; %llu counted markers past the first %d "
                      "not kept)", PHASES_MAX, (unsigned long long)b.past_max,
                      (unsigned long long)c.not_kept, SUMMARY_MAX_MARKERS);
done:
    free_counted(&c);
    if (!every)
        regfree(&re);
    return st;
}

void phase_list_clip(struct phase_list *l, struct time_window w)
{
    size_t kept = 0, out = 0;
    for (size_t i = 0; i < l->count; i++) {
        struct phase p = l->phases[i];
        if (p.end_ns < w.from_ns || p.start_ns > w.to_ns) {
            free(p.name);
            out++;
            continue;
        }
        if (p.start_ns < w.from_ns)
            p.start_ns = w.from_ns;
        if (p.end_ns > w.to_ns)
            p.end_ns = w.to_ns;
        l->phases[kept++] = p;
    }
    l->count = kept;
    if (out && l->note_count < PHASES_NOTES)
        ev_error_note(&l->notes[l->note_count++], "--phases: %zu of the phases lie outside "
                      "--from/--to, left out; the others are cut to it", out);
}

void phase_list_free(struct phase_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->phases[i].name);
    free(l->phases);
    memset(l, 0, sizeof *l);
}
