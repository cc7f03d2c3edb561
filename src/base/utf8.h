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

/* text as XML 1.0 can carry it, written to out (room for 3 * strlen(text) + 1 bytes),
 * NUL-terminated: U+FFFD for every byte that does not start a character, for every
 * control character XML forbids (all below 0x20 but tab, newline and carriage return)
 * and for the non-characters U+FFFE and U+FFFF, so that what was there is marked, not
 * dropped. Returns the length written. The SVG and JUnit writers ask this one place. */
size_t utf8_xml_text(const char *text, char *out);

/* The largest cut n' <= n of text (at least n bytes long) that does not fall inside a
 * character: every text cut for a reader is cut here. */
size_t utf8_boundary(const char *text, size_t n);

/* After an snprintf into out (size bytes) that returned n: when it cut the text, the cut
 * moved back to where a character ends. snprintf's NUL sits where the byte after the cut
 * was, so utf8_boundary cannot see it: the last character is judged by its lead byte
 * (the bytes it announces are all there, or it goes). */
void utf8_end_printed(char *out, size_t size, int n);

#endif
