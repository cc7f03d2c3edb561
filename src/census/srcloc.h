/* srcloc.h: GHC's source locations, split into the file and the first line.
 *
 * Cost centres (HEAP_PROF_COST_CENTRE) and info tables (IPE) carry where they come from
 * as GHC prints a source span: "Main.hs:12:9-40", "Main.hs:(12,9)-(13,73)", "Main.hs:12:9",
 * or a name in angle brackets with no place ("<built-in>", "<entire-module>"). Tools that
 * link to the source (pprof's Function: filename and start_line) want the two apart.
 */
#ifndef EV2HP_SRCLOC_H
#define EV2HP_SRCLOC_H

#include <stddef.h>

/* Splits text[0..len): *file_len, the length of the file name that starts text (0 for a
 * place that is no file: "<built-in>", "", ":"), and *line, the span's first line (0
 * when there is none). */
void srcloc_split(const char *text, size_t len, size_t *file_len, long *line);

#endif
