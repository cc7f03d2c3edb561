/* colors.h: every colour a chart is drawn with, in one place.
 *
 * The ink of the picture (text, axes, grid, marker lines) and the colours of bands. A
 * band's own colour is a function of its label alone: a hash of the label (without a
 * .hp's "(n)") picks one of 48 colours, 16 hues evenly spaced around the perceptually
 * uniform OKLCH hue circle at 3 lightness levels (palette.py makes the table), so a band
 * has the same colour in every run, filter, window, comparison panel, view and format.
 * A hash gives two labels one colour now and then (two of 16 bands, most of the time),
 * so the bands shown together are coloured together (chart_band_colors): ranked largest
 * first, each keeps its own colour when no band before it took it, and takes the free
 * palette colour nearest its own otherwise. No two of them share a colour, and none
 * sits closer to another than the palette's least distance (0.037 in OKLab), up to the
 * palette's 48 bands. Colours that close are still hard to tell apart side by side, so
 * the layout asks chart_band_separator for each pair of neighbours: colours closer than
 * CHART_COLOR_CLOSE (a distance in OKLab) get a separator line in a shade at least twice
 * that far from both. DESIGN.md (chart/colors) has the rule.
 */
#ifndef EV2HP_COLORS_H
#define EV2HP_COLORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chart/display.h"

/* The picture's ink. */
static const struct dl_color COLOR_WHITE = { 255, 255, 255, 255 };
static const struct dl_color COLOR_INK = { 34, 34, 34, 255 };        /* text */
static const struct dl_color COLOR_QUIET = { 102, 102, 102, 255 };   /* secondary text */
static const struct dl_color COLOR_AXIS = { 85, 85, 85, 255 };
static const struct dl_color COLOR_GRID = { 232, 232, 232, 255 };   /* grid lines, rules */
static const struct dl_color COLOR_ALERT = { 0xb2, 0x22, 0x22, 255 };
static const struct dl_color COLOR_MARKER = { 60, 60, 60, 150 };    /* marker lines */
/* marker lines crossing the detail view's many small rows: fainter */
static const struct dl_color COLOR_MARKER_FAINT = { 60, 60, 60, 110 };
/* The strip per capability (chart/view_heap.c, and the report's, which is given them):
 * each against the others it meets at least 3:1 in luminance, as WCAG asks of graphics
 * (collecting on idle 3.4, running on collecting 3.7, running on idle 12.7), and dark
 * blue against orange for eyes that do not tell red from green. */
static const struct dl_color COLOR_CAP_RUNNING = { 0x10, 0x24, 0x5a, 255 };
static const struct dl_color COLOR_CAP_GC = { 0xc8, 0x64, 0x18, 255 };
static const struct dl_color COLOR_CAP_IDLE = { 0xee, 0xee, 0xee, 255 };
/* The nonmoving collector's strip under them, on the same idle ground: hues of their own
 * (purple, teal, raspberry), each at least 3:1 on the ground (13.4, 4.4, 5.2) and on
 * white, and a synchronisation against the marking it meets 3.1. */
static const struct dl_color COLOR_NM_SYNC = { 0x3b, 0x0f, 0x4a, 255 };
static const struct dl_color COLOR_NM_MARK = { 0x0e, 0x7c, 0x70, 255 };
static const struct dl_color COLOR_NM_SWEEP = { 0xb0, 0x30, 0x6a, 255 };

/* The own colour of a band labelled label (NUL-terminated; a leading "(n)" ignored):
 * what it is drawn in unless a larger band shown with it has that colour. */
struct dl_color chart_band_color(const char *label);

/* A band among those shown together (one chart, both panels of a comparison, the
 * report's drawn bands). */
struct chart_color_band {
    const char *label;   /* its own colour: chart_band_color's */
    const char *name;    /* what tells it apart: bands of one name are one band (the same
                            band in two panels) and get one colour */
    double area;         /* its rank (bandselect's): larger area first, then larger */
    uint64_t peak;       /* peak, then label and name in byte order */
};

/* Colours for n bands shown together (OTHER is not one of them: grey), out[i] for
 * bands[i]: in rank order, each band its own colour when no band ranked before it took
 * it, else the free palette colour nearest its own in OKLab (the lower palette index on
 * a tie). Distinct names get distinct palette colours up to the palette's size; past
 * it (--bands 0 of a run of hundreds) the further bands keep their own colours, which
 * repeat. The same bands get the same colours whatever order they are given in.
 * 0, or -1 when out of memory. */
int chart_band_colors(const struct chart_color_band *bands, size_t n, struct dl_color *out);

/* The palette of band colours (*count of them), for the report's page, which colours
 * the bands it draws itself (groups, a band drawn out of OTHER) by the same rule. */
const struct dl_color *chart_palette(size_t *count);
/* OTHER: neutral grey, apart from every colour of the palette. */
struct dl_color chart_other_color(void);

/* The distance of two colours in OKLab (alpha ignored): about 0.02 is the smallest
 * difference people see side by side, 1 is black to white. */
double chart_color_distance(struct dl_color a, struct dl_color b);

/* Neighbouring bands closer than this need a separator. */
#define CHART_COLOR_CLOSE 0.08

/* The line between a band (fill) and the band drawn next to it (neighbour): when their
 * colours are closer than CHART_COLOR_CLOSE, a separator at least 2 CHART_COLOR_CLOSE
 * from both (dark on light colours, light on dark ones), *width 1; otherwise, when outlines
 * is true (bands thick enough to carry one), the band's own colour deepened, *width 0.5;
 * otherwise none (alpha 0, *width 0). */
struct dl_color chart_band_separator(struct dl_color fill, struct dl_color neighbour,
                                     bool outlines, double *width);

/* WCAG 2's contrast ratio of two colours (alpha ignored): 1 (the same luminance) to 21
 * (black on white). Text meets level AA at CHART_TEXT_CONTRAST. */
double chart_contrast(struct dl_color a, struct dl_color b);
#define CHART_TEXT_CONTRAST 4.5

/* The colour of text drawn on fill, at least CHART_TEXT_CONTRAST from it: the ink where
 * that reads, else white, else black. */
struct dl_color chart_text_on(struct dl_color fill);

#endif
