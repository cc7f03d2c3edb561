#!/usr/bin/env python3
"""caps_check.py SUMMARY.json DUMP.txt CAPS: --summary=json's capabilities against a
ThreadScope-like reading of --dump (tests/capabilities.sh).

The oracle: each event's capability is the one its BLOCK_MARKER names; per capability the
time running Haskell threads is the sum of RUN_THREAD .. the next STOP_THREAD, the time
collecting the sum of GC_START .. the next GC_END, idle the rest of the run (0 to its last
event). Checks: CAPS capabilities listed (0 .. CAPS-1), each one's running, gc and idle
within 1e-6 of the oracle's and summing to 1. Prints what differs; status 1 then."""
import json
import re
import sys

summary_json, dump_txt, caps = sys.argv[1], sys.argv[2], int(sys.argv[3])
listed = json.load(open(summary_json))["capabilities"] or []
problems = []
cap, latest = None, 0
running, gc, begun = {}, {}, {}
for line in open(dump_txt):
    m = re.match(r"(\d+) (\w+)", line)
    if not m:
        continue
    t, name = int(m.group(1)), m.group(2)
    latest = max(latest, t)
    if name == "BLOCK_MARKER":
        c = int(re.search(r"cap=(\d+)", line).group(1))
        cap = None if c == 65535 else c
    elif cap is None:
        continue
    elif name in ("RUN_THREAD", "GC_START"):
        begun[cap] = (name, t)
    elif name in ("STOP_THREAD", "GC_END"):
        kind, t0 = begun.pop(cap, (None, t))
        if (kind, name) == ("RUN_THREAD", "STOP_THREAD"):
            running[cap] = running.get(cap, 0) + t - t0
        elif (kind, name) == ("GC_START", "GC_END"):
            gc[cap] = gc.get(cap, 0) + t - t0
for cap, (kind, t0) in begun.items():   # still running or collecting at the end
    (running if kind == "RUN_THREAD" else gc)[cap] = \
        (running if kind == "RUN_THREAD" else gc).get(cap, 0) + latest - t0
if [c["cap"] for c in listed] != list(range(caps)):
    problems.append(f"capabilities listed: {[c['cap'] for c in listed]}, not 0..{caps - 1}")
for c in listed:
    n = c["cap"]
    want_run = running.get(n, 0) / latest
    want_gc = gc.get(n, 0) / latest
    for key, want in (("running", want_run), ("gc", want_gc), ("idle", 1 - want_run - want_gc)):
        if abs(c[key] - want) > 1e-6:
            problems.append(f"cap {n} {key}: summary {c[key]:.6f}, dump {want:.6f}")
    if abs(c["running"] + c["gc"] + c["idle"] - 1) > 1e-9:
        problems.append(f"cap {n}: the shares sum to {c['running'] + c['gc'] + c['idle']}")
for p in problems:
    print(p)
for c in listed:
    print(f"cap {c['cap']}: running {c['running']:.4f} gc {c['gc']:.4f} idle {c['idle']:.4f}")
sys.exit(1 if problems else 0)
