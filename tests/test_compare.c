/* test_compare.c: --compare and --y-max in the chart: two titled charts on one memory
 * and time scale, one colour per label in both, the union of both runs' largest bands,
 * and a fixed top tick with values above it clipped to the plot and said so. Exact
 * eventlogs from evwriter, run through convert_run, read back with libxml2. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "charttest.h"

#define MAX_ITEMS 64

struct picture {
    char titles[2][256];
    size_t title_count;
    char ticks[2][MAX_ITEMS][32];    /* y tick texts per chart, bottom up */
    double tick_y[2][MAX_ITEMS];
    size_t tick_count[2];
    char fills[2][MAX_ITEMS][16];    /* band fill per chart, by band title */
    char bands[2][MAX_ITEMS][64];
    size_t band_count[2];
    double band_top;                 /* the smallest y of any band point */
    char legend[MAX_ITEMS][64];      /* legend swatch tooltips */
    size_t legend_count;
    bool clip_note;
};

static void copy_prop(xmlNodePtr n, const char *name, char *out, size_t size)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST name);
    snprintf(out, size, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

/* The smallest y in a path's "M x y L x y x y ... Z". */
static double path_top(const char *d)
{
    double top = INFINITY;
    const char *p = d;
    while (*p) {
        while (*p && (*p < '0' || *p > '9') && *p != '-')
            p++;
        if (!*p)
            break;
        char *end;
        strtod(p, &end);               /* x */
        p = end;
        while (*p == ' ')
            p++;
        double y = strtod(p, &end);
        if (end == p)
            break;
        top = fmin(top, y);
        p = end;
    }
    return top;
}

/* The y where the second chart's slice begins: its title's baseline (or none). */
static double second_title_y(xmlDocPtr doc)
{
    int seen = 0;
    for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && has_class(n, "title") && ++seen == 2) {
            char y[32];
            copy_prop(n, "y", y, sizeof y);
            return atof(y);
        }
    return INFINITY;
}

static int chart_at(double split, double y)
{
    return y < split ? 0 : 1;
}

/* Reads what the tests look at; items belong to the chart whose slice holds them. */
static void read_picture(const char *svg, struct picture *pic)
{
    memset(pic, 0, sizeof *pic);
    pic->band_top = INFINITY;
    xmlDocPtr doc = xmlReadFile(svg, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    double split = second_title_y(doc);
    for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *content = xmlNodeGetContent(n);
        xmlChar *tip = title_of(n);
        char anchor[16], ys[32], d[8192];
        copy_prop(n, "text-anchor", anchor, sizeof anchor);
        copy_prop(n, "y", ys, sizeof ys);
        copy_prop(n, "d", d, sizeof d);
        int chart = chart_at(split, *d ? path_top(d) : atof(ys));
        if (has_class(n, "title") && pic->title_count < 2) {
            snprintf(pic->titles[pic->title_count++], 256, "%s", (const char *)content);
        } else if (has_class(n, "band") && pic->band_count[chart] < MAX_ITEMS) {
            size_t i = pic->band_count[chart]++;
            copy_prop(n, "fill", pic->fills[chart][i], 16);
            snprintf(pic->bands[chart][i], 64, "%s", tip ? (const char *)tip : "");
            pic->band_top = fmin(pic->band_top, path_top(d));
        } else if (has_class(n, "axis") && strcmp(anchor, "end") == 0 &&
                   strcmp((const char *)n->name, "text") == 0 &&
                   pic->tick_count[chart] < MAX_ITEMS) {
            size_t i = pic->tick_count[chart]++;
            snprintf(pic->ticks[chart][i], 32, "%s", (const char *)content);
            pic->tick_y[chart][i] = atof(ys);
        } else if (has_class(n, "legend") && strcmp((const char *)n->name, "rect") == 0 &&
                   tip && pic->legend_count < MAX_ITEMS) {
            snprintf(pic->legend[pic->legend_count++], 64, "%s", (const char *)tip);
        } else if (has_class(n, "note") && strstr((const char *)content, "clipped")) {
            pic->clip_note = true;
        }
        xmlFree(tip);
        xmlFree(content);
    }
    xmlFreeDoc(doc);
}

static const char *fill_of(const struct picture *pic, int chart, const char *label)
{
    for (size_t i = 0; i < pic->band_count[chart]; i++)
        if (strcmp(pic->bands[chart][i], label) == 0)
            return pic->fills[chart][i];
    return NULL;
}

static bool in_legend(const struct picture *pic, const char *label)
{
    for (size_t i = 0; i < pic->legend_count; i++)
        if (strcmp(pic->legend[i], label) == 0)
            return true;
    return false;
}

static int compare_to(const char *base, const char *input, const char *svg,
                      const struct chart_options *chart)
{
    return testkit_convert(input, svg, FORMAT_SVG,
                           (struct convert_options){ .chart = chart, .compare_path = base },
                           NULL);
}

/* base: A large, B small, up to 1.5 KiB; now: B and C, up to 40 KiB. */
static void make_runs(char *base, size_t bsize, char *now, size_t nsize)
{
    const char *lb[] = { "Base.A", "Shared.B" }, *ln[] = { "Shared.B", "Now.C" };
    uint64_t bb[] = { 1000, 200, 1200, 300, 900, 100 };
    uint64_t bn[] = { 300, 10000, 800, 30000, 500, 40000 };
    make_eventlog(temp_path(base, bsize, "base.eventlog"), lb, 2, bb, 3);
    make_eventlog(temp_path(now, nsize, "now.eventlog"), ln, 2, bn, 3);
}

/* The runs of make_runs compared with chart options opt into the SVG name: status 0, and
 * what it draws in *pic. */
static void draw_compared(const struct chart_options *opt, const char *name,
                          struct picture *pic)
{
    char base[256], now[256], svg[256];
    make_runs(base, sizeof base, now, sizeof now);
    assert_int_equal(compare_to(base, now, temp_path(svg, sizeof svg, name), opt), 0);
    read_picture(svg, pic);
}

static void shared_scales_colours_titles(void **state)
{
    struct chart_options opt;
    chart_options_default(&opt);
    struct picture pic;
    draw_compared(&opt, "c.svg", &pic);
    assert_int_equal(pic.title_count, 2);
    assert_memory_equal(pic.titles[0], "base: ", 6);
    assert_memory_equal(pic.titles[1], "this run: ", 10);
    /* one memory scale: the same ticks in both charts, reaching past both peaks */
    assert_true(pic.tick_count[0] >= 2);
    assert_int_equal(pic.tick_count[0], pic.tick_count[1]);
    for (size_t i = 0; i < pic.tick_count[0]; i++)
        assert_string_equal(pic.ticks[0][i], pic.ticks[1][i]);
    assert_string_equal(pic.ticks[0][pic.tick_count[0] - 1], "40 KiB");
    /* the same label, the same colour */
    const char *b0 = fill_of(&pic, 0, "Shared.B"), *b1 = fill_of(&pic, 1, "Shared.B");
    assert_non_null(b0);
    assert_non_null(b1);
    assert_string_equal(b0, b1);
    assert_string_not_equal(fill_of(&pic, 0, "Base.A"), b0);
    /* one legend for both */
    assert_true(in_legend(&pic, "Base.A"));
    assert_true(in_legend(&pic, "Shared.B"));
    assert_true(in_legend(&pic, "Now.C"));
    assert_false(pic.clip_note);
}

/* With --bands 1 each run alone shows only its largest; compared, both show the union. */
static void union_of_largest_bands(void **state)
{
    struct chart_options opt;
    chart_options_default(&opt);
    opt.profile.bands = 1;
    opt.profile.trace_percent = 0;
    struct picture pic;
    draw_compared(&opt, "u.svg", &pic);
    assert_non_null(fill_of(&pic, 0, "Base.A"));
    assert_non_null(fill_of(&pic, 1, "Now.C"));
    /* Shared.B is the largest of neither, so it is in OTHER in both */
    assert_null(fill_of(&pic, 0, "Shared.B"));
    assert_null(fill_of(&pic, 1, "Shared.B"));
}

static void y_max_fixes_top_and_clips(void **state)
{
    struct chart_options opt;
    chart_options_default(&opt);
    opt.has_y_max = true;
    opt.y_max = 20 * 1024;
    struct picture pic;
    draw_compared(&opt, "y.svg", &pic);
    for (int c = 0; c < 2; c++)
        assert_string_equal(pic.ticks[c][pic.tick_count[c] - 1], "20 KiB");
    assert_true(pic.clip_note);
    /* nothing is drawn above the top tick of the upper chart (its label sits on it) */
    double top = pic.tick_y[0][pic.tick_count[0] - 1] - 11 * 0.35;
    assert_true(pic.band_top >= top - 0.5);
    /* a scale above every value: no clipping, no note; an odd size is a tick of its own */
    opt.y_max = 100000;
    draw_compared(&opt, "y2.svg", &pic);
    assert_false(pic.clip_note);
    char want[32];
    chart_format_scale_top(100000, 1, want, sizeof want);   /* in the ticks' KiB */
    assert_string_equal(pic.ticks[1][pic.tick_count[1] - 1], want);
}

static void y_max_single_chart(void **state)
{
    char base[256], now[256], svg[256];
    make_runs(base, sizeof base, now, sizeof now);
    struct chart_options opt;
    chart_options_default(&opt);
    opt.has_y_max = true;
    opt.y_max = 64 * 1024;
    assert_int_equal(convert_to(now, temp_path(svg, sizeof svg, "s.svg"), FORMAT_SVG, &opt), 0);
    struct picture pic;
    read_picture(svg, &pic);
    assert_int_equal(pic.title_count, 1);
    assert_false(pic.clip_note);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_scales_colours_titles),
        cmocka_unit_test(union_of_largest_bands),
        cmocka_unit_test(y_max_fixes_top_and_clips),
        cmocka_unit_test(y_max_single_chart),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
