#!/usr/bin/env python3
"""gc_metrics_check.py METRICS S_FILE DUMP SUMMARY_JSON: /metrics' collector series
(tests/gc_metrics.sh) against the runtime's own `+RTS -s` report of the run and
--dump's events.

From -s (the oracle, parsed by gcstats_check.py): ghc_gc_collections_total per
generation exactly, the histogram's count equal to it, ghc_gc_allocated_bytes_total
within 0.1 %, the histogram's sum (the generation's elapsed GC time) within 5 % or 1 ms.
From --dump: every bucket of ghc_gc_pause_seconds{gen} exactly (the pauses, each the
leading capability's GC_START to its GC_END, that are at most the bound), and the bytes
copied per generation (GC_STATS_GHC's copied, summed). ghc_gc_productivity equal to
--summary=json's gc.productivity (to the 6 decimals written). Prints what differs;
status 1 then."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gcstats_check import parse_s  # noqa: E402

metrics_txt, s_file, dump_txt, summary_json = sys.argv[1:5]
problems = []
samples = {}
for line in open(metrics_txt):
    if line.startswith("#") or not line.strip():
        continue
    name_labels, value = line.rsplit(" ", 1)
    samples[name_labels] = float(value)


def get(name, **labels):
    key = name + ("{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}" if labels else "")
    if key not in samples:
        problems.append(f"/metrics lacks {key}")
        return None
    return samples[key]


s = parse_s(s_file)
# the pauses and bytes copied per generation from --dump (leaders' pairs, per capability)
cap, start, leading, pauses, copied = None, {}, {}, {}, {}
for line in open(dump_txt):
    m = re.match(r"(\d+) (\w+)", line)
    if not m:
        continue
    t, name = int(m.group(1)), m.group(2)
    if name == "BLOCK_MARKER":
        cap = int(re.search(r"cap=(\d+)", line).group(1))
    elif name == "GC_START":
        start[cap] = t
        leading.pop(cap, None)
    elif name == "GC_STATS_GHC":
        gen = int(re.search(r" gen=(\d+)", line).group(1))
        leading[cap] = gen
        copied[gen] = copied.get(gen, 0) + int(re.search(r" copied=(\d+)", line).group(1))
    elif name == "GC_END" and cap in start:
        if cap in leading:
            pauses.setdefault(leading.pop(cap), []).append(t - start[cap])
        del start[cap]

for gen, want in s["gens"].items():
    colls = get("ghc_gc_collections_total", gen=gen)
    if colls is not None and colls != want["collections"]:
        problems.append(f"gen {gen}: {colls} collections, -s {want['collections']}")
    count = get("ghc_gc_pause_seconds_count", gen=gen)
    if count is not None and count != want["collections"]:
        problems.append(f"gen {gen}: histogram count {count}, -s {want['collections']}")
    total = get("ghc_gc_pause_seconds_sum", gen=gen)
    if total is not None and abs(total - want["elapsed"]) > max(0.05 * want["elapsed"], 0.001):
        problems.append(f"gen {gen}: histogram sum {total} s, -s elapsed {want['elapsed']} s")
    c = get("ghc_gc_copied_bytes_total", gen=gen)
    if c is not None and c != copied.get(gen, 0):
        problems.append(f"gen {gen}: {c} bytes copied, GC_STATS_GHC {copied.get(gen, 0)}")
    buckets = [(k, v) for k, v in samples.items()
               if k.startswith(f'ghc_gc_pause_seconds_bucket{{gen="{gen}",')]
    if len(buckets) < 2:
        problems.append(f"gen {gen}: {len(buckets)} histogram buckets")
    for key, v in buckets:
        le = re.search(r'le="([^"]+)"', key).group(1)
        if le == "+Inf":
            want_n = len(pauses.get(gen, []))
        else:
            bound_ns = round(float(le) * 1e9)
            want_n = sum(1 for p in pauses.get(gen, []) if p <= bound_ns)
        if v != want_n:
            problems.append(f"gen {gen} le={le}: {v} pauses, --dump {want_n}")
alloc = get("ghc_gc_allocated_bytes_total")
if alloc is not None and abs(alloc - s["allocated"]) > 0.001 * s["allocated"]:
    problems.append(f"allocated {alloc}, -s {s['allocated']}")
prod = get("ghc_gc_productivity")
want_prod = json.load(open(summary_json))["gc"]["productivity"]
if prod is not None and abs(prod - want_prod) > 5e-7:
    problems.append(f"productivity {prod}, --summary=json {want_prod}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
