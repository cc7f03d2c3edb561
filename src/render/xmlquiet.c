/* xmlquiet.c: libxml2 without its own messages (see xmlquiet.h). */
#include "render/xmlquiet.h"

#include <libxml/xmlerror.h>

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

void xml_quiet(void)
{
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
}
