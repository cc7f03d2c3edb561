#!/usr/bin/env python3
"""make_seeds.py: builds the seed corpus of the eventlog fuzz target from real eventlogs.

    python3 tests/fuzz/make_seeds.py OUTDIR EVENTLOG...

A real eventlog is megabytes of scheduler events around a few heap censuses; a fuzzer
wants small inputs that still reach every part of the census code. For each input this
writes: a "slim" seed (a header declaring only the event types kept, with empty
descriptions, then the run-info events, the first cost centres, the first censuses and a
few other events, then the end marker); the same with the full header; the slim seed
without HEAP_PROF_SAMPLE_END (the GHC 8.x layout); cuts of the slim seed; bit flips;
and a splice of two inputs. A fixed random seed keeps the corpus reproducible.
"""
import os
import random
import struct
import sys

HEAP = {160, 161, 162, 163, 164, 165, 166}
INFO = {29, 30, 43, 58, 50, 51, 91, 169}


def parse(data):
    """The header's declarations (tag -> (size, raw bytes)), the data offset, events."""
    assert data[:8] == b"hdrbhetb"
    pos = 8
    decls = {}
    while data[pos:pos + 4] == b"etb\0":
        start = pos
        tag, size, dlen = struct.unpack(">HhI", data[pos + 4:pos + 12])
        pos += 12 + dlen
        (elen,) = struct.unpack(">I", data[pos:pos + 4])
        pos += 4 + elen + 4
        decls[tag] = (size, data[start:pos])
    assert data[pos:pos + 12] == b"hetehdredatb", data[pos:pos + 12]
    pos += 12
    events = []
    while pos + 2 <= len(data):
        (tag,) = struct.unpack(">H", data[pos:pos + 2])
        if tag == 0xFFFF:
            break
        size = decls[tag][0]
        if size == -1:
            if pos + 12 > len(data):
                break
            (plen,) = struct.unpack(">H", data[pos + 10:pos + 12])
            end = pos + 12 + plen
        else:
            end = pos + 10 + size
        if end > len(data):
            break
        events.append((tag, data[pos:end]))
        pos = end
    return decls, events


def header(decls, tags, slim):
    out = b"hdrbhetb"
    for tag in sorted(tags):
        size, raw = decls[tag]
        if slim:
            raw = b"etb\0" + struct.pack(">HhI", tag, size, 0) + struct.pack(">I", 0) + b"ete\0"
        out += raw
    return out + b"hetehdredatb"


def select(events, censuses=3, cost_centres=60, others=25):
    kept, seen_other, seen_cc, ends = [], {}, 0, 0
    for tag, raw in events:
        if tag == 161:
            seen_cc += 1
            if seen_cc > cost_centres:
                continue
        elif tag in (162, 166) and ends >= censuses:
            continue
        elif tag in (163, 164) and ends >= censuses:
            continue
        elif tag == 165:
            if ends >= censuses:
                continue
            ends += 1
        elif tag in INFO:
            seen_other[tag] = seen_other.get(tag, 0) + 1
            if seen_other[tag] > 6:
                continue
        elif tag not in HEAP:
            seen_other[tag] = seen_other.get(tag, 0) + 1
            if seen_other[tag] > 2 or len(kept) > 4000:
                continue
            if sum(n for t, n in seen_other.items() if t not in INFO) > others:
                continue
        kept.append((tag, raw))
    return kept


def build(decls, events, slim=True, drop=()):
    events = [(t, r) for t, r in events if t not in drop]
    tags = {t for t, _ in events} | ({162, 163, 164, 165} & decls.keys())
    tags -= set(drop)
    return header(decls, tags, slim) + b"".join(r for _, r in events) + b"\xff\xff"


def ipe_seeds():
    """-hi eventlogs with IPE events in the three layouts (see tests/test_ipe.c)."""
    def decl(tag, size):
        return b"etb\0" + struct.pack(">HhI", tag, size, 0) + struct.pack(">I", 0) + b"ete\0"

    def event(tag, time, payload, declared=None):
        n = len(payload) if declared is None else declared
        return struct.pack(">HQH", tag, time, n) + payload

    head = b"hdrbhetb" + decl(30, -1) + decl(160, -1) + decl(162, 8) + decl(164, -1) \
        + decl(165, 8) + decl(169, -1) + b"hetehdredatb"
    seeds = {}
    for name, strings, extra in (("ipe-ghc9.2", 6, 0), ("ipe-ghc9.10", 6, 1),
                                 ("ipe-split-srcloc", 7, 0)):
        body = event(30, 0, b"\0\0\0\0prog\0+RTS\0-hi\0")
        for i in range(3):
            loc = [b"src/Main.hs:12:3-14"] if strings == 6 else [b"src/Main.hs", b"12:3-14"]
            fields = [b"tbl%d" % i, b"21", b"Maybe Int", b"go", b"Main"] + loc
            payload = struct.pack(">Q", 0x4000 + i) + b"".join(f + b"\0" for f in fields)
            body += event(169, 1, payload, len(payload) + extra)
        body += event(160, 2, b"\0" + struct.pack(">QI", 100000000, 8) + b"\0" * 7)
        body += struct.pack(">HQ", 162, 10) + struct.pack(">Q", 0)
        body += event(164, 10, b"\0" + struct.pack(">Q", 48) + b"16384\0")
        body += struct.pack(">HQ", 165, 10) + struct.pack(">Q", 0)
        seeds[name] = head + body + b"\xff\xff"
    return seeds


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20261122)
    slims = []
    for path in sys.argv[2:]:
        name = os.path.basename(path).replace(".eventlog", "")
        with open(path, "rb") as f:
            decls, events = parse(f.read())
        kept = select(events)
        slim = build(decls, kept)
        slims.append(slim)
        seeds = {"slim": slim, "nosampleend": build(decls, kept, drop=(165,))}
        if name in ("leak-hc", "circsim-thr-hT"):
            seeds["fullheader"] = build(decls, select(events, censuses=1, others=5), slim=False)
        for i in range(3):
            seeds["cut%d" % i] = slim[:rng.randrange(40, len(slim))]
        for i in range(2):
            b = bytearray(slim)
            for _ in range(rng.randrange(1, 6)):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            seeds["flip%d" % i] = bytes(b)
        for kind, data in seeds.items():
            with open(os.path.join(out, "%s-%s" % (name, kind)), "wb") as f:
                f.write(data)
    for name, data in ipe_seeds().items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    a, b = slims[0], slims[-1]
    with open(os.path.join(out, "splice"), "wb") as f:
        f.write(a[:len(a) // 2] + b[len(b) // 3:])


if __name__ == "__main__":
    main()
