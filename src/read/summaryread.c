/* summaryread.c: a `--summary=json` read back into a trend (see summaryread.h). */
#include "read/summaryread.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"

/* The whole file, at most TREND_MAX_FILE_BYTES: a buffer to free, or NULL with err set. */
static char *read_whole(const char *path, size_t *len, struct ev_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ev_error_set(err, "cannot read it: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        used += fread(buf + used, 1, cap - used, f);
        if (used < cap || ferror(f))
            break;
        if (cap > TREND_MAX_FILE_BYTES) {
            ev_error_set(err, "more than %zu MiB: not a summary ev2hp wrote",
                         TREND_MAX_FILE_BYTES >> 20);
            free(buf);
            fclose(f);
            return NULL;
        }
        char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = more;
        cap *= 2;
    }
    if (!buf || ferror(f)) {
        ev_error_set(err, "cannot read it: %s", buf ? strerror(errno) : "out of memory");
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = used;
    return buf;
}

/* A member that must be there and be of a kind: NULL with err set otherwise. */
static json_t *member(json_t *object, const char *key, json_type type, const char *where,
                      struct ev_error *err)
{
    json_t *v = json_object_get(object, key);
    if (v && json_typeof(v) == type)
        return v;
    static const char *const kinds[] = { "an object", "an array", "a string", "an integer",
                                         "a number", "true", "false", "null" };
    ev_error_set(err, "not a summary of ev2hp --summary=json: %s%s\"%s\" is %s, not %s",
                 where, *where ? "'s " : "", key, v ? "of another kind" : "missing",
                 kinds[type]);
    return NULL;
}

/* A text member that may be missing or null: its text, or NULL; false when it is
 * something else. */
static bool optional_text(json_t *object, const char *key, const char **out)
{
    json_t *v = json_object_get(object, key);
    *out = json_is_string(v) ? json_string_value(v) : NULL;
    return !v || json_is_null(v) || json_is_string(v);
}

static int read_commit(json_t *root, struct trend_run *run, struct ev_error *err)
{
    json_t *c = json_object_get(root, "commit");
    if (!c || json_is_null(c))
        return 0;
    const char *sha, *time, *subject;
    if (!json_is_object(c) || !optional_text(c, "sha", &sha) || !sha ||
        !optional_text(c, "time", &time) || !optional_text(c, "subject", &subject)) {
        ev_error_set(err, "not a summary of ev2hp --summary=json: \"commit\" is not "
                     "{\"sha\": text, \"time\": text or null, \"subject\": text or null}");
        return -1;
    }
    if (trend_run_set_commit(run, sha, time, subject) != 0) {
        ev_error_set(err, "out of memory");
        return -1;
    }
    return 0;
}

/* Every band's peak; the sum of their growth into *growth. */
static int read_bands(struct trend *t, struct trend_run *run, json_t *bands, double *growth,
                      struct ev_error *err)
{
    size_t i;
    json_t *b;
    *growth = 0;
    json_array_foreach(bands, i, b) {
        json_t *label = json_object_get(b, "label");
        json_t *peak = json_object_get(b, "peak");
        json_t *g = json_object_get(b, "growth_bytes_per_s");
        if (!json_is_string(label) || !json_is_integer(peak) || json_integer_value(peak) < 0) {
            ev_error_set(err, "not a summary of ev2hp --summary=json: band %zu has no "
                         "\"label\" text and \"peak\" bytes", i + 1);
            return -1;
        }
        if (trend_run_add_band(t, run, json_string_value(label), json_string_length(label),
                               (uint64_t)json_integer_value(peak)) != 0) {
            ev_error_set(err, "out of memory, or more bands than %u", BANDS_MAX);
            return -1;
        }
        *growth += json_is_number(g) ? json_number_value(g) : 0;
    }
    return 0;
}

static int read_gates(json_t *root, struct trend_run *run, struct ev_error *err)
{
    json_t *gates = json_object_get(root, "gates");
    if (!gates)
        return 0;   /* a summary written before gates were listed */
    if (!json_is_array(gates)) {
        ev_error_set(err, "not a summary of ev2hp --summary=json: \"gates\" is not an array");
        return -1;
    }
    size_t i;
    json_t *g;
    json_array_foreach(gates, i, g) {
        json_t *name = json_object_get(g, "gate");
        json_t *verdict = json_object_get(g, "verdict");
        if (!json_is_string(name) || !json_is_string(verdict)) {
            ev_error_set(err, "not a summary of ev2hp --summary=json: gate %zu has no "
                         "\"gate\" and \"verdict\" texts", i + 1);
            return -1;
        }
        trend_run_add_gate(run, json_string_value(name),
                           strcmp(json_string_value(verdict), "failed") == 0);
    }
    return 0;
}

/* What a trend draws of the summary root into run. */
static enum summary_read_status read_run(struct trend *t, struct trend_run *run, json_t *root,
                                         struct ev_error *err)
{
    if (!json_is_object(root)) {
        ev_error_set(err, "not a summary of ev2hp --summary=json: an array, not an object");
        return SUMMARY_READ_FAILED;
    }
    json_t *peak = json_object_get(root, "peak");
    if (!peak || !(json_is_null(peak) || json_is_object(peak))) {
        ev_error_set(err, "not a summary of ev2hp --summary=json: \"peak\" is %s",
                     peak ? "neither an object nor null" : "missing");
        return SUMMARY_READ_FAILED;
    }
    if (read_commit(root, run, err) != 0)
        return SUMMARY_READ_FAILED;
    if (json_is_null(peak)) {
        ev_error_note(err, "skipped: the run had no heap census (a time profile alone), "
                      "so no peak to draw");
        return SUMMARY_READ_SKIPPED;
    }
    json_t *bytes = member(peak, "bytes", JSON_INTEGER, "peak", err);
    json_t *time = bytes ? json_object_get(peak, "time_s") : NULL;
    json_t *bands = bytes ? member(root, "bands", JSON_ARRAY, "", err) : NULL;
    if (!bands)
        return SUMMARY_READ_FAILED;
    if (json_integer_value(bytes) < 0) {
        ev_error_set(err, "not a summary of ev2hp --summary=json: a negative peak");
        return SUMMARY_READ_FAILED;
    }
    run->peak = (uint64_t)json_integer_value(bytes);
    run->peak_time_s = json_is_number(time) ? json_number_value(time) : NAN;
    double band_growth;
    if (read_bands(t, run, bands, &band_growth, err) != 0 || read_gates(root, run, err) != 0)
        return SUMMARY_READ_FAILED;
    json_t *growth = json_object_get(root, "growth_bytes_per_s");
    run->growth = json_is_number(growth) ? json_number_value(growth) : band_growth;
    return SUMMARY_READ_OK;
}

enum summary_read_status summary_read(struct trend *t, const char *path, struct ev_error *err)
{
    size_t len;
    char *text = read_whole(path, &len, err);
    if (!text)
        return SUMMARY_READ_FAILED;
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    if (!root) {
        /* jansson counts the offset in bytes, the line and column in characters */
        ev_error_at(err, (uint64_t)(jerr.position < 0 ? 0 : jerr.position),
                    "not JSON (line %d, column %d): %s", jerr.line, jerr.column, jerr.text);
        return SUMMARY_READ_FAILED;
    }
    struct trend_run *run = trend_add_run(t, path);
    enum summary_read_status st = SUMMARY_READ_FAILED;
    if (!run)
        ev_error_set(err, "out of memory, or more summaries than %u", TREND_MAX_RUNS);
    else
        st = read_run(t, run, root, err);
    if (run && st != SUMMARY_READ_OK)
        trend_drop_last(t);
    json_decref(root);
    return st;
}
