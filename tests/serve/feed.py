#!/usr/bin/env python3
"""feed.py: write a file into a FIFO (or a growing file) slowly, as a running program would.

Usage: feed.py SOURCE TARGET SECONDS [PIECES]

The bytes go out in PIECES writes (default 40) cut at fixed fractions of the file (so
inside events), spread over SECONDS, then TARGET is closed (for a FIFO: the end of input).
The live tests (tests/serve.sh, serve_prometheus.sh, serve_browser.sh) feed ev2hp --serve
with it until servesrc's tests/replay tool serves sockets.
"""
import sys
import time


def main():
    source, target, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    pieces = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    data = open(source, "rb").read()
    step = max(1, -(-len(data) // pieces))
    with open(target, "wb") as out:
        for at in range(0, len(data), step):
            out.write(data[at:at + step])
            out.flush()
            time.sleep(seconds / pieces)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)   # the reader went away (a test stopped ev2hp early)
