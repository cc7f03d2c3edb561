/* filekind.h: what an input that is not an eventlog (nor a .hp) is, told from its first
 * bytes, and how to get the eventlog it stands for.
 *
 * People give ev2hp what lies beside the eventlog: the runtime's `.prof` report (text, or
 * JSON with -pj), the program itself, its source or another text file. "not an eventlog"
 * alone leaves them where they were; the sentence here names the file's kind and the run
 * that writes an eventlog instead. census/input.c asks when the header is not one.
 */
#ifndef EV2HP_FILEKIND_H
#define EV2HP_FILEKIND_H

#include <stddef.h>

/* The bytes looked at: enough for every kind below. */
#define FILEKIND_HEAD 16

/* A sentence (no final period) saying what head[0..len) is and how to get an eventlog,
 * or NULL when it is none of the kinds known (binary noise, another format). */
const char *filekind_not_eventlog(const unsigned char *head, size_t len);

#endif
