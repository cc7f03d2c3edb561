#!/usr/bin/env python3
"""check.py: pprof profiles ev2hp wrote, as Google's parser read them (pprofcheck's JSON),
against ev2hp's other outputs of the same input. Used by tests/pprof.sh.

  check.py heap PROFILE.json RUN.hp [AT_SECONDS]
      a heap profile is the census of the .hp at the peak (the first of the largest
      total), or with AT_SECONDS the last census at or before it: one sample per entry,
      the same bytes, summing to its total; inuse_space/bytes.
  check.py time PROFILE.json RUN.folded
      a time profile has the folded stacks' stacks and counts exactly (frames leaf first,
      so reversed), cpu = count x period, samples/count and cpu/nanoseconds.
  check.py strings PROFILE.pb.gz
      the serialized string table (field 6) starts with "" and has no string twice.

Exit status 0 when it holds; 1 with the difference on stderr.
"""

import gzip
import json
import sys


def censuses(hp_path):
    """The .hp's censuses: (time, [bytes...]) in order."""
    out, current, time = [], None, None
    with open(hp_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("BEGIN_SAMPLE"):
                current, time = [], float(line.split()[1])
            elif line.startswith("END_SAMPLE"):
                out.append((time, current))
                current = None
            elif current is not None and line:
                current.append(int(line.rsplit("\t", 1)[1]))
    return out


def heap(profile_path, hp_path, at=None):
    p = json.load(open(profile_path))
    assert p["sample_types"] == [["inuse_space", "bytes"]], p["sample_types"]
    runs = [c for c in censuses(hp_path) if c[1]]
    if at is None:
        want = max(runs, key=lambda c: sum(c[1]))
    else:
        want = [c for c in runs if c[0] <= at + 1e-9][-1]
    got = sorted(s["values"][0] for s in p["samples"])
    assert got == sorted(want[1]), "census at %s: bytes %s, the .hp has %s" % (
        want[0], got[:8], sorted(want[1])[:8])
    assert sum(got) == sum(want[1])
    for s in p["samples"]:
        assert s["labels"].get("band"), "a sample without its band label: %s" % s
        assert s["frames"], "a sample without frames: %s" % s
    print("heap: %d samples, %d bytes, the census at %s s" % (len(got), sum(got), want[0]))


def time(profile_path, folded_path):
    p = json.load(open(profile_path))
    assert p["sample_types"] == [["samples", "count"], ["cpu", "nanoseconds"]], p
    assert p["period_type"] == ["cpu", "nanoseconds"] and p["period"] > 0, p
    want = {}
    for line in open(folded_path, encoding="utf-8"):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        want[stack] = want.get(stack, 0) + int(count)
    got = {}
    for s in p["samples"]:
        stack = ";".join(f["name"] for f in reversed(s["frames"]))
        got[stack] = got.get(stack, 0) + s["values"][0]
        assert s["values"][1] == s["values"][0] * p["period"], s
    assert got == want, "stacks differ: %s" % sorted(set(got.items()) ^ set(want.items()))[:6]
    print("time: %d stacks, %d samples" % (len(got), sum(got.values())))


def varint(b, i):
    n = shift = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return n, i


def strings(path):
    b = gzip.open(path).read()
    i, table = 0, []
    while i < len(b):
        key, i = varint(b, i)
        kind = key & 7
        if kind == 0:
            _, i = varint(b, i)
        elif kind == 2:
            n, i = varint(b, i)
            if key >> 3 == 6:
                table.append(b[i:i + n])
            i += n
        else:
            raise AssertionError("unexpected wire type %d" % kind)
    assert table and table[0] == b"", table[:3]
    dup = [s for s in set(table) if table.count(s) > 1]
    assert not dup, "strings twice: %s" % dup[:5]
    print("strings: %d, none twice" % len(table))


def main(argv):
    try:
        if argv[1] == "heap":
            heap(argv[2], argv[3], float(argv[4]) if len(argv) > 4 else None)
        elif argv[1] == "time":
            time(argv[2], argv[3])
        elif argv[1] == "strings":
            strings(argv[2])
        else:
            raise SystemExit("usage: check.py heap|time|strings ...")
    except AssertionError as e:
        print("check.py %s: %s" % (" ".join(argv[1:]), e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
