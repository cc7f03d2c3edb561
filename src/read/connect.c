/* connect.c: socket addresses of live inputs, and connecting while the program starts.
 *
 * Waiting is a loop of single attempts: "nobody listens yet" (the socket file is missing,
 * the connection is refused, a TCP connect timed out) is retried, anything else (no such
 * host, permission denied, a path that is not a socket) is an error at once. A TCP
 * attempt is bounded by the time left to wait, so an unreachable host cannot hold ev2hp
 * longer than asked.
 */
#include "read/connect.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "read/progress.h"

#define UNIX_PREFIX "unix:"
#define TCP_PREFIX "tcp:"
/* The longest one TCP attempt may take when the wait is unbounded. */
#define TCP_ATTEMPT_MS 5000
/* ... and the shortest, when little of the wait is left. */
#define TCP_ATTEMPT_MIN_MS 200

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int parse_tcp(const char *rest, struct connect_address *a, struct ev_error *err)
{
    const char *host = rest, *colon;
    size_t host_len;
    if (*rest == '[') {
        const char *close = strchr(rest, ']');
        if (!close || close[1] != ':') {
            ev_error_set(err, "expected tcp:[ADDRESS]:PORT");
            return -1;
        }
        host = rest + 1;
        host_len = (size_t)(close - host);
        colon = close + 1;
    } else {
        colon = strrchr(rest, ':');
        if (!colon || memchr(rest, ':', (size_t)(colon - rest))) {
            ev_error_set(err, "expected tcp:HOST:PORT (an IPv6 address in brackets)");
            return -1;
        }
        host_len = (size_t)(colon - rest);
    }
    if (host_len == 0 || host_len >= sizeof a->host) {
        ev_error_set(err, "expected tcp:HOST:PORT with a host of 1 to %zu bytes",
                     sizeof a->host - 1);
        return -1;
    }
    char *end;
    errno = 0;
    long port = strtol(colon + 1, &end, 10);
    if (colon[1] < '0' || colon[1] > '9' || *end || errno || port < 1 || port > 65535) {
        ev_error_set(err, "the port must be a number from 1 to 65535");
        return -1;
    }
    memcpy(a->host, host, host_len);
    a->host[host_len] = '\0';
    snprintf(a->port, sizeof a->port, "%ld", port);
    a->kind = CONNECT_TCP;
    return 0;
}

int connect_parse(const char *name, struct connect_address *a, struct ev_error *err)
{
    memset(a, 0, sizeof *a);
    a->kind = CONNECT_NONE;
    if (!name)
        return 0;
    if (starts_with(name, TCP_PREFIX))
        return parse_tcp(name + strlen(TCP_PREFIX), a, err);
    if (!starts_with(name, UNIX_PREFIX))
        return 0;
    const char *path = name + strlen(UNIX_PREFIX);
    if (!*path || strlen(path) >= sizeof a->path) {
        ev_error_set(err, "a Unix socket path has 1 to %zu bytes", sizeof a->path - 1);
        return -1;
    }
    strcpy(a->path, path);
    a->kind = CONNECT_UNIX;
    return 0;
}

/* Whether a failed attempt means the program does not listen yet. */
static bool worth_waiting(int e)
{
    return e == ENOENT || e == ECONNREFUSED || e == ETIMEDOUT || e == EAGAIN;
}

static int connect_unix(const struct connect_address *a)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_un sun = { .sun_family = AF_UNIX };
    memcpy(sun.sun_path, a->path, strlen(a->path) + 1);
    if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0)
        return fd;
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}

/* One non-blocking connect to one address, given at most timeout_ms to complete. */
static int connect_addr(const struct addrinfo *ai, int timeout_ms)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                    ai->ai_protocol);
    if (fd < 0)
        return -1;
    int e = 0;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        e = errno;
        if (e == EINPROGRESS) {
            struct pollfd p = { .fd = fd, .events = POLLOUT };
            int ready;
            do
                ready = poll(&p, 1, timeout_ms);
            while (ready < 0 && errno == EINTR);
            socklen_t len = sizeof e;
            if (ready == 0)
                e = ETIMEDOUT;
            else if (ready < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
                e = errno;
        }
    }
    if (e == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
        return fd;
    close(fd);
    errno = e ? e : errno;
    return -1;
}

/* One attempt at every address of the host; -1 with errno, or err set when the host
 * itself is the problem (*fatal). */
static int connect_tcp(const struct connect_address *a, int timeout_ms, bool *fatal,
                       struct ev_error *err)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_NUMERICSERV }, *list;
    int rc = getaddrinfo(a->host, a->port, &hints, &list);
    if (rc != 0) {
        if (rc == EAI_AGAIN) {
            errno = EAGAIN;
            return -1;
        }
        ev_error_set(err, "cannot find host %s: %s", a->host,
                     rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
        *fatal = true;
        return -1;
    }
    int fd = -1, e = ECONNREFUSED;
    for (const struct addrinfo *ai = list; ai && fd < 0; ai = ai->ai_next) {
        fd = connect_addr(ai, timeout_ms);
        if (fd < 0)
            e = errno;
    }
    freeaddrinfo(list);
    errno = e;
    return fd;
}

/* Whether the program closed the connection fd before sending its first byte (a program
 * restarting its listener, or one that accepts and closes as it ends: nothing to judge
 * yet). Waits for that byte without taking it; false too when *stop is set or the wait
 * fails (the reader then says why). */
static bool closed_unheard(int fd, const volatile sig_atomic_t *stop)
{
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int n = poll(&p, 1, CONNECT_RETRY_MS);
        if ((n < 0 && errno != EINTR) || (stop && *stop))
            return false;
        if (n > 0) {
            char byte;
            ssize_t got = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
            return got == 0 || (got < 0 && errno == ECONNRESET);
        }
    }
}

int connect_wait(const struct connect_address *a, double wait_seconds,
                 const volatile sig_atomic_t *stop, connect_waiting_fn waiting, void *ctx,
                 struct ev_error *err)
{
    double start = progress_clock();
    bool told = false;
    unsigned unheard = 0;   /* connections closed before their first byte */
    for (;;) {
        /* One TCP attempt takes at most what is left of the wait, but never less than a
         * round trip needs (--wait 0 is one whole attempt). */
        double left = wait_seconds - (progress_clock() - start);
        int attempt_ms = !(left * 1000 < TCP_ATTEMPT_MS) ? TCP_ATTEMPT_MS
                         : left * 1000 > TCP_ATTEMPT_MIN_MS ? (int)(left * 1000)
                                                            : TCP_ATTEMPT_MIN_MS;
        if (wait_seconds == 0)
            attempt_ms = TCP_ATTEMPT_MS;
        bool fatal = false;
        int fd = a->kind == CONNECT_UNIX ? connect_unix(a)
                                         : connect_tcp(a, attempt_ms, &fatal, err);
        char why[96];
        if (fd >= 0) {
            if (!closed_unheard(fd, stop))
                return fd;
            close(fd);
            unheard++;
            snprintf(why, sizeof why, "%u connection%s closed before %s first byte", unheard,
                     unheard == 1 ? "" : "s", unheard == 1 ? "its" : "their");
        } else {
            if (fatal)
                return -1;
            int e = errno;
            if (!worth_waiting(e)) {
                ev_error_set(err, "cannot connect: %s", strerror(e));
                return -1;
            }
            snprintf(why, sizeof why, "%s", strerror(e));
        }
        if (stop && *stop) {
            ev_error_set(err, "stopped while waiting for the program to listen (%s)", why);
            return -1;
        }
        left = wait_seconds - (progress_clock() - start);
        if (left <= 0) {
            if (wait_seconds > 0)
                ev_error_set(err, "no program listening after %g s (%s)", wait_seconds, why);
            else
                ev_error_set(err, "no program listening (%s)", why);
            return -1;
        }
        if (!told && waiting) {
            waiting(ctx, why);
            told = true;
        }
        progress_sleep_ms(left * 1000 < CONNECT_RETRY_MS ? (unsigned)(left * 1000) + 1
                                                 : CONNECT_RETRY_MS);
    }
}
