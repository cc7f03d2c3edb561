#!/usr/bin/env python3
"""hostile.py: clients of ev2hp --serve that attack it, for tests/serve_hostile.sh.

Usage: hostile.py MODE PORT [ARGS]   (the server is 127.0.0.1:PORT)

  hold PORT N idle|slowloris SECONDS
      keeps N connections open for SECONDS: idle ones send nothing; slowloris ones send
      a request's headers a byte a second and never end them. A connection the server
      closes is opened again within a second (as slowloris does). Prints how many it
      opened.
  bigbody PORT
      declares a 1 GB body (Content-Length) for POST /control/census and sends its first
      64 KiB; prints the answer's status code and the seconds it took ("000" for none
      within 5 s).
  hosts PORT HOST...
      POSTs /control/census (X-Requested-By: ev2hp) with a Host header for each HOST;
      prints the answer's status code ("000" for none within 5 s).
  events PORT N SECONDS [PATH]
      opens N connections to /events (or PATH) that never read past the first bytes of
      the answer (a small receive buffer), for SECONDS; says "ready" on standard error
      once every one was answered; prints how many of them the server closed.
  burst PORT N SECONDS LIMIT
      opens N connections to /events at once that never read, then for SECONDS asks
      /metrics every half second, each answer awaited LIMIT seconds; prints how many
      of the N the server left open at the end, how many /metrics answers were missing
      or not 200, and the slowest answer in seconds.
  slowread PORT PATH N SECONDS
      N clients GET PATH and read it 4 KiB a second (a small receive buffer); prints
      the bytes each read, once SECONDS are over.
  silent PORT PATH N SECONDS
      N clients GET PATH (16 at a time) and read the first bytes of the answer, its
      status line, and no more (a small receive buffer); once each has its status line,
      prints how many are 200 (a line of its own, flushed: the test measures then),
      then after SECONDS how many of them the server closed before their answer was
      whole (a connection whose whole answer reached its socket may be closed while it
      waits for another request).
"""
import select
import socket
import sys
import time


def connect(port, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    return s


def request(path, host="127.0.0.1"):
    return ("GET %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (path, host)).encode()


def hold(port, n, mode, seconds):
    head = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4096
    conns = {}   # socket -> bytes of head sent
    opened = 0
    end = time.monotonic() + seconds
    next_byte = time.monotonic()
    while time.monotonic() < end:
        while len(conns) < n and time.monotonic() >= next_byte:
            try:
                conns[connect(port)] = 0
                opened += 1
            except OSError:
                time.sleep(0.05)
                break
        now = time.monotonic()
        if now >= next_byte:
            next_byte = now + 1
            for s in list(conns) if mode == "slowloris" else []:
                try:
                    s.send(head[conns[s]:conns[s] + 1])
                    conns[s] += 1
                except OSError:
                    s.close()
                    del conns[s]
        ready, _, _ = select.select(list(conns), [], [], 0.1)
        for s in ready:   # closed by the server (or answered): open another
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                s.close()
                del conns[s]
    print(opened)


def bigbody(port):
    s = connect(port)
    start = time.monotonic()
    s.sendall(b"POST /control/census HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"X-Requested-By: ev2hp\r\nContent-Length: 1000000000\r\n\r\n")
    s.setblocking(False)
    body = b"a" * 65536
    sent = 0
    answer = b""
    while time.monotonic() - start < 5 and b"\r\n" not in answer:
        if sent < len(body):
            try:
                sent += s.send(body[sent:])
            except BlockingIOError:
                pass
            except OSError:
                sent = len(body)
        ready, _, _ = select.select([s], [], [], 0.05)
        if ready:
            try:
                data = s.recv(4096)
            except OSError:
                break
            if not data:
                break
            answer += data
    status = answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "000"
    print(status, "%.3f" % (time.monotonic() - start))


def hosts(port, names):
    s = connect(port)
    s.settimeout(5)
    head = "".join("Host: %s\r\n" % n for n in names)
    s.sendall(("POST /control/census HTTP/1.1\r\n%sX-Requested-By: ev2hp\r\n"
               "Content-Length: 0\r\n\r\n" % head).encode())
    try:
        answer = s.recv(64)
    except OSError:
        answer = b""
    print(answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "000")


# How long count_closed waits for what the server sent before it closed a connection, and
# the end: bytes queued behind a full window travel only once the client reads, and on a
# loaded machine the kernel may deliver them (and the end after them) a while later.
DRAIN_SECONDS = 3


def count_closed(conns):
    """How many of conns the server closed: what it sent drained, then the end seen.

    The connections are drained together, for DRAIN_SECONDS at most: one still open (a
    stream that goes on, an answer kept alive) takes no longer than all of them."""
    left = set(conns)
    for s in conns:
        s.setblocking(False)
    n = 0
    end = time.monotonic() + DRAIN_SECONDS
    while left and time.monotonic() < end:
        ready, _, _ = select.select(list(left), [], [], max(0.0, end - time.monotonic()))
        for s in ready:
            try:
                while s.recv(65536):
                    pass
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                pass
            n += 1   # the end (b"") or a reset: closed
            left.discard(s)
    return n


def events(port, n, seconds, path="/events"):
    conns = []
    for _ in range(n):
        s = connect(port, rcvbuf=4096)
        s.sendall(request(path))
        conns.append(s)
    # each answered (the server has taken it on) before the test goes on: on a loaded
    # machine the test's own next client could otherwise come before some of these
    start = time.monotonic()
    for s in conns:
        s.settimeout(max(0.1, seconds - (time.monotonic() - start)))
        try:
            s.recv(16)
        except OSError:
            pass
    print("ready", file=sys.stderr, flush=True)
    time.sleep(max(0, seconds - (time.monotonic() - start)))
    print(count_closed(conns))


def metrics_answer(port, limit):
    """The status of GET /metrics (0 for none within limit seconds) and its seconds."""
    start = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=limit)
        s.settimeout(max(0.01, limit - (time.monotonic() - start)))
        s.sendall(request("/metrics"))
        head = s.recv(64)
        s.close()
        status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0
    except (OSError, ValueError, IndexError):
        status = 0
    return status, time.monotonic() - start


def burst(port, n, seconds, limit):
    conns = []
    for _ in range(n):
        s = connect(port, rcvbuf=4096)
        s.sendall(request("/events"))
        conns.append(s)
    end = time.monotonic() + seconds
    missing, slowest = 0, 0.0
    while time.monotonic() < end:
        status, took = metrics_answer(port, limit)
        missing += status != 200
        slowest = max(slowest, took)
        time.sleep(0.5)
    print(len(conns) - count_closed(conns), missing, "%.3f" % slowest)


def slowread(port, path, n, seconds):
    conns = []
    for _ in range(n):
        s = connect(port, rcvbuf=8192)
        s.sendall(request(path))
        conns.append([s, 0])
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for c in conns:
            try:
                c[0].setblocking(False)
                c[1] += len(c[0].recv(4096))
            except (BlockingIOError, OSError):
                pass
        time.sleep(1)
    print(" ".join(str(c[1]) for c in conns))


def silent(port, path, n, seconds):
    conns, ok = [], 0
    # 16 at a time, each batch answered before the next: more connections of one address
    # waiting for their request than the guard allows (32) would be closed as slowloris
    for first in range(0, n, 16):
        batch = [connect(port, rcvbuf=4096) for _ in range(min(16, n - first))]
        for s in batch:
            s.sendall(request(path))
        for s in batch:   # each answer begun: the server holds what it sends this client
            s.settimeout(600)
            try:
                head = s.recv(4096)
            except OSError:
                head = b""
            ok += head.startswith(b"HTTP/1.1 200 ")
            end = head.find(b"\r\n\r\n")
            length = [int(line.split(b":")[1]) for line in head[:end].split(b"\r\n")
                      if line.lower().startswith(b"content-length:")]
            # bytes of the body still to come
            conns.append([s, (length[0] if length else 0) - (len(head) - end - 4)])
        del batch
    print(ok, flush=True)
    time.sleep(seconds)
    cut = 0
    for c in conns:   # closed before the whole body came
        c[0].setblocking(False)
        try:
            while True:
                data = c[0].recv(65536)
                if not data:
                    cut += c[1] > 0
                    break
                c[1] -= len(data)
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            cut += c[1] > 0
    print(cut)


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    args = sys.argv[3:]
    if mode == "hold":
        hold(port, int(args[0]), args[1], float(args[2]))
    elif mode == "bigbody":
        bigbody(port)
    elif mode == "events":
        events(port, int(args[0]), float(args[1]), *args[2:3])
    elif mode == "hosts":
        hosts(port, args)
    elif mode == "burst":
        burst(port, int(args[0]), float(args[1]), float(args[2]))
    elif mode == "slowread":
        slowread(port, args[0], int(args[1]), float(args[2]))
    elif mode == "silent":
        silent(port, args[0], int(args[1]), float(args[2]))
    else:
        sys.exit("hostile.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
