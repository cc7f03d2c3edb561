/* xmlquiet.h: libxml2 without its own messages.
 *
 * libxml2 reports an error by printing it to standard error ("I/O error : No space left
 * on device") before it returns the failure to its caller. ev2hp's writers (SVG, JUnit)
 * report every failure themselves, once, with the file's name (main.c prints them), so
 * libxml2's own line would say the same thing twice and without the file. Its error
 * handlers are per thread: a writer calls xml_quiet in the thread that writes (the live
 * server draws in its own threads).
 */
#ifndef EV2HP_XMLQUIET_H
#define EV2HP_XMLQUIET_H

/* Silences libxml2's error messages in the calling thread. */
void xml_quiet(void);

#endif
