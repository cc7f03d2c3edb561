#!/usr/bin/env python3
"""gcstats_check.py S_FILE SUMMARY_JSON: ev2hp's --summary=json `gc` against the
runtime's own `+RTS -s` report of the same run (the oracle).

Exact: collections and parallel collections per generation, bytes copied (all
generations), maximum residency. Within 0.1 %: bytes allocated. Per generation: the
worst pause within 1 ms, the elapsed time within 5 % (or 1 ms, -s prints milliseconds),
the average pause as -s prints it (within 0.1 ms). Productivity (of elapsed time) within
2 points, or with the program's span (init_s given: the runtime's tasks) INIT, MUT and
EXIT to -s's printed millisecond and productivity to its printed tenth of a point; the work balance to -s's two decimals. With --nonmoving-gc, the
nonmoving collector's synchronisations and concurrent cycles (gc.nonmoving): their totals
within 5 %, their longest within 1 ms of -s's syncs and concurrent lines. Also that the percentiles are ordered
and the JSON has exactly the keys issue 35 names. Prints every mismatch; status 1 if any.
"""
import json
import re
import sys


def parse_s(path):
    """The figures of a `+RTS -s` report."""
    text = open(path).read()
    num = lambda s: int(s.replace(",", ""))
    out = {"gens": {}}
    for key, pat in (("allocated", r"([\d,]+) bytes allocated in the heap"),
                     ("copied", r"([\d,]+) bytes copied during GC"),
                     ("residency", r"([\d,]+) bytes maximum residency"),
                     ("slop", r"([\d,]+) bytes maximum slop")):
        m = re.search(pat, text)
        out[key] = num(m.group(1)) if m else None
    for m in re.finditer(r"Gen\s+(\d+)\s+(\d+) colls,\s+(\d+) par\s+([\d.]+)s\s+([\d.]+)s"
                         r"\s+([\d.]+)s\s+([\d.]+)s", text):
        out["gens"][int(m.group(1))] = {
            "collections": int(m.group(2)), "parallel": int(m.group(3)),
            "elapsed": float(m.group(5)), "avg": float(m.group(6)), "max": float(m.group(7))}
    # --nonmoving-gc: the oldest generation's synchronisations and concurrent cycles; -s
    # counts and averages both over that generation's collections
    m = re.search(r"Gen\s+(\d+)\s+(\d+) syncs,\s+([\d.]+)s\s+([\d.]+)s\s+([\d.]+)s", text)
    out["syncs"] = {"elapsed": float(m.group(3)), "avg": float(m.group(4)),
                    "max": float(m.group(5))} if m else None
    m = re.search(r"Gen\s+(\d+)\s+concurrent,\s+([\d.]+)s\s+([\d.]+)s\s+([\d.]+)s"
                  r"\s+([\d.]+)s", text)
    out["concurrent"] = {"elapsed": float(m.group(3)), "avg": float(m.group(4)),
                         "max": float(m.group(5))} if m else None
    for phase in ("INIT", "MUT", "EXIT"):
        m = re.search(phase + r"\s+time\s+[\d.]+s\s+\(\s*([\d.]+)s elapsed\)", text)
        out[phase.lower()] = float(m.group(1)) if m else None
    m = re.search(r"Productivity\s+[\d.]+% of total user,\s+([\d.]+)% of total elapsed", text)
    out["productivity"] = float(m.group(1)) / 100
    m = re.search(r"Parallel GC work balance:\s+([\d.]+)%", text)
    out["balance"] = float(m.group(1)) / 100 if m else None
    return out


GEN_KEYS = {"gen", "collections", "parallel", "copied_bytes", "elapsed_s", "avg_pause_s",
            "max_pause_s", "pause_p50_s", "pause_p90_s", "pause_p99_s"}
GC_KEYS = {"generations", "allocated_bytes", "max_residency_bytes", "mut_s", "gc_s",
           "init_s", "exit_s", "productivity", "nonmoving"}
NONMOVING_KEYS = {"cycles", "concurrent_s", "max_concurrent_s", "marks", "mark_s",
                  "marked_objects", "syncs", "sync_s", "avg_sync_s", "max_sync_s", "sweeps",
                  "sweep_s", "heap"}


def check_nonmoving(s, gc, check):
    """The nonmoving collector's phases against -s's syncs and concurrent lines: each
    total within 5 % (or 1 ms), each longest within 1 ms; -s's averages are over the
    oldest generation's collections."""
    nm = gc.get("nonmoving")
    if s["syncs"] is None:
        check(nm is None, f"nonmoving {nm} for a run without the nonmoving collector")
        return
    check(nm is not None, "no gc.nonmoving for a --nonmoving-gc run")
    if nm is None:
        return
    check(set(nm) == NONMOVING_KEYS, f"nonmoving keys {sorted(nm)}")
    majors = s["gens"][max(s["gens"])]["collections"]
    for phase, total, worst in (("syncs", "sync_s", "max_sync_s"),
                                ("concurrent", "concurrent_s", "max_concurrent_s")):
        want = s[phase]
        check(abs(nm[total] - want["elapsed"]) <= max(0.05 * want["elapsed"], 0.0005 + 1e-9),
              f"{phase} elapsed {nm[total]}, -s {want['elapsed']}")
        check(abs(nm[worst] - want["max"]) <= 0.001 + 0.00005,
              f"{phase} longest {nm[worst]}, -s {want['max']}")
        check(abs(nm[total] / majors - want["avg"]) <= max(0.05 * want["avg"], 0.0001 + 0.00005),
              f"{phase} over {majors} collections {nm[total] / majors}, -s {want['avg']}")
    check(nm["syncs"] >= 1 and nm["cycles"] >= 1 and nm["marks"] >= nm["cycles"] and
          nm["sweeps"] == nm["cycles"], f"phase counts {nm}")
    check(nm["avg_sync_s"] <= nm["max_sync_s"] <= nm["sync_s"], "sync average, longest, total")


def main():
    s = parse_s(sys.argv[1])
    gc = json.load(open(sys.argv[2]))["gc"]
    bad = []
    def check(ok, what):
        if not ok:
            bad.append(what)
    check(gc is not None, "no gc member")
    if gc is None:
        print("\n".join(bad))
        return 1
    check(GC_KEYS <= set(gc), f"gc lacks {GC_KEYS - set(gc)}")
    gens = {g["gen"]: g for g in gc["generations"]}
    check(set(gens) == set(s["gens"]), f"generations {sorted(gens)} vs -s {sorted(s['gens'])}")
    for n, want in s["gens"].items():
        g = gens.get(n)
        if not g:
            continue
        check(set(g) == GEN_KEYS, f"gen {n} keys {sorted(g)}")
        for key in ("collections", "parallel"):
            check(g[key] == want[key], f"gen {n} {key}: {g[key]}, -s {want[key]}")
        check(abs(g["max_pause_s"] - want["max"]) <= 0.001 + 0.00005,
              f"gen {n} max pause {g['max_pause_s']}, -s {want['max']}")
        check(abs(g["elapsed_s"] - want["elapsed"]) <= max(0.05 * want["elapsed"], 0.0005),
              f"gen {n} elapsed {g['elapsed_s']}, -s {want['elapsed']}")
        check(abs(g["avg_pause_s"] - want["avg"]) <= 0.0001,
              f"gen {n} average pause {g['avg_pause_s']}, -s {want['avg']}")
        check(g["pause_p50_s"] <= g["pause_p90_s"] <= g["pause_p99_s"] <= g["max_pause_s"],
              f"gen {n} percentiles out of order")
    copied = sum(g["copied_bytes"] for g in gc["generations"])
    check(copied == s["copied"], f"copied {copied}, -s {s['copied']}")
    check(gc["max_residency_bytes"] == s["residency"],
          f"max residency {gc['max_residency_bytes']}, -s {s['residency']}")
    check(gc.get("max_slop_bytes") == s["slop"], f"slop {gc.get('max_slop_bytes')}, -s {s['slop']}")
    check(abs(gc["allocated_bytes"] - s["allocated"]) <= 0.001 * s["allocated"],
          f"allocated {gc['allocated_bytes']}, -s {s['allocated']}")
    # with the program's span (the runtime's tasks: init_s and exit_s given), MUT, INIT and
    # EXIT are -s's to its printed millisecond and productivity to its printed tenth of a
    # point; without it (no scheduler events) INIT and EXIT count as MUT
    if gc["init_s"] is not None:
        for key in ("init", "mut", "exit"):
            check(abs(gc[key + "_s"] - s[key]) <= 0.0005 + 1e-6,
                  f"{key} {gc[key + '_s']}, -s {s[key]}")
        check(abs(gc["productivity"] - s["productivity"]) <= 0.0005 + 1e-9,
              f"productivity {gc['productivity']}, -s {s['productivity']} (to its tenth of a point)")
    else:
        check(gc["exit_s"] is None, "exit_s without init_s")
        check(abs(gc["productivity"] - s["productivity"]) <= 0.02,
              f"productivity {gc['productivity']}, -s {s['productivity']}")
    if s["balance"] is not None:
        check(gc.get("work_balance") is not None and
              abs(gc["work_balance"] - s["balance"]) <= 0.00005 + 1e-9,
              f"work balance {gc.get('work_balance')}, -s {s['balance']}")
    check_nonmoving(s, gc, check)
    gc_s = sum(g["elapsed_s"] for g in gc["generations"])
    check(abs(gc["gc_s"] - gc_s) < 1e-5, f"gc_s {gc['gc_s']} is not the generations' sum")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
