/* fuzz_convert.c: the whole of one run, as main drives it: convert_run on a file holding
 * the input, every output format at once (.hp, SVG, PNG, CSV, JSON, the summary) written
 * to /dev/null.
 *
 * This reaches what the narrower targets do not: the input sniffing (eventlog, .hp, gzip
 * of either), the inflater, the profile and peak trackers, chart layout, the SVG writer,
 * the PNG renderer and encoder, the summaries and the warnings they quote. Invariants:
 * no crash; a failure always has a message; /dev/null never fails, so status 4 (write
 * failure) never shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "convert.h"
#include "fuzz_common.h"

/* The input as a file: a memfd, reopened by path so convert_run reads from offset 0. */
static const char *input_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("ev2hp-fuzz", 0);
        FUZZ_CHECK(fd >= 0);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    FUZZ_CHECK(ftruncate(fd, 0) == 0);
    FUZZ_CHECK(size == 0 || pwrite(fd, data, size, 0) == (ssize_t)size);
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct output_request outputs[] = {
        { "/dev/null", FORMAT_HP },   { "/dev/null", FORMAT_SVG },
        { "/dev/null", FORMAT_CSV },  { "/dev/null", FORMAT_JSON },
        { "/dev/null", FORMAT_SUMMARY_JSON }, { "/dev/null", FORMAT_PNG },
        { "/dev/null", FORMAT_SUMMARY_MARKDOWN }, { "/dev/null", FORMAT_JUNIT },
    };
    struct convert_options opt = {
        .input_path = input_file(data, size),
        .outputs = outputs,
        .output_count = sizeof outputs / sizeof *outputs,
        .read_buffer = 1,   /* the smallest buffer the reader allows */
        /* gates on whatever the input holds: each verdict reported, none crashes */
        .gates = { .has_max_peak = true, .max_peak = 1 << 20, .has_max_growth = true,
                   .max_growth = 1 << 20 },
    };
    struct convert_result result;
    convert_run(&opt, &result);
    FUZZ_CHECK(result.exit_status != EXIT_WRITE);
    if (result.exit_status != EXIT_SUCCESS_)
        FUZZ_CHECK(result.error.what[0] != '\0');
    for (size_t i = 0; i < result.warning_count; i++)
        FUZZ_CHECK(result.warnings[i].what[0] != '\0');
    return 0;
}
