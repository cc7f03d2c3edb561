/* mutspan.c: the program's span between the runtime's start-up and exit (mutspan.h). */
#include "model/mutspan.h"
#include "base/order.h"

#include <stdlib.h>

static bool main_task(const struct mut_span *s, uint64_t task)
{
    for (unsigned i = 0; i < s->ids; i++)
        if (s->id[i] == task)
            return true;
    return false;
}

void mut_span_event(struct mut_span *s, const struct gc_event *e)
{
    switch (e->kind) {
    case GC_EVENT_PID:
        s->has_pid = true;
        s->pid = e->tid;
        break;
    case GC_EVENT_TASK_CREATE:
        if (!s->has_pid || e->tid != s->pid)
            break;
        if (!main_task(s, e->task) && s->ids < sizeof s->id / sizeof *s->id)
            s->id[s->ids++] = e->task;
        if (s->created_count < MUTSPAN_TASKS)
            s->created[s->created_count++] = e->time_ns;
        break;
    case GC_EVENT_TASK_DELETE:
        if (s->deleted_count < MUTSPAN_DELETES) {
            s->deleted[s->deleted_count].task = e->task;
            s->deleted[s->deleted_count++].time_ns = e->time_ns;
        } else if (main_task(s, e->task)) {   /* full: keep the main thread's */
            for (unsigned i = 0; i < MUTSPAN_DELETES; i++)
                if (!main_task(s, s->deleted[i].task)) {
                    s->deleted[i].task = e->task;
                    s->deleted[i].time_ns = e->time_ns;
                    break;
                }
        }
        break;
    default:
        break;
    }
}

static int by_time(const void *a, const void *b)
{
    return order_u64(*(const uint64_t *)a, *(const uint64_t *)b);
}

bool mut_span_main(const struct mut_span *s, uint64_t *from, uint64_t *to)
{
    /* the file gives them by capability, not by time: each creation paired with the
     * first deletion after it, one task of the thread at a time */
    uint64_t c[MUTSPAN_TASKS], d[MUTSPAN_DELETES];
    unsigned nd = 0;
    for (unsigned i = 0; i < s->created_count; i++)
        c[i] = s->created[i];
    for (unsigned i = 0; i < s->deleted_count; i++)
        if (main_task(s, s->deleted[i].task))
            d[nd++] = s->deleted[i].time_ns;
    qsort(c, s->created_count, sizeof *c, by_time);
    qsort(d, nd, sizeof *d, by_time);
    bool found = false;
    unsigned j = 0;
    for (unsigned i = 0; i < s->created_count; i++) {
        while (j < nd && d[j] < c[i])
            j++;
        if (j == nd)
            break;
        bool next_first = i + 1 < s->created_count && c[i + 1] < d[j];
        if (!next_first && (!found || d[j] - c[i] > *to - *from)) {
            *from = c[i];
            *to = d[j];
            found = true;
        }
    }
    return found;
}
