/* outpaths.c: refusing outputs that would clobber what a run reads (see outpaths.h). */
#include "sink/outpaths.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sink/outfile.h"

#define OUTPATHS_MAX 64

/* The identity of a file read (a path, or standard input for NULL or "-"). */
static bool read_id(const char *path, struct file_id *id)
{
    if (!path || strcmp(path, "-") == 0)
        return file_id_of_fd(STDIN_FILENO, id);
    return file_id_of_path(path, id) && id->exists;
}

static const char *output_name(const struct output_request *o)
{
    return o->path ? o->path : "(standard output)";
}

int outpaths_check(const struct output_request *outputs, size_t output_count,
                   const struct read_path *reads, size_t read_count,
                   const char **bad, struct ev_error *err)
{
    struct file_id out[OUTPATHS_MAX];
    size_t n = output_count < OUTPATHS_MAX ? output_count : OUTPATHS_MAX;
    for (size_t i = 0; i < n; i++) {
        const char *path = outputs[i].path;
        bool known = path ? file_id_of_path(path, &out[i]) : file_id_of_fd(STDOUT_FILENO, &out[i]);
        if (!known) {
            out[i].exists = false;
            out[i].dev = (dev_t)-1;   /* unknown: opening it will say why */
            out[i].ino = 0;
            snprintf(out[i].name, sizeof out[i].name, "%zu", i);
            continue;
        }
        *bad = output_name(&outputs[i]);
        for (size_t k = 0; k < read_count; k++) {
            struct file_id in;
            if (read_id(reads[k].path, &in) && in.regular && file_id_same(&out[i], &in)) {
                ev_error_set(err, "is %s; refusing to write over it", reads[k].role);
                return -1;
            }
        }
        for (size_t j = 0; j < i; j++) {
            bool clash = (!path && !outputs[j].path) ||
                         (file_id_same(&out[i], &out[j]) &&
                          (!out[i].exists || out[i].regular || out[i].stream));
            if (clash && strcmp(output_name(&outputs[j]), *bad) == 0)
                ev_error_set(err, "is named twice as an output");
            else if (clash)
                ev_error_set(err, "is named twice as an output (also as %s)",
                             output_name(&outputs[j]));
            if (clash)
                return -1;
        }
    }
    *bad = NULL;
    return 0;
}
