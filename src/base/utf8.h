/* utf8.h: telling valid UTF-8 from bytes that only look like text.
 *
 * Labels, marker texts and program arguments come from the eventlog as bytes: almost
 * always UTF-8, but nothing guarantees it. XML, JSON and cairo all need valid UTF-8 (cairo
 * stops drawing at the first bad byte), so every writer asks this one module where a
 * character ends and replaces what is not a character with U+FFFD.
 */
#ifndef EV2HP_UTF8_H
#define EV2HP_UTF8_H

#include <stddef.h>

/* The length (1 to 4) of the valid UTF-8 character at s, which has len > 0 bytes, or 0
 * when s does not start one (overlong forms, surrogates and values past U+10FFFF are
 * not characters). */
size_t utf8_sequence(const unsigned char *s, size_t len);

/* text itself when it is valid UTF-8; otherwise a malloc'd copy (put in *copy, for the
 * caller to free) with U+FFFD for every byte that does not start a character. NULL when
 * out of memory. */
const char *utf8_valid(const char *text, char **copy);

/* The largest cut n' <= n of text (at least n bytes long) that does not fall inside a
 * character: every text cut for a reader is cut here. */
size_t utf8_boundary(const char *text, size_t n);

#endif
