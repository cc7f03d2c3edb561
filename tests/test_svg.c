/* test_svg.c: the SVG output parsed back with libxml2: structure (a path per shown band
 * with its full label as <title>, axes, legend, title), escaping of hostile labels and
 * UTF-8, the no-census chart, the size bound on many censuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "charttest.h"

static xmlDocPtr chart_of(const char *const *labels, size_t nbands, const uint64_t *bytes,
                          size_t ncensuses, const struct chart_options *chart, const char *name)
{
    char ev[256], svg[256], svgname[64];
    snprintf(svgname, sizeof svgname, "%s.svg", name);
    temp_path(ev, sizeof ev, name);
    temp_path(svg, sizeof svg, svgname);
    make_eventlog(ev, labels, nbands, bytes, ncensuses);
    assert_int_equal(convert_to(ev, svg, FORMAT_SVG, chart), 0);
    xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    return doc;
}

static size_t count_class(xmlNodePtr n, const char *element, const char *cls)
{
    size_t count = 0;
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, element) == 0 &&
            has_class(c, cls))
            count++;
    return count;
}

/* Whether some band path's title is exactly label. */
static bool band_titled(xmlNodePtr root, const char *label)
{
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || !has_class(c, "band"))
            continue;
        xmlChar *t = title_of(c);
        bool same = t && strcmp((const char *)t, label) == 0;
        xmlFree(t);
        if (same)
            return true;
    }
    return false;
}

static bool text_with(xmlNodePtr root, const char *cls, const char *content)
{
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "text") != 0 ||
            !has_class(c, cls))
            continue;
        xmlChar *t = xmlNodeGetContent(c);
        bool found = t && strstr((const char *)t, content);
        xmlFree(t);
        if (found)
            return true;
    }
    return false;
}

static void structure(void **state)
{
    const char *labels[] = { "ARR_WORDS", "THUNK_2_0", "ghc-prim:GHC.Types.:", "tiny" };
    uint64_t bytes[5 * 4];
    for (size_t c = 0; c < 5; c++) {
        bytes[c * 4 + 0] = 1000000 * (c + 1);
        bytes[c * 4 + 1] = 500000;
        bytes[c * 4 + 2] = 300000 * (5 - c);
        bytes[c * 4 + 3] = 10;    /* under 1 % of the area: folds into OTHER */
    }
    struct chart_options trace;
    chart_options_default(&trace);
    trace.profile.trace_percent = 1;   /* --trace 1 (folding by size only when given) */
    xmlDocPtr doc = chart_of(labels, 4, bytes, 5, &trace, "structure");
    xmlNodePtr root = xmlDocGetRootElement(doc);
    assert_string_equal((const char *)root->name, "svg");
    xmlChar *box = xmlGetProp(root, BAD_CAST "viewBox");
    assert_string_equal((const char *)box, "0 0 1280 720");
    xmlFree(box);
    assert_int_equal(count_class(root, "path", "band"), 4);   /* three bands and OTHER */
    for (size_t i = 0; i < 3; i++)
        assert_true(band_titled(root, labels[i]));
    assert_true(band_titled(root, "OTHER"));
    assert_false(band_titled(root, "tiny"));
    assert_true(text_with(root, "title", "prog +RTS -hT -l"));
    assert_true(text_with(root, "subtitle", "by closure type"));
    assert_true(text_with(root, "subtitle", "5 censuses"));
    assert_true(text_with(root, "axis", "MiB"));
    assert_true(text_with(root, "axis", "time (s)"));
    assert_true(text_with(root, "legend", "ARR_WORDS"));
    assert_true(text_with(root, "legend", "OTHER"));
    assert_true(text_with(root, "peak", "peak"));
    xmlFreeDoc(doc);
}

static void hostile_labels(void **state)
{
    const char *labels[] = {
        "<script>alert(\"x\")</script>", "a & b ' \" <&>", "\xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xe6\x97\xa5\xf0\x9f\x98\x80",
        "bad \xff\xfe utf8 \x01 ctl",
    };
    uint64_t bytes[3 * 4] = { 100, 200, 300, 400, 100, 200, 300, 400, 100, 200, 300, 400 };
    struct chart_options ch;
    chart_options_default(&ch);
    ch.title = "title <with> & \"quotes\"";
    xmlDocPtr doc = chart_of(labels, 4, bytes, 3, &ch, "hostile");
    xmlNodePtr root = xmlDocGetRootElement(doc);
    for (size_t i = 0; i < 3; i++)
        assert_true(band_titled(root, labels[i]));
    /* invalid UTF-8 and control characters are replaced, the rest kept */
    assert_true(band_titled(root, "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd ctl"));
    assert_true(text_with(root, "title", "title <with> & \"quotes\""));
    xmlFreeDoc(doc);
}

static void no_censuses(void **state)
{
    char ev[256], svg[256];
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    for (int i = 0; i < 10; i++)
        evw_heap_size(w, 50, (uint64_t)i * 10000000, (uint64_t)(i + 1) << 20);
    testkit_finish(w, temp_path(ev, sizeof ev, "nocensus"));
    temp_path(svg, sizeof svg, "nocensus.svg");
    assert_int_equal(convert_to(ev, svg, FORMAT_SVG, NULL), 0);
    xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr root = xmlDocGetRootElement(doc);
    assert_int_equal(count_class(root, "path", "band"), 0);
    assert_int_equal(count_class(root, "path", "total"), 1);
    assert_true(text_with(root, "note", "no heap censuses"));
    assert_true(text_with(root, "legend", "heap size"));
    xmlFreeDoc(doc);
}

/* 20,000 censuses of 30 bands: the SVG stays small, the outlines reduced. */
static void many_censuses_small_svg(void **state)
{
    enum { CENSUSES = 20000, BANDS = 30 };
    const char *labels[BANDS];
    char names[BANDS][16];
    for (int b = 0; b < BANDS; b++) {
        snprintf(names[b], sizeof names[b], "band%d", b);
        labels[b] = names[b];
    }
    uint64_t *bytes = malloc(sizeof *bytes * CENSUSES * BANDS);
    for (size_t c = 0; c < CENSUSES; c++)
        for (size_t b = 0; b < BANDS; b++)
            bytes[c * BANDS + b] = 1000 * (b + 1) + (c * 7919 + b * 104729) % 5000;
    struct chart_options ch;
    chart_options_default(&ch);
    ch.profile.bands = 0;
    ch.profile.trace_percent = 0;
    xmlDocPtr doc = chart_of(labels, BANDS, bytes, CENSUSES, &ch, "many");
    free(bytes);
    xmlFreeDoc(doc);
    char svg[256];
    size_t len;
    char *data = testkit_slurp(temp_path(svg, sizeof svg, "many.svg"), &len);
    assert_true(len < 2u << 20);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(structure),
        cmocka_unit_test(hostile_labels),
        cmocka_unit_test(no_censuses),
        cmocka_unit_test(many_censuses_small_svg),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
