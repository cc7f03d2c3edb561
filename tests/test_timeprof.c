/* test_timeprof.c: the time-profile assembler and the folded output on exact eventlogs.
 *
 * Eventlogs built with the test writer hold a few cost centres (one with a ';' in its
 * name, one of the runtime's own), samples on two capabilities, an empty stack and a
 * sample after --to; the folded file is read back and compared line for line, and the
 * tree and per-cost-centre totals the flame graph and the summary read are checked.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/utf8.h"
#include "model/breakdown.h"
#include "census/ccframe.h"
#include "census/foldstacks.h"
#include "census/timeprof.h"
#include "chart/chart.h"
#include "chart/flame.h"
#include "convert.h"
#include "sink/timeprof_summary.h"
#include "evwriter.h"
#include "testkit.h"

static const uint32_t go_main[] = { 2, 1 }, only_main[] = { 1 }, semi_main[] = { 3, 1 },
                      gc[] = { 4 };

static void write_log(const char *path)
{
    struct evw *w = evw_time_run(1, "A.hs:3:1-20");
    evw_cost_centre_at(w, 3, 2, "go", "Main", "A.hs:(5,1)-(6,9)");
    evw_cost_centre_at(w, 4, 3, "a;b", "Main", "A.hs:7:1");
    evw_cost_centre_at(w, 5, 4, "GC", "GC", "<built-in>");
    for (int i = 0; i < 3; i++)
        evw_time_sample(w, 1000000 * (i + 1), 0, i, go_main, 2);
    evw_time_sample(w, 4000000, 1, 4, only_main, 1);
    evw_time_sample(w, 5000000, 0, 5, semi_main, 2);
    evw_time_sample(w, 6000000, 0, 6, gc, 1);
    evw_time_sample(w, 6000001, 1, 6, gc, 1);
    evw_time_sample(w, 7000000, 1, 7, NULL, 0);
    evw_time_sample(w, 2000000000, 0, 8, go_main, 2);   /* after --to 1 */
    testkit_finish(w, path);
}

/* The run of write_log as folded stacks in the file name (status 0): its text. */
static const char *folded(const char *name, const struct chart_options *chart, bool system)
{
    const char *in = testkit_path("in.eventlog");
    write_log(in);
    return testkit_converted(in, name, FORMAT_FOLDED,
                             (struct convert_options){ .chart = chart, .system_ccs = system },
                             NULL);
}

static void folded_lines_are_stacks_outermost_first(void **state)
{
    (void)state;
    assert_string_equal(folded("out.folded", NULL, false), "Main.main;Main.go 4\n"
                                                           "Main.main 1\n"
                                                           "Main.main;Main.a:b 1\n"
                                                           "MAIN 1\n");
}

/* In a non-threaded run (one capability, 0), a "tick" naming another capability is damage
 * read as a tick (GHC 9.10, +RTS -hc -p: capability 234881024 was seen): it is skipped as a
 * damaged region and counts nowhere; the ticks around it count. */
static void a_tick_from_a_capability_the_run_lacks_is_damage(void **state)
{
    (void)state;
    const char *in = testkit_path("caps.eventlog");
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_rts_identifier(w, 1, "GHC-9.10.3 rts_p");
    evw_time_begin(w, 1, 1000000);
    evw_cost_centre_at(w, 2, 1, "main", "Main", "A.hs:3:1-20");
    evw_cost_centre_at(w, 3, 2, "go", "Main", "A.hs:(5,1)-(6,9)");
    evw_time_sample(w, 1000000, 0, 1, go_main, 2);
    evw_time_sample(w, 2000000, 234881024u, 2, only_main, 1);
    evw_time_sample(w, 3000000, 0, 3, go_main, 2);
    testkit_finish(w, in);

    struct convert_result res;
    const char *text = testkit_converted(in, "caps.folded", FORMAT_FOLDED,
                                         (struct convert_options){ 0 }, &res);
    assert_true(res.damaged);
    bool named = false;
    for (size_t i = 0; i < res.warning_count; i++)
        named |= strstr(res.warnings[i].what, "names capability 234881024") != NULL;
    assert_true(named);
    assert_string_equal(text, "Main.main;Main.go 2\n");
}

static void system_ccs_keeps_the_runtime_cost_centres(void **state)
{
    (void)state;
    assert_string_equal(folded("sys.folded", NULL, true), "Main.main;Main.go 4\n"
                                                          "Main.main 1\n"
                                                          "Main.main;Main.a:b 1\n"
                                                          "GC.GC 2\n"
                                                          "MAIN 1\n");
}

static void samples_outside_the_window_are_left_out(void **state)
{
    (void)state;
    struct chart_options chart;
    chart_options_default(&chart);
    chart.profile.has_from = true;
    chart.profile.from_seconds = 0.0025;
    chart.profile.has_to = true;
    chart.profile.to_seconds = 1;
    /* the samples at 1 and 2 ms and the one at 2 s are outside */
    assert_string_equal(folded("win.folded", &chart, false), "Main.main;Main.go 1\n"
                                                             "Main.main 1\n"
                                                             "Main.main;Main.a:b 1\n"
                                                             "MAIN 1\n");
}

static void an_input_without_time_profile_is_refused(void **state)
{
    (void)state;
    const char *in = testkit_path("heap.eventlog"), *out = testkit_path("heap.folded");
    struct evw *w = evw_new();
    evw_ghc9_header(w, true);
    evw_prof_begin(w, 1, BREAKDOWN_CLOSURE_TYPE, 10000000);
    evw_sample_begin(w, 5, 0);
    evw_sample_string(w, 6, "ARR_WORDS", 100);
    evw_sample_end(w, 7, 0);
    testkit_finish(w, in);
    assert_int_equal(testkit_convert(in, out, FORMAT_FOLDED, (struct convert_options){ 0 }, NULL),
                     EXIT_WRITE);
    assert_int_equal(access(out, F_OK), -1);   /* nothing left behind */
}

/* One count per distinct stack, up to TIMEPROF_MAX_STACKS: the next new stack is refused
 * (TABLE_FULL, which the assembler turns into a one-line error), a known one still counts. */
static void distinct_stacks_are_bounded(void **state)
{
    (void)state;
    struct timeprof *tp = timeprof_new(NULL);
    assert_non_null(tp);
    unsigned char id[4];
    struct ev_ccs one = { 1, id };
    for (uint32_t i = 0; i <= TIMEPROF_MAX_STACKS; i++) {
        uint32_t cc = i + 1;
        id[0] = (unsigned char)(cc >> 24);
        id[1] = (unsigned char)(cc >> 16);
        id[2] = (unsigned char)(cc >> 8);
        id[3] = (unsigned char)cc;
        enum table_status want = i < TIMEPROF_MAX_STACKS ? TABLE_OK : TABLE_FULL;
        if (timeprof_sample(tp, i, 0, &one) != want)
            fail_msg("stack %u: not %s", (unsigned)i, want == TABLE_OK ? "kept" : "refused");
    }
    id[0] = id[1] = id[2] = 0;
    id[3] = 1;
    assert_int_equal(timeprof_sample(tp, 1, 0, &one), TABLE_OK);
    assert_int_equal(timeprof_samples(tp), (uint64_t)TIMEPROF_MAX_STACKS + 1);
    timeprof_free(tp);
}

/* A sample of the stack numbers[0..depth) (innermost first) on capability cap. */
static enum table_status sample(struct timeprof *tp, uint64_t time_ns, uint32_t cap,
                                const uint32_t *numbers, unsigned depth)
{
    unsigned char ids[16];
    for (unsigned k = 0; k < depth; k++)
        for (unsigned b = 0; b < 4; b++)
            ids[4 * k + b] = (unsigned char)(numbers[k] >> (24 - 8 * b));
    struct ev_ccs stack = { depth, ids };
    return timeprof_sample(tp, time_ns, cap, &stack);
}

/* The live server's copy: every stack at its number with its count and frames, the
 * interval, the samples per capability; samples given to the copy afterwards (a repeat
 * of the last stack, which the copy's cache of it takes, and a new stack) count there
 * alone. */
static void a_copy_counts_as_the_original_and_goes_on_apart(void **state)
{
    (void)state;
    struct timeprof *tp = timeprof_new(NULL);
    assert_non_null(tp);
    timeprof_begin(tp, 1000000);
    assert_int_equal(sample(tp, 1, 0, go_main, 2), TABLE_OK);
    assert_int_equal(sample(tp, 2, 1, only_main, 1), TABLE_OK);
    assert_int_equal(sample(tp, 3, 0, go_main, 2), TABLE_OK);
    assert_int_equal(sample(tp, 4, 1, semi_main, 2), TABLE_OK);
    struct timeprof *c = timeprof_copy(tp, NULL);
    assert_non_null(c);
    assert_int_equal(timeprof_stack_count(c), 3);
    for (uint32_t i = 0; i < 3; i++) {
        unsigned depth, copy_depth;
        assert_int_equal(timeprof_stack(c, i, &copy_depth), timeprof_stack(tp, i, &depth));
        assert_int_equal(copy_depth, depth);
        for (unsigned k = 0; k < depth; k++)
            assert_int_equal(timeprof_stack_cc(c, i, k), timeprof_stack_cc(tp, i, k));
    }
    assert_int_equal(timeprof_interval_ns(c), 1000000);
    assert_int_equal(timeprof_samples(c), 4);
    uint32_t caps;
    const uint64_t *per_cap = timeprof_cap_samples(c, &caps);
    assert_int_equal(caps, 2);
    assert_int_equal(per_cap[0], 2);
    assert_int_equal(per_cap[1], 2);

    assert_int_equal(sample(c, 5, 1, semi_main, 2), TABLE_OK);
    assert_int_equal(sample(c, 6, 0, gc, 1), TABLE_OK);
    unsigned depth;
    assert_int_equal(timeprof_stack(c, 2, &depth), 2);
    assert_int_equal(timeprof_stack(tp, 2, &depth), 1);
    assert_int_equal(timeprof_stack_count(c), 4);
    assert_int_equal(timeprof_stack_count(tp), 3);
    assert_int_equal(timeprof_samples(tp), 4);
    timeprof_free(tp);
    assert_int_equal(timeprof_stack(c, 0, &depth), 2);   /* nothing of tp borrowed */
    assert_int_equal(timeprof_stack_cc(c, 0, 1), 1);
    timeprof_free(c);
}

/* Samples straight into the assembler: the tree and the per-cost-centre totals. */
static void tree_and_totals(void **state)
{
    (void)state;
    struct timeprof *tp = timeprof_new(NULL);
    assert_non_null(tp);
    unsigned char ids[3][8] = { { 0, 0, 0, 2, 0, 0, 0, 1 }, { 0, 0, 0, 1 },
                                { 0, 0, 0, 2, 0, 0, 0, 2 } };
    struct ev_ccs a = { 2, ids[0] }, b = { 1, ids[1] }, rec = { 2, ids[2] };
    for (int i = 0; i < 3; i++)
        assert_int_equal(timeprof_sample(tp, 1, 0, &a), TABLE_OK);
    assert_int_equal(timeprof_sample(tp, 2, 300, &b), TABLE_OK);   /* a high capability */
    assert_int_equal(timeprof_sample(tp, 3, 1, &rec), TABLE_OK);   /* go inside go */
    assert_true(timeprof_present(tp));
    assert_int_equal(timeprof_samples(tp), 5);
    uint32_t caps;
    const uint64_t *per_cap = timeprof_cap_samples(tp, &caps);
    assert_int_equal(caps, TIMEPROF_MAX_CAPS);
    assert_int_equal(per_cap[0], 3);
    assert_int_equal(per_cap[1], 1);
    assert_int_equal(per_cap[TIMEPROF_MAX_CAPS - 1], 1);

    /* as stacks (foldstacks.h), their tree: root, #1, #1/#2, #2, #2/#2 */
    struct stacks *st = stacks_new(16);
    assert_non_null(st);
    assert_int_equal(foldstacks_time(st, tp, false, STACKS_NOW), 0);
    struct stacks_tree t;
    assert_int_equal(stacks_tree(st, &t), 0);
    assert_int_equal(t.count, 5);
    assert_int_equal(t.max_depth, 2);
    assert_int_equal(t.nodes[0].total[STACKS_NOW], 5);
    size_t len;
    uint32_t one = t.nodes[0].first_child;
    assert_memory_equal(stacks_frame_name(st, t.nodes[one].frame, &len), "#1", 2);
    assert_int_equal(t.nodes[one].total[STACKS_NOW], 4);
    assert_int_equal(t.nodes[one].self[STACKS_NOW], 1);
    uint32_t two = t.nodes[one].next_sibling;
    assert_memory_equal(stacks_frame_name(st, t.nodes[two].frame, &len), "#2", 2);
    assert_int_equal(t.nodes[two].total[STACKS_NOW], 1);
    assert_int_equal(t.nodes[t.nodes[two].first_child].self[STACKS_NOW], 1);
    assert_int_equal(t.nodes[0].total[STACKS_BASE], 0);
    stacks_tree_free(&t);
    stacks_free(st);

    struct timeprof_cc_total *tot;
    size_t n;
    assert_int_equal(timeprof_cc_totals(tp, false, &tot, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(tot[0].cc, 2);        /* go: individual 3 + 1 */
    assert_int_equal(tot[0].individual, 4);
    assert_int_equal(tot[0].inherited, 4); /* the recursive sample counts once */
    assert_int_equal(tot[1].cc, 1);
    assert_int_equal(tot[1].individual, 1);
    assert_int_equal(tot[1].inherited, 4);
    free(tot);

    /* Names: undefined numbers are "#N"; a frame is "Module.label" as the names are
     * (pprof keeps a ';'), and folded stacks clean it (no ';' or line break). */
    struct cc_frame cc;
    char scratch[16], frame[64];
    timeprof_cc_names(tp, 7, &cc, scratch);
    assert_string_equal(scratch, "#7");
    assert_int_equal(ccframe_name(&cc, frame, sizeof frame), 2);
    assert_string_equal(frame, "#7");
    struct cc_frame odd = { "x;y\nz", 5, "M", 1, "" };
    assert_int_equal(ccframe_name(&odd, frame, sizeof frame), 7);
    assert_string_equal(frame, "M.x;y\nz");
    stacks_clean_name(frame, 7);
    assert_string_equal(frame, "M.x:y z");
    assert_int_equal(ccframe_name(&odd, frame, 4), 7);   /* cut, but NUL-ended */
    assert_string_equal(frame, "M.x");
    assert_int_equal(ccframe_name(&odd, NULL, 0), 7);     /* only measured */

    /* The summary's rows name cost centres as frames do: "#2", not ".#2". */
    struct testkit_memout m;
    assert_int_equal(timeprof_summary_text(testkit_memout_open(&m), tp, false), 0);
    char *text = testkit_memout_text(&m);
    assert_non_null(strstr(text, "by individual time:\n"));
    assert_non_null(strstr(text, " %  #2  \n"));
    assert_null(strstr(text, ".#"));
    free(text);
    timeprof_free(tp);
}

/* The flame graph's display list: frames sized by inclusive samples, labels elided on a
 * character boundary to fit their frame, tooltips with the whole name and the numbers,
 * one colour per module. */
static void flame_frames_labels_and_tooltips(void **state)
{
    (void)state;
    struct costcentres *ccs = costcentres_new(16);
    assert_non_null(ccs);
    /* a long name of 3-byte characters, which must be cut between characters */
    char longname[3 * 60 + 1] = "";
    for (int i = 0; i < 60; i++)
        strcat(longname, "\xe6\xbc\xa2");   /* U+6F22 */
    assert_int_equal(costcentres_define(ccs, 1, "main", 4, "Main", 4, "A.hs:1:1", 8), TABLE_OK);
    assert_int_equal(costcentres_define(ccs, 2, longname, strlen(longname), "Main", 4,
                                        "A.hs:2:1", 8), TABLE_OK);
    assert_int_equal(costcentres_define(ccs, 3, "f", 1, "Lib", 3, "B.hs:3:1", 8), TABLE_OK);
    struct timeprof *tp = timeprof_new(NULL);
    assert_non_null(tp);
    timeprof_set_names(tp, ccs);
    timeprof_begin(tp, 1000000);
    unsigned char a[8] = { 0, 0, 0, 2, 0, 0, 0, 1 }, b[8] = { 0, 0, 0, 3, 0, 0, 0, 1 };
    struct ev_ccs long_stack = { 2, a }, lib_stack = { 2, b };
    for (int i = 0; i < 10; i++)
        assert_int_equal(timeprof_sample(tp, 1, 0, &long_stack), TABLE_OK);
    for (int i = 0; i < 30; i++)
        assert_int_equal(timeprof_sample(tp, 1, 0, &lib_stack), TABLE_OK);
    struct chart_options opt;
    chart_options_default(&opt);
    opt.width = 400;
    opt.height = 200;
    struct textmeasure *tm = textmeasure_new();
    assert_non_null(tm);
    struct display_list dl;
    struct stacks *st = stacks_new(100);
    assert_non_null(st);
    assert_int_equal(foldstacks_time(st, tp, false, STACKS_NOW), 0);
    struct flame_input in = { st, false, "the time profile" };
    assert_int_equal(flame_layout(&in, false, NULL, "x.eventlog", &opt, tm, &dl), 0);
    size_t frames = 0;
    const struct dl_item *main_frame = NULL, *long_frame = NULL, *lib_frame = NULL;
    for (size_t i = 0; i < dl.count; i++) {
        const struct dl_item *it = &dl.items[i];
        if (it->role && strcmp(it->role, "frame") == 0) {
            frames++;
            assert_non_null(it->title);
            if (strncmp(it->title, "Main.main\n", 10) == 0)
                main_frame = it;
            else if (strncmp(it->title, "Lib.f\n", 6) == 0)
                lib_frame = it;
            else if (strstr(it->title, longname))
                long_frame = it;
        }
        if (it->role && strcmp(it->role, "frame-label") == 0) {
            char *copy = NULL;
            assert_ptr_equal(utf8_valid(it->text, &copy), it->text);   /* never cut inside */
            free(copy);
        }
    }
    assert_int_equal(frames, 4);   /* all, main, and its two callees */
    assert_non_null(main_frame);
    assert_non_null(long_frame);
    assert_non_null(lib_frame);
    /* widths: main holds all 40 samples, the callees 10 and 30 of them */
    assert_true(fabs(long_frame->w / main_frame->w - 0.25) < 1e-9);
    assert_true(fabs(lib_frame->w / main_frame->w - 0.75) < 1e-9);
    assert_non_null(strstr(long_frame->title, "module Main, A.hs:2:1\n10 samples (25.00 %)"));
    /* flame: callees above their caller */
    assert_true(long_frame->y < main_frame->y);
    /* two modules, two hues; the long frame's label was elided with an ellipsis */
    bool elided = false;
    for (size_t i = 0; i < dl.count; i++) {
        const struct dl_item *it = &dl.items[i];
        if (it->role && strcmp(it->role, "frame-label") == 0 && it->x >= long_frame->x &&
            it->x < long_frame->x + long_frame->w && it->y < main_frame->y) {
            size_t len = strlen(it->text);
            assert_true(len > 3);
            assert_memory_equal(it->text + len - 3, "\xe2\x80\xa6", 3);
            assert_true(text_width(tm, it->text, it->font_size, false) <= long_frame->w);
            elided = true;
        }
    }
    assert_true(elided);
    display_free(&dl);
    textmeasure_free(tm);
    stacks_free(st);
    timeprof_free(tp);
    costcentres_free(ccs);
}


/* The text summary's time-profile rows escape the control characters of cost-centre
 * names and source locations (\xHH), as every name the text summary prints: a name is the
 * program's bytes, and an escape sequence must not reach the terminal or a CI log. */
static void summary_rows_escape_control_characters(void **state)
{
    (void)state;
    const char *in = testkit_path("ctl.eventlog");
    struct evw *w = evw_time_run(1, "A.hs:3:1-20");
    evw_cost_centre_at(w, 3, 2, "go\x1b[2J", "Main", "A.hs:5:1\r");
    for (int i = 0; i < 3; i++)
        evw_time_sample(w, 1000000 * (i + 1), 0, i, go_main, 2);
    testkit_finish(w, in);
    const char *text = testkit_converted(in, "ctl.txt", FORMAT_SUMMARY_TEXT,
                                         (struct convert_options){ 0 }, NULL);
    assert_non_null(strstr(text, "  Main.go\\x1b[2J  A.hs:5:1\\x0d\n"));
    assert_null(strchr(text, '\x1b'));
    assert_null(strchr(text, '\r'));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(folded_lines_are_stacks_outermost_first),
        cmocka_unit_test(a_tick_from_a_capability_the_run_lacks_is_damage),
        cmocka_unit_test(system_ccs_keeps_the_runtime_cost_centres),
        cmocka_unit_test(samples_outside_the_window_are_left_out),
        cmocka_unit_test(an_input_without_time_profile_is_refused),
        cmocka_unit_test(tree_and_totals),
        cmocka_unit_test(distinct_stacks_are_bounded),
        cmocka_unit_test(a_copy_counts_as_the_original_and_goes_on_apart),
        cmocka_unit_test(flame_frames_labels_and_tooltips),
        cmocka_unit_test(summary_rows_escape_control_characters),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
