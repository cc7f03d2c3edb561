#!/usr/bin/env python3
"""end_check.py SUMMARY.json EXPORT.csv DUMP.txt SUMMARY.txt: --summary's account of how a
cut-short run ended, against the run's own data (tests/end_of_run.sh).

The oracle is independent of the summary's code: the censuses as the CSV export lists
them (time and each band's bytes: the last census, its total, the growth over the last
five, the band that grew most), and --dump's events (the last event's time, the last
USER_MARKER, and the collector's pauses of the last second: per capability, from
BLOCK_MARKER's cap, a collection is the GC_START ... GC_STATS_GHC ... GC_END of the
capability that wrote GC_STATS_GHC). Prints what differs; status 1 then."""
import csv
import json
import re
import sys

summary_json, export_csv, dump_txt, summary_txt = sys.argv[1:5]
end = json.load(open(summary_json))["end"]
problems = []


def check(what, got, want, tolerance=0.0):
    if got is None or abs(got - want) > tolerance * max(1.0, abs(want)):
        problems.append(f"{what}: summary {got}, data {want}")


with open(export_csv, newline="") as f:
    rows = list(csv.reader(f))
header, censuses = rows[0], rows[1:]
times = [float(r[0]) for r in censuses]
totals = [sum(int(v) for v in r[1:] if v) for r in censuses]
# the .hp-like export starts with the empty census at 0 the runtime writes first; the
# summary's censuses are the heap censuses, which the CSV lists after it
if end["complete"]:
    problems.append("complete: true for a run killed before its end-of-data marker")
check("last_census_s", end["last_census_s"], times[-1], 1e-6)
check("last_census_bytes", end["last_census_bytes"], totals[-1])
first = len(censuses) - end["growth_censuses"]
growth = (totals[-1] - totals[first]) / (times[-1] - times[first])
check("growth_bytes_per_s", end["growth_bytes_per_s"], growth, 1e-4)
bands = {}
for i, label in enumerate(header[1:], 1):
    last = int(censuses[-1][i] or 0)
    was = int(censuses[first][i] or 0)
    bands[label] = (last - was) / (times[-1] - times[first])
fastest = max(bands, key=bands.get)
if not end["fastest_bands"] or end["fastest_bands"][0]["label"] != fastest:
    problems.append(f"fastest band: summary {end['fastest_bands'][:1]}, data {fastest}")
else:
    check("fastest band's growth", end["fastest_bands"][0]["growth_bytes_per_s"],
          bands[fastest], 1e-4)

cap, latest, markers = None, 0, []
start, leading, pauses = {}, set(), []
for line in open(dump_txt):
    m = re.match(r"(\d+) (\w+)", line)
    if not m:
        continue
    t, name = int(m.group(1)), m.group(2)
    latest = max(latest, t)      # a block's end_time is its header's claim, not an event
    if name == "BLOCK_MARKER":
        c = int(re.search(r"cap=(\d+)", line).group(1))
        cap = None if c == 65535 else c
    elif name == "USER_MARKER":
        markers.append((t, re.search(r'text="(.*)"$', line.rstrip("\n")).group(1)))
    elif name == "GC_START":
        start[cap] = t
        leading.discard(cap)
    elif name == "GC_STATS_GHC":
        leading.add(cap)
    elif name == "GC_END" and cap in start:
        if cap in leading:
            pauses.append((start[cap], t))
        del start[cap]
        leading.discard(cap)
check("last_event_s", end["last_event_s"], latest / 1e9, 1e-6)
markers.sort()
if [m["text"] for m in end["last_markers"]] != [t for _, t in markers[-3:]]:
    problems.append(f"last markers: summary {end['last_markers']}, data {markers[-3:]}")
lo = latest - 1_000_000_000
in_window = sum(max(0, min(b, latest) - max(a, lo)) for a, b in pauses)
# a collection the end cut short: from the earliest open GC_START to the end
if start:
    in_window += latest - max(min(start.values()), lo)
check("gc_share_last_second", end["gc_share_last_second"], in_window / 1e9, 1e-6)

# the text paragraph names the same last census, growth and last marker
text = open(summary_txt).read()
para = next((l for l in text.splitlines() if l.startswith("end ")), "")
for want in (f"The last complete census is at {times[-1]:.3f} s",
             f"over the last {end['growth_censuses']} censuses",
             f'"{markers[-1][1]}" at {markers[-1][0] / 1e9:.3f} s'):
    if want not in para:
        problems.append(f"the text paragraph lacks {want!r}: {para!r}")
mib = growth / 2**20
if not re.search(r"growing %.2f MiB/s|growing %.3g MiB/s" % (mib, mib), para):
    problems.append(f"the text paragraph's growth is not {mib:.3g} MiB/s: {para!r}")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
