/* charttest.h: helpers shared by the chart tests: temporary files, building small
 * eventlogs with evwriter, running a conversion, reading an SVG back with libxml2.
 * Header-only (static functions) so each test stays one program.
 */
#ifndef EV2HP_CHARTTEST_H
#define EV2HP_CHARTTEST_H

#include <ftw.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/chart.h"
#include "convert.h"
#include "evwriter.h"

static char temp_dir[256];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* At exit: the test's temporary directory goes, whatever the test left in it. */
static void remove_temp_dir(void)
{
    nftw(temp_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh temporary directory's path joined with name; the directory is removed when the
 * test program exits. */
static inline const char *temp_path(char *buf, size_t size, const char *name)
{
    char *dir = temp_dir;
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        if ((size_t)snprintf(dir, sizeof temp_dir, "%s/ev2hp-test-XXXXXX", tmp) >=
                sizeof temp_dir || !mkdtemp(dir))
            abort();
        atexit(remove_temp_dir);
    }
    if ((size_t)snprintf(buf, size, "%s/%s", dir, name) >= size)
        abort();   /* a test's buffer too small for its path: fix the test */
    return buf;
}

static inline void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        abort();
}

static inline char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    if (fread(data, 1, (size_t)n, f) != (size_t)n)
        abort();
    data[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return data;
}

/* An eventlog with censuses of string bands: bytes[c * nbands + b] at census c. */
static inline void make_eventlog(const char *path, const char *const *labels, size_t nbands,
                                 const uint64_t *bytes, size_t ncensuses)
{
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    const char *argv[] = { "prog", "+RTS", "-hT", "-l" };
    evw_program_args(w, 0, argv, 4);
    evw_prof_begin(w, 0, 7, 100000000);
    for (size_t c = 0; c < ncensuses; c++) {
        uint64_t t = (c + 1) * 100000000ull;
        evw_sample_begin(w, t, 0);
        for (size_t b = 0; b < nbands; b++)
            if (bytes[c * nbands + b])
                evw_sample_string(w, t, labels[b], bytes[c * nbands + b]);
        evw_sample_end(w, t, 0);
    }
    evw_data_end(w);
    write_file(path, w->data, w->len);
    evw_free(w);
}

/* Runs ev2hp's conversion from input to one output; returns the exit status. */
static inline int convert_to(const char *input, const char *output, enum output_format format,
                             const struct chart_options *chart)
{
    struct output_request out = { output, format };
    struct convert_options opt = { .input_path = input, .outputs = &out, .output_count = 1,
                                   .chart = chart };
    struct convert_result res;
    convert_run(&opt, &res);
    return res.exit_status;
}

static inline bool has_class(xmlNodePtr n, const char *cls)
{
    xmlChar *c = xmlGetProp(n, BAD_CAST "class");
    bool yes = c && strcmp((const char *)c, cls) == 0;
    xmlFree(c);
    return yes;
}

/* The text of n's <title> child, or NULL (caller xmlFrees). */
static inline xmlChar *title_of(xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "title") == 0)
            return xmlNodeGetContent(c);
    return NULL;
}

#endif
