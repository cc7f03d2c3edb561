/* xmlout.h: an XML document streamed through libxml2's xmlTextWriter, quietly.
 *
 * ev2hp's two XML writers (the SVG back-end, render/svg.c, and the JUnit sink,
 * sink/sink_junit.c) write the same way: every call goes on only while the ones before
 * it succeeded, and the first failed return code is kept, so a writer checks once, at
 * the end. Text from the input is made valid XML first (utf8_xml_text: U+FFFD for bytes
 * that are not UTF-8, a space for a control character XML 1.0 cannot hold).
 *
 * libxml2 reports an error by printing it to standard error ("I/O error : No space left
 * on device") before it returns the failure to its caller. ev2hp's writers report every
 * failure themselves, once, with the file's name (main.c prints them), so libxml2's own
 * line would say the same thing twice and without the file: xml_out_open silences it.
 * Its error handlers are per thread: the live server draws in its own threads, and each
 * opens its own writer.
 */
#ifndef EV2HP_XMLOUT_H
#define EV2HP_XMLOUT_H

#include <stdbool.h>
#include <stdio.h>

#include <libxml/xmlwriter.h>

struct xml_out {
    xmlTextWriterPtr w;
    int rc;                /* the first failed writer call's, or >= 0 */
    char *text;            /* scratch for text made fit for XML */
    size_t text_cap;
};

/* Starts a document (version 1.0, UTF-8) on out, which stays open; indent: an element
 * on a line of its own, two spaces a level. 0, or -1 (errno ENOMEM), nothing to close. */
int xml_out_open(struct xml_out *x, FILE *out, bool indent);
void xml_out_start(struct xml_out *x, const char *element);
void xml_out_end(struct xml_out *x);
/* An attribute of the open element, value as it is (ev2hp's own text). */
void xml_out_attr(struct xml_out *x, const char *name, const char *value);
/* An attribute of the open element, value made fit for XML (text from the input). */
void xml_out_text_attr(struct xml_out *x, const char *name, const char *value);
/* Text in the open element, made fit for XML. */
void xml_out_string(struct xml_out *x, const char *text);
/* Ends the document, flushes it to out and frees the writer (out stays open, committed by
 * its owner): 0, or -1 when a call or out failed (errno; EIO when nothing said why). */
int xml_out_close(struct xml_out *x, FILE *out);

#endif
