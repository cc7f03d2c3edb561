/* test_report.c: the data of the HTML report (-o report.html) that the browser tests
 * cannot reach with real eventlogs: a time profile's tree past the report's bound
 * (FLAME_MAX_NODES in sink_html.c: the largest calling contexts kept, ties filled in up
 * to the bound, the rest counted), and cost centres with numbers near 2^32 and names
 * longer than any buffer (written whole, found by number without a table of 2^32).
 * Exact eventlogs from the test writer, converted through convert_run as main.c does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "convert.h"
#include "evwriter.h"
#include "testkit.h"

/* The report (HTML) of the run built in w, finished as name.eventlog (w freed) and
 * converted to name.html with status 0. */
static const char *report_of(struct evw *w, const char *name)
{
    char in[64], out[64];
    snprintf(in, sizeof in, "%s.eventlog", name);
    snprintf(out, sizeof out, "%s.html", name);
    const char *path = testkit_path(in);
    testkit_finish(w, path);
    return testkit_converted(path, out, FORMAT_HTML, (struct convert_options){ 0 }, NULL);
}

/* 30,000 calling contexts under main, five of them with two samples: 30,002 nodes with
 * the root and main. The 20,000 kept are the root, main, the five and the first 19,993
 * of the rest; 10,002 are left out with their 10,002 samples, which stay in main's. */
static void a_large_tree_is_cut_to_the_bound(void **state)
{
    (void)state;
    struct evw *w = evw_time_run(1, "A.hs:1:1");
    uint64_t tick = 0;
    for (uint32_t i = 0; i < 30000; i++) {
        char label[16];
        snprintf(label, sizeof label, "f%u", i);
        evw_cost_centre_at(w, 3, 100 + i, label, "Main", "A.hs:2:1");
        uint32_t stack[2] = { 100 + i, 1 };
        evw_time_sample(w, 10 + tick, 0, tick, stack, 2), tick++;
        if (i >= 29995) /* the last five: two samples */
            evw_time_sample(w, 10 + tick, 0, tick, stack, 2), tick++;
    }
    const char *html = report_of(w, "wide");
    assert_non_null(strstr(html, "\"samples\":30005,"));
    assert_non_null(strstr(html, "\"dropped_nodes\":10002,\"dropped_samples\":10002,"));
    /* kept: the first 19,993 of one sample (f0 to f19992) and the five of two */
    assert_non_null(strstr(html, "[\"Main.f19992\","));
    assert_null(strstr(html, "[\"Main.f19993\","));
    assert_non_null(strstr(html, "[\"Main.f29999\","));
    /* main holds every sample, its own and its callees' */
    assert_non_null(strstr(html, "\"nodes\":[-1,-1,0,30005,\n0,"));
}

/* A cost centre numbered 2^32 - 16 with a 3,000-byte name of two-byte characters: in the
 * report whole, and the stack's node points at it. */
static void huge_numbers_and_long_names(void **state)
{
    (void)state;
    static char label[3001];
    for (int i = 0; i < 1500; i++)
        memcpy(label + 2 * i, "\xce\xbb", 2);   /* λ */
    struct evw *w = evw_time_run(7, "A.hs:1:1");
    evw_cost_centre_at(w, 3, 0xfffffff0u, label, "Main", "A.hs:9:1");
    uint32_t stack[2] = { 0xfffffff0u, 7 };
    evw_time_sample(w, 10, 0, 0, stack, 2);
    evw_time_sample(w, 11, 0, 1, stack, 2);
    const char *html = report_of(w, "long");
    char want[3100];
    snprintf(want, sizeof want, "[\"Main.%s\",\"Main\",\"A.hs:9:1\",", label);
    assert_non_null(strstr(html, want));
    /* ccs sorted by number: main (7) is 0, the long one 1 */
    assert_non_null(strstr(html, "\"nodes\":[-1,-1,0,2,\n0,0,0,2,\n1,1,2,2]"));
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_large_tree_is_cut_to_the_bound),
        cmocka_unit_test(huge_numbers_and_long_names),
    };
    return cmocka_run_group_tests(tests, testkit_setup_dir, testkit_teardown_dir);
}
