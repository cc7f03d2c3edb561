/* snapshot.c: a live run's state copied for drawing (see snapshot.h). */
#include "serve/snapshot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "census/costcentres.h"
#include "census/ipe.h"
#include "census/timeprof.h"
#include "model/bands.h"

static char *copy_string(const char *s, bool *failed)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    *failed |= !c;
    return c;
}

int snapshot_take(struct snapshot *s, const struct snapshot_source *src, unsigned columns,
                  bool summary, struct ev_error *err)
{
    memset(s, 0, sizeof *s);
    s->input_name = src->input_name;
    s->censuses = src->model->censuses;
    bool failed = false;
    s->info = *src->info;
    s->info.program = copy_string(src->info->program, &failed);
    s->info.rts_version = copy_string(src->info->rts_version, &failed);
    if (failed || !(s->bands = bands_copy(src->bands)))
        goto no_memory;
    if (src->ccs && !(s->ccs = costcentres_copy(src->ccs)))
        goto no_memory;
    if (src->ipe && !(s->ipe = ipe_names_view(src->ipe, s->bands)))
        goto no_memory;
    if (src->timeprof && !(s->timeprof = timeprof_copy(src->timeprof, s->ccs)))
        goto no_memory;
    if (src->warning_count) {
        if (!(s->warnings = copy_array(src->warnings, src->warning_count,
                                       sizeof *src->warnings)))
            goto no_memory;
        s->warning_count = src->warning_count;
    }
    if (run_model_copy(src->model, &s->model, columns, summary, err) != 0)
        return -1;
    s->model.name = src->input_name;
    s->model.info = &s->info;
    s->model.bands = s->bands;
    s->model.timeprof = s->timeprof;
    return 0;
no_memory:
    ev_error_set(err, "out of memory");
    return -1;
}

int snapshot_finish(struct snapshot *s, struct ev_error *err)
{
    return run_model_finish(&s->model, err);
}

void snapshot_free(struct snapshot *s)
{
    run_model_free(&s->model);
    ipe_names_free(s->ipe);
    bands_free(s->bands);
    timeprof_free(s->timeprof);
    costcentres_free(s->ccs);
    free(s->info.program);
    free(s->info.rts_version);
    free(s->warnings);
    memset(s, 0, sizeof *s);
}

int snapshot_write(const struct snapshot *s, enum output_format format,
                   const struct sink_settings *settings, FILE *out, struct ev_error *err)
{
    struct sink_context ctx = {
        .info = &s->info, .bands = s->bands, .input_name = s->input_name,
        .warnings = s->warnings, .warning_count = &s->warning_count, .run = &s->model,
        .ccs = s->ccs, .ipe = s->ipe,
    };
    struct sink *sink = sink_new(format, out, &ctx, settings);
    if (!sink) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    errno = 0;
    int rc = sink->ops->finish ? sink->ops->finish(sink) : 0;
    if (rc != 0) {
        const struct ev_error *why = sink->ops->failure ? sink->ops->failure(sink) : NULL;
        if (why)
            *err = *why;
        else
            ev_error_set(err, "cannot draw: %s", strerror(errno ? errno : EIO));
    }
    sink->ops->destroy(sink);
    return rc;
}
