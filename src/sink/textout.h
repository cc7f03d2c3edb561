/* textout.h: writing labels into text formats safely.
 *
 * Labels come from the eventlog as bytes: usually UTF-8, sometimes not, and they may hold
 * quotes, commas, tabs or newlines. Each text format has its own quoting; these helpers
 * are the only place that knows CSV's, and put labels and times into JSON through the
 * JSON writer (base/json.h), which owns JSON's.
 */
#ifndef EV2HP_TEXTOUT_H
#define EV2HP_TEXTOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "model/bands.h"
#include "model/frame.h"
#include "census/costcentres.h"

/* Text in a format that escapes characters one ASCII byte at a time (HTML text, Markdown,
 * Prometheus label values): each ASCII byte for which escape returns a string is written
 * as that string, every other character as itself, and each byte that starts no UTF-8
 * character as U+FFFD, so the output is valid UTF-8 whatever the input. */
void textout_escaped(FILE *out, const char *s, size_t len,
                     const char *(*escape)(unsigned char c));

/* Text in HTML, as element content or a double-quoted attribute value (textout_escaped:
 * <, >, & and " escaped). */
void textout_html(FILE *out, const char *s, size_t len);

/* Text for a terminal or a log (the text summary, standard error), that shows itself
 * and does nothing: control characters (C0 and DEL: an escape sequence would drive the
 * terminal, a newline forge a line such as a CI system's "::error::") as \xHH, bytes that
 * are not UTF-8 as U+FFFD. textout_plain_copy writes the same into buf (cap bytes,
 * NUL-terminated, cut between characters if needed) and returns the length written. */
void textout_plain(FILE *out, const char *s, size_t len);
size_t textout_plain_copy(const char *s, size_t len, char *buf, size_t cap);

/* An RFC 4180 CSV field: quoted (quotes doubled) when it holds a comma, quote, CR or LF;
 * bytes that are not UTF-8 as U+FFFD; a label a spreadsheet would run as a formula
 * (starting with '=', '+', '-', '@', a tab or a CR) quoted, after an apostrophe, which
 * makes the cell text. */
void textout_csv_field(FILE *out, const char *s, size_t len);

/* Text as itself, but each byte that starts no UTF-8 character as U+FFFD (folded
 * stacks' frames: every reader of them expects UTF-8). */
void textout_utf8(FILE *out, const char *s, size_t len);

/* Text inside GitHub-flavoured Markdown, a table cell included, that renders as itself
 * and nothing more: '<', '>', '&' and '"' as HTML entities (no tag can open), Markdown's
 * punctuation backslash-escaped ('|' cannot cut a cell, '`' open code, '*' and '_'
 * emphasis, '[' a link, ...), control characters (a newline would end a table row) as
 * spaces, and bytes that are not UTF-8 as U+FFFD; nothing the autolink extension would
 * link ("www.example.org", "x@example.org": an invisible WORD JOINER before '@'). */
void textout_markdown(FILE *out, const char *s, size_t len);

/* The members "program", "rts" and "breakdown" (null when unknown, or without a heap
 * profile) that every JSON output starts with, into w's open object; each on a line of
 * its own when lines. */
void textout_json_run_names(struct json_writer *w, const struct run_info *info, bool lines);

/* The member "grouped_by" when the default grouping applies (a not NULL: census/
 * autogroup.h): {"key", "reason", "other_share_of_peak" (the bands as they are),
 * "grouped_other_share_of_peak", "undo" (the flag that keeps every band), "note" (what
 * the charts' subtitle says)}; nothing when a is NULL. */
struct autogroup;
void textout_json_grouped_by(struct json_writer *w, const struct autogroup *a);

/* The JSON members that name a band beyond its label, into w's open object:
 * "hp_label", the label the .hp writes (bands_label: for -hc the runtime's -L cut,
 * without the "(n)" the .hp puts before it, and without the bytes of a character the cut
 * split: JSON holds whole characters), and for a cost-centre stack band, when ccs
 * is not NULL, "stack": its cost centres innermost first, each {"label", "module",
 * "srcloc"} (a number the eventlog never declared: label "#N", module and srcloc null;
 * the empty stack, MAIN, is []). */
void textout_json_band_names(struct json_writer *w, const struct bands *b,
                             const struct costcentres *ccs, uint32_t band);

/* Seconds with six decimals from nanoseconds (rounded to the microsecond), as in .hp
 * files: as text, and as a JSON number. */
void textout_seconds(FILE *out, uint64_t ns);
void textout_json_seconds(struct json_writer *w, uint64_t ns);
/* The member key: seconds (json_key, then textout_json_seconds). */
void textout_json_member_seconds(struct json_writer *w, const char *key, uint64_t ns);
/* A section of the JSON summary (and the report's data) that a run may not have, on a
 * line of its own: key, then null when not present (false), else an object begun for
 * the caller to fill and end (true). */
bool textout_json_section(struct json_writer *w, const char *key, bool present);
/* The same of seconds the input may not give: null when not known. */
void textout_json_member_seconds_or_null(struct json_writer *w, const char *key, bool known,
                                         uint64_t ns);
/* The member "window" (--from/--to: the figures of the object it is in are of it):
 * {"from_s": seconds, "to_s": seconds, or null when the window runs to the end}. The
 * summary and the report's data write it alike. */
void textout_json_member_window(struct json_writer *w, uint64_t from_ns, bool has_to,
                                uint64_t to_ns);

#endif
