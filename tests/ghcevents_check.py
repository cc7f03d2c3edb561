#!/usr/bin/env python3
"""ghcevents_check.py REFERENCE DUMP CSV

Checks what ev2hp read from one of ghc-events' test eventlogs against the output
ghc-events' own test suite expects from it (REFERENCE, plain or .gz):
- events: the timestamps of ev2hp's --dump lines (DUMP) and of the reference's event
  lines are the same multiset: every event ghc-events read, ev2hp read, and no other
  (block markers are left out on both sides: older ghc-events did not show them);
- censuses: the censuses ev2hp wrote as CSV (CSV; "-" when the log has none) are those of
  the reference, in order: the same time (to the microsecond the CSV keeps), the same
  byte counts, and for string samples (every breakdown but -hc) the same labels.
Exit 0 and a one-line summary when they agree; 1 and what differs otherwise.
"""
import csv
import gzip
import re
import sys
from collections import Counter

EVENT = re.compile(r"^\s*(\d+): (.*)$")


def open_text(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def reference(path):
    times, censuses, in_events = Counter(), [], False
    with open_text(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line == "Events:":
                in_events = True
                continue
            m = EVENT.match(line) if in_events else None
            if not m:
                continue
            text = m.group(2)
            if "event block" in text:
                continue
            times[int(m.group(1))] += 1
            b = re.match(r"start heap prof sample \d+(?: at time (\d+))?$", text)
            if b:
                censuses.append([int(b.group(1) or m.group(1)), Counter(), True])
                continue
            s = re.match(r"heap prof sample \d+, residency (\d+), (label (.*)|cost centre stack.*)$",
                         text)
            if s and censuses:
                label = s.group(3)
                censuses[-1][1][(label, int(s.group(1)))] += 1
                censuses[-1][2] = censuses[-1][2] and label is not None
    return times, censuses


def dump(path):
    times = Counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            word = line.split(" ", 2)
            if len(word) > 1 and word[1].rstrip("\n") == "BLOCK_MARKER":
                continue
            if word[0].isdigit():
                times[int(word[0])] += 1
    return times


def ours(path):
    if path == "-":
        return []
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        rows = list(csv.reader(f))
    if rows and rows[0][:1] != ["time_s"]:
        return []   # a table of ticky counters: the run has no census
    # a label a spreadsheet would run is written after an apostrophe (textout.h)
    labels = [l[1:] if l[:1] == "'" and l[1:2] in ("=", "+", "-", "@", "\t", "\r") else l
              for l in rows[0][1:]]
    out = []
    for row in rows[1:]:
        entries = Counter()
        for label, value in zip(labels, row[1:]):
            if value not in ("", "0"):
                entries[(re.sub(r"^\(\d+\)", "", label), int(value))] += 1
        out.append((round(float(row[0]) * 1e6), entries))
    return out


def main():
    ref, dumped, table = sys.argv[1:4]
    want_times, want = reference(ref)
    got_times = dump(dumped)
    problems = []
    if want_times != got_times:
        missing = sum((want_times - got_times).values())
        extra = sum((got_times - want_times).values())
        problems.append("events: %d read, ghc-events %d (%d of its missing, %d more)"
                        % (sum(got_times.values()), sum(want_times.values()), missing, extra))
    got = ours(table)
    if len(got) != len(want):
        problems.append("censuses: %d, ghc-events %d" % (len(got), len(want)))
    for n, ((time_us, entries), (time_ns, ref_entries, labelled)) in enumerate(zip(got, want)):
        if time_us != round(time_ns / 1000):
            problems.append("census %d: at %d us, ghc-events %d ns" % (n, time_us, time_ns))
        ref_entries = Counter({k: v for k, v in ref_entries.items() if k[1] != 0})
        if labelled:
            same = entries == ref_entries
        else:
            same = sorted(b for (_, b), c in entries.items() for _ in range(c)) == \
                sorted(b for (_, b), c in ref_entries.items() for _ in range(c))
        if not same:
            problems.append("census %d: entries differ: %s against %s"
                            % (n, sorted(entries.items())[:4], sorted(ref_entries.items())[:4]))
    if problems:
        print("; ".join(problems[:5]))
        return 1
    print("same %d events, %d censuses" % (sum(got_times.values()), len(got)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
