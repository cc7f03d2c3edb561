/* mhd.h: libmicrohttpd, loaded when the HTTP server starts.
 *
 * ev2hp is not linked with libmicrohttpd: the library and the TLS libraries it needs
 * (GnuTLS, Nettle, p11-kit, ...) cost every run 2 ms of dynamic linking and their
 * constructors, two in a hundred of the whole run on a 130 MB eventlog, though only
 * --serve uses them. mhd.c defines the few MHD_ functions serve/ calls, as microhttpd.h
 * declares them, and forwards each to the library, which mhd_load opens (by the soname
 * configure found) before the first of them is called.
 */
#ifndef EV2HP_MHD_H
#define EV2HP_MHD_H

#include "base/error.h"

/* Opens libmicrohttpd and finds its functions, once (later calls return at once): 0, or
 * -1 with err saying why --serve cannot run. Called before any MHD_ function, from one
 * thread (the server's threads start after it). */
int mhd_load(struct ev_error *err);

#endif
