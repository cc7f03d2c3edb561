/* mhd.c: libmicrohttpd, loaded when the HTTP server starts (see mhd.h).
 *
 * Each function serve/ calls is defined here with microhttpd.h's prototype (the compiler
 * checks they agree) and calls the library's through a pointer mhd_load set. The two
 * variadic ones: MHD_start_daemon hands its options on as MHD_start_daemon_va takes
 * them; MHD_get_connection_info is called for information that takes no argument past
 * its type (a socket, a client address), which is all serve/ asks of it.
 */
#include "serve/mhd.h"

#include <dlfcn.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stddef.h>

#ifndef MHD_SONAME
#define MHD_SONAME "libmicrohttpd.so.12"
#endif

static struct {
    bool loaded;
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *,
                                                        enum MHD_ResponseMemoryMode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t,
                                                          MHD_ContentReaderCallback, void *,
                                                          MHD_ContentReaderFreeCallback);
    void (*destroy_response)(struct MHD_Response *);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *,
                                                           enum MHD_ConnectionInfoType, ...);
    int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind,
                                 MHD_KeyValueIterator, void *);
    const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind,
                                           const char *);
    enum MHD_Result (*lookup_connection_value_n)(struct MHD_Connection *, enum MHD_ValueKind,
                                                 const char *, size_t, const char **,
                                                 size_t *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int,
                                      struct MHD_Response *);
    struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback,
                                          void *, MHD_AccessHandlerCallback, void *, va_list);
    void (*stop_daemon)(struct MHD_Daemon *);
} mhd;

/* Finds name in the library into *fn; false when it is not there. */
static bool find(void *lib, const char *name, void *fn)
{
    void *p = dlsym(lib, name);
    if (p)
        *(void **)fn = p;   /* POSIX: a function pointer dlsym gives is one of this type */
    return p != NULL;
}

int mhd_load(struct ev_error *err)
{
    if (mhd.loaded)
        return 0;
    void *lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        ev_error_set(err, "--serve needs libmicrohttpd: %s", why ? why : MHD_SONAME);
        return -1;
    }
    static const char *const names[] = {
        "MHD_add_response_header", "MHD_create_response_from_buffer",
        "MHD_create_response_from_callback", "MHD_destroy_response",
        "MHD_get_connection_info", "MHD_get_connection_values",
        "MHD_lookup_connection_value", "MHD_lookup_connection_value_n", "MHD_queue_response",
        "MHD_start_daemon_va", "MHD_stop_daemon",
    };
    void *const fns[] = {
        &mhd.add_response_header, &mhd.create_response_from_buffer,
        &mhd.create_response_from_callback, &mhd.destroy_response,
        &mhd.get_connection_info, &mhd.get_connection_values,
        &mhd.lookup_connection_value, &mhd.lookup_connection_value_n, &mhd.queue_response,
        &mhd.start_daemon_va, &mhd.stop_daemon,
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!find(lib, names[i], fns[i])) {
            ev_error_set(err, "--serve needs libmicrohttpd: %s has no %s", MHD_SONAME,
                         names[i]);
            dlclose(lib);
            return -1;
        }
    }
    /* Kept open for the rest of the run: the server's threads run its code. */
    mhd.loaded = true;
    return 0;
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header,
                                        const char *content)
{
    return mhd.add_response_header(response, header, content);
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
                                                     enum MHD_ResponseMemoryMode mode)
{
    return mhd.create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size,
                                                       MHD_ContentReaderCallback crc,
                                                       void *crc_cls,
                                                       MHD_ContentReaderFreeCallback crfc)
{
    return mhd.create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}

void MHD_destroy_response(struct MHD_Response *response)
{
    mhd.destroy_response(response);
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type,
                                                        ...)
{
    return mhd.get_connection_info(connection, info_type);
}

int MHD_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                              MHD_KeyValueIterator iterator, void *iterator_cls)
{
    return mhd.get_connection_values(connection, kind, iterator, iterator_cls);
}

const char *MHD_lookup_connection_value(struct MHD_Connection *connection,
                                        enum MHD_ValueKind kind, const char *key)
{
    return mhd.lookup_connection_value(connection, kind, key);
}

enum MHD_Result MHD_lookup_connection_value_n(struct MHD_Connection *connection,
                                              enum MHD_ValueKind kind, const char *key,
                                              size_t key_size, const char **value_ptr,
                                              size_t *value_size_ptr)
{
    return mhd.lookup_connection_value_n(connection, kind, key, key_size, value_ptr,
                                         value_size_ptr);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response)
{
    return mhd.queue_response(connection, status_code, response);
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port,
                                    MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *d = mhd.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
    va_end(ap);
    return d;
}

void MHD_stop_daemon(struct MHD_Daemon *daemon)
{
    mhd.stop_daemon(daemon);
}
