/* xmlout.c: an XML document through libxml2's xmlTextWriter, quietly (see xmlout.h). */
#include "render/xmlout.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlerror.h>

#include "base/grow.h"
#include "base/utf8.h"

static void ignore_message(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void ignore_error(void *ctx, xmlErrorPtr error)
{
    (void)ctx;
    (void)error;
}

/* Silences libxml2's error messages in the calling thread. */
static void xml_quiet(void)
{
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
}

int xml_out_open(struct xml_out *x, FILE *out, bool indent)
{
    *x = (struct xml_out){ 0 };
    xml_quiet();
    xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
    x->w = buf ? xmlNewTextWriter(buf) : NULL;
    if (!x->w) {
        if (buf)
            xmlOutputBufferClose(buf);
        errno = ENOMEM;
        return -1;
    }
    if (indent) {
        x->rc = xmlTextWriterSetIndent(x->w, 1);
        if (x->rc >= 0)
            x->rc = xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
    }
    if (x->rc >= 0)
        x->rc = xmlTextWriterStartDocument(x->w, "1.0", "UTF-8", NULL);
    return 0;
}

void xml_out_start(struct xml_out *x, const char *element)
{
    if (x->rc >= 0)
        x->rc = xmlTextWriterStartElement(x->w, BAD_CAST element);
}

void xml_out_end(struct xml_out *x)
{
    if (x->rc >= 0)
        x->rc = xmlTextWriterEndElement(x->w);
}

void xml_out_attr(struct xml_out *x, const char *name, const char *value)
{
    if (x->rc >= 0)
        x->rc = xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value);
}

/* text made fit for XML (utf8_xml_text) in x's scratch; NULL when out of memory, which
 * is then x's failure. */
static const char *clean(struct xml_out *x, const char *text)
{
    size_t len = strlen(text);
    if (len > (SIZE_MAX - 1) / 3 || GROW_ARRAY(x->text, &x->text_cap, len * 3 + 1) != 0) {
        x->rc = -1;
        errno = ENOMEM;
        return NULL;
    }
    utf8_xml_text(text, x->text);
    return x->text;
}

void xml_out_text_attr(struct xml_out *x, const char *name, const char *value)
{
    const char *v = clean(x, value);
    if (v)
        xml_out_attr(x, name, v);
}

void xml_out_string(struct xml_out *x, const char *text)
{
    const char *v = clean(x, text);
    if (v && x->rc >= 0)
        x->rc = xmlTextWriterWriteString(x->w, BAD_CAST v);
}

int xml_out_close(struct xml_out *x, FILE *out)
{
    if (x->rc >= 0)
        x->rc = xmlTextWriterEndDocument(x->w);
    if (x->rc >= 0)
        x->rc = xmlTextWriterFlush(x->w);
    xmlFreeTextWriter(x->w);   /* closes the buffer; out stays open (its owner commits it) */
    x->w = NULL;
    free(x->text);
    x->text = NULL;
    if (x->rc < 0 || fflush(out) != 0 || ferror(out)) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}
