/* json.h: the one JSON writer: every JSON ev2hp emits goes through it.
 *
 * A streaming writer onto a FILE * (a file, a pipe, or open_memstream for a live
 * server's events): the caller says what comes next (begin an object, a key, a value, end
 * it) and the writer owns what JSON itself requires, so that no caller writes a quote, a
 * comma or a bracket by hand:
 *
 * - Escaping. Strings are (pointer, length) byte views, usually UTF-8 but never trusted:
 *   valid UTF-8 passes through; '"' and '\' are escaped; control characters and DEL are
 *   written \u00XX; each byte that does not start a valid UTF-8 character (base/utf8.h)
 *   becomes \ufffd, so the output is always valid UTF-8 and valid JSON. With
 *   JSON_SCRIPT_SAFE, '<', '>', '&', U+2028 and U+2029 are escaped too (\u003c ...): the
 *   text can then sit inside an HTML <script> element ("</script>" and "<!--" cannot
 *   occur) and is valid JavaScript source.
 * - Numbers. Integers exactly, in full. Doubles in the shortest form that reads back as
 *   the same double (%.15g, %.16g, then %.17g), or rounded as the caller asks
 *   (json_double_fixed, json_double_digits); always in the C locale's notation whatever
 *   LC_NUMERIC says. JSON has no NaN or infinity: a non-finite double is written null,
 *   which every reader takes as "no value" (a growth rate of a band that has none).
 * - Commas and nesting: a stack of JSON_DEPTH_MAX open containers.
 * - Layout. Compact by default. JSON_PRETTY puts a space after ',' and ':'. Either way a
 *   line break goes only where the caller asks for one (json_newline), indented one space
 *   per open container with JSON_PRETTY: outputs keep the shape people and diffs read
 *   (one band per line) without a line per number.
 *
 * Errors are sticky, as with ferror: after the first failure every call does nothing,
 * and json_writer_status or json_writer_finish tell. A failed write (the stream's error)
 * is JSON_WRITE_FAILED. A call that would make invalid JSON (a key outside an object, a
 * value in an object without its key, an end that does not match its begin, nesting past
 * JSON_DEPTH_MAX, a second top-level value, an unknown flag or precision) is a mistake in
 * the caller: it is JSON_MISUSE and nothing is written for it, so the output is never
 * silently wrong and the run that made it fails with a message rather than a crash; the
 * unit tests check each case.
 */
#ifndef EV2HP_JSON_H
#define EV2HP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Flags of json_writer_new, or'ed. */
#define JSON_PRETTY 1u          /* ", " and ": "; line breaks indented by depth */
#define JSON_SCRIPT_SAFE 2u     /* '<', '>', '&', U+2028, U+2029 escaped as \uXXXX */

/* Containers open at once; deeper nesting is JSON_MISUSE. */
#define JSON_DEPTH_MAX 32

enum json_status {
    JSON_OK = 0,
    JSON_WRITE_FAILED,          /* the stream reported an error */
    JSON_MISUSE,                /* a call that would have made invalid JSON */
};

struct json_writer;

/* A writer of one JSON value (usually an object) onto out, which stays the caller's: the
 * writer neither flushes nor closes it, and writes to it without taking its lock, so no
 * other thread may use out meanwhile. NULL when out of memory (errno set). */
struct json_writer *json_writer_new(FILE *out, unsigned flags);
void json_writer_free(struct json_writer *w);

/* JSON_OK until the first failure, then what failed. */
enum json_status json_writer_status(const struct json_writer *w);

/* 0 while nothing has failed; otherwise -1 with errno set as json_writer_finish sets it:
 * what a caller streaming piece by piece returns after each piece. */
int json_writer_check(const struct json_writer *w);

/* 0 when one complete value was written with no failure and the stream shows no error;
 * otherwise -1 with errno set (the failed write's errno, or EINVAL for misuse or an
 * unfinished value). Writes nothing (no final newline: that is the caller's). */
int json_writer_finish(struct json_writer *w);

void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);

/* The key of the next member of the open object (NUL-terminated; escaped like any
 * string). Exactly one value must follow. */
void json_key(struct json_writer *w, const char *key);

/* A string from len bytes of s (not NUL-terminated; escaped as above). */
void json_string(struct json_writer *w, const char *s, size_t len);
/* A NUL-terminated string, or null when s is NULL. */
void json_cstring(struct json_writer *w, const char *s);

void json_uint(struct json_writer *w, uint64_t v);
void json_int(struct json_writer *w, int64_t v);
/* units / 10^decimals written exactly with decimals digits after the point ("12.000345"
 * from 12000345 and 6), decimals <= 19: times kept as integers, without rounding. */
void json_decimal(struct json_writer *w, uint64_t units, unsigned decimals);

/* The shortest decimal that reads back as x; null when x is not finite. */
void json_double(struct json_writer *w, double x);
/* x rounded to decimals digits after the point (printf "%.*f", decimals <= 17), for
 * statistics shown at a fixed precision; null when x is not finite. */
void json_double_fixed(struct json_writer *w, double x, int decimals);
/* x rounded to significant digits (printf "%.*g", 1 <= significant <= 17); null when x
 * is not finite. */
void json_double_digits(struct json_writer *w, double x, int significant);

void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

/* A member of the open object: json_key, then the value as the function of the same
 * name writes it (json_member_uint is json_key and json_uint). */
void json_member_uint(struct json_writer *w, const char *key, uint64_t v);
void json_member_int(struct json_writer *w, const char *key, int64_t v);
void json_member_string(struct json_writer *w, const char *key, const char *s, size_t len);
void json_member_cstring(struct json_writer *w, const char *key, const char *s);
void json_member_double_fixed(struct json_writer *w, const char *key, double x, int decimals);
void json_member_bool(struct json_writer *w, const char *key, bool v);
/* The same of a value the input may not give: null when not known. */
void json_member_uint_or_null(struct json_writer *w, const char *key, bool known, uint64_t v);
void json_member_double_or_null(struct json_writer *w, const char *key, bool known, double x);

/* The next key or value starts on a new line (after its comma), indented one space per
 * open container with JSON_PRETTY. Only inside a container, not between a key and its
 * value; without a next item nothing is written. */
void json_newline(struct json_writer *w);

#endif
