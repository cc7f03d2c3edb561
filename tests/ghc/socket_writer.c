/* socket_writer.c: stream a GHC program's eventlog to a Unix socket, as eventlog-socket does.
 *
 * The test program (Live.hs) is linked with this file and started through its own main
 * below, which hands the runtime this writer in RtsConfig.eventlog_writer, the hook
 * Well-Typed's eventlog-socket uses (GHC 9.0.2 has it). The socket path comes from
 * LIVE_SOCKET. The writer listens there when the runtime starts logging and waits for
 * one client, so that no event is lost; every block the runtime writes then goes to the
 * client whole, and a thread reads the client's control messages (read/control.h:
 * F0 9E 97 8C, version 0, namespace "eventlog-socket", command 3, 4 or 5) and calls the
 * runtime: start or stop the heap profile timer, or request a census. GHC 9.0.2 has no
 * requestHeapCensus(); setting performHeapProfile is what it does in later versions.
 * A client that goes away is not waited for again: the rest of the log is dropped.
 *
 * With LIVE_DROP_AFTER=SECONDS the writer plays a network failure: that long after the
 * first client connected it closes the connection, waits for a new client and, as
 * eventlog-socket does for every new client, ends and restarts the runtime's event
 * logging (endEventLogging, startEventLogging), so that the new client gets the header
 * and the initialisation events again; what the runtime wrote in between is lost. That
 * needs the threaded runtime (-threaded), as with eventlog-socket.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "Rts.h"

/* The runtime's own, not in 9.0.2's public headers. */
extern void startHeapProfTimer(void);
extern void stopHeapProfTimer(void);
extern bool performHeapProfile;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int client_fd = -1;
static int listen_fd = -1;
static pthread_t control_thread, drop_thread;
static const EventLogWriter socket_writer;

static void die(const char *what)
{
    fprintf(stderr, "socket_writer: %s: %s\n", what, strerror(errno));
    exit(1);
}

static const unsigned char magic[4] = { 0xF0, 0x9E, 0x97, 0x8C };
static const char namespace_name[] = "eventlog-socket";

static void obey(unsigned char cmd)
{
    switch (cmd) {
    case 3: startHeapProfTimer(); break;
    case 4: stopHeapProfTimer(); break;
    case 5: performHeapProfile = true; break;
    default: break;
    }
}

/* Reads control messages until the client closes; a byte that does not start a valid
 * message is skipped, as eventlog-socket's parser does. */
static void *read_control(void *arg)
{
    int fd = *(int *)arg;
    unsigned char buf[256];
    size_t len = 0;
    const size_t whole = 4 + 1 + 1 + (sizeof namespace_name - 1) + 1;
    for (;;) {
        ssize_t got = read(fd, buf + len, sizeof buf - len);
        if (got <= 0)
            return NULL;
        len += (size_t)got;
        size_t at = 0;
        while (len - at >= whole) {
            const unsigned char *m = buf + at;
            if (memcmp(m, magic, 4) == 0 && m[4] == 0 && m[5] == sizeof namespace_name - 1 &&
                memcmp(m + 6, namespace_name, sizeof namespace_name - 1) == 0) {
                obey(m[whole - 1]);
                at += whole;
            } else {
                at++;
            }
        }
        memmove(buf, buf + at, len - at);
        len -= at;
    }
}

static void start_control(int fd)
{
    static int control_fd;
    control_fd = fd;
    if (pthread_create(&control_thread, NULL, read_control, &control_fd) != 0)
        die("pthread_create");
}

/* LIVE_DROP_AFTER: drop the client, take the next one, restart the event logging. */
static void *drop_later(void *arg)
{
    double seconds = *(double *)arg;
    struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
    nanosleep(&ts, NULL);
    pthread_mutex_lock(&lock);
    if (client_fd >= 0)
        shutdown(client_fd, SHUT_RDWR);
    client_fd = -1;
    pthread_mutex_unlock(&lock);
    int fd = accept(listen_fd, NULL, NULL);
    if (fd < 0)
        die("accept");
    endEventLogging();
    pthread_mutex_lock(&lock);
    client_fd = fd;
    pthread_mutex_unlock(&lock);
    start_control(fd);
    startEventLogging(&socket_writer);
    return NULL;
}

static void writer_init(void)
{
    static bool started;
    if (started)
        return;      /* a restart after a new client (drop_later): it is connected */
    started = true;
    const char *path = getenv("LIVE_SOCKET");
    if (!path)
        die("LIVE_SOCKET is not set");
    listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (listen_fd < 0 || strlen(path) >= sizeof a.sun_path)
        die("socket");
    strcpy(a.sun_path, path);
    unlink(path);
    if (bind(listen_fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(listen_fd, 1) != 0)
        die(path);
    int fd = accept(listen_fd, NULL, NULL);
    if (fd < 0)
        die("accept");
    client_fd = fd;
    start_control(fd);
    static double drop_after;
    const char *drop = getenv("LIVE_DROP_AFTER");
    if (drop) {
        drop_after = atof(drop);
        if (pthread_create(&drop_thread, NULL, drop_later, &drop_after) != 0)
            die("pthread_create");
    } else {
        close(listen_fd);
        unlink(path);
    }
}

static bool writer_write(void *data, size_t size)
{
    pthread_mutex_lock(&lock);
    const unsigned char *p = data;
    while (client_fd >= 0 && size) {
        ssize_t put = send(client_fd, p, size, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0) {
            shutdown(client_fd, SHUT_RDWR);
            client_fd = -1;   /* the client went away: the rest is dropped */
            break;
        }
        p += put;
        size -= (size_t)put;
    }
    pthread_mutex_unlock(&lock);
    return true;
}

static void writer_stop(void)
{
    pthread_mutex_lock(&lock);
    if (client_fd >= 0)
        shutdown(client_fd, SHUT_RDWR);   /* ends the control thread's read too */
    client_fd = -1;
    pthread_mutex_unlock(&lock);
}

static const EventLogWriter socket_writer = {
    .initEventLogWriter = writer_init,
    .writeEventLog = writer_write,
    .flushEventLog = NULL,
    .stopEventLogWriter = writer_stop,
};

extern StgClosure ZCMain_main_closure;

int main(int argc, char *argv[])
{
    RtsConfig conf = defaultRtsConfig;
    conf.rts_opts_enabled = RtsOptsAll;
    conf.eventlog_writer = &socket_writer;
    return hs_main(argc, argv, &ZCMain_main_closure, conf);
}
