/* end_summary.c: what led up to the end of a run whose eventlog was cut short, in text,
 * JSON and Markdown.
 *
 * A person reading a killed service's eventlog wants first what the program was doing
 * when it died: when the last event and the last complete census were, the heap and how
 * fast it grew over the last censuses, how much of the last second the collector took,
 * the last markers and the bands that grew fastest. The figures are model/runend.h's,
 * from the run model; this module only writes them, as one paragraph (the text summary
 * and the Markdown share its one writer, each with its own escaping of the input's text)
 * and as JSON `end`, whose keys are those issue 35 names. A run that ended with its
 * end-of-data marker has no paragraph; its JSON says `complete: true` with the same
 * figures.
 */
#include "sink/summary_parts.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json.h"
#include "model/bands.h"
#include "model/runmodel.h"
#include "sink/textout.h"

/* Text from the input, escaped for the output it goes into. */
typedef void (*text_fn)(FILE *out, const char *s, size_t len);

static void bytes_text(double bytes, char *buf, size_t size)
{
    format_bytes(bytes < 0 ? -bytes : bytes, buf, size);
}

/* The paragraph, on the current line, ending with a newline. */
static void paragraph(FILE *out, const struct run_model *run, const struct run_end_summary *s,
                      text_fn text)
{
    char a[32], b[32];
    format_fprintf(out, "The eventlog ends without its end-of-data marker (the program was "
                   "killed or crashed, or its eventlog cut short): its last event is at "
                   "%.3f s.", run->info->end_time_ns / 1e9);
    if (!s->censuses)
        fputs(" No census was complete.", out);
    else {
        bytes_text((double)s->last_census_bytes, a, sizeof a);
        format_fprintf(out, " The last complete census is at %.3f s: %s", s->last_census_ns / 1e9, a);
        if (s->has_growth) {
            bytes_text(s->growth_bytes_per_s, a, sizeof a);
            bytes_text((double)s->first_census_bytes, b, sizeof b);
            format_fprintf(out, ", %s %s/s over the last %zu censuses (from %s at %.3f s)",
                           s->growth_bytes_per_s < 0 ? "shrinking" : "growing", a,
                           s->censuses, b, s->first_census_ns / 1e9);
        }
        fputc('.', out);
    }
    if (s->has_heap_size) {
        bytes_text((double)s->heap_size_bytes, a, sizeof a);
        fprintf(out, " The runtime's heap was %s (its last HEAP_SIZE).", a);
    }
    if (s->has_gc)
        format_fprintf(out, " The collector took %.1f %% of the last %s (%.3f s of %.3f s).",
                       100 * s->gc_share, s->window_ns < RUN_END_WINDOW_NS ? "run" : "second",
                       s->gc_in_window_ns / 1e9, s->window_ns / 1e9);
    else
        fputs(" The eventlog has no collection events (GC_START, GC_END): the collector's "
              "share of the end is not known.", out);
    if (s->markers) {
        fputs(s->markers == 1 ? " The last marker: " : " The last markers: ", out);
        for (size_t i = 0; i < s->markers; i++) {
            fputs(i ? ", \"" : "\"", out);
            text(out, s->marker[i].text, strlen(s->marker[i].text));
            format_fprintf(out, "\" at %.3f s", s->marker[i].time_ns / 1e9);
        }
        fputc('.', out);
    }
    if (s->bands) {
        fputs(" Fastest growing at the end: ", out);
        for (size_t i = 0; i < s->bands; i++) {
            char name[512];
            size_t len = bands_person_name(run->bands, s->band[i].band, name, sizeof name);
            if (i)
                fputs(", ", out);
            text(out, name, len);
            bytes_text(s->band[i].growth_bytes_per_s, a, sizeof a);
            bytes_text((double)s->band[i].bytes, b, sizeof b);
            fprintf(out, " (+%s/s, %s)", a, b);
        }
        fputc('.', out);
    }
    fputc('\n', out);
}

/* The paragraph after its heading, for a run cut short (nothing for one that ended with
 * its marker, or an input that says nothing of its end). */
static void say_end(FILE *out, const struct run_model *run, const char *heading,
                    text_fn text)
{
    struct run_end_summary s;
    if (!run_model_end(run, &s) || run->info->ending != RUN_ENDING_CUT)
        return;
    fputs(heading, out);
    paragraph(out, run, &s, text);
}

static void end_summary_text(FILE *out, const struct run_model *run)
{
    say_end(out, run, "end        ", textout_plain);
}

static void end_summary_markdown(FILE *out, const struct run_model *run)
{
    say_end(out, run, "\n#### How the run ended\n\n", textout_markdown);
}

/* The text summary's paragraph as a JSON string (the report shows it), null for a run
 * that ended with its marker. Text from the input as itself: JSON escapes its own, and
 * the report sets it as text. */
static void json_paragraph(struct json_writer *w, const struct run_model *run,
                           const struct run_end_summary *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = run->info->ending == RUN_ENDING_CUT ? open_memstream(&text, &len) : NULL;
    if (mem) {
        paragraph(mem, run, s, textout_utf8);
        if (fclose(mem) == 0 && len)
            len--;   /* the paragraph's line break */
        else
            len = 0;
    }
    if (len)
        json_string(w, text, len);
    else
        json_null(w);   /* complete, or out of memory: no paragraph rather than half */
    free(text);
}

static void end_summary_json(struct json_writer *w, const struct run_model *run)
{
    struct run_end_summary s;
    if (!textout_json_section(w, "end", run_model_end(run, &s)))
        return;
    json_member_bool(w, "complete", run->info->ending == RUN_ENDING_MARKED);
    json_key(w, "paragraph");
    json_paragraph(w, run, &s);
    textout_json_member_seconds(w, "last_event_s", run->info->end_time_ns);
    textout_json_member_seconds_or_null(w, "last_census_s", s.censuses, s.last_census_ns);
    json_member_uint_or_null(w, "last_census_bytes", s.censuses, s.last_census_bytes);
    json_member_uint(w, "growth_censuses", s.censuses);
    textout_json_member_seconds_or_null(w, "growth_from_s", s.has_growth, s.first_census_ns);
    json_member_double_or_null(w, "growth_bytes_per_s", s.has_growth, s.growth_bytes_per_s);
    json_member_uint_or_null(w, "heap_size_bytes", s.has_heap_size, s.heap_size_bytes);
    json_member_double_or_null(w, "gc_share_last_second", s.has_gc, s.gc_share);
    textout_json_member_seconds_or_null(w, "gc_last_second_s", s.has_gc, s.gc_in_window_ns);
    textout_json_member_seconds(w, "last_second_s", s.window_ns);
    json_key(w, "last_markers");
    json_array_begin(w);
    for (size_t i = 0; i < s.markers; i++) {
        json_object_begin(w);
        textout_json_member_seconds(w, "time_s", s.marker[i].time_ns);
        json_member_cstring(w, "text", s.marker[i].text);
        json_object_end(w);
    }
    json_array_end(w);
    json_key(w, "fastest_bands");
    json_array_begin(w);
    for (size_t i = 0; i < s.bands; i++) {
        char name[512];
        size_t len = bands_person_name(run->bands, s.band[i].band, name, sizeof name);
        json_object_begin(w);
        json_member_string(w, "label", name, len);
        json_member_uint(w, "bytes", s.band[i].bytes);
        json_key(w, "growth_bytes_per_s");
        json_double(w, s.band[i].growth_bytes_per_s);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

const struct summary_part end_summary_part = {
    .text = end_summary_text,
    .json = end_summary_json,
    .markdown = end_summary_markdown,
};
