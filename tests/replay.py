#!/usr/bin/env python3
"""replay.py: play a recorded eventlog back as a running program would write it.

The live-input tests need a program that writes its eventlog while ev2hp reads it, in a
way that is repeatable and cut at awkward places. This tool replays a recorded eventlog:

  file  into a regular file that grows (what `ev2hp --follow FILE` reads);
  unix  as a server on a Unix socket, like Well-Typed's eventlog-socket;
  tcp   as a server on 127.0.0.1 (port 0 = one the OS picks, written to --port-file).

The bytes go out in writes cut at seeded random offsets (so events and the header are
split anywhere), spread over --seconds. The servers behave like eventlog-socket: they
serve one client at a time, and every client that connects first gets the eventlog
header and the initialisation events (run information, HEAP_PROF_BEGIN, cost-centre and
IPE definitions, as the runtime posts them again when eventlog-socket restarts logging
for a new client). --drop-at F closes the first connection after that fraction of the
event bytes, at an arbitrary byte; the next client then gets the header and the
initialisation events again and the stream goes on at the next event after the drop
(--resume block: at the next block marker, as the runtime loses whole buffers; GHC
9.0's heap events sit in one buffer written late, so that would lose every census).
Every byte a client writes back (control messages) is appended to --record. After the
last byte the server keeps the connection open for up to --linger seconds, until the
client closes it.

Exit status: 0 when everything was sent, 1 on a usage or I/O error (message on stderr).
"""
import argparse
import os
import random
import select
import socket
import struct
import sys
import time

END_OF_DATA = 0xFFFF
BLOCK_MARKER = 18
SAMPLE_BEGINS = (162, 166)
# Events the runtime writes when logging starts (again): capsets and capabilities, run
# information, the heap and time profile's beginning and definitions.
INIT_TAGS = {25, 26, 27, 28, 29, 30, 31, 32, 33, 43, 45, 49, 160, 161, 168, 169}


class Eventlog:
    """The recorded bytes, cut into the header, the events and what a new client gets."""

    def __init__(self, data):
        self.data = data
        sizes, pos = self._header(data)
        self.header_end = pos
        self.init = bytearray()
        self.blocks = []          # offsets of block markers
        self.starts = []          # offsets of all events
        self.events_end = len(data)
        first_sample_seen = False
        while pos + 2 <= len(data):
            tag = struct.unpack_from(">H", data, pos)[0]
            if tag == END_OF_DATA:
                self.events_end = pos
                break
            if tag not in sizes:
                raise SystemExit("replay: offset %d: event type %d not in the header" % (pos, tag))
            size = sizes[tag]
            body = pos + 10
            if size < 0:
                size = struct.unpack_from(">H", data, body)[0]
                body += 2
            end = body + size
            if end > len(data):
                break
            self.starts.append(pos)
            if tag == BLOCK_MARKER:
                self.blocks.append(pos)
            elif tag in SAMPLE_BEGINS:
                first_sample_seen = True
            elif tag in INIT_TAGS and not first_sample_seen:
                self.init += data[pos:end]
            pos = end

    @staticmethod
    def _header(data):
        def need(pos, magic):
            if data[pos:pos + 4] != magic:
                raise SystemExit("replay: offset %d: expected %r" % (pos, magic))
            return pos + 4
        pos = need(need(0, b"hdrb"), b"hetb")
        sizes = {}
        while data[pos:pos + 4] == b"etb\0":
            tag, size, name_len = struct.unpack_from(">HhI", data, pos + 4)
            pos += 12 + name_len
            extra = struct.unpack_from(">I", data, pos)[0]
            pos = need(pos + 4 + extra, b"ete\0")
            sizes[tag] = size
        pos = need(need(need(pos, b"hete"), b"hdre"), b"datb")
        return sizes, pos

    def resume_after(self, offset, at_block):
        """Where the stream goes on for a new client after a drop at offset: the next
        event, or the next block marker (what the runtime does, losing whole buffers)."""
        for b in self.blocks if at_block else self.starts:
            if b >= offset:
                return b
        return self.events_end


def cuts(rng, start, end, writes):
    """Sorted cut points strictly between start and end (at most writes - 1 of them)."""
    if end - start <= 1:
        return [end]
    n = min(writes - 1, end - start - 1)
    points = sorted(rng.sample(range(start + 1, end), n)) if n > 0 else []
    return points + [end]


class Pacer:
    """Spreads the writes of the whole replay over the asked duration."""

    def __init__(self, seconds, writes):
        self.gap = seconds / max(writes, 1)

    def wait(self):
        if self.gap > 0:
            time.sleep(self.gap)


def replay_file(args, log, rng):
    pacer = Pacer(args.seconds, args.writes)
    with open(args.path, "wb") as out:
        first = min(args.first_bytes, len(log.data))
        if first:
            out.write(log.data[:first])
            out.flush()
        time.sleep(args.delay)
        pos = first
        for cut in cuts(rng, pos, len(log.data), args.writes):
            out.write(log.data[pos:cut])
            out.flush()
            pos = cut
            pacer.wait()
    print("replay: wrote %d bytes to %s" % (len(log.data), args.path), file=sys.stderr)


class Client:
    """One accepted connection: sends, and records whatever the client writes back."""

    def __init__(self, conn, record):
        self.conn = conn
        self.record = record
        self.closed = False

    def drain(self, timeout=0.0):
        """Records what the client wrote; False once it has closed its end."""
        while not self.closed:
            ready, _, _ = select.select([self.conn], [], [], timeout)
            if not ready:
                return True
            try:
                got = self.conn.recv(4096)
            except OSError:
                got = b""
            if not got:
                self.closed = True
                break
            if self.record:
                self.record.write(got)
                self.record.flush()
            timeout = 0.0
        return False

    def send(self, data):
        self.drain()
        try:
            self.conn.sendall(data)
            return True
        except OSError:
            self.closed = True
            return False

    def close(self):
        try:
            self.conn.close()
        except OSError:
            pass


def listen(args):
    time.sleep(args.delay)
    if args.mode == "unix":
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            os.unlink(args.path)
        except FileNotFoundError:
            pass
        srv.bind(args.path)
    else:
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", args.port))
    srv.listen(1)
    if args.mode == "tcp" and args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % srv.getsockname()[1])
        os.rename(tmp, args.port_file)
    return srv


def accept(srv, record, timeout):
    ready, _, _ = select.select([srv], [], [], timeout)
    if not ready:
        raise SystemExit("replay: no client connected within %g s" % timeout)
    conn, _ = srv.accept()
    return Client(conn, record)


def stream(client, data, start, end, rng, writes, pacer):
    """Sends data[start:end] in cut writes; False when the client went away."""
    pos = start
    for cut in cuts(rng, start, end, writes):
        if not client.send(data[pos:cut]):
            return False
        pos = cut
        pacer.wait()
    return True


def replay_socket(args, log, rng):
    record = open(args.record, "ab") if args.record else None
    srv = listen(args)
    data = log.data
    body = len(data) - log.header_end
    drop = log.header_end + int(body * args.drop_at) if args.drop_at else None
    pacer = Pacer(args.seconds, args.writes)
    connections = 0
    client = accept(srv, record, args.accept_timeout)
    connections += 1
    if drop is not None:
        # The first client: up to the drop, cut anywhere (inside an event).
        stream(client, data, 0, drop, rng, args.writes // 2, pacer)
        if args.no_reconnect:
            # The program is gone: nobody listens any more. A dying program's sockets all
            # close at once, so the listening one goes first: closed after the client's,
            # a reader quick to connect again would find it still listening, then closed.
            srv.close()
            if args.mode == "unix":
                os.unlink(args.path)
            client.close()
            print("replay: dropped the connection at byte %d" % drop, file=sys.stderr)
            return
        client.close()
        print("replay: dropped the connection at byte %d" % drop, file=sys.stderr)
        client = accept(srv, record, args.accept_timeout)
        connections += 1
        resume = log.resume_after(drop, args.resume == "block")
        # A new client: the header and the initialisation events again, then the rest.
        again = data[:log.header_end] + bytes(log.init) + data[resume:]
        ok = stream(client, again, 0, len(again), rng, args.writes - args.writes // 2, pacer)
        sent = drop + len(again)
    else:
        ok = stream(client, data, 0, len(data), rng, args.writes, pacer)
        sent = len(data)
    if not ok:
        raise SystemExit("replay: the client closed the connection early")
    deadline = time.monotonic() + args.linger
    while client.drain(0.05) and time.monotonic() < deadline:
        pass
    client.close()
    srv.close()
    if args.mode == "unix":
        os.unlink(args.path)
    print("replay: sent %d bytes over %d connection%s" %
          (sent, connections, "" if connections == 1 else "s"), file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=("file", "unix", "tcp"))
    p.add_argument("eventlog", help="the recorded eventlog")
    p.add_argument("path", nargs="?", help="file: the file to write; unix: the socket path")
    p.add_argument("--port", type=int, default=0, help="tcp: the port (0: the OS picks)")
    p.add_argument("--port-file", help="tcp: where to write the port once listening")
    p.add_argument("--seconds", type=float, default=2.0, help="how long the replay lasts")
    p.add_argument("--writes", type=int, default=60, help="how many writes")
    p.add_argument("--seed", type=int, default=1, help="the seed of the cut points")
    p.add_argument("--delay", type=float, default=0.0,
                   help="seconds before listening (sockets) or after --first-bytes (file)")
    p.add_argument("--first-bytes", type=int, default=0,
                   help="file: bytes written at once before --delay (a half-written file)")
    p.add_argument("--drop-at", type=float, default=0.0,
                   help="sockets: drop the first connection after this fraction of the events")
    p.add_argument("--resume", choices=("event", "block"), default="event",
                   help="after a drop, go on at the next event (default: one event is "
                   "lost) or at the next block marker (the runtime's whole buffers)")
    p.add_argument("--no-reconnect", action="store_true",
                   help="with --drop-at: stop listening after the drop (the program died)")
    p.add_argument("--record", help="sockets: append what clients write back to this file")
    p.add_argument("--linger", type=float, default=2.0,
                   help="sockets: seconds to wait at the end for the client to close")
    p.add_argument("--accept-timeout", type=float, default=30.0,
                   help="sockets: seconds to wait for a client")
    args = p.parse_args()
    if args.mode in ("file", "unix") and not args.path:
        p.error("%s needs a path" % args.mode)
    if not 0.0 <= args.drop_at < 1.0:
        p.error("--drop-at is a fraction below 1")
    with open(args.eventlog, "rb") as f:
        log = Eventlog(f.read())
    rng = random.Random(args.seed)
    if args.mode == "file":
        replay_file(args, log, rng)
    else:
        replay_socket(args, log, rng)


if __name__ == "__main__":
    main()
