/* test_chart.c: the chart layout's pieces: round ticks over many ranges, byte labels,
 * colour stability across inputs, label elision, and a layout where nothing leaves the
 * picture. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "charttest.h"
#include "base/format.h"
#include "chart/textmeasure.h"

static bool is_round(double step)
{
    double m = step / pow(10, floor(log10(step)));
    return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9;
}

static void nice_steps(void **state)
{
    for (double range = 1e-4; range < 1e7; range *= 1.37) {
        for (unsigned ticks = 2; ticks <= 12; ticks++) {
            double step = chart_nice_step(range, ticks);
            assert_true(is_round(step));
            assert_true(range / step <= ticks * (1 + 1e-9));
            assert_true(range / step > ticks / 5.0 - 1e-9);   /* not wastefully coarse */
        }
    }
    assert_true(fabs(chart_nice_step(4.75, 8) - 1) < 1e-12);
    assert_true(fabs(chart_nice_step(1.35, 10) - 0.2) < 1e-12);
}

static void byte_steps(void **state)
{
    unsigned unit;
    for (double max = 10; max < 1e13; max *= 1.9) {
        double step = chart_bytes_step(max, 8, &unit);
        double in_unit = step / pow(1024, unit);
        assert_true(is_round(in_unit));
        assert_true(max / step <= 8 * (1 + 1e-9));
        assert_true(max >= pow(1024, unit) || unit == 0);
    }
    double step = chart_bytes_step(131.0 * 1048576, 8, &unit);
    assert_int_equal(unit, 2);
    assert_true(fabs(step - 20.0 * 1048576) < 1);
    char s[32];
    chart_format_tick(40.0 * 1048576, 2, step, s, sizeof s);
    assert_string_equal(s, "40 MiB");
    chart_format_tick(0, 2, step, s, sizeof s);
    assert_string_equal(s, "0");
    step = chart_bytes_step(3.0 * 1073741824, 6, &unit);
    chart_format_tick(1.5 * 1073741824, unit, step, s, sizeof s);
    assert_string_equal(s, "1.5 GiB");
    format_bytes(412.4 * 1048576, s, sizeof s);
    assert_string_equal(s, "412 MiB");
    format_bytes(96, s, sizeof s);
    assert_string_equal(s, "96 B");
    format_bytes(1536, s, sizeof s);
    assert_string_equal(s, "1.50 KiB");
}

static void colour_stable_across_inputs(void **state)
{
    const char *labels[] = { "Main.leak", "ARR_WORDS", "THUNK_2_0", "(151)PINNED" };
    for (size_t i = 0; i < 4; i++) {
        struct dl_color a = chart_band_color(labels[i]);
        struct dl_color b = chart_band_color(labels[i]);
        assert_memory_equal(&a, &b, sizeof a);
    }
    /* the .hp stack number is not part of the colour: PINNED is PINNED */
    struct dl_color x = chart_band_color("(151)PINNED"), y = chart_band_color("PINNED");
    assert_memory_equal(&x, &y, sizeof x);
    struct dl_color grey = chart_other_color();
    assert_int_equal(grey.r, grey.g);
    /* the same label gets the same colour in two different charts */
    const char *l1[] = { "Main.leak", "Data.Map" }, *l2[] = { "other.thing", "Main.leak", "x" };
    uint64_t b1[] = { 100, 90 }, b2[] = { 10, 500, 7 };
    char ev[256], svg1[256], svg2[256];
    make_eventlog(temp_path(ev, sizeof ev, "c1"), l1, 2, b1, 1);
    assert_int_equal(convert_to(ev, temp_path(svg1, sizeof svg1, "c1.svg"), FORMAT_SVG, NULL), 0);
    make_eventlog(temp_path(ev, sizeof ev, "c2"), l2, 3, b2, 1);
    assert_int_equal(convert_to(ev, temp_path(svg2, sizeof svg2, "c2.svg"), FORMAT_SVG, NULL), 0);
    xmlChar *fills[2] = { NULL, NULL };
    const char *paths[2] = { svg1, svg2 };
    for (int i = 0; i < 2; i++) {
        xmlDocPtr doc = xmlReadFile(paths[i], NULL, XML_PARSE_NONET);
        assert_non_null(doc);
        for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n; n = n->next) {
            if (n->type != XML_ELEMENT_NODE || !has_class(n, "band"))
                continue;
            xmlChar *t = title_of(n);
            if (t && strcmp((const char *)t, "Main.leak") == 0)
                fills[i] = xmlGetProp(n, BAD_CAST "fill");
            xmlFree(t);
        }
        xmlFreeDoc(doc);
    }
    assert_non_null(fills[0]);
    assert_non_null(fills[1]);
    assert_string_equal((const char *)fills[0], (const char *)fills[1]);
    xmlFree(fills[0]);
    xmlFree(fills[1]);
}

static void elision(void **state)
{
    struct textmeasure *tm = textmeasure_new();
    assert_non_null(tm);
    double w = text_width(tm, "MMMM", 12, false);
    assert_true(w > 20 && w < 60);
    assert_true(text_width(tm, "MMMM", 12, true) >= w);
    char out[256];
    const char *longer = "Data.Map.Internal.insertWith/Main.buildTable/Main.main/\xc3\xa9\xc3\xa9\xc3\xa9";
    assert_true(text_elide_middle(tm, longer, 12, false, 120, out, sizeof out));
    assert_true(text_width(tm, out, 12, false) <= 120);
    assert_non_null(strstr(out, "\xe2\x80\xa6"));
    assert_memory_equal(out, "Data", 4);
    assert_false(text_elide_middle(tm, "short", 12, false, 120, out, sizeof out));
    assert_string_equal(out, "short");
    /* never cut inside a UTF-8 character */
    assert_true(text_elide_end(tm, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 12, false, 30, out, sizeof out));
    for (size_t i = 0; out[i]; i++)
        if ((unsigned char)out[i] == 0xc3)
            assert_true(((unsigned char)out[i + 1] & 0xc0) == 0x80);
    textmeasure_free(tm);
}

/* Characters in a UTF-8 string (its bytes that are not continuation bytes). */
static size_t glyph_count(const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        n += (*p & 0xc0) != 0x80;
    return n;
}

/* Every text item of a crowded chart stays inside the picture, and legend text does
 * not reach into the plot. */
static void layout_within_bounds(void **state)
{
    struct profile_options po;
    profile_options_default(&po);
    char labels[40][80];
    struct bands *bands = bands_new();
    uint32_t ids[40];
    for (int i = 0; i < 40; i++) {
        snprintf(labels[i], sizeof labels[i],
                 "Some.Very.Long.Module.Name.function%d/Another.Long.Module.caller/main", i);
        bands_string(bands, labels[i], strlen(labels[i]), &ids[i]);
    }
    po.bands = 0;
    po.trace_percent = 0;
    struct ev_error err;
    struct profile *p = profile_new(&po, &err);
    struct census_entry e[40];
    for (int c = 0; c < 50; c++) {
        for (int i = 0; i < 40; i++)
            e[i] = (struct census_entry){ ids[i], (uint64_t)(1000 * (i + 1) * (c + 1)) };
        struct census_frame f = { (uint64_t)c * 10000000, 0, 40, e };
        profile_add_frame(p, &f, bands);
    }
    profile_add_marker(p, 200000000, "a marker with a long text that goes on", 38);
    struct profile_view v;
    assert_int_equal(profile_view(p, bands, &v), 0);
    struct chart_options ch;
    chart_options_default(&ch);
    ch.width = 640;
    ch.height = 360;
    ch.title = "a title long enough that it can never fit in a chart of six hundred and "
               "forty pixels, so it must be elided at the end";
    struct textmeasure *tm = textmeasure_new();
    struct run_info info = { 0 };
    struct display_list dl;
    assert_int_equal(chart_layout(&v, &info, "input", &ch, tm, &dl), 0);
    double plot_right = 0;
    for (size_t i = 0; i < dl.count; i++)
        if (dl.items[i].kind == DL_POLYGON && strcmp(dl.items[i].role, "band") == 0)
            for (size_t k = 0; k < dl.items[i].point_count; k++)
                plot_right = fmax(plot_right, dl.items[i].points[k].x);
    for (size_t i = 0; i < dl.count; i++) {
        const struct dl_item *it = &dl.items[i];
        if (it->kind != DL_TEXT)
            continue;
        /* The oracle: every glyph of DejaVu Sans (Latin, digits, punctuation, the
         * ellipsis) advances between 0.25 and 1.05 em, so a string of n characters is at
         * least 0.25 n em wide whatever the measurer says; a measurer that said 0 (or
         * too little) would let text run out of the picture and must fail here. */
        size_t chars = glyph_count(it->text);
        double w = text_width(tm, it->text, it->font_size, it->bold);
        assert_true(w >= 0.25 * it->font_size * chars - 1e-9);
        assert_true(w <= 1.05 * it->font_size * chars + 1e-9);
        double x0 = it->anchor == DL_ANCHOR_START ? it->x
                  : it->anchor == DL_ANCHOR_MIDDLE ? it->x - w / 2 : it->x - w;
        assert_true(x0 >= -0.5);
        assert_true(x0 + w <= dl.width + 0.5);
        assert_true(it->y <= dl.height && it->y - it->font_size >= -0.5);
        if (strcmp(it->role, "legend") == 0)
            assert_true(x0 > plot_right);
    }
    display_free(&dl);
    textmeasure_free(tm);
    profile_view_free(&v);
    profile_free(p);
    bands_free(bands);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nice_steps),
        cmocka_unit_test(byte_steps),
        cmocka_unit_test(colour_stable_across_inputs),
        cmocka_unit_test(elision),
        cmocka_unit_test(layout_within_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
