/* textout.h: writing labels into text formats safely.
 *
 * Labels come from the eventlog as bytes: usually UTF-8, sometimes not, and they may hold
 * quotes, commas, tabs or newlines. Each text format has its own quoting; these helpers
 * are the only place that knows them.
 */
#ifndef EV2HP_TEXTOUT_H
#define EV2HP_TEXTOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/bands.h"
#include "census/costcentres.h"

/* A JSON string literal, quotes included; bytes that are not UTF-8 become U+FFFD. */
void textout_json_string(FILE *out, const char *s, size_t len);
/* The same, also escaping '<', '>' and '&' (\u003c ...): safe inside an HTML <script>. */
void textout_json_string_html(FILE *out, const char *s, size_t len);

/* An RFC 4180 CSV field: quoted (quotes doubled) when it holds a comma, quote, CR or LF. */
void textout_csv_field(FILE *out, const char *s, size_t len);

/* A band's name for people: "(n)" before a numbered stack's label, as the .hp writes it,
 * and a -hi address's description in place of the address. Writes into
 * buf (cap bytes, NUL-terminated, cut if needed) and returns the length written. */
size_t textout_band_name(const struct bands *b, uint32_t band, char *buf, size_t cap);

/* The JSON members that name a band beyond its label, each preceded by ", ":
 * "hp_label", the label the .hp writes (bands_label: for -hc the runtime's -L cut,
 * without the "(n)" the .hp puts before it, and without the bytes of a character the cut
 * split: JSON holds whole characters), and for a cost-centre stack band, when ccs
 * is not NULL, "stack": its cost centres innermost first, each {"label", "module",
 * "srcloc"} (a number the eventlog never declared: label "#N", module and srcloc null;
 * the empty stack, MAIN, is []). */
void textout_json_band_names(FILE *out, const struct bands *b, const struct costcentres *ccs,
                             uint32_t band);

/* Seconds with six decimals from nanoseconds, as in .hp files. */
void textout_seconds(FILE *out, uint64_t ns);

#endif
