/* gates.c: evaluating --max-peak, --max-increase, --max-growth, --max-pause and
 * --min-productivity (gates.h), on the whole run and on each phase by the same functions
 * (struct judged below: what is judged, its figures and its name in the messages). */
#include "facts/gates.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "model/peak.h"
#include "model/gcstats.h"
#include "model/profile.h"
#include "model/runmodel.h"
#include "facts/summary_facts.h"
#include "facts/suspects.h"

/* Whether l asks for any gate. */
static bool wanted(const struct gate_limits *l)
{
    return l->has_max_peak || l->has_max_increase || l->has_max_growth || l->has_max_pause ||
           l->has_min_productivity;
}

const char *gate_name(enum gate_kind kind)
{
    static const char *const names[GATE_KINDS] = { "max-peak", "max-increase", "max-growth",
                                                   "max-pause", "min-productivity" };
    return names[kind];
}

const char *gate_description(enum gate_kind kind)
{
    static const char *const words[GATE_KINDS] = {
        "peak residency within the budget",
        "peak residency no more above the base's than allowed",
        "no leak suspect growing faster than allowed",
        "no garbage collection pause longer than allowed",
        "productivity (mutator share of elapsed time) at least the minimum",
    };
    return words[kind];
}

const char *gate_verdict_name(enum gate_verdict verdict)
{
    static const char *const names[] = { "passed", "failed", "unchecked" };
    return names[verdict];
}

const char *gate_unit(enum gate_kind kind)
{
    static const char *const units[GATE_KINDS] = { "bytes", "percent", "bytes_per_s",
                                                   "seconds", "percent" };
    return units[kind];
}

void gates_needs(const struct gate_limits *l, const struct profile_options *window,
                 struct run_model_needs *needs)
{
    if (wanted(l))
        needs->peak = true;
    if (l->has_max_pause || l->has_min_productivity)
        needs->gc = true;
    if (l->has_max_growth) {
        /* suspects are judged over every band in the window, as the summary's feed */
        struct profile_options every;
        profile_options_every_band(&every);
        run_model_need_summary(needs, window ? window : &every);
    }
}

static struct gate *add(struct gate_report *r, enum gate_kind kind)
{
    struct gate *g = &r->gates[r->count++];
    memset(g, 0, sizeof *g);
    g->kind = kind;
    g->verdict = GATE_PASSED;
    g->measured_value = NAN;
    return g;
}

/* Whether measured and allowed print as one number (a sign aside): "+33.3 %" against
 * "+33.3 %", "+1.00 MiB/s" against "1.00 MiB/s". */
static bool alike(const struct gate *g)
{
    return strcmp(g->measured + (g->measured[0] == '+'), g->allowed + (g->allowed[0] == '+')) == 0;
}

/* A size or rate in the unit format_bytes gives the limit, with decimals digits: "512.000
 * MiB"; sign: '+' before a positive value (a rate), or 0; suffix: "" or "/s". */
static void in_unit(double v, double limit, int decimals, char sign, const char *suffix,
                    char *out, size_t size)
{
    unsigned u = 0;
    double scale = 1;
    while (u < FORMAT_UNITS - 1 && limit / scale >= 1024)
        scale *= 1024, u++;
    format_snprintf(out, size, "%s%.*f %s%s", sign && v > 0 ? "+" : "", decimals, v / scale,
                    format_unit_name(u), suffix);
}

/* Measured and allowed printed again, when they print alike but differ, with as many
 * more digits as tell them apart (percentages up to six decimals, then all 17 digits;
 * sizes and rates up to three, then in whole bytes): a message that says "is +33.3 % ...
 * allows +33.3 %" says nothing. */
static void tell_apart(struct gate *g)
{
    double m = g->measured_value, a = g->allowed_value;
    if (!g->measured[0] || m == a || !alike(g))
        return;
    bool rate = g->kind == GATE_MAX_GROWTH, percent = g->kind == GATE_MAX_INCREASE;
    for (int d = 2; d <= (percent ? 6 : 3) && alike(g); d++) {
        if (percent) {
            format_snprintf(g->measured, sizeof g->measured, "%+.*f %%", d, m);
            format_snprintf(g->allowed, sizeof g->allowed, "%+.*f %%", d, a);
        } else {
            in_unit(m, a, d, rate ? '+' : 0, rate ? "/s" : "", g->measured, sizeof g->measured);
            in_unit(a, a, d, 0, rate ? "/s" : "", g->allowed, sizeof g->allowed);
        }
    }
    if (alike(g) && percent) {    /* closer still: every digit a double has */
        format_snprintf(g->measured, sizeof g->measured, "%+.17g %%", m);
        format_snprintf(g->allowed, sizeof g->allowed, "%+.17g %%", a);
    } else if (alike(g)) {        /* bytes apart: whole bytes */
        format_snprintf(g->measured, sizeof g->measured, "%s%.0f B%s", rate && m > 0 ? "+" : "",
                        m, rate ? "/s" : "");
        format_snprintf(g->allowed, sizeof g->allowed, "%.0f B%s", a, rate ? "/s" : "");
    }
}

/* What a gate judges: the whole run (gates_check) or one of its phases
 * (gates_check_phase). The heap gates ask the same of both, of the figures below, and
 * their messages name what they judged: a phase's messages begin 'phase "NAME": '. What only the
 * whole run knows (when its peak was and its largest band then; its fastest suspect's
 * growth over the whole run, and whether other suspects rose too fast) is said where
 * known. */
struct judged {
    const char *phase;             /* the phase's name; NULL: the whole run */
    const char *what;              /* what has no census: "the input", "the phase" */
    /* the whole run: it and its --compare base (or NULL), for --max-increase, which a
     * phase has not: the base has no phases */
    const struct run_model *run, *base;
    uint64_t length_ns;            /* a phase's length */
    uint64_t censuses;
    uint64_t peak_bytes;           /* the largest census total */
    bool peak_timed;               /* peak_ns known */
    uint64_t peak_ns;
    const char *largest;           /* the largest band at the peak, largest_len bytes (at
                                    * most 120 said); NULL: not known */
    size_t largest_len;
    uint64_t largest_bytes;
    size_t suspects;               /* leak suspects; the fastest: */
    const char *suspect;           /* its name, suspect_len bytes */
    size_t suspect_len;
    double rise;                   /* its rise to its peak, bytes per second */
    uint64_t rise_peak_ns;         /* when it peaked */
    bool has_growth;               /* its growth over the whole run (growth) known */
    double growth;
    size_t faster;                 /* suspects rising faster than --max-growth allows */
    /* The collector's figures (+RTS -l), of the whole run as -s gives them or of the
     * collections begun in the phase; NULL: none. */
    const struct gc_summary *run_gc;
    const struct phase_gc *phase_gc;
};

/* g's why: the message fmt makes, after 'phase "NAME": ' when j is a phase. */
static void say(const struct judged *j, struct gate *g, const char *fmt, ...) EV_PRINTF(3, 4);
static void say(const struct judged *j, struct gate *g, const char *fmt, ...)
{
    char text[sizeof g->why.what];
    va_list ap;
    va_start(ap, fmt);
    format_vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (j->phase)
        ev_error_set(&g->why, "phase \"%s\": %s", j->phase, text);
    else
        ev_error_set(&g->why, "%s", text);
}

/* --max-peak: the largest census total. */
static void judge_peak(const struct gate_limits *l, const struct judged *j, struct gate *g)
{
    format_bytes((double)l->max_peak, g->allowed, sizeof g->allowed);
    g->allowed_value = (double)l->max_peak;
    if (!j->censuses) {
        g->verdict = GATE_UNCHECKED;
        say(j, g, "--max-peak cannot be checked: %s has no heap census", j->what);
        return;
    }
    format_bytes((double)j->peak_bytes, g->measured, sizeof g->measured);
    g->measured_value = (double)j->peak_bytes;
    tell_apart(g);
    if (j->peak_bytes <= l->max_peak)
        return;
    g->verdict = GATE_FAILED;
    char when[32] = "", largest[192] = "";
    if (j->peak_timed)
        format_snprintf(when, sizeof when, " at %.2f s", j->peak_ns / 1e9);
    if (j->largest) {
        char bytes[32];
        format_bytes((double)j->largest_bytes, bytes, sizeof bytes);
        snprintf(largest, sizeof largest, "; the largest band then: %.*s (%s)",
                 (int)(j->largest_len > 120 ? 120 : j->largest_len), j->largest, bytes);
    }
    say(j, g, "peak residency %s%s is over the budget of %s%s", g->measured, when, g->allowed,
        largest);
}

static void max_increase(const struct gate_limits *l, const struct run_model *run,
                         const struct run_model *base, struct gate *g)
{
    summary_format_percent(l->max_increase, g->allowed, sizeof g->allowed);
    g->allowed_value = l->max_increase;
    const char *missing = !base ? "there is no --compare base"
                          : !base->peak.censuses ? "the --compare base has no heap census"
                          : !base->peak.bytes ? "the --compare base's peak is 0 bytes"
                          : !run->peak.censuses ? "the input has no heap census" : NULL;
    if (missing) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "--max-increase cannot be checked: %s", missing);
        return;
    }
    double percent = summary_percent_change(base->peak.bytes, run->peak.bytes);
    summary_format_percent(percent, g->measured, sizeof g->measured);
    g->measured_value = percent;
    tell_apart(g);
    if (!(percent > l->max_increase))
        return;
    g->verdict = GATE_FAILED;
    char now[32], was[32];
    format_bytes((double)run->peak.bytes, now, sizeof now);
    format_bytes((double)base->peak.bytes, was, sizeof was);
    ev_error_set(&g->why, "peak residency %s is %s over the --compare base's %s; "
                 "--max-increase allows %s", now, g->measured, was, g->allowed);
}

/* --max-growth: the fastest leak suspect's rise to its peak (0 without a suspect). */
static void judge_growth(const struct gate_limits *l, const struct judged *j, struct gate *g)
{
    char rate[32];
    format_bytes(l->max_growth, rate, sizeof rate);
    snprintf(g->allowed, sizeof g->allowed, "%s/s", rate);
    g->allowed_value = l->max_growth;
    if (j->censuses < PROFILE_SUSPECT_CENSUSES) {
        g->verdict = GATE_UNCHECKED;
        if (!j->censuses)
            say(j, g, "--max-growth cannot be checked: %s has no heap census", j->what);
        else
            say(j, g, "--max-growth cannot be checked: %llu censuses are too few to tell a "
                "leak (%d or more)", (unsigned long long)j->censuses, PROFILE_SUSPECT_CENSUSES);
        return;
    }
    double rise = j->suspects ? j->rise : 0;
    format_rate(rise, g->measured, sizeof g->measured);
    g->measured_value = rise;
    tell_apart(g);
    if (!j->suspects || !(j->rise > l->max_growth))
        return;
    g->verdict = GATE_FAILED;
    /* the rise to the peak, which suspects are judged on, is not the whole run's growth
     * the summaries' tables show: the message names both */
    char whole[80] = "";
    if (j->has_growth) {
        char growth[40];
        format_rate(j->growth, growth, sizeof growth);
        snprintf(whole, sizeof whole, " (its growth over the whole run: %s)", growth);
    }
    say(j, g, "leak suspect %.*s rose %s to its peak at %.2f s%s; --max-growth allows %s for "
        "the rise%s", (int)j->suspect_len, j->suspect, g->measured, j->rise_peak_ns / 1e9,
        whole, g->allowed, j->faster > 1 ? " (and other suspects too)" : "");
}

/* The whole run as the gates judge it: its peak; for --max-growth its leak suspects
 * over every band (the summary's), the fastest's name written into label (cap bytes);
 * for the collector's gates its figures, written into gc. 0, or -1 with err set (out of
 * memory). */
static int run_judged(const struct gate_limits *l, const struct run_model *run,
                      const struct run_model *base, struct judged *j, char *label, size_t cap,
                      struct gc_summary *gc, struct ev_error *err)
{
    const struct peak *pk = &run->peak;
    *j = (struct judged){ .what = "the input", .run = run, .base = base,
                          .censuses = pk->censuses, .peak_bytes = pk->bytes,
                          .peak_timed = true, .peak_ns = pk->time_ns };
    if ((l->has_max_pause || l->has_min_productivity) && run_model_gc(run, gc))
        j->run_gc = gc;
    if (pk->count) {
        j->largest = bands_label(run->bands, pk->entries[0].band, &j->largest_len);
        j->largest_bytes = pk->entries[0].bytes;
    }
    if (!l->has_max_growth || pk->censuses < PROFILE_SUSPECT_CENSUSES)
        return 0;
    struct profile_options every;
    profile_options_every_band(&every);
    struct summary_view sv;
    if (summary_view_open(&sv, run, &every, err) != 0)
        return -1;
    const struct profile_view *v = &sv.view;
    size_t sus[PROFILE_SUSPECTS_LISTED];
    j->suspects = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    if (j->suspects) {
        /* suspects come fastest first: the first is the one measured */
        const struct profile_band *b = &v->bands[sus[0]];
        j->rise = b->stats.rise;
        j->rise_peak_ns = b->stats.peak_ns;
        j->has_growth = true;
        j->growth = b->stats.growth;
        j->suspect_len = bands_person_name(run->bands, b->band, label, cap);
        j->suspect = label;
        for (size_t i = 0; i < j->suspects; i++)
            j->faster += v->bands[sus[i]].stats.rise > l->max_growth;
    }
    summary_view_close(&sv);
    return 0;
}

/* A phase as the gates judge it (facts/phases.h worked out its figures). */
static void phase_judged(const struct gate_phase *p, struct judged *j)
{
    *j = (struct judged){ .phase = p->name, .what = "the phase", .length_ns = p->length_ns,
                          .censuses = p->censuses, .peak_bytes = p->peak_bytes,
                          .suspects = p->suspects, .suspect = p->suspect,
                          /* (a phase's message names at most 120 bytes of it) */
                          .suspect_len = p->suspect_len > 120 ? 120 : p->suspect_len,
                          .rise = p->rise, .rise_peak_ns = p->rise_peak_ns, .phase_gc = p->gc };
}

/* A pause in milliseconds with decimals digits: "75.7 ms". */
static void format_pause(uint64_t ns, int decimals, char *out, size_t size)
{
    format_snprintf(out, size, "%.*f ms", decimals, (double)ns / 1e6);
}

/* --max-pause's measured and allowed pauses, with the digits that tell them apart (up to
 * nanoseconds) when they differ; the allowed one after its generation, if any. */
static void pause_texts(const struct gate_limits *l, uint64_t measured, struct gate *g)
{
    char limit[24];
    int d = 1;
    for (;;) {
        format_pause(l->max_pause_ns, d, limit, sizeof limit);
        format_pause(measured, d, g->measured, sizeof g->measured);
        if (measured == l->max_pause_ns || strcmp(g->measured, limit) != 0 || d == 6)
            break;
        d++;
    }
    if (l->max_pause_gen >= 0)
        snprintf(g->allowed, sizeof g->allowed, "gen%d: %s", l->max_pause_gen % 1000, limit);
    else
        snprintf(g->allowed, sizeof g->allowed, "%s", limit);
}

/* Whether j has the collector's figures; else the gate is unchecked, and why. */
static bool collector(const struct judged *j, struct gate *g)
{
    if (j->run_gc || j->phase_gc)
        return true;
    g->verdict = GATE_UNCHECKED;
    say(j, g, "--%s cannot be checked: the input has no garbage collection events (run the "
        "program with +RTS -l)", gate_name(g->kind));
    return false;
}

/* --max-pause's allowed pause, before anything is measured. */
static void pause_allowed(const struct gate_limits *l, struct gate *g)
{
    pause_texts(l, l->max_pause_ns, g);
    g->measured[0] = '\0';
    g->allowed_value = (double)l->max_pause_ns / 1e9;
}

/* --max-pause over the whole run: the worst pause of every generation (or of the one
 * asked for, which the run must have). */
static void max_pause(const struct gate_limits *l, const struct judged *j, struct gate *g)
{
    pause_allowed(l, g);
    if (!collector(j, g))
        return;
    const struct gc_summary *s = j->run_gc;
    if (l->max_pause_gen >= (int)s->generations) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "--max-pause cannot be checked: the run has no generation %d "
                     "(its collections are of generations 0 to %u)", l->max_pause_gen,
                     s->generations - 1);
        return;
    }
    const struct gc_generation *worst = NULL;
    unsigned over = 0;
    for (unsigned i = 0; i < s->generations; i++) {
        if (l->max_pause_gen >= 0 && (int)i != l->max_pause_gen)
            continue;
        over += s->gen[i].max_pause_ns > l->max_pause_ns;
        if (!worst || s->gen[i].max_pause_ns > worst->max_pause_ns)
            worst = &s->gen[i];
    }
    g->measured_value = (double)worst->max_pause_ns / 1e9;
    pause_texts(l, worst->max_pause_ns, g);
    if (worst->max_pause_ns <= l->max_pause_ns)
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "the worst garbage collection pause, %s in generation %u "
                 "(of %llu collections), is longer than --max-pause allows (%s)%s",
                 g->measured, worst->gen, (unsigned long long)worst->collections, g->allowed,
                 over > 1 ? "; other generations' worst pauses too" : "");
}

/* --min-productivity's measured percentage, with the digits that tell it from the
 * allowed one (up to six decimals) when they differ. */
static void productivity_texts(const struct gate_limits *l, double percent, struct gate *g)
{
    g->measured_value = percent;
    format_snprintf(g->measured, sizeof g->measured, "%.1f %%", percent);
    for (int d = 2; d <= 6 && percent != l->min_productivity &&
                    strcmp(g->measured, g->allowed) == 0; d++) {
        format_snprintf(g->measured, sizeof g->measured, "%.*f %%", d, percent);
        format_snprintf(g->allowed, sizeof g->allowed, "%.*f %%", d, l->min_productivity);
    }
}

/* --min-productivity's allowed share, before anything is measured. */
static void productivity_allowed(const struct gate_limits *l, struct gate *g)
{
    format_snprintf(g->allowed, sizeof g->allowed, "%.1f %%", l->min_productivity);
    g->allowed_value = l->min_productivity;
}

/* --min-productivity over the whole run: -s's productivity. */
static void min_productivity(const struct gate_limits *l, const struct judged *j,
                             struct gate *g)
{
    productivity_allowed(l, g);
    if (!collector(j, g))
        return;
    const struct gc_summary *s = j->run_gc;
    double percent = 100 * s->productivity;
    productivity_texts(l, percent, g);
    if (!(percent < l->min_productivity))
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "productivity %s (mutator %.3f s, collector %.3f s of %.3f s "
                 "elapsed) is below --min-productivity's %s", g->measured, s->mut_ns / 1e9,
                 s->gc_ns / 1e9, s->elapsed_ns / 1e9, g->allowed);
}

/* --max-pause over a phase: the longest pause of the collections begun in it (of the
 * generation asked for), none: 0. */
static void phase_pause(const struct gate_limits *l, const struct judged *j, struct gate *g)
{
    pause_allowed(l, g);
    if (!collector(j, g))
        return;
    const struct phase_gc *gc = j->phase_gc;
    uint64_t worst = 0;
    unsigned gen = 0;
    for (unsigned i = 0; i < gc->generations; i++)
        if ((l->max_pause_gen < 0 || (int)i == l->max_pause_gen) && gc->worst_ns[i] > worst)
            worst = gc->worst_ns[i], gen = i;
    g->measured_value = (double)worst / 1e9;
    pause_texts(l, worst, g);
    if (worst <= l->max_pause_ns)
        return;
    g->verdict = GATE_FAILED;
    say(j, g, "the worst garbage collection pause, %s in generation %u (of %llu collections in "
        "the phase), is longer than --max-pause allows (%s)", g->measured, gen,
        (unsigned long long)gc->collections, g->allowed);
}

/* --min-productivity over a phase: the share of its length no collection begun in it
 * paused the program. */
static void phase_productivity(const struct gate_limits *l, const struct judged *j,
                               struct gate *g)
{
    productivity_allowed(l, g);
    if (!collector(j, g))
        return;
    if (!j->length_ns) {
        g->verdict = GATE_UNCHECKED;
        say(j, g, "--min-productivity cannot be checked: the phase has no length");
        return;
    }
    uint64_t pause = j->phase_gc->pause_ns;
    uint64_t gc = pause < j->length_ns ? pause : j->length_ns;
    double percent = 100.0 * (double)(j->length_ns - gc) / (double)j->length_ns;
    productivity_texts(l, percent, g);
    if (!(percent < l->min_productivity))
        return;
    g->verdict = GATE_FAILED;
    say(j, g, "productivity %s (collector %.3f s of the phase's %.3f s) is below "
        "--min-productivity's %s", g->measured, gc / 1e9, j->length_ns / 1e9, g->allowed);
}

/* Every gate of l that applies to j, evaluated on it into out, in enum order. */
static void judge(const struct gate_limits *l, const struct judged *j, struct gate_report *out)
{
    out->count = 0;
    if (l->has_max_peak)
        judge_peak(l, j, add(out, GATE_MAX_PEAK));
    if (l->has_max_increase && !j->phase)
        max_increase(l, j->run, j->base, add(out, GATE_MAX_INCREASE));
    if (l->has_max_growth)
        judge_growth(l, j, add(out, GATE_MAX_GROWTH));
    if (l->has_max_pause)
        (j->phase ? phase_pause : max_pause)(l, j, add(out, GATE_MAX_PAUSE));
    if (l->has_min_productivity)
        (j->phase ? phase_productivity : min_productivity)(l, j, add(out, GATE_MIN_PRODUCTIVITY));
}

void gates_check_phase(const struct gate_limits *l, const struct gate_phase *p,
                       struct gate_report *out)
{
    struct judged j;
    phase_judged(p, &j);
    judge(l, &j, out);
}

int gates_check(const struct gate_limits *l, const struct run_model *run,
                const struct run_model *base, struct gate_report *out, struct ev_error *err)
{
    struct judged j;
    char label[128];
    struct gc_summary gc;
    if (run_judged(l, run, base, &j, label, sizeof label, &gc, err) != 0)
        return -1;
    judge(l, &j, out);
    return 0;
}

int gates_parse_rate(const char *text, double *bytes_per_s)
{
    size_t len = strlen(text);
    if (len < 3 || strcmp(text + len - 2, "/s") != 0 || len - 2 >= 64)
        return -1;
    char size[64];
    memcpy(size, text, len - 2);
    size[len - 2] = '\0';
    uint64_t bytes;
    if (peak_parse_size(size, &bytes) != 0)
        return -1;
    *bytes_per_s = (double)bytes;
    return 0;
}

int gates_parse_percent(const char *text, double *percent)
{
    size_t len = strlen(text);
    if (!len || len >= 64 || strchr(text, 'x') || strchr(text, 'X') || text[0] == ' ' ||
        text[0] == '-' || text[0] == '+')
        return -1;
    char number[64];
    memcpy(number, text, len + 1);
    if (number[len - 1] == '%')
        number[--len] = '\0';
    char *end;
    double v = strtod(number, &end);
    if (!len || *end || !isfinite(v) || v < 0)
        return -1;
    *percent = v;
    return 0;
}

int gates_parse_pause(const char *text, uint64_t *ns, int *gen)
{
    *gen = -1;
    if (strncmp(text, "gen", 3) == 0) {
        char *end;
        if (text[3] < '0' || text[3] > '9')
            return -1;
        long g = strtol(text + 3, &end, 10);
        if (*end != ':' || g < 0 || g >= 1000)
            return -1;
        *gen = (int)g;
        text = end + 1;
    }
    static const struct { const char *unit; double ns; } units[] = {
        { "ms", 1e6 }, { "us", 1e3 }, { "s", 1e9 },
    };
    if (!(text[0] >= '0' && text[0] <= '9') && text[0] != '.')
        return -1;
    char *end;
    double v = strtod(text, &end);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (strcmp(end, units[i].unit) != 0)
            continue;
        double t = v * units[i].ns;
        if (!isfinite(t) || t < 0 || t > 1e18)
            return -1;
        *ns = (uint64_t)llround(t);
        return 0;
    }
    return -1;
}
