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

#include "render/xmlout.h"
#include "facts/gates.h"
#include "facts/phases.h"

struct junit_sink {
    struct sink base;
    struct summary_settings summary;   /* of the text summary in <system-out> */
    struct xml_out x;
};

static void attr_count(struct junit_sink *j, const char *name, size_t n)
{
    char v[32];
    snprintf(v, sizeof v, "%zu", n);
    xml_out_attr(&j->x, name, v);
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
    struct sink *s = sink_summary_new(FORMAT_SUMMARY_TEXT, mem, &j->base.ctx, &j->summary);
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
        j->x.rc = -1;
        errno = ENOMEM;
        return;
    }
    xml_out_start(&j->x, "testcase");
    xml_out_text_attr(&j->x, "classname", phase ? "ev2hp.phases" : "ev2hp.gates");
    xml_out_text_attr(&j->x, "name", name);
    free(name);
    xml_out_text_attr(&j->x, "time", "0");
    if (g->verdict != GATE_PASSED) {
        xml_out_start(&j->x, g->verdict == GATE_FAILED ? "failure" : "error");
        xml_out_text_attr(&j->x, "message", g->why.what);
        xml_out_text_attr(&j->x, "type", gate_name(g->kind));
        snprintf(detail, sizeof detail, "measured: %s\nallowed: %s\n",
                 g->measured[0] ? g->measured : "(cannot be measured)", g->allowed);
        xml_out_string(&j->x, detail);
        xml_out_end(&j->x);
    }
    xml_out_end(&j->x);
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
    xml_out_start(&j->x, "testsuites");
    xml_out_text_attr(&j->x, "name", "ev2hp");
    attr_count(j, "tests", tests);
    attr_count(j, "failures", failures);
    attr_count(j, "errors", errors);
    xml_out_start(&j->x, "testsuite");
    xml_out_text_attr(&j->x, "name", suite);
    attr_count(j, "tests", tests);
    attr_count(j, "failures", failures);
    attr_count(j, "errors", errors);
    xml_out_text_attr(&j->x, "skipped", "0");
    xml_out_text_attr(&j->x, "time", "0");
    for (size_t i = 0; r && i < r->count; i++)
        testcase(j, &r->gates[i], NULL, 0);
    for (size_t i = 0; ph && i < ph->count; i++) {
        size_t nth = 0;   /* earlier phases of this name */
        for (size_t e = 0; e < i; e++)
            nth += strcmp(ph->phases[e].name, ph->phases[i].name) == 0;
        for (size_t k = 0; k < ph->phases[i].gates.count; k++)
            testcase(j, &ph->phases[i].gates.gates[k], ph->phases[i].name, nth);
    }
    xml_out_start(&j->x, "system-out");
    xml_out_string(&j->x, summary);
    xml_out_end(&j->x);
    xml_out_end(&j->x);   /* testsuite */
    xml_out_end(&j->x);   /* testsuites */
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
    /* a failed write is reported once, by main.c, with the file */
    if (xml_out_open(&j->x, s->out, true) != 0) {
        free(summary);
        return -1;
    }
    document(j, summary);
    free(summary);
    return xml_out_close(&j->x, s->out);
}

struct sink *sink_junit_new(FILE *out, const struct sink_context *ctx,
                            const struct summary_settings *settings)
{
    struct junit_sink *j = sink_writer_alloc(sizeof *j, junit_finish, ctx, out);
    if (!j)
        return NULL;
    j->summary = *settings;
    return &j->base;
}
