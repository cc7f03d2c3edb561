/* phases.c: the facts of each phase (phases.h). */
#include "facts/phases.h"

#include <stdlib.h>
#include <string.h>

#include "facts/summary_facts.h"
#include "facts/suspects.h"
#include "model/runmodel.h"

void phase_windows(const struct phase_list *list, struct time_window *out)
{
    for (size_t i = 0; i < list->count; i++)
        out[i] = (struct time_window){ list->phases[i].start_ns, list->phases[i].end_ns };
}

/* The least slope, bytes per second, of a band said to have grown: rounding leaves a band
 * that held its bytes a slope of a few 1e-9, which the summaries print as 0 B/s. */
#define PHASE_GREW_MIN 1.0

/* What a phase's view of every band says: peak, growth, the band that grew most, the
 * suspects. */
static void facts_of_view(const struct profile_view *v, struct phase_facts *f)
{
    f->censuses = v->censuses;
    f->has_heap = v->censuses > 0;
    f->peak_bytes = v->peak_total;
    f->has_growth = v->censuses >= 2 && v->last_ns > v->first_ns;
    f->growth = summary_heap_growth(v);   /* the slope of the totals, as the run's */
    for (size_t i = 0; i < v->band_count; i++) {
        const struct profile_band *b = &v->bands[i];
        if (b->band != PROFILE_OTHER && b->stats.growth >= PHASE_GREW_MIN &&
            (!f->has_grew_most || b->stats.growth > f->grew_most_growth)) {
            f->has_grew_most = true;
            f->grew_most = b->band;
            f->grew_most_growth = b->stats.growth;
        }
    }
    if (!f->has_growth) {
        f->growth = 0;
        f->has_grew_most = false;
    }
    size_t sus[PROFILE_SUSPECTS_LISTED];
    f->suspect_count = suspects_of(v, sus, PROFILE_SUSPECTS_LISTED);
    for (size_t i = 0; i < f->suspect_count; i++) {
        const struct profile_band_stats *st = &v->bands[sus[i]].stats;
        f->suspects[i] = (struct phase_suspect){ v->bands[sus[i]].band, st->rise,
                                                 st->rise_r2, st->peak_ns };
    }
}

static void gates_of(const struct gate_limits *limits, const struct bands *bands,
                     const struct phase_gc *gc, struct phase_facts *f)
{
    char label[256];
    struct gate_phase p = { .name = f->name, .censuses = f->censuses,
                            .peak_bytes = f->peak_bytes, .suspects = f->suspect_count,
                            .length_ns = f->end_ns - f->start_ns, .gc = gc };
    if (f->suspect_count) {
        p.rise = f->suspects[0].rise;
        p.rise_peak_ns = f->suspects[0].peak_ns;
        p.suspect_len = bands_person_name(bands, f->suspects[0].band, label, sizeof label);
        p.suspect = label;
    }
    gates_check_phase(limits, &p, &f->gates);
}

int phase_report_of(const struct run_model *run, const struct phase_list *list,
                    const struct gate_limits *limits, struct phase_report *out,
                    struct ev_error *err)
{
    memset(out, 0, sizeof *out);
    if (!list->count)
        return 0;
    if (!(out->phases = calloc(list->count, sizeof *out->phases))) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    out->count = list->count;
    uint64_t run_end = run->info ? run->info->end_time_ns : 0;
    for (size_t i = 0; i < list->count; i++) {
        const struct phase *ph = &list->phases[i];
        struct phase_facts *f = &out->phases[i];
        f->name = ph->name;
        f->start_ns = ph->start_ns;
        f->to_end = ph->end_ns == UINT64_MAX;
        f->end_ns = f->to_end ? (run_end > ph->start_ns ? run_end : ph->start_ns) : ph->end_ns;
        const struct profile *p = run_model_phase(run, i);
        struct profile_view v;
        if (!p || profile_view(p, run->bands, &v) != 0) {
            ev_error_set(err, p ? "out of memory" : "no phase profile was asked of the run");
            return -1;
        }
        facts_of_view(&v, f);
        profile_view_free(&v);
        struct gc_summary whole;   /* a run without collections has none in a phase */
        gates_of(limits, run->bands, run_model_gc(run, &whole) ? run_model_phase_gc(run, i)
                                                               : NULL, f);
    }
    return 0;
}

void phase_report_free(struct phase_report *r)
{
    free(r->phases);
    memset(r, 0, sizeof *r);
}

const struct gate *phase_report_deciding(const struct phase_report *r)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->count; i++)
            for (size_t k = 0; k < r->phases[i].gates.count; k++) {
                const struct gate *g = &r->phases[i].gates.gates[k];
                if (g->verdict == (pass == 0 ? GATE_UNCHECKED : GATE_FAILED))
                    return g;
            }
    return NULL;
}
