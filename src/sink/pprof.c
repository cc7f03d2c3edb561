/* pprof.c: a pprof profile built up in growable arrays, then packed with protobuf-c and
 * gzipped with zlib (see pprof.h).
 *
 * The arrays hold plain numbers while the profile grows (a sample is an offset into one
 * array of location ids and one of values), and the protobuf-c messages are made only in
 * pprof_write, pointing into them: growing an array moves it, so no message may point
 * into one before the end. Strings and frames are de-duplicated through base/intern.
 */
#include "sink/pprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/grow.h"
#include "base/intern.h"
#include "base/limits.h"
#include "sink/textout.h"
#include "sink/profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

struct frame_record {
    int64_t name, file, line;      /* string indices, and the line */
};

struct sample_record {
    size_t first_location, depth;  /* into locations */
    size_t first_value;            /* into values: value_types of them */
    int64_t label_key, label_str;  /* 0, 0: no label */
};

struct pprof {
    struct intern *strings;        /* text -> string index */
    char **texts;                  /* string index -> NUL-terminated text */
    size_t texts_cap;
    struct intern *frames;         /* frame key -> frame index (location id - 1) */
    struct frame_record *frame;
    size_t frame_cap;
    int64_t types[8][2];           /* sample types: type, unit string indices */
    size_t type_count;
    int64_t period_type[2], period;
    int64_t time_nanos, duration_nanos;
    int64_t program;
    int64_t *comments;
    size_t comment_count, comment_cap;
    struct sample_record *samples;
    size_t sample_count, sample_cap;
    uint64_t *locations;
    size_t location_count, location_cap;
    int64_t *values;
    size_t value_count, value_cap;
    char *key;                     /* a frame's key being built */
    size_t key_cap;
};

static int no_memory(void)
{
    errno = ENOMEM;
    return -1;
}

/* The string index of text[0..len): 0, or -1. The text is made what the table holds
 * first, and that is what is looked up, so two texts that read the same are one string:
 * valid UTF-8, as protobuf strings are (U+FFFD for a byte that is not); a NUL inside
 * ends it, as C reads it; control characters as \xHH (textout_plain), since `go tool
 * pprof -top` and the web UI print a label's escape sequence to a terminal as it is. */
static int string_index(struct pprof *p, const char *text, size_t len, int64_t *index)
{
    len = strnlen(text, len);
    char *copy = len <= (SIZE_MAX - 1) / 4 ? malloc(len * 4 + 1) : NULL;   /* \xHH each */
    if (!copy)
        return no_memory();
    textout_plain_copy(text, len, copy, len * 4 + 1);
    uint32_t id;
    bool added;
    enum table_status st = intern_get(p->strings, copy, strlen(copy), &id, &added);
    if (st == TABLE_OK && added && GROW_ARRAY(p->texts, &p->texts_cap, (size_t)id + 1) != 0) {
        intern_truncate(p->strings, id);
        st = TABLE_NO_MEMORY;
    }
    if (st != TABLE_OK || !added)
        free(copy);
    if (st != TABLE_OK) {
        errno = st == TABLE_FULL ? E2BIG : ENOMEM;
        return -1;
    }
    if (added)
        p->texts[id] = copy;
    *index = id;
    return 0;
}

static int string_of(struct pprof *p, const char *text, int64_t *index)
{
    return string_index(p, text ? text : "", text ? strlen(text) : 0, index);
}

void pprof_free(struct pprof *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->texts && i < intern_count(p->strings); i++)
        free(p->texts[i]);
    free(p->texts);
    intern_free(p->strings);
    intern_free(p->frames);
    free(p->frame);
    free(p->comments);
    free(p->samples);
    free(p->locations);
    free(p->values);
    free(p->key);
    free(p);
}

struct pprof *pprof_new(const char *program, size_t len)
{
    struct pprof *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->strings = intern_new(PPROF_MAX_STRINGS, PPROF_MAX_STRING_BYTES);
    p->frames = intern_new(PPROF_MAX_STRINGS, PPROF_MAX_STRING_BYTES);
    int64_t empty;
    if (!p->strings || !p->frames || string_index(p, "", 0, &empty) != 0 ||
        string_index(p, program, len, &p->program) != 0) {
        pprof_free(p);
        return NULL;
    }
    return p;
}

int pprof_sample_type(struct pprof *p, const char *type, const char *unit)
{
    if (p->type_count == sizeof p->types / sizeof *p->types || p->sample_count > 0) {
        errno = EINVAL;
        return -1;
    }
    if (string_of(p, type, &p->types[p->type_count][0]) != 0 ||
        string_of(p, unit, &p->types[p->type_count][1]) != 0)
        return -1;
    p->type_count++;
    return 0;
}

int pprof_period(struct pprof *p, const char *type, const char *unit, int64_t period)
{
    p->period = period;
    return string_of(p, type, &p->period_type[0]) != 0 ||
           string_of(p, unit, &p->period_type[1]) != 0 ? -1 : 0;
}

void pprof_times(struct pprof *p, int64_t time_nanos, int64_t duration_nanos)
{
    p->time_nanos = time_nanos;
    p->duration_nanos = duration_nanos;
}

int pprof_comment(struct pprof *p, const char *text)
{
    int64_t index;
    if (string_of(p, text, &index) != 0 ||
        GROW_ARRAY(p->comments, &p->comment_cap, p->comment_count + 1) != 0)
        return -1;
    p->comments[p->comment_count++] = index;
    return 0;
}

int pprof_location(struct pprof *p, const struct pprof_frame *f, uint64_t *id)
{
    /* the key: the name and file with their lengths, then the line */
    size_t need = f->name_len + f->file_len + 3 * sizeof(uint64_t);
    if (need < f->name_len || GROW_ARRAY(p->key, &p->key_cap, need) != 0)
        return no_memory();
    uint64_t lens[3] = { f->name_len, f->file_len, (uint64_t)f->line };
    memcpy(p->key, lens, sizeof lens);
    memcpy(p->key + sizeof lens, f->name, f->name_len);
    memcpy(p->key + sizeof lens + f->name_len, f->file, f->file_len);
    uint32_t index;
    bool added;
    enum table_status st = intern_get(p->frames, p->key, need, &index, &added);
    if (st != TABLE_OK) {
        errno = st == TABLE_FULL ? E2BIG : ENOMEM;
        return -1;
    }
    if (added) {
        struct frame_record r = { 0, 0, f->line };
        if (GROW_ARRAY(p->frame, &p->frame_cap, (size_t)index + 1) != 0 ||
            string_index(p, f->name, f->name_len, &r.name) != 0 ||
            string_index(p, f->file, f->file_len, &r.file) != 0) {
            intern_truncate(p->frames, index);
            return -1;
        }
        p->frame[index] = r;
    }
    *id = (uint64_t)index + 1;
    return 0;
}

int pprof_sample(struct pprof *p, const uint64_t *stack, size_t n, const int64_t *values,
                 const char *key, const char *text, size_t text_len)
{
    struct sample_record r = { p->location_count, n, p->value_count, 0, 0 };
    if (key && (string_of(p, key, &r.label_key) != 0 ||
                string_index(p, text, text_len, &r.label_str) != 0))
        return -1;
    if (GROW_ARRAY(p->samples, &p->sample_cap, p->sample_count + 1) != 0 ||
        p->location_count + n < n ||
        GROW_ARRAY(p->locations, &p->location_cap, p->location_count + n) != 0 ||
        GROW_ARRAY(p->values, &p->value_cap, p->value_count + p->type_count) != 0)
        return no_memory();
    memcpy(p->locations + p->location_count, stack, n * sizeof *stack);
    memcpy(p->values + p->value_count, values, p->type_count * sizeof *values);
    p->location_count += n;
    p->value_count += p->type_count;
    p->samples[p->sample_count++] = r;
    return 0;
}

/* The messages of p, pointing into p's arrays and into m's: what protobuf-c packs. */
struct messages {
    ValueType types[8], *type_ptrs[8], period_type;
    Mapping mapping, *mapping_ptr;
    Sample *samples, **sample_ptrs;
    Label *labels, **label_ptrs;
    Location *locations, **location_ptrs;
    Line *lines, **line_ptrs;
    Function *functions, **function_ptrs;
};

static void messages_free(struct messages *m)
{
    free(m->samples);
    free(m->sample_ptrs);
    free(m->labels);
    free(m->label_ptrs);
    free(m->locations);
    free(m->location_ptrs);
    free(m->lines);
    free(m->line_ptrs);
    free(m->functions);
    free(m->function_ptrs);
}

static int messages_make(struct pprof *p, struct messages *m, Profile *out)
{
    size_t ns = p->sample_count, nf = intern_count(p->frames);
    m->samples = calloc(ns ? ns : 1, sizeof *m->samples);
    m->sample_ptrs = calloc(ns ? ns : 1, sizeof *m->sample_ptrs);
    m->labels = calloc(ns ? ns : 1, sizeof *m->labels);
    m->label_ptrs = calloc(ns ? ns : 1, sizeof *m->label_ptrs);
    m->locations = calloc(nf ? nf : 1, sizeof *m->locations);
    m->location_ptrs = calloc(nf ? nf : 1, sizeof *m->location_ptrs);
    m->lines = calloc(nf ? nf : 1, sizeof *m->lines);
    m->line_ptrs = calloc(nf ? nf : 1, sizeof *m->line_ptrs);
    m->functions = calloc(nf ? nf : 1, sizeof *m->functions);
    m->function_ptrs = calloc(nf ? nf : 1, sizeof *m->function_ptrs);
    if (!m->samples || !m->sample_ptrs || !m->labels || !m->label_ptrs || !m->locations ||
        !m->location_ptrs || !m->lines || !m->line_ptrs || !m->functions ||
        !m->function_ptrs)
        return no_memory();
    *out = (Profile)PERFTOOLS__PROFILES__PROFILE__INIT;
    for (size_t i = 0; i < p->type_count; i++) {
        m->types[i] = (ValueType)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
        m->types[i].type = p->types[i][0];
        m->types[i].unit = p->types[i][1];
        m->type_ptrs[i] = &m->types[i];
    }
    out->n_sample_type = p->type_count;
    out->sample_type = m->type_ptrs;
    for (size_t i = 0; i < ns; i++) {
        const struct sample_record *r = &p->samples[i];
        Sample *s = &m->samples[i];
        *s = (Sample)PERFTOOLS__PROFILES__SAMPLE__INIT;
        s->n_location_id = r->depth;
        s->location_id = p->locations + r->first_location;
        s->n_value = p->type_count;
        s->value = p->values + r->first_value;
        if (r->label_key) {
            m->labels[i] = (Label)PERFTOOLS__PROFILES__LABEL__INIT;
            m->labels[i].key = r->label_key;
            m->labels[i].str = r->label_str;
            m->label_ptrs[i] = &m->labels[i];
            s->n_label = 1;
            s->label = &m->label_ptrs[i];
        }
        m->sample_ptrs[i] = s;
    }
    out->n_sample = ns;
    out->sample = m->sample_ptrs;
    /* one mapping, the program, whose frames are already named: readers do not try to
     * look its (absent) addresses up in a binary */
    m->mapping = (Mapping)PERFTOOLS__PROFILES__MAPPING__INIT;
    m->mapping.id = 1;
    m->mapping.filename = p->program;
    m->mapping.has_functions = m->mapping.has_filenames = m->mapping.has_line_numbers = 1;
    m->mapping_ptr = &m->mapping;
    out->n_mapping = 1;
    out->mapping = &m->mapping_ptr;
    for (size_t i = 0; i < nf; i++) {
        Function *f = &m->functions[i];
        *f = (Function)PERFTOOLS__PROFILES__FUNCTION__INIT;
        f->id = i + 1;
        f->name = f->system_name = p->frame[i].name;
        f->filename = p->frame[i].file;
        f->start_line = p->frame[i].line;
        m->function_ptrs[i] = f;
        Line *l = &m->lines[i];
        *l = (Line)PERFTOOLS__PROFILES__LINE__INIT;
        l->function_id = i + 1;
        l->line = p->frame[i].line;
        m->line_ptrs[i] = l;
        Location *loc = &m->locations[i];
        *loc = (Location)PERFTOOLS__PROFILES__LOCATION__INIT;
        loc->id = i + 1;
        loc->mapping_id = 1;
        loc->n_line = 1;
        loc->line = &m->line_ptrs[i];
        m->location_ptrs[i] = loc;
    }
    out->n_location = out->n_function = nf;
    out->location = m->location_ptrs;
    out->function = m->function_ptrs;
    out->n_string_table = intern_count(p->strings);
    out->string_table = p->texts;
    out->time_nanos = p->time_nanos;
    out->duration_nanos = p->duration_nanos;
    if (p->period_type[0] || p->period_type[1]) {
        m->period_type = (ValueType)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
        m->period_type.type = p->period_type[0];
        m->period_type.unit = p->period_type[1];
        out->period_type = &m->period_type;
    }
    out->period = p->period;
    out->n_comment = p->comment_count;
    out->comment = p->comments;
    return 0;
}

/* protobuf-c's output buffer onto a FILE, through zlib's gzip when asked. protobuf-c
 * appends a field at a time, a few bytes each: they are gathered in pending first, so
 * that zlib and stdio see large pieces. */
struct file_buffer {
    ProtobufCBuffer base;
    FILE *out;
    z_stream z;
    bool gzip;
    int failed;                    /* errno of the first failure, or 0 */
    size_t pending_len;
    uint8_t pending[1u << 16];
};

static void put(struct file_buffer *b, const uint8_t *data, size_t len, int flush)
{
    if (b->failed)
        return;
    if (!b->gzip) {
        if (len && fwrite(data, 1, len, b->out) != len)
            b->failed = errno ? errno : EIO;
        return;
    }
    unsigned char chunk[16384];
    b->z.next_in = (Bytef *)data;
    do {
        /* zlib's counts are unsigned int: feed at most 1 GiB at a time */
        size_t step = len > (1u << 30) ? (1u << 30) : len;
        b->z.avail_in = (uInt)step;
        len -= step;
        int last = len == 0 ? flush : Z_NO_FLUSH;
        do {
            b->z.next_out = chunk;
            b->z.avail_out = sizeof chunk;
            int rc = deflate(&b->z, last);
            if (rc == Z_STREAM_ERROR) {
                b->failed = EIO;
                return;
            }
            size_t have = sizeof chunk - b->z.avail_out;
            if (have && fwrite(chunk, 1, have, b->out) != have) {
                b->failed = errno ? errno : EIO;
                return;
            }
        } while (b->z.avail_out == 0);
    } while (len > 0);
}

static void append(ProtobufCBuffer *buffer, size_t len, const uint8_t *data)
{
    struct file_buffer *b = (struct file_buffer *)buffer;
    if (len > sizeof b->pending - b->pending_len) {
        put(b, b->pending, b->pending_len, Z_NO_FLUSH);
        b->pending_len = 0;
    }
    if (len > sizeof b->pending) {
        put(b, data, len, Z_NO_FLUSH);
        return;
    }
    memcpy(b->pending + b->pending_len, data, len);
    b->pending_len += len;
}

int pprof_write(struct pprof *p, FILE *out, bool gzip)
{
    struct messages m = { 0 };
    Profile profile;
    if (messages_make(p, &m, &profile) != 0) {
        messages_free(&m);
        return -1;
    }
    struct file_buffer *b = malloc(sizeof *b);
    if (!b) {
        messages_free(&m);
        return no_memory();
    }
    *b = (struct file_buffer){ .base = { append }, .out = out, .gzip = gzip };
    /* 31: a gzip header and trailer around the deflate stream, as pprof files have */
    if (gzip && deflateInit2(&b->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8,
                             Z_DEFAULT_STRATEGY) != Z_OK) {
        messages_free(&m);
        free(b);
        return no_memory();
    }
    errno = 0;
    perftools__profiles__profile__pack_to_buffer(&profile, &b->base);
    put(b, b->pending, b->pending_len, Z_FINISH);
    if (gzip)
        deflateEnd(&b->z);
    messages_free(&m);
    int failed = b->failed;
    free(b);
    if (failed) {
        errno = failed;
        return -1;
    }
    return 0;
}
