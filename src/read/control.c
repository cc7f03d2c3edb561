/* control.c: the bytes of eventlog-socket's control messages, and writing one whole. */
#include "read/control.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#define CONTROL_NAMESPACE "eventlog-socket"
/* How long a write may wait for room in the socket buffer. */
#define CONTROL_WRITE_MS 1000

size_t control_message(enum control_command cmd, unsigned char out[CONTROL_MESSAGE_SIZE])
{
    static const unsigned char magic[4] = { 0xF0, 0x9E, 0x97, 0x8C };
    size_t ns = sizeof CONTROL_NAMESPACE - 1;
    memcpy(out, magic, sizeof magic);
    out[4] = 0;                                  /* protocol version */
    out[5] = (unsigned char)ns;
    memcpy(out + 6, CONTROL_NAMESPACE, ns);
    out[6 + ns] = (unsigned char)cmd;
    return CONTROL_MESSAGE_SIZE;
}

int control_write(int fd, enum control_command cmd)
{
    unsigned char msg[CONTROL_MESSAGE_SIZE];
    size_t len = control_message(cmd, msg), done = 0;
    while (done < len) {
        ssize_t put = send(fd, msg + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (put > 0) {
            done += (size_t)put;
            continue;
        }
        if (put < 0 && errno == EINTR)
            continue;
        if (put < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return -1;
        /* Full: wait a little for room, so that a message is never left half sent
         * unless the program stopped reading altogether. */
        struct pollfd p = { .fd = fd, .events = POLLOUT };
        int ready = poll(&p, 1, CONTROL_WRITE_MS);
        if (ready == 0) {
            errno = EAGAIN;
            return -1;
        }
        if (ready < 0 && errno != EINTR)
            return -1;
    }
    return 0;
}
