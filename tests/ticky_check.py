#!/usr/bin/env python3
"""ticky_check.py TICKY_REPORT EVENTLOG[.gz] SUMMARY_JSON: ev2hp's --summary=json `ticky`
against the runtime's own `+RTS -r` ticky report of a second run of the same
deterministic program (the oracle), and against the eventlog's own samples, read here
by a parser of its own.

Checks: every counter of the report is listed, with the same name, arity and argument
kinds; each counter's totals (entries, allocs, allocd) equal the sum of its samples in
the eventlog; a counter that did not move in the last sample interval (its work ended
before the run's last sample) has the report's entries and allocation exactly, and no
counter has more than the report; every counter has at least the keys issue 35 names;
the largest counters' series have, at each point, the counts of the samples it sums
(their BEGIN_SAMPLE times as its times). Prints every mismatch; status 1 if any.
"""
import gzip
import json
import re
import struct
import sys


def parse_report(path):
    """The counters table of a -r report: name -> (entries, alloc, allocd, arity, kinds)."""
    lines = open(path).read().split("\n")
    head = next(i for i, l in enumerate(lines) if "STG Name" in l and "Entries" in l)
    col = lines[head].index("STG Name")
    out = {}
    for line in lines[head + 2:]:
        if not line.strip():
            break
        m = re.match(r"\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", line)
        out[line[col:].strip()] = (int(m.group(1)), int(m.group(2)), int(m.group(3)),
                                   int(m.group(4)), line[m.end():col].strip())
    return out


def parse_eventlog(path):
    """Each counter's samples summed, and whether it moved at the last sample."""
    d = (gzip.open if path.endswith(".gz") else open)(path, "rb").read()
    assert d[:8] == b"hdrbhetb"
    i, sizes = 8, {}
    while d[i:i + 4] == b"etb\0":
        tag, size = struct.unpack(">Hh", d[i + 4:i + 8])
        i += 8
        i += 4 + struct.unpack(">I", d[i:i + 4])[0]
        i += 4 + struct.unpack(">I", d[i:i + 4])[0]
        assert d[i:i + 4] == b"ete\0"
        i += 4
        sizes[tag] = size
    assert d[i:i + 12] == b"hetehdredatb"
    i += 12
    names, sums, last, begins, at, times = {}, {}, {}, 0, {}, []
    while True:
        tag = struct.unpack(">H", d[i:i + 2])[0]
        i += 2
        if tag == 0xFFFF:
            break
        time = struct.unpack(">Q", d[i:i + 8])[0]
        i += 8
        size = sizes[tag]
        if size == -1:
            size = struct.unpack(">H", d[i:i + 2])[0]
            i += 2
        p = d[i:i + size]
        i += size
        if tag == 210:
            cid = struct.unpack(">Q", p[:8])[0]
            names[cid] = p[10:].split(b"\0")[1].decode()
        elif tag == 211:
            cid, e, a, ad = struct.unpack(">QQQQ", p[:32])
            s = sums.setdefault(cid, [0, 0, 0])
            s[0] += e; s[1] += a; s[2] += ad
            last[cid] = begins
            at.setdefault(cid, {})[begins - 1] = (e, a)
        elif tag == 212:
            begins += 1
            times.append(time)
    series = {names[c]: p for c, p in at.items()}
    return {names[c]: (tuple(s), last[c] < begins) for c, s in sums.items()}, series, times


def main(report_path, eventlog_path, json_path):
    report = parse_report(report_path)
    samples, series, times = parse_eventlog(eventlog_path)
    ticky = json.load(open(json_path))["ticky"]
    got = {c["name"]: c for c in ticky["counters"]}
    bad = []
    need = {"name", "arity", "kinds", "entries", "allocs", "allocd"}
    for c in ticky["counters"]:
        if not need <= set(c):
            bad.append(f"{c.get('name')}: keys {sorted(c)}")
    finished = 0
    for name, (entries, alloc, allocd, arity, kinds) in report.items():
        c = got.get(name)
        if c is None:
            bad.append(f"{name}: not listed")
            continue
        if (c["arity"], c["kinds"]) != (arity, kinds):
            bad.append(f"{name}: arity/kinds {c['arity']} {c['kinds']!r}, report {arity} {kinds!r}")
        mine = (c["entries"], c["allocs"], c["allocd"])
        summed, ended = samples.get(name, ((0, 0, 0), True))
        if mine != summed:
            bad.append(f"{name}: totals {mine}, its samples sum to {summed}")
        if ended:
            finished += 1
            if mine != (entries, alloc, allocd):
                bad.append(f"{name}: ended before the last sample, totals {mine}, "
                           f"report {(entries, alloc, allocd)}")
        elif mine[0] > entries or mine[1] > alloc or mine[2] > allocd:
            bad.append(f"{name}: totals {mine} above the report's {(entries, alloc, allocd)}")
    per = ticky["series"]["samples_per_point"]
    want_times = [round(times[min(k + per, len(times)) - 1] / 1e9, 6)
                  for k in range(0, len(times), per)]
    if ticky["series"]["times_s"] != want_times:
        bad.append(f"series times {ticky['series']['times_s']}, BEGIN_SAMPLE's {want_times}")
    for c in ticky["series"]["counters"]:
        points = series.get(c["name"], {})
        for key, field in (("entries", 0), ("allocs", 1)):
            want = [sum(points.get(j, (0, 0))[field] for j in range(k, k + per))
                    for k in range(0, len(times), per)]
            if c[key] != want:
                bad.append(f"{c['name']}: series {key} {c[key]}, samples {want}")
    if len(ticky["series"]["counters"]) != min(8, len(report)):
        bad.append(f"{len(ticky['series']['counters'])} counters over time")
    moving = sum(1 for name in report if not samples.get(name, ((0, 0, 0), True))[1])
    if ticky["moving_at_last_sample"] != moving:
        bad.append(f"moving_at_last_sample {ticky['moving_at_last_sample']}, {moving} counters "
                   "moved at the last sample")
    if not finished:
        bad.append("no counter ended before the last sample: nothing checked against the report")
    for b in bad:
        print(b)
    print(f"{len(report)} counters of the report, {finished} of them ended before the last sample")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
