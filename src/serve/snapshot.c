/* snapshot.c: a live run's state copied for drawing (see snapshot.h). */
#include "serve/snapshot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/bands.h"

static char *copy_string(const char *s, bool *failed)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    *failed |= !c;
    return c;
}

int snapshot_take(struct snapshot *s, const struct run_model *model, unsigned columns,
                  const struct bands *bands, const struct run_info *info,
                  const struct ev_error *warnings, size_t warning_count,
                  const char *input_name, struct ev_error *err)
{
    memset(s, 0, sizeof *s);
    s->input_name = input_name;
    s->censuses = model->censuses;
    bool failed = false;
    s->info = *info;
    s->info.program = copy_string(info->program, &failed);
    s->info.rts_version = copy_string(info->rts_version, &failed);
    if (failed || !(s->bands = bands_copy(bands)))
        goto no_memory;
    if (warning_count) {
        if (!(s->warnings = malloc(warning_count * sizeof *warnings)))
            goto no_memory;
        memcpy(s->warnings, warnings, warning_count * sizeof *warnings);
        s->warning_count = warning_count;
    }
    if (run_model_copy(model, &s->model, columns, err) != 0)
        return -1;
    s->model.name = input_name;
    s->model.info = &s->info;
    s->model.bands = s->bands;
    s->model.timeprof = NULL;   /* time profiles are not served live */
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
    bands_free(s->bands);
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
