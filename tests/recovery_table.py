#!/usr/bin/env python3
"""recovery_table.py EV2HP CHECKER DIR...: the recovery of runtime-damaged eventlogs, file
by file, against what the runtime itself wrote.

Each DIR holds runs as NAME.eventlog with the .hp the runtime wrote in the same run
(NAME.hp), such as those tests/make_damaged_runs.sh makes (GHC 9.6 and 9.10, +RTS -hc -p
-l-au on the non-threaded runtime, which damages its own eventlog). For every run, ev2hp
writes the .hp, the JSON export, an SVG chart, the heap view and --summary=json, and this
checks:
  - no forged census: CHECKER accepts the .hp: every census ev2hp wrote is one the
    runtime wrote, in order. CHECKER is ../shared/tools/hpsubseq.py or this directory's
    hpcheck.py (run with --subset 0), which say the same;
  - no time past the run's end in any output: census times (.hp, JSON), the duration,
    the peak's and the markers' times (--summary), the time axes of the charts. The
    run's end is read here, apart from ev2hp, from the eventlog's block markers: the
    runtime stamps each block's end when it flushes it, so the run ends at the latest
    end of a block marker that chains (the next block, or the end of data, follows it
    exactly where its size says).
Prints a Markdown table (file, GHC, censuses in the runtime's .hp, recovered, %, run's
end, latest time in any output, ok) and the totals. Exit 0 when every file is ok and at
least 95 % of all censuses were recovered.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile


def run_end_ns(path):
    """The latest end time of a block marker (tag 18) that chains, in ns."""
    b = open(path, "rb").read()
    if b[:8] != b"hdrbhetb":
        raise ValueError(path + ": not an eventlog")
    p = 8
    while b[p:p + 4] == b"etb\0":
        _, _, desc = struct.unpack(">HhI", b[p + 4:p + 12])
        p += 12 + desc
        extra, = struct.unpack(">I", b[p:p + 4])
        p += 4 + extra + 4   # and "ete\0"
    p += 4 + 8               # "hete", "hdre", "datb"

    def marker(q):
        if q + 24 > len(b) or b[q:q + 2] != b"\x00\x12":
            return None
        start, size, end, _ = struct.unpack(">QIQH", b[q + 2:q + 24])
        return start, size, end

    def follows(q):          # a block marker or the end of data at q
        return q >= len(b) - 2 or b[q:q + 2] == b"\xff\xff" or marker(q) is not None

    end = 0
    q = b.find(b"\x00\x12", p)
    while q >= 0:
        m = marker(q)
        if m and m[1] >= 24 and m[2] >= m[0] and q + m[1] <= len(b) and follows(q + m[1]):
            end = max(end, m[2])
        q = b.find(b"\x00\x12", q + 1)
    return end


def numbers_after(text, pattern):
    return [float(x) for x in re.findall(pattern, text)]


def latest_output_time(out):
    """The latest time, in seconds, any output of the run shows."""
    times = []
    hp = open(out + ".hp", errors="replace").read()
    times += numbers_after(hp, r"BEGIN_SAMPLE ([0-9.]+)")
    times += numbers_after(open(out + ".json", errors="replace").read(), r'"time_s": ?([0-9.eE+-]+)')
    summary = json.load(open(out + ".summary.json", errors="replace"))
    times.append(summary["duration_s"])
    times.append(summary["peak"]["time_s"])
    for m in summary.get("markers", []):
        if isinstance(m, dict) and "time_s" in m:
            times.append(m["time_s"])
    for svg in (".svg", ".heap.svg"):
        text = open(out + svg, errors="replace").read()
        times += numbers_after(text, r'class="axis"[^>]*text-anchor="middle">([0-9.]+)<')
    return max(times)


def check(ev2hp, checker, log, work):
    name = os.path.basename(log)[:-len(".eventlog")]
    runtime_hp = log[:-len(".eventlog")] + ".hp"
    out = os.path.join(work, name)
    subprocess.run([ev2hp, "-q", log, "-o", out + ".hp", "-o", out + ".json",
                    "-o", out + ".svg", "--summary=json"],
                   stdout=open(out + ".summary.json", "w"), check=True)
    subprocess.run([ev2hp, "-q", log, "--view", "heap", "-o", out + ".heap.svg"], check=True)
    subset = ["--subset", "0"] if os.path.basename(checker) == "hpcheck.py" else []
    sub = subprocess.run([sys.executable, checker, runtime_hp, out + ".hp"] + subset,
                         capture_output=True, text=True)
    got = re.search(r"(\d+) of (\d+) censuses", sub.stdout)
    recovered, total = (int(got.group(1)), int(got.group(2))) if got else (0, 0)
    end_s = run_end_ns(log) / 1e9
    latest = latest_output_time(out)
    # outputs print times rounded to the microsecond
    ok = sub.returncode == 0 and got is not None and latest <= end_s + 1e-6
    ghc = "9.10" if name.startswith("ghc910") else "9.6" if name.startswith("ghc96") else "?"
    return name, ghc, total, recovered, end_s, latest, ok, sub.stdout.strip()


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    ev2hp, checker, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    logs = sorted(os.path.join(d, f) for d in dirs for f in os.listdir(d)
                  if f.endswith(".eventlog") and os.path.exists(os.path.join(d, f[:-9] + ".hp")))
    print("| file | GHC | censuses in the runtime's .hp | recovered | % | run's end (s) "
          "| latest time in any output (s) | ok |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    all_ok, total_all, recovered_all = True, 0, 0
    with tempfile.TemporaryDirectory() as work:
        for log in logs:
            name, ghc, total, recovered, end_s, latest, ok, why = check(ev2hp, checker, log, work)
            all_ok &= ok
            total_all += total
            recovered_all += recovered
            pct = 100.0 * recovered / total if total else 100.0
            print("| %s | %s | %d | %d | %.1f | %.3f | %.3f | %s |"
                  % (name, ghc, total, recovered, pct, end_s, latest, "yes" if ok else "NO: " + why))
    pct = 100.0 * recovered_all / total_all if total_all else 100.0
    print("| **%d files** | | **%d** | **%d** | **%.1f** | | | %s |"
          % (len(logs), total_all, recovered_all, pct, "all" if all_ok else "NOT ALL"))
    sys.exit(0 if all_ok and pct >= 95.0 else 1)


if __name__ == "__main__":
    main()
