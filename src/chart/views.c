/* views.c: the table of views (views.h): their names and their operations.
 *
 * The area chart is chart.c's own drawing (every operation NULL); flame and icicle are
 * laid out by sink_chart.c from the time profile (flame.h), diff by compare.c from both
 * runs (view_diff.h): they are here for their names.
 */
#include "chart/views.h"

#include <stdio.h>
#include <string.h>

static const struct view_ops area_ops = {
    .name = "area", .view = CHART_VIEW_AREA, .lists_bands = true,
    .totals = VIEW_TOTALS_ASKED, .marks_peak = true,
};
static const struct view_ops flame_ops = {
    .name = "flame", .view = CHART_VIEW_FLAME, .lists_bands = true,
};
static const struct view_ops icicle_ops = {
    .name = "icicle", .view = CHART_VIEW_ICICLE, .lists_bands = true,
};
static const struct view_ops diff_ops = {
    .name = "diff", .view = CHART_VIEW_DIFF, .lists_bands = true,
};

/* In the order of the usage text. */
static const struct view_ops *const views[] = {
    &area_ops, &view_normalized_ops, &view_stream_ops, &view_lines_ops,
    &view_heap_ops, &view_detail_ops, &diff_ops, &flame_ops, &icicle_ops,
};
#define VIEW_COUNT (sizeof views / sizeof *views)

const struct view_ops *view_ops(enum chart_view view)
{
    for (size_t i = 0; i < VIEW_COUNT; i++)
        if (views[i]->view == view)
            return views[i];
    return &area_ops;   /* auto */
}

bool view_is_area(enum chart_view view)
{
    return view == CHART_VIEW_AUTO || view == CHART_VIEW_AREA;
}

bool view_lists_totals(enum chart_view view, bool totals_option)
{
    switch (view_ops(view)->totals) {
    case VIEW_TOTALS_ALWAYS:
        return true;
    case VIEW_TOTALS_ASKED:
        return totals_option;
    default:
        return false;
    }
}

bool chart_view_from_name(const char *name, enum chart_view *view)
{
    for (size_t i = 0; i < VIEW_COUNT; i++)
        if (strcmp(name, views[i]->name) == 0) {
            *view = views[i]->view;
            return true;
        }
    return false;
}

const char *chart_view_name(enum chart_view view)
{
    if (view == CHART_VIEW_AUTO)
        view = CHART_VIEW_AREA;
    for (size_t i = 0; i < VIEW_COUNT; i++)
        if (views[i]->view == view)
            return views[i]->name;
    return "?";
}

const char *chart_view_names(void)
{
    static char names[160];
    if (!names[0]) {
        size_t n = 0;
        for (size_t i = 0; i < VIEW_COUNT && n < sizeof names; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
                                  i == 0 ? "" : i + 1 == VIEW_COUNT ? " or " : ", ",
                                  views[i]->name);
    }
    return names;
}
