/* control.h: commands written back to a program that streams its eventlog.
 *
 * eventlog-socket built with its control feature reads commands from the client on the
 * same socket it streams on. A message is the magic bytes F0 9E 97 8C, a protocol version
 * byte (0), a namespace as a length byte and its bytes ("eventlog-socket", 15 bytes), and
 * a command id byte. (eventlog-socket's README writes the length as \x15; its C source,
 * which is what parses, uses the string's length, 0x0F, as here.) A program that does not
 * read commands ignores them. An input sends one with input_send_control
 * (census/input.h).
 */
#ifndef EV2HP_CONTROL_H
#define EV2HP_CONTROL_H

#include <stddef.h>

enum control_command {
    CONTROL_START_HEAP_PROFILING = 3,
    CONTROL_STOP_HEAP_PROFILING = 4,
    CONTROL_REQUEST_HEAP_CENSUS = 5,
};

/* 4 magic + 1 version + 1 length + 15 namespace + 1 command. */
#define CONTROL_MESSAGE_SIZE 22

/* Writes the message for cmd into out; returns CONTROL_MESSAGE_SIZE. */
size_t control_message(enum control_command cmd, unsigned char out[CONTROL_MESSAGE_SIZE]);

/* Writes the whole message for cmd to a connected socket without raising SIGPIPE and
 * without blocking for long (a program that reads no commands lets its socket buffer
 * fill): 0, or -1 with errno (EAGAIN when the program has not read earlier commands). */
int control_write(int fd, enum control_command cmd);

#endif
