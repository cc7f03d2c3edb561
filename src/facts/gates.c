/* gates.c: evaluating --max-peak, --max-increase, --max-growth, --max-pause and
 * --min-productivity (gates.h). */
#include "facts/gates.h"

#include <math.h>
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

static void max_peak(const struct gate_limits *l, const struct run_model *run, struct gate *g)
{
    const struct peak *pk = &run->peak;
    format_bytes((double)l->max_peak, g->allowed, sizeof g->allowed);
    g->allowed_value = (double)l->max_peak;
    if (!pk->censuses) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "--max-peak cannot be checked: the input has no heap census");
        return;
    }
    format_bytes((double)pk->bytes, g->measured, sizeof g->measured);
    g->measured_value = (double)pk->bytes;
    tell_apart(g);
    if (pk->bytes <= l->max_peak)
        return;
    g->verdict = GATE_FAILED;
    if (pk->count) {
        size_t len;
        const char *label = bands_label(run->bands, pk->entries[0].band, &len);
        char largest[32];
        format_bytes((double)pk->entries[0].bytes, largest, sizeof largest);
        ev_error_set(&g->why, "peak residency %s at %.2f s is over the budget of %s; the "
                     "largest band then: %.*s (%s)", g->measured, pk->time_ns / 1e9,
                     g->allowed, (int)(len > 120 ? 120 : len), label, largest);
    } else {
        ev_error_set(&g->why, "peak residency %s at %.2f s is over the budget of %s",
                     g->measured, pk->time_ns / 1e9, g->allowed);
    }
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

static int max_growth(const struct gate_limits *l, const struct run_model *run, struct gate *g,
                      struct ev_error *err)
{
    char rate[32];
    format_bytes(l->max_growth, rate, sizeof rate);
    snprintf(g->allowed, sizeof g->allowed, "%s/s", rate);
    g->allowed_value = l->max_growth;
    if (run->peak.censuses < PROFILE_SUSPECT_CENSUSES) {
        g->verdict = GATE_UNCHECKED;
        if (!run->peak.censuses)
            ev_error_set(&g->why, "--max-growth cannot be checked: the input has no heap "
                         "census");
        else
            ev_error_set(&g->why, "--max-growth cannot be checked: %llu censuses are too few "
                         "to tell a leak (%d or more)", (unsigned long long)run->peak.censuses,
                         PROFILE_SUSPECT_CENSUSES);
        return 0;
    }
    struct profile_options every;
    profile_options_every_band(&every);
    struct summary_view sv;
    if (summary_view_open(&sv, run, &every, err) != 0)
        return -1;
    const struct profile_view *v = &sv.view;
    size_t sus[PROFILE_SUSPECTS_LISTED];
    size_t n = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    /* suspects come fastest first: the first is the one measured */
    format_rate(n ? v->bands[sus[0]].stats.rise : 0, g->measured, sizeof g->measured);
    g->measured_value = n ? v->bands[sus[0]].stats.rise : 0;
    tell_apart(g);
    if (n && v->bands[sus[0]].stats.rise > l->max_growth) {
        const struct profile_band *b = &v->bands[sus[0]];
        size_t faster = 0;
        for (size_t i = 0; i < n; i++)
            faster += v->bands[sus[i]].stats.rise > l->max_growth;
        g->verdict = GATE_FAILED;
        char label[128];
        size_t len = bands_person_name(run->bands, b->band, label, sizeof label);
        /* the rise to the peak, which suspects are judged on, is not the whole run's
         * growth the summaries' tables show: the message names both */
        char whole[40];
        format_rate(b->stats.growth, whole, sizeof whole);
        ev_error_set(&g->why, "leak suspect %.*s rose %s to its peak at %.2f s (its growth "
                     "over the whole run: %s); --max-growth allows %s for the rise%s",
                     (int)len, label, g->measured, b->stats.peak_ns / 1e9, whole, g->allowed,
                     faster > 1 ? " (and other suspects too)" : "");
    }
    summary_view_close(&sv);
    return 0;
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

/* A collector gate's figures, or NULL with the gate unchecked and why. */
static const struct gc_summary *collector(const struct run_model *run, struct gate *g,
                                          struct gc_summary *s)
{
    if (run_model_gc(run, s))
        return s;
    g->verdict = GATE_UNCHECKED;
    ev_error_set(&g->why, "--%s cannot be checked: the input has no garbage collection "
                 "events (run the program with +RTS -l)", gate_name(g->kind));
    return NULL;
}

static void max_pause(const struct gate_limits *l, const struct run_model *run, struct gate *g)
{
    pause_texts(l, l->max_pause_ns, g);
    g->measured[0] = '\0';
    g->allowed_value = (double)l->max_pause_ns / 1e9;
    struct gc_summary s;
    if (!collector(run, g, &s))
        return;
    if (l->max_pause_gen >= (int)s.generations) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "--max-pause cannot be checked: the run has no generation %d "
                     "(its collections are of generations 0 to %u)", l->max_pause_gen,
                     s.generations - 1);
        return;
    }
    const struct gc_generation *worst = NULL;
    unsigned over = 0;
    for (unsigned i = 0; i < s.generations; i++) {
        if (l->max_pause_gen >= 0 && (int)i != l->max_pause_gen)
            continue;
        over += s.gen[i].max_pause_ns > l->max_pause_ns;
        if (!worst || s.gen[i].max_pause_ns > worst->max_pause_ns)
            worst = &s.gen[i];
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

static void min_productivity(const struct gate_limits *l, const struct run_model *run,
                             struct gate *g)
{
    format_snprintf(g->allowed, sizeof g->allowed, "%.1f %%", l->min_productivity);
    g->allowed_value = l->min_productivity;
    struct gc_summary s;
    if (!collector(run, g, &s))
        return;
    double percent = 100 * s.productivity;
    productivity_texts(l, percent, g);
    if (!(percent < l->min_productivity))
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "productivity %s (mutator %.3f s, collector %.3f s of %.3f s "
                 "elapsed) is below --min-productivity's %s", g->measured, s.mut_ns / 1e9,
                 s.gc_ns / 1e9, s.elapsed_ns / 1e9, g->allowed);
}

/* --max-peak over a phase. */
static void phase_peak(const struct gate_limits *l, const struct gate_phase *p, struct gate *g)
{
    format_bytes((double)l->max_peak, g->allowed, sizeof g->allowed);
    g->allowed_value = (double)l->max_peak;
    if (!p->censuses) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "phase \"%s\": --max-peak cannot be checked: the phase has no "
                     "heap census", p->name);
        return;
    }
    format_bytes((double)p->peak_bytes, g->measured, sizeof g->measured);
    g->measured_value = (double)p->peak_bytes;
    tell_apart(g);
    if (p->peak_bytes <= l->max_peak)
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "phase \"%s\": peak residency %s is over the budget of %s", p->name,
                 g->measured, g->allowed);
}

/* --max-growth over a phase: its fastest suspect's rise. */
static void phase_growth(const struct gate_limits *l, const struct gate_phase *p, struct gate *g)
{
    char rate[32];
    format_bytes(l->max_growth, rate, sizeof rate);
    snprintf(g->allowed, sizeof g->allowed, "%s/s", rate);
    g->allowed_value = l->max_growth;
    if (p->censuses < PROFILE_SUSPECT_CENSUSES) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "phase \"%s\": --max-growth cannot be checked: %llu censuses are "
                     "too few to tell a leak (%d or more)", p->name,
                     (unsigned long long)p->censuses, PROFILE_SUSPECT_CENSUSES);
        return;
    }
    double rise = p->suspects ? p->rise : 0;
    format_rate(rise, g->measured, sizeof g->measured);
    g->measured_value = rise;
    tell_apart(g);
    if (!p->suspects || !(p->rise > l->max_growth))
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "phase \"%s\": leak suspect %.*s rose %s to its peak at %.2f s; "
                 "--max-growth allows %s for the rise", p->name,
                 (int)(p->suspect_len > 120 ? 120 : p->suspect_len), p->suspect, g->measured,
                 p->rise_peak_ns / 1e9, g->allowed);
}

/* Whether a phase has the collector's figures; else the gate is unchecked, as the run's. */
static bool phase_collector(const struct gate_phase *p, struct gate *g)
{
    if (p->gc)
        return true;
    g->verdict = GATE_UNCHECKED;
    ev_error_set(&g->why, "phase \"%s\": --%s cannot be checked: the input has no garbage "
                 "collection events (run the program with +RTS -l)", p->name,
                 gate_name(g->kind));
    return false;
}

/* --max-pause over a phase: the longest pause of the collections begun in it (of the
 * generation asked for), none: 0. */
static void phase_pause(const struct gate_limits *l, const struct gate_phase *p, struct gate *g)
{
    pause_texts(l, l->max_pause_ns, g);
    g->measured[0] = '\0';
    g->allowed_value = (double)l->max_pause_ns / 1e9;
    if (!phase_collector(p, g))
        return;
    uint64_t worst = 0;
    unsigned gen = 0;
    for (unsigned i = 0; i < p->gc->generations; i++)
        if ((l->max_pause_gen < 0 || (int)i == l->max_pause_gen) && p->gc->worst_ns[i] > worst)
            worst = p->gc->worst_ns[i], gen = i;
    g->measured_value = (double)worst / 1e9;
    pause_texts(l, worst, g);
    if (worst <= l->max_pause_ns)
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "phase \"%s\": the worst garbage collection pause, %s in generation "
                 "%u (of %llu collections in the phase), is longer than --max-pause allows "
                 "(%s)", p->name, g->measured, gen, (unsigned long long)p->gc->collections,
                 g->allowed);
}

/* --min-productivity over a phase: the share of its length no collection begun in it
 * paused the program. */
static void phase_productivity(const struct gate_limits *l, const struct gate_phase *p,
                               struct gate *g)
{
    format_snprintf(g->allowed, sizeof g->allowed, "%.1f %%", l->min_productivity);
    g->allowed_value = l->min_productivity;
    if (!phase_collector(p, g))
        return;
    if (!p->length_ns) {
        g->verdict = GATE_UNCHECKED;
        ev_error_set(&g->why, "phase \"%s\": --min-productivity cannot be checked: the "
                     "phase has no length", p->name);
        return;
    }
    uint64_t gc = p->gc->pause_ns < p->length_ns ? p->gc->pause_ns : p->length_ns;
    double percent = 100.0 * (double)(p->length_ns - gc) / (double)p->length_ns;
    productivity_texts(l, percent, g);
    if (!(percent < l->min_productivity))
        return;
    g->verdict = GATE_FAILED;
    ev_error_set(&g->why, "phase \"%s\": productivity %s (collector %.3f s of the phase's "
                 "%.3f s) is below --min-productivity's %s", p->name, g->measured, gc / 1e9,
                 p->length_ns / 1e9, g->allowed);
}

void gates_check_phase(const struct gate_limits *l, const struct gate_phase *p,
                       struct gate_report *out)
{
    out->count = 0;
    if (l->has_max_peak)
        phase_peak(l, p, add(out, GATE_MAX_PEAK));
    if (l->has_max_growth)
        phase_growth(l, p, add(out, GATE_MAX_GROWTH));
    if (l->has_max_pause)
        phase_pause(l, p, add(out, GATE_MAX_PAUSE));
    if (l->has_min_productivity)
        phase_productivity(l, p, add(out, GATE_MIN_PRODUCTIVITY));
}

int gates_check(const struct gate_limits *l, const struct run_model *run,
                const struct run_model *base, struct gate_report *out, struct ev_error *err)
{
    out->count = 0;
    if (l->has_max_peak)
        max_peak(l, run, add(out, GATE_MAX_PEAK));
    if (l->has_max_increase)
        max_increase(l, run, base, add(out, GATE_MAX_INCREASE));
    if (l->has_max_growth && max_growth(l, run, add(out, GATE_MAX_GROWTH), err) != 0)
        return -1;
    if (l->has_max_pause)
        max_pause(l, run, add(out, GATE_MAX_PAUSE));
    if (l->has_min_productivity)
        min_productivity(l, run, add(out, GATE_MIN_PRODUCTIVITY));
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
