/* evextension.c: the format's extension rule (see evextension.h). */
#include "read/evextension.h"

#include <string.h>

void ev_extension_init(struct ev_extension *x)
{
    memset(x, 0, sizeof *x);
}

static int slot_of(const struct ev_extension *x, uint16_t tag, bool add)
{
    for (int i = 0; i < EXTENSION_TYPES; i++) {
        if (x->type[i].used && x->type[i].tag == tag)
            return i;
        if (!x->type[i].used)
            return add ? i : -1;
    }
    return -1;
}

enum ev_extension_verdict ev_extension_judge(struct ev_extension *x, uint16_t tag,
                                             size_t need, size_t size)
{
    if (size < need)
        return EXTENSION_DAMAGE;
    size_t surplus = size - need;
    int i = slot_of(x, tag, true);
    if (i < 0)   /* more types than tracked: a caller's error; judge by the fields alone */
        return surplus == 0 ? EXTENSION_FITS : EXTENSION_DAMAGE;
    if (!x->type[i].used) {
        x->type[i].used = true;
        x->type[i].tag = tag;
        x->type[i].surplus = (uint32_t)surplus;
        return EXTENSION_FITS;
    }
    if (surplus == x->type[i].surplus) {
        x->type[i].other_count = 0;
        return EXTENSION_FITS;
    }
    if (x->type[i].other_count > 0 && surplus == x->type[i].other) {
        if (++x->type[i].other_count >= EXTENSION_CONFIRM) {
            x->type[i].surplus = (uint32_t)surplus;
            x->type[i].other_count = 0;
            return EXTENSION_REVISED;
        }
    } else {
        x->type[i].other = (uint32_t)surplus;
        x->type[i].other_count = 1;
    }
    return EXTENSION_DAMAGE;
}

uint32_t ev_extension_surplus(const struct ev_extension *x, uint16_t tag)
{
    int i = slot_of(x, tag, false);
    return i < 0 ? 0 : x->type[i].surplus;
}
