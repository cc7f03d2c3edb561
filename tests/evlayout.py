#!/usr/bin/env python3
"""evlayout.py MODE IN.eventlog OUT.eventlog

Writes a real GHC eventlog again in a layout the format allows but the runtime that wrote
it did not use, keeping every census: the runtime's .hp of the original run stays the
oracle for the copy. MODE:
  widen[=N]  every event N (default 3) bytes longer: fixed-size types declared N bytes
             longer in the header, variable-size events N bytes past their fields, as a
             later GHC adding fields at the end would write them
  noend      no HEAP_PROF_SAMPLE_END, in the header or the data (GHC before 8.10)
  unknown    a variable-size type this reader does not know (250) declared, and one such
             event with a few bytes of payload after every fifth event
  noblocks   no BLOCK_MARKER events (a writer that does not block its events)
  rebuild=DOUBLE,HALF
             another build of the program: every cost-centre number moved up by 100 (in
             the definitions, the heap samples' stacks and the time profile's), and the
             heap samples whose innermost cost centre is labelled DOUBLE hold twice their
             bytes, those labelled HALF half; of the time profile's samples, those whose
             innermost cost centre is labelled DOUBLE come twice and every other one of
             those labelled HALF is left out (not an oracle for the .hp: for --compare)
Block markers keep sizes covering the events of their blocks. The input must be intact:
its events are cut by the sizes its header declares.
"""
import struct
import sys

BLOCK_MARKER, SAMPLE_END, UNKNOWN = 18, 165, 250
COST_CENTRE, SAMPLE_CCS, PROF_SAMPLE = 161, 163, 167
SHIFT = 100


def shift_stack(payload, at):
    """payload with the stack at offset at (a depth byte, then Word32s) moved up by SHIFT."""
    depth = payload[at]
    ids = struct.unpack_from(">%dI" % depth, payload, at + 1)
    return (payload[:at + 1] + struct.pack(">%dI" % depth, *(i + SHIFT for i in ids))
            + payload[at + 1 + 4 * depth:])


def rebuild(events, double, half):
    label_of = {}
    out = []
    halves = 0
    for e in events:
        out.append(e)
        if e[0] == COST_CENTRE:
            cc, = struct.unpack_from(">I", e[2])
            label_of[cc] = e[2][4:e[2].index(b"\0", 4)].decode()
            e[2] = struct.pack(">I", cc + SHIFT) + e[2][4:]
        elif e[0] == SAMPLE_CCS:
            depth = e[2][9]
            inner = struct.unpack_from(">I", e[2], 10)[0] if depth else None
            size, = struct.unpack_from(">Q", e[2], 1)
            if inner is not None and label_of.get(inner) == double:
                size *= 2
            elif inner is not None and label_of.get(inner) == half:
                size //= 2
            e[2] = shift_stack(e[2][:1] + struct.pack(">Q", size) + e[2][9:], 9)
        elif e[0] == PROF_SAMPLE:
            inner = struct.unpack_from(">I", e[2], 13)[0] if e[2][12] else None
            e[2] = shift_stack(e[2], 12)
            if inner is not None and label_of.get(inner) == double:
                out.append([e[0], e[1], e[2], e[3]])
            elif inner is not None and label_of.get(inner) == half:
                halves += 1
                if halves % 2:
                    out.pop()
    return out


def parse(data):
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(data):
            raise SystemExit("evlayout: %s ends inside an event at offset %d" % (sys.argv[2], pos))
        pos += n
        return data[pos - n:pos]

    if take(8) != b"hdrbhetb":
        raise SystemExit("evlayout: not an eventlog")
    types = []
    while take(4) == b"etb\0":
        tag, size = struct.unpack(">Hh", take(4))
        desc = take(struct.unpack(">I", take(4))[0])
        extra = take(struct.unpack(">I", take(4))[0])
        take(4)
        types.append([tag, size, desc, extra])
    take(8)  # hdre datb
    size_of = {t[0]: t[1] for t in types}
    events = []   # [tag, time, payload, offset in the input]
    while True:
        at = pos
        tag, = struct.unpack(">H", take(2))
        if tag == 0xFFFF:
            return types, events, data[pos:]
        time, = struct.unpack(">Q", take(8))
        size = size_of[tag]
        if size < 0:
            size, = struct.unpack(">H", take(2))
        events.append([tag, time, take(size), at])


def write(types, events, tail):
    size_of = {t[0]: t[1] for t in types}
    out = bytearray(b"hdrbhetb")
    for tag, size, desc, extra in types:
        out += b"etb\0" + struct.pack(">HhI", tag, size, len(desc)) + desc
        out += struct.pack(">I", len(extra)) + extra + b"ete\0"
    out += b"hetehdredatb"
    blocks = []   # (offset of the marker in out, offset where the block ended in the input)
    for tag, time, payload, at in events:
        while blocks and at >= blocks[-1][1]:
            close_block(out, blocks.pop(), size_of)
        start = len(out)
        out += struct.pack(">HQ", tag, time)
        if size_of[tag] < 0:
            out += struct.pack(">H", len(payload))
        out += payload
        if tag == BLOCK_MARKER:
            blocks.append((start, at + struct.unpack(">I", payload[:4])[0]))
    while blocks:
        close_block(out, blocks.pop(), size_of)
    return bytes(out + b"\xff\xff" + tail)


def close_block(out, block, size_of):
    start = block[0]
    field = start + 10 + (2 if size_of[BLOCK_MARKER] < 0 else 0)
    out[field:field + 4] = struct.pack(">I", len(out) - start)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    mode, src, dst = sys.argv[1:]
    types, events, tail = parse(open(src, "rb").read())
    if mode.startswith("widen"):
        extra = int(mode.split("=", 1)[1]) if "=" in mode else 3
        for t in types:
            if t[1] >= 0:
                t[1] += extra
        pad = bytes((0xA0 + i) & 0xFF for i in range(extra))
        for e in events:
            e[2] += pad
    elif mode == "noend":
        types = [t for t in types if t[0] != SAMPLE_END]
        events = [e for e in events if e[0] != SAMPLE_END]
    elif mode == "unknown":
        types.append([UNKNOWN, -1, b"an event of a later GHC", b""])
        new = []
        for k, e in enumerate(events):
            new.append(e)
            if k % 5 == 4:
                new.append([UNKNOWN, e[1], bytes((k * 7 + i) & 0xFF for i in range(k % 23)), e[3]])
        events = new
    elif mode == "noblocks":
        types = [t for t in types if t[0] != BLOCK_MARKER]
        events = [e for e in events if e[0] != BLOCK_MARKER]
    elif mode.startswith("rebuild="):
        double, half = mode.split("=", 1)[1].split(",")
        events = rebuild(events, double, half)
    else:
        raise SystemExit("evlayout: unknown mode " + mode)
    open(dst, "wb").write(write(types, events, tail))


if __name__ == "__main__":
    main()
