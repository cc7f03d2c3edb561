/* reportlink.h: links into the HTML report, for `--summary=markdown --report-url URL`.
 *
 * The report keeps its view in the URL's fragment (share/report/link.js): `band=LABEL`
 * opens it with that band drawn alone and found in the table, `window=FROM,TO` (seconds)
 * on that window of the run (a phase's, --phases). This module checks the URL a user gives and writes a link's
 * destination into Markdown: the URL with every byte a Markdown destination or an
 * address cannot hold as it is percent-encoded, then the fragment in the form encoding
 * URLSearchParams reads (letters, digits and `*-._` as they are, a space `+`, every other
 * byte `%XX`), so a label never ends the destination, opens markup or acts.
 */
#ifndef EV2HP_REPORTLINK_H
#define EV2HP_REPORTLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether url may be linked to: http:// or https:// with a host, or a relative reference
 * (no scheme); no fragment (the links write theirs), no space or control character. NULL,
 * or why not (a phrase for the usage error). */
const char *reportlink_refused(const char *url);

/* What a link opens in the report: a band (its label as the report has it, band_len
 * bytes, or NULL) and a window (has_window: from_s to to_s). */
struct reportlink_view {
    const char *band;
    size_t band_len;
    bool has_window;
    double from_s, to_s;
};

/* The destination of a Markdown link, "URL#fragment", onto out (between the link's
 * parentheses). */
void reportlink_destination(FILE *out, const char *url, const struct reportlink_view *view);

#endif
