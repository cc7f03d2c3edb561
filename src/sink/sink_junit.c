/* sink_junit.c: --junit FILE, the gates in the test view a CI system already has.
 *
 * JUnit XML as GitLab (artifacts:reports:junit), Jenkins and the GitHub test-report
 * actions read it: one test suite for the run, one test case per gate asked for
 * (gates.h), in the order --max-peak, --max-increase, --max-growth; with --phases, then
 * one test case per phase and gate (facts/phases.h), named by the phase (class
 * ev2hp.phases, name "PHASE: --max-growth: ..."), so a test suite that marks each of its
 * tests gets a heap verdict per test. A gate that failed
 * carries a <failure> whose message is the line ev2hp prints and whose text gives the
 * measured and allowed values; a gate that could not be checked (no census, no base) an
 * <error>, which these readers count as a failed test too. The text summary (the one
 * --summary prints, sink_summary.c) is the suite's <system-out>, so the test view shows
 * the run behind the verdicts. Written with libxml2's xmlTextWriter, like the SVG; no
 * timestamp or duration from the clock (the same input gives the same bytes). Text from
 * the input is made valid XML first: U+FFFD for bytes that are not UTF-8, a space for a
 * control character XML 1.0 cannot hold.
 */
#include "sink/sinks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "base/utf8.h"
#include "render/xmlquiet.h"
#include "facts/gates.h"
#include "facts/phases.h"

struct junit_sink {
    struct sink base;
    struct summary_settings summary;   /* of the text summary in <system-out> */
    int rc;                            /* the first failed writer call's, or >= 0 */
    xmlTextWriterPtr w;
};

static void start(struct junit_sink *j, const char *element)
{
    if (j->rc >= 0)
        j->rc = xmlTextWriterStartElement(j->w, BAD_CAST element);
}

static void end(struct junit_sink *j)
{
    if (j->rc >= 0)
        j->rc = xmlTextWriterEndElement(j->w);
}

/* text as XML can hold it (utf8_xml_text), malloc'd; NULL when out of memory. */
static char *xml_text(const char *text)
{
    char *out = malloc(strlen(text) * 3 + 1);
    if (out)
        utf8_xml_text(text, out);
    return out;
}

/* value, made fit for XML (xml_text), as the attribute name of the open element, or with
 * name NULL as its text. */
static void put_text(struct junit_sink *j, const char *name, const char *value)
{
    char *v = xml_text(value);
    if (!v) {
        j->rc = -1;
        errno = ENOMEM;
        return;
    }
    if (j->rc >= 0)
        j->rc = name ? xmlTextWriterWriteAttribute(j->w, BAD_CAST name, BAD_CAST v)
                     : xmlTextWriterWriteString(j->w, BAD_CAST v);
    free(v);
}

static void attr(struct junit_sink *j, const char *name, const char *value)
{
    put_text(j, name, value);
}

static void attr_count(struct junit_sink *j, const char *name, size_t n)
{
    char v[32];
    snprintf(v, sizeof v, "%zu", n);
    attr(j, name, v);
}

static void body(struct junit_sink *j, const char *value)
{
    put_text(j, NULL, value);
}

/* The text summary of the run, as --summary writes it: a malloc'd string, or NULL when
 * it could not be made. */
static char *text_summary(struct junit_sink *j)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return NULL;
    struct sink *s = sink_summary_text_new(mem, &j->base.ctx, &j->summary);
    int rc = s ? s->ops->finish(s) : -1;
    if (s)
        s->ops->destroy(s);
    if (fclose(mem) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* A gate's test case; phase: the phase's name, or NULL for the whole run's; nth: the
 * phase is the nth of its name (a test marked twice), 0 for the first. */
static void testcase(struct junit_sink *j, const struct gate *g, const char *phase, size_t nth)
{
    /* named by the gate alone (and its phase): a CI system keeps a test's history by its
     * name, which a changed threshold must not break; the threshold is in the message
     * and the detail. A phase's second run of a name is "(2)", so no two cases share one */
    char detail[160], again[32] = "";
    char *name = NULL;
    if (nth)
        snprintf(again, sizeof again, " (%zu)", nth + 1);
    if (asprintf(&name, "%s%s%s--%s: %s", phase ? phase : "", again, phase ? ": " : "",
                 gate_name(g->kind), gate_description(g->kind)) < 0) {
        j->rc = -1;
        errno = ENOMEM;
        return;
    }
    start(j, "testcase");
    attr(j, "classname", phase ? "ev2hp.phases" : "ev2hp.gates");
    attr(j, "name", name);
    free(name);
    attr(j, "time", "0");
    if (g->verdict != GATE_PASSED) {
        start(j, g->verdict == GATE_FAILED ? "failure" : "error");
        attr(j, "message", g->why.what);
        attr(j, "type", gate_name(g->kind));
        snprintf(detail, sizeof detail, "measured: %s\nallowed: %s\n",
                 g->measured[0] ? g->measured : "(cannot be measured)", g->allowed);
        body(j, detail);
        end(j);
    }
    end(j);
}

/* The tests of a gate report into the counts. */
static void count(const struct gate_report *r, size_t *tests, size_t *failures, size_t *errors)
{
    for (size_t i = 0; r && i < r->count; i++) {
        (*tests)++;
        *failures += r->gates[i].verdict == GATE_FAILED;
        *errors += r->gates[i].verdict == GATE_UNCHECKED;
    }
}

static void document(struct junit_sink *j, const char *summary)
{
    const struct gate_report *r = j->base.ctx.gates;
    const struct phase_report *ph = j->base.ctx.phases;
    size_t tests = 0, failures = 0, errors = 0;
    count(r, &tests, &failures, &errors);
    for (size_t i = 0; ph && i < ph->count; i++)
        count(&ph->phases[i].gates, &tests, &failures, &errors);
    char suite[512];
    snprintf(suite, sizeof suite, "ev2hp: %s", j->base.ctx.input_name);
    if (j->rc >= 0)
        j->rc = xmlTextWriterStartDocument(j->w, "1.0", "UTF-8", NULL);
    start(j, "testsuites");
    attr(j, "name", "ev2hp");
    attr_count(j, "tests", tests);
    attr_count(j, "failures", failures);
    attr_count(j, "errors", errors);
    start(j, "testsuite");
    attr(j, "name", suite);
    attr_count(j, "tests", tests);
    attr_count(j, "failures", failures);
    attr_count(j, "errors", errors);
    attr(j, "skipped", "0");
    attr(j, "time", "0");
    for (size_t i = 0; r && i < r->count; i++)
        testcase(j, &r->gates[i], NULL, 0);
    for (size_t i = 0; ph && i < ph->count; i++) {
        size_t nth = 0;   /* earlier phases of this name */
        for (size_t e = 0; e < i; e++)
            nth += strcmp(ph->phases[e].name, ph->phases[i].name) == 0;
        for (size_t k = 0; k < ph->phases[i].gates.count; k++)
            testcase(j, &ph->phases[i].gates.gates[k], ph->phases[i].name, nth);
    }
    start(j, "system-out");
    body(j, summary);
    end(j);
    end(j);   /* testsuite */
    end(j);   /* testsuites */
    if (j->rc >= 0)
        j->rc = xmlTextWriterEndDocument(j->w);
}

static int junit_finish(struct sink *s)
{
    struct junit_sink *j = (struct junit_sink *)s;
    char *summary = text_summary(j);
    if (!summary) {
        if (!errno)
            errno = ENOMEM;
        return -1;
    }
    xml_quiet();   /* a failed write is reported once, by main.c, with the file */
    xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(s->out, NULL);
    j->w = buf ? xmlNewTextWriter(buf) : NULL;
    if (!j->w) {
        if (buf)
            xmlOutputBufferClose(buf);
        free(summary);
        errno = ENOMEM;
        return -1;
    }
    j->rc = xmlTextWriterSetIndent(j->w, 1);
    if (j->rc >= 0)
        j->rc = xmlTextWriterSetIndentString(j->w, BAD_CAST "  ");
    document(j, summary);
    if (j->rc >= 0)
        j->rc = xmlTextWriterFlush(j->w);
    xmlFreeTextWriter(j->w);   /* closes buf; the FILE stays open (outfile commits it) */
    j->w = NULL;
    free(summary);
    if (j->rc < 0 || fflush(s->out) != 0 || ferror(s->out)) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}

/* Censuses and markers go to the run model, not here: this sink only writes. */
static const struct sink_ops junit_ops = {
    .finish = junit_finish,
    .destroy = sink_free,
};

struct sink *sink_junit_new(FILE *out, const struct sink_context *ctx,
                            const struct summary_settings *settings)
{
    struct junit_sink *j = sink_alloc(sizeof *j, &junit_ops, ctx, out);
    if (!j)
        return NULL;
    j->summary = *settings;
    return &j->base;
}
