/* test_chart.c: the chart layout's pieces: round ticks over many ranges, byte labels,
 * colour stability across inputs, the colours of bands shown together (resolution
 * order, determinism), label elision, a layout where nothing leaves the
 * picture, many close markers every one of which is told (label or tooltip) with no
 * two labels overlapping, and charts from the smallest accepted size up whose text,
 * measured with the real metrics, neither overlaps nor is clipped. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "charttest.h"
#include "base/format.h"
#include "chart/colors.h"
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

/* Every pair of colours the palette gives: far enough apart, or a separator far enough
 * from both; the palette's colours are many and none is the grey of OTHER. */
static void neighbours_told_apart(void **state)
{
    struct dl_color seen[256];
    size_t distinct = 0;
    for (int i = 0; i < 2000 && distinct < 256; i++) {
        char label[32];
        snprintf(label, sizeof label, "Module%d.function", i);
        struct dl_color c = chart_band_color(label);
        size_t k = 0;
        while (k < distinct && memcmp(&seen[k], &c, sizeof c) != 0)
            k++;
        if (k == distinct)
            seen[distinct++] = c;
    }
    assert_int_equal(distinct, 48);
    size_t close = 0;
    for (size_t a = 0; a < distinct; a++) {
        assert_true(chart_color_distance(seen[a], chart_other_color()) >= CHART_COLOR_CLOSE);
        assert_true(chart_color_distance(seen[a], COLOR_WHITE) >= CHART_COLOR_CLOSE);
        for (size_t b = 0; b < distinct; b++) {
            double width;
            struct dl_color line = chart_band_separator(seen[a], seen[b], false, &width);
            if (chart_color_distance(seen[a], seen[b]) >= CHART_COLOR_CLOSE) {
                assert_true(width == 0 && line.a == 0);
                continue;
            }
            close++;
            assert_true(width >= 1 && line.a == 255);
            assert_true(chart_color_distance(line, seen[a]) >= 2 * CHART_COLOR_CLOSE);
            assert_true(chart_color_distance(line, seen[b]) >= 2 * CHART_COLOR_CLOSE);
        }
    }
    /* the same colour twice, at least, needs a separator; few pairs do */
    assert_true(close >= distinct && close < distinct * distinct / 8);
    /* outlines when there is room for them: a deeper shade of the band's own */
    double width;
    struct dl_color edge = chart_band_separator(seen[0], COLOR_WHITE, true, &width);
    assert_true(width > 0 && edge.a == 255 && edge.r <= seen[0].r && edge.g <= seen[0].g);
}

static bool same_color(struct dl_color a, struct dl_color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/* Labels whose own colour is the same as first's: up to max of them in out (written
 * into buf, 32 bytes each); how many. */
static size_t labels_of_one_colour(const char *first, char (*buf)[32], size_t max)
{
    struct dl_color want = chart_band_color(first);
    size_t n = 0;
    for (int i = 0; i < 100000 && n < max; i++) {
        snprintf(buf[n], sizeof buf[n], "Mod%d.fn", i);
        if (same_color(chart_band_color(buf[n]), want))
            n++;
    }
    return n;
}

/* chart_band_colors: the rank order (area, then peak, then label) decides who keeps its
 * own colour; the others take the free palette colour nearest theirs; the same bands
 * give the same colours whatever their order; one name is one colour; past the
 * palette's size colours repeat, each band's own. */
static void colours_resolved(void **state)
{
    size_t palette_size;
    const struct dl_color *palette = chart_palette(&palette_size);
    assert_int_equal(palette_size, 48);
    char same[64][32];
    assert_int_equal(labels_of_one_colour("Main.leak", same, 64), 64);
    struct dl_color own = chart_band_color(same[0]), out[64], again[64];

    /* two bands of one own colour: the larger keeps it, whichever comes first */
    struct chart_color_band two[2] = { { same[0], same[0], 10.0, 5 },
                                       { same[1], same[1], 20.0, 1 } };
    assert_int_equal(chart_band_colors(two, 2, out), 0);
    assert_true(same_color(out[1], own));
    assert_false(same_color(out[0], own));
    /* ... and the other the palette colour nearest its own (none free is nearer) */
    double d = chart_color_distance(out[0], own);
    for (size_t k = 0; k < palette_size; k++)
        if (!same_color(palette[k], own))
            assert_true(chart_color_distance(palette[k], own) >= d);
    /* equal areas: the larger peak keeps it; equal peaks too: the first label */
    two[0].area = two[1].area = 7.0;
    two[0].peak = 9;
    assert_int_equal(chart_band_colors(two, 2, out), 0);
    assert_true(same_color(out[0], own));
    two[0].peak = two[1].peak = 9;
    assert_int_equal(chart_band_colors(two, 2, out), 0);
    assert_true(same_color(strcmp(same[0], same[1]) < 0 ? out[0] : out[1], own));

    /* order and determinism: 20 bands of mixed colours, given forwards and backwards */
    struct chart_color_band fw[20], bw[20];
    char mixed[20][32];
    for (size_t i = 0; i < 20; i++) {
        if (i % 2)
            snprintf(mixed[i], sizeof mixed[i], "%s", same[i]);
        else
            snprintf(mixed[i], sizeof mixed[i], "Other%zu.fn", i);
        fw[i] = (struct chart_color_band){ mixed[i], mixed[i], 100.0 - (double)i, 0 };
        bw[19 - i] = fw[i];
    }
    assert_int_equal(chart_band_colors(fw, 20, out), 0);
    assert_int_equal(chart_band_colors(bw, 20, again), 0);
    for (size_t i = 0; i < 20; i++) {
        assert_true(same_color(out[i], again[19 - i]));
        for (size_t j = 0; j < i; j++)
            assert_true(chart_color_distance(out[i], out[j]) >= 0.0366);
    }
    assert_int_equal(chart_band_colors(fw, 20, again), 0);
    assert_memory_equal(out, again, 20 * sizeof *out);
    /* the largest of them keeps its own colour */
    assert_true(same_color(out[0], chart_band_color(mixed[0])));
    assert_true(same_color(out[1], own));

    /* one name in two panels: one colour, not two */
    struct chart_color_band panels[3] = { { same[0], "x", 5.0, 1 },
                                          { same[1], "y", 6.0, 1 },
                                          { "(12)x", "x", 1.0, 1 } };
    assert_int_equal(chart_band_colors(panels, 3, out), 0);
    assert_true(same_color(out[0], out[2]));
    assert_false(same_color(out[0], out[1]));
    assert_true(same_color(out[1], own));

    /* 64 bands of one own colour: the 48 largest take every palette colour once, the
     * rest their own (the palette has no more) */
    struct chart_color_band many[64];
    for (size_t i = 0; i < 64; i++)
        many[i] = (struct chart_color_band){ same[i], same[i], 1000.0 - (double)i, 0 };
    assert_int_equal(chart_band_colors(many, 64, out), 0);
    for (size_t i = 0; i < 48; i++)
        for (size_t j = 0; j < i; j++)
            assert_false(same_color(out[i], out[j]));
    for (size_t i = 48; i < 64; i++)
        assert_true(same_color(out[i], own));
    assert_int_equal(chart_band_colors(many, 0, out), 0);
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

/* --- markers ------------------------------------------------------------------------ */

#define MANY_MARKERS 90

static void marker_text(char *out, size_t size, int i)
{
    /* some long, some short, some in other scripts */
    static const char *const words[] = { "phase", "GC burst", "\xce\xb5\xce\xbb\xce\xbb",
                                         "load the whole input file", "\xe6\xbc\xa2\xe5\xad\x97",
                                         "x" };
    snprintf(out, size, "%s %d", words[i % 6], i);
}

/* An eventlog of two bands and MANY_MARKERS markers close together (12 ms apart, in
 * bursts), read back from its SVG. */
static void many_markers_svg(const char *svg, unsigned width, unsigned height)
{
    char ev[256];
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    const char *argv[] = { "prog", "+RTS", "-hT", "-l" };
    evw_program_args(w, 0, argv, 4);
    evw_prof_begin(w, 0, 7, 100000000);
    for (int c = 0; c < 12; c++) {
        uint64_t t = (uint64_t)c * 100000000ull;
        evw_sample_begin(w, t, 0);
        evw_sample_string(w, t, "ARR_WORDS", 1000000 + 50000 * (uint64_t)c);
        evw_sample_string(w, t, "THUNK", 400000);
        evw_sample_end(w, t, 0);
    }
    char text[64];
    for (int i = 0; i < MANY_MARKERS; i++) {
        marker_text(text, sizeof text, i);
        evw_marker(w, 20000000ull + (uint64_t)i * 12000000ull + (i % 10 == 0) * 7000000ull, text);
    }
    testkit_finish(w, temp_path(ev, sizeof ev, "markers.eventlog"));
    struct chart_options ch;
    chart_options_default(&ch);
    ch.width = width;
    ch.height = height;
    assert_int_equal(convert_to(ev, svg, FORMAT_SVG, &ch), 0);
}

/* A <text>'s own characters (not its <title>'s). */
static char *own_text(xmlNodePtr n)
{
    size_t cap = 1, len = 0;
    char *out = calloc(1, 1);
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type != XML_TEXT_NODE)
            continue;
        size_t k = strlen((const char *)c->content);
        out = realloc(out, cap += k);
        memcpy(out + len, c->content, k + 1);
        len += k;
    }
    return out;
}

static double num_prop(xmlNodePtr n, const char *name, double missing)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST name);
    double d = v ? strtod((const char *)v, NULL) : missing;
    xmlFree(v);
    return d;
}

/* Every marker is told: its line's tooltip holds its text; it has a label or is counted
 * in the subtitle's "N markers unlabelled", the counts adding up; labels too close for a
 * row are turned along their lines; no two texts of the picture overlap. */
static void markers_all_told(void **state)
{
    static const unsigned sizes[][2] = { { 1280, 720 }, { 640, 360 }, { 400, 300 } };
    struct textmeasure *tm = textmeasure_new();
    assert_non_null(tm);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        char svg[256], name[32];
        snprintf(name, sizeof name, "markers%zu.svg", k);
        many_markers_svg(temp_path(svg, sizeof svg, name), sizes[k][0], sizes[k][1]);
        xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
        assert_non_null(doc);
        bool told[MANY_MARKERS] = { false };
        size_t labelled = 0, turned = 0, unlabelled = 0, nboxes = 0;
        struct text_box boxes[1024];
        char *texts[1024];
        for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n; n = n->next) {
            if (n->type != XML_ELEMENT_NODE)
                continue;
            bool is_text = strcmp((const char *)n->name, "text") == 0;
            xmlChar *title = title_of(n);
            if (has_class(n, "marker") && title) {
                char text[64];
                for (int i = 0; i < MANY_MARKERS; i++) {
                    marker_text(text, sizeof text, i);
                    size_t len = strlen(text);
                    /* "text (t s)": the whole text, not a longer one's prefix */
                    if (strncmp((const char *)title, text, len) == 0 &&
                        strncmp((const char *)title + len, " (", 2) == 0)
                        told[i] = true;
                }
            }
            if (is_text) {
                char *own = own_text(n);
                if (has_class(n, "subtitle")) {
                    const char *full = title ? (const char *)title : own;
                    const char *u = strstr(full, " markers unlabelled");
                    if (u) {
                        while (u > full && u[-1] >= '0' && u[-1] <= '9')
                            u--;
                        unlabelled = strtoul(u, NULL, 10);
                    }
                }
                xmlChar *anchor = xmlGetProp(n, BAD_CAST "text-anchor");
                xmlChar *weight = xmlGetProp(n, BAD_CAST "font-weight");
                xmlChar *transform = xmlGetProp(n, BAD_CAST "transform");
                struct dl_item it = {
                    .kind = DL_TEXT, .x = num_prop(n, "x", 0), .y = num_prop(n, "y", 0),
                    .text = own, .font_size = num_prop(n, "font-size", 0),
                    .bold = weight != NULL,
                    .anchor = !anchor ? DL_ANCHOR_START
                            : strcmp((const char *)anchor, "middle") == 0 ? DL_ANCHOR_MIDDLE
                                                                          : DL_ANCHOR_END,
                    .rotate = transform ? strtod((const char *)transform + 7, NULL) : 0,
                    .role = has_class(n, "marker") ? "marker" : "text",
                };
                if (has_class(n, "marker")) {
                    labelled++;
                    turned += transform != NULL;
                }
                assert_true(nboxes < 1024);
                texts[nboxes] = own;
                boxes[nboxes++] = text_box_of(tm, &it);
                xmlFree(anchor);
                xmlFree(weight);
                xmlFree(transform);
            }
            xmlFree(title);
        }
        for (int i = 0; i < MANY_MARKERS; i++)
            if (!told[i])
                fail_msg("%ux%u: marker %d is in no tooltip", sizes[k][0], sizes[k][1], i);
        assert_int_equal(labelled + unlabelled, MANY_MARKERS);
        assert_true(turned > 0);          /* the rows alone could not hold them */
        if (k == 0)
            assert_true(labelled > MANY_MARKERS / 2);
        assert_no_text_overlap(boxes, nboxes);
        for (size_t i = 0; i < nboxes; i++)
            free(texts[i]);
        xmlFreeDoc(doc);
    }
    textmeasure_free(tm);
}

/* --- text never overlaps, never clipped ----------------------------------------------- */

/* A crowded profile: many bands with long labels in several scripts, heap totals, and
 * markers close together. */
static struct profile *crowded_profile(struct bands *bands, unsigned shown)
{
    struct profile_options po;
    profile_options_default(&po);
    po.bands = shown;
    po.trace_percent = 0;
    struct ev_error err;
    struct profile *p = profile_new(&po, &err);
    enum { N = 30 };
    uint32_t ids[N];
    static const char *const scripts[] = {
        "Main.worker",
        "\xce\x95\xce\xbb\xce\xbb\xce\xb7\xce\xbd\xce\xb9\xce\xba\xce\xac",   /* Greek */
        "\xe6\xbc\xa2\xe5\xad\x97\xe3\x83\x87\xe3\x83\xbc\xe3\x82\xbf",       /* CJK */
        "caf\xc3\xa9.na\xc3\xafve",
    };
    for (int i = 0; i < N; i++) {
        char label[160];
        snprintf(label, sizeof label, "%s%d/Some.Long.Module.Name.caller/Main.main/%s",
                 scripts[i % 4], i, i % 3 ? "CAF" : "deep.inside.the.stack.where.it.allocates");
        bands_string(bands, label, strlen(label), &ids[i]);
    }
    struct census_entry e[N];
    for (int c = 0; c < 60; c++) {
        for (int i = 0; i < N; i++)
            e[i] = (struct census_entry){ ids[i],
                                          (uint64_t)(1000 * (i + 1) * (c % 20 + 1) + 7 * i) };
        struct census_frame f = { (uint64_t)c * 50000000, 0, N, e };
        profile_add_frame(p, &f, bands);
        profile_add_total(p, HEAP_TOTAL_SIZE, (uint64_t)c * 50000000 + 1000,
                          (uint64_t)(2000000 + 40000 * c));
    }
    for (int i = 0; i < 25; i++) {
        char text[64];
        snprintf(text, sizeof text, "%s marker %d", i % 2 ? "a" : "a longer", i);
        profile_add_marker(p, 300000000ull + (uint64_t)i * 20000000ull, text, strlen(text));
    }
    profile_add_marker(p, 0, "at the start", 12);
    return p;
}

/* From the smallest accepted size to a large one, with the real text metrics: walk the
 * display list; no two texts overlap, and none runs off the canvas. */
static void no_text_overlap_any_size(void **state)
{
    static const unsigned sizes[][2] = {
        { CHART_MIN_SIZE, CHART_MIN_SIZE }, { 300, 200 }, { 400, 300 }, { 640, 360 },
        { 900, 700 }, { 1280, 720 }, { 2400, 1400 },
    };
    struct bands *bands = bands_new();
    struct textmeasure *tm = textmeasure_new();
    assert_non_null(tm);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        for (int totals = 0; totals < 2; totals++) {
            struct chart_options ch;
            chart_options_default(&ch);
            ch.width = sizes[k][0];
            ch.height = sizes[k][1];
            ch.totals = totals;
            struct profile *p = crowded_profile(bands, totals ? 8 : 0);
            struct profile_view v;
            assert_int_equal(profile_view(p, bands, &v), 0);
            struct run_info info = { .program = "prog +RTS -hc -l", .has_heap_profile = true,
                                     .period_ns = 100000000 };
            struct display_list dl;
            assert_int_equal(chart_layout(&v, &info, "input", &ch, tm, &dl), 0);
            struct text_box *boxes = calloc(dl.count, sizeof *boxes);
            size_t n = 0;
            for (size_t i = 0; i < dl.count; i++) {
                if (dl.items[i].kind != DL_TEXT)
                    continue;
                struct text_box b = text_box_of(tm, &dl.items[i]);
                if (b.x0 < -0.25 || b.y0 < -0.25 || b.x1 > dl.width + 0.25 ||
                    b.y1 > dl.height + 0.25)
                    fail_msg("%ux%u: %s '%s' [%.1f %.1f %.1f %.1f] is clipped by the canvas",
                             ch.width, ch.height, b.role, b.text, b.x0, b.y0, b.x1, b.y1);
                boxes[n++] = b;
            }
            assert_true(n > 10);
            assert_no_text_overlap(boxes, n);
            free(boxes);
            display_free(&dl);
            profile_view_free(&v);
            profile_free(p);
        }
    }
    textmeasure_free(tm);
    bands_free(bands);
}

/* Text on any fill reads at WCAG AA: chart_text_on's colour has a contrast of 4.5:1 or
 * more on every fill (a grid of every 5th value of each channel, and the half-saturated
 * reds where the ink and white both fall short); the ratio's ends are 1 and 21. */
static void text_on_every_fill_reads(void **state)
{
    (void)state;
    const struct dl_color black = { 0, 0, 0, 255 };
    assert_true(fabs(chart_contrast(black, COLOR_WHITE) - 21) < 1e-9);
    assert_true(fabs(chart_contrast(COLOR_INK, COLOR_INK) - 1) < 1e-9);
    double least = 21;
    for (int r = 0; r <= 255; r += 5)
        for (int g = 0; g <= 255; g += 5)
            for (int b = 0; b <= 255; b += 5) {
                struct dl_color fill = { (uint8_t)r, (uint8_t)g, (uint8_t)b, 255 };
                double k = chart_contrast(chart_text_on(fill), fill);
                if (k < least)
                    least = k;
            }
    assert_true(least >= CHART_TEXT_CONTRAST);
    /* #da4c4e, a +68 % frame of the differential flame graph: the ink (3.88) and white
     * (4.10) both fall short, black reads (5.12) */
    const struct dl_color red = { 0xda, 0x4c, 0x4e, 255 };
    assert_true(chart_contrast(COLOR_INK, red) < CHART_TEXT_CONTRAST);
    assert_true(chart_contrast(COLOR_WHITE, red) < CHART_TEXT_CONTRAST);
    struct dl_color ink = chart_text_on(red);
    assert_true(ink.r == 0 && ink.g == 0 && ink.b == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_on_every_fill_reads),
        cmocka_unit_test(nice_steps),
        cmocka_unit_test(byte_steps),
        cmocka_unit_test(colour_stable_across_inputs),
        cmocka_unit_test(neighbours_told_apart),
        cmocka_unit_test(colours_resolved),
        cmocka_unit_test(elision),
        cmocka_unit_test(layout_within_bounds),
        cmocka_unit_test(markers_all_told),
        cmocka_unit_test(no_text_overlap_any_size),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
