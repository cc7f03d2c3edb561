"""benchmark_check.py: --summary=benchmark against what github-action-benchmark accepts
and against the run's own --summary=json (tests/benchmark.sh).

    benchmark_check.py BENCHMARK.json SUMMARY.json

The rules are those of github-action-benchmark's src/extract.ts (master, March 2026):
`customSmallerIsBetter` output is parsed with JSON.parse, then with zod as
z.array(z.object({name: z.coerce.string(), value: z.coerce.number(), range:
z.coerce.string().optional(), unit: z.coerce.string(), extra:
z.coerce.string().optional()})), and an empty array is refused ("No benchmark result
was found"). ev2hp writes each field as its own type, so the check is stricter than the
coercions: name, unit, extra strings; value a finite number (zod 4's number refuses NaN
and Infinity, and JSON has neither). Then every figure is the summary's own.
"""
import json
import math
import sys

bench_path, summary_path = sys.argv[1:]


def no_constants(name):
    raise ValueError(f"{name} is not JSON (JSON.parse refuses it)")


bench = json.load(open(bench_path), parse_constant=no_constants)
summary = json.load(open(summary_path))
assert isinstance(bench, list) and bench, "an array of one entry or more"
allowed = {"name", "unit", "value", "range", "extra"}
names = []
for e in bench:
    assert isinstance(e, dict), e
    assert set(e) <= allowed, e
    assert isinstance(e["name"], str) and e["name"], e
    assert isinstance(e["unit"], str) and e["unit"], e
    assert isinstance(e["value"], (int, float)) and not isinstance(e["value"], bool), e
    assert math.isfinite(e["value"]), e
    for k in ("range", "extra"):
        assert k not in e or isinstance(e[k], str), e
    names.append(e["name"])
assert len(set(names)) == len(names), names
got = {e["name"]: (e["unit"], e["value"]) for e in bench}


def close(a, b, tolerance):
    assert abs(a - b) <= tolerance, (a, b)


want = set()
if summary["peak"] is not None:
    want |= {"peak residency", "heap growth"}
    assert got["peak residency"] == ("bytes", summary["peak"]["bytes"]), got["peak residency"]
    unit, growth = got["heap growth"]
    assert unit == "bytes/s", unit
    close(growth, summary["growth_bytes_per_s"], 0.0006)
gc = summary["gc"]
if gc is not None:
    want |= {"GC max pause", "GC time", "GC bytes copied"}
    gens = gc["generations"]
    unit, pause = got["GC max pause"]
    assert unit == "s", unit
    close(pause, max(g["max_pause_s"] for g in gens), 0.5e-6)
    close(got["GC time"][1], gc["gc_s"], 0.5e-6)
    assert got["GC bytes copied"] == ("bytes", sum(g["copied_bytes"] for g in gens))
    if gc["allocated_bytes"] is not None:
        want.add("allocated")
        assert got["allocated"] == ("bytes", gc["allocated_bytes"])
    if gc["max_residency_bytes"] is not None:
        want.add("GC max residency")
        assert got["GC max residency"] == ("bytes", gc["max_residency_bytes"])
assert set(got) == want, (sorted(got), sorted(want))
print(", ".join(names))
