#!/bin/sh
# gc_stats.sh: the collector's figures against the runtime's own `+RTS -s` report (issue 35).
#   Real GHC 9.10.3 runs of tests/data/gcstats/gcwork.hs, each with `+RTS -l-agu -s` in
#   the same run (the eventlog carries only GC and user events; tests/data/gcstats/README
#   says how they were made): -threaded -N1, -N2, -N2 -qg, -N4, -N4 -qg, -N2 -A64k (5,500
#   collections), -N1 -A16m and -N2 --nonmoving-gc. tests/gcstats_check.py parses the -s file as the
#   oracle and checks --summary=json's gc: collections and parallel collections per
#   generation, bytes copied and maximum residency exactly; allocation within 0.1 %; each
#   generation's worst pause within 1 ms and elapsed within 5 %; productivity within 2
#   points. tests/data/gcsched has the same runs (and -N1 -qg, and -A256k for the small
#   -A) with `+RTS -l`, whose scheduler's tasks give the program's span: there INIT, MUT
#   and EXIT are -s's to its millisecond and productivity to its tenth of a point. The
#   work balance to -s's two decimals; with --nonmoving-gc, its syncs and
#   concurrent cycles (gc.nonmoving) against -s's lines. The text summary prints -s's lines
#   (the same byte counts, the generation lines) and the Markdown its Collector table.
#   --max-pause (any generation, and gen1:) and --min-productivity pass and fail on each
#   run as its -s says they should (status, JSON verdict, a JUnit test case); cannot be
#   checked on a .hp (status 1); usage mistakes exit 2.
. "${SRCDIR:?}/tests/testlib.sh"
gc="$data/gcstats"
# tests/data/gcsched: the same matrix with the scheduler's events (+RTS -l), whose tasks
# give the program's span: INIT, MUT and EXIT to -s's millisecond, productivity to its
# tenth of a point (gcstats_check.py), and -N1 -qg.
sched="$data/gcsched"
for run in $(cd "$gc" && ls *.stat) $(cd "$sched" && ls *.stat | sed 's/^/sched:/'); do
    dir=$gc
    case $run in sched:*) dir=$sched run=${run#sched:} ;; esac
    run=${run%.stat}
    "$EV2HP" --summary=json "$dir/$run.eventlog.gz" > "$tmp/$run.json" 2> "$tmp/$run.err" ||
        fail "$dir/$run: --summary=json status $?"
    "$PYTHON3" "$SRCDIR/tests/gcstats_check.py" "$dir/$run.stat" "$tmp/$run.json" > "$tmp/$run.check" ||
        fail "$dir/$run against its -s: $(cat "$tmp/$run.check")"
    case $dir in
    "$sched") grep -q '"init_s": null' "$tmp/$run.json" && fail "$dir/$run: no program span" ;;
    *) grep -q '"init_s": null, "exit_s": null' "$tmp/$run.json" ||
        fail "$dir/$run (-l-agu, no tasks): a program span" ;;
    esac
done
[ "$(ls "$gc"/*.stat "$sched"/*.stat | wc -l)" -eq 18 ] || fail "the matrix is not the 18 runs"
"$EV2HP" --summary "$sched/n4qg.eventlog.gz" 2> /dev/null > "$tmp/n4qg.txt"
for line in '  INIT    time     0.004s elapsed' '  MUT     time     0.270s elapsed' \
    '  EXIT    time     0.001s elapsed' '  Productivity  51.3% of total elapsed'; do
    grep -qxF "$line" "$tmp/n4qg.txt" || fail "n4qg's text lacks '$line'"
done

# The text summary's lines carry -s's numbers as -s writes them.
"$EV2HP" --summary "$gc/n2.eventlog.gz" > "$tmp/n2.txt" 2> /dev/null || fail "--summary: status $?"
for line in "366,305,072 bytes allocated in the heap" "186,203,376 bytes copied during GC" \
    "6,515,088 bytes maximum residency" "58,992 bytes maximum slop" \
    "Parallel GC work balance: 67.95% (serial 0%, perfect 100%)"; do
    grep -qF "$line" "$tmp/n2.txt" || fail "the text summary lacks '$line'"
done
grep -qE '^  Gen  0      60 colls,     60 par    0\.093s    0\.0016s    0\.0095s' "$tmp/n2.txt" ||
    fail "the text summary's generation 0 line: $(grep 'Gen  0' "$tmp/n2.txt")"
grep -qE '^  Gen  1      16 colls,     15 par    0\.068s    0\.0042s    0\.0219s' "$tmp/n2.txt" ||
    fail "the text summary's generation 1 line: $(grep 'Gen  1' "$tmp/n2.txt")"

"$EV2HP" --summary=markdown "$gc/n2.eventlog.gz" > "$tmp/n2.md" 2> /dev/null ||
    fail "--summary=markdown: status $?"
grep -qF '| Gen 1 | 16 | 15 | ' "$tmp/n2.md" || fail "the Markdown lacks its Collector row"
grep -qF '#### Collector' "$tmp/n2.md" || fail "the Markdown lacks its Collector section"

# --nonmoving-gc: the nonmoving collector's lines under the generations' (its
# synchronisations and concurrent cycles, as -s's syncs and concurrent lines), what the
# cycles did, and the Markdown's sentence; runs without it have none (JSON null: checked
# by gcstats_check.py).
"$EV2HP" --summary "$gc/nonmoving.eventlog.gz" > "$tmp/nm.txt" 2> /dev/null ||
    fail "nonmoving --summary: status $?"
grep -qE '^  Gen  1       7 syncs,               0\.020s    0\.0028s    0\.0063s$' "$tmp/nm.txt" ||
    fail "the syncs line: $(grep syncs "$tmp/nm.txt")"
grep -qE '^  Gen  1       7 concurrent,          0\.161s    0\.0230s    0\.0535s$' "$tmp/nm.txt" ||
    fail "the concurrent line: $(grep concurrent, "$tmp/nm.txt")"
grep -qF '  Nonmoving: 7 concurrent cycles; 34 marks 0.132s (1,415,560 objects), 7 syncs stopping the program 0.020s, 7 sweeps 0.008s' \
    "$tmp/nm.txt" || fail "the nonmoving line: $(grep Nonmoving "$tmp/nm.txt")"
grep -q 'syncs,\|Nonmoving' "$tmp/n2.txt" && fail "-N2 (no nonmoving collector) has its lines"
"$EV2HP" --summary=markdown "$gc/nonmoving.eventlog.gz" 2> /dev/null |
    grep -qF 'Nonmoving collector: 7 concurrent cycles, 0.161 s (the longest 0.0535 s): 34 marks 0.132 s, 7 syncs stopping the program 0.020 s (the longest 0.0063 s), 7 sweeps 0.008 s.' ||
    fail "the Markdown's nonmoving sentence"

# -ln: the nonmoving heap at its last census, each block size's latest census summed (as
# --dump gives them); none without -ln
"$EV2HP" --summary=json "$gc/nmcensus.eventlog.gz" > "$tmp/nmc.json" 2> /dev/null
"$EV2HP" --dump "$gc/nmcensus.eventlog.gz" > "$tmp/nmc.dump" 2> /dev/null
"$PYTHON3" - "$tmp/nmc.json" "$tmp/nmc.dump" "$tmp/nonmoving.json" <<'PY' || fail "the nonmoving heap's census"
import json, re, sys
heap = json.load(open(sys.argv[1]))["gc"]["nonmoving"]["heap"]
last = {}
for line in open(sys.argv[2]):
    m = re.match(r"(\d+) NONMOVING_HEAP_CENSUS block_size=(\d+) active_segments=(\d+) "
                 r"filled_segments=(\d+) live_blocks=(\d+)", line)
    if m:
        t, size, active, filled, live = map(int, m.groups())
        if size not in last or last[size][0] < t:
            last[size] = (t, active, filled, live)
want = {"block_sizes": len(last), "census_s": round(max(v[0] for v in last.values()) / 1e9, 6),
        "active_segments": sum(v[1] for v in last.values()),
        "filled_segments": sum(v[2] for v in last.values()),
        "live_blocks": sum(v[3] for v in last.values()),
        "live_bytes": sum(size * v[3] for size, v in last.items())}
assert heap == want, (heap, want)
assert json.load(open(sys.argv[3]))["gc"]["nonmoving"]["heap"] is None
PY
"$EV2HP" --summary "$gc/nmcensus.eventlog.gz" 2> /dev/null |
    grep -qF '  Nonmoving heap at its last census (0.398s): 4,426,664 bytes live in 32 active and 125 filled segments of 23 block sizes' ||
    fail "the text's nonmoving heap line"

# --max-pause and --min-productivity pass and fail as each run's -s says they should:
# limits 2 ms either side of -s's worst pause (of all generations, and of generation 1
# alone), 3 points either side of its productivity (0.2 with the scheduler's events:
# gcsched); JUnit names each gate.
for run in $(cd "$gc" && ls *.stat) $(cd "$sched" && ls *.stat | sed 's/^/sched:/'); do
    dir=$gc margin=3
    case $run in sched:*) dir=$sched run=${run#sched:} margin=0.2 ;; esac
    run=${run%.stat}
    set -- $("$PYTHON3" -c '
import sys
sys.path.insert(0, sys.argv[1])
from gcstats_check import parse_s
s = parse_s(sys.argv[2])
worst = 1000 * max(g["max"] for g in s["gens"].values())
gen1 = 1000 * s["gens"][1]["max"]
p, m = 100 * s["productivity"], float(sys.argv[3])
print("%.3fms %.3fms %.3fms %.3fms %.2f %.2f" % (worst + 2, max(worst - 2, 0.001), gen1 + 2,
      max(gen1 - 2, 0.001), p - m, min(p + m, 100)))' "$SRCDIR/tests" "$dir/$run.stat" "$margin")
    for gate in "--max-pause $1:0" "--max-pause $2:3" "--max-pause gen1:$3:0" \
        "--max-pause gen1:$4:3" "--min-productivity $5:0" "--min-productivity $6:3"; do
        limit=${gate%:*} want=${gate##*:}
        "$EV2HP" --summary=json $limit --junit "$tmp/junit.xml" "$dir/$run.eventlog.gz" \
            > "$tmp/gate.json" 2> /dev/null
        got=$?
        [ "$got" -eq "$want" ] || fail "$run $limit: status $got, -s says $want"
        verdict=$( [ "$want" -eq 0 ] && echo passed || echo failed )
        grep -q "\"verdict\": \"$verdict\"" "$tmp/gate.json" || fail "$run $limit: not $verdict"
        grep -q "<testcase [^>]*name=\"${limit%% *}: " "$tmp/junit.xml" ||
            fail "$run $limit: no JUnit test case"
    done
done
"$EV2HP" --summary --max-pause 1s --min-productivity 10 "$data/flat-hc.hp" > /dev/null 2> "$tmp/hp.err"
[ $? -eq 1 ] || fail "gates on a .hp: not status 1 (cannot be checked)"
grep -q 'max-pause cannot be checked: the input has no garbage collection events' "$tmp/hp.err" ||
    fail "gates on a .hp: $(cat "$tmp/hp.err")"
for bad in 5 -1ms gen:5ms genx:5ms 5ms5 "gen1:"; do
    "$EV2HP" --summary --max-pause "$bad" "$gc/n1.eventlog.gz" > /dev/null 2> "$tmp/usage.err"
    [ $? -eq 2 ] || fail "--max-pause $bad: not a usage error"
done
"$EV2HP" --summary --min-productivity 101 "$gc/n1.eventlog.gz" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--min-productivity 101: not a usage error"
# The heap view: each collection a mark in its generation's lane (n2: -s's 60 and 16),
# as long as its pause on the time axis (the widest generation-1 mark is -s's worst
# pause, to a pixel); a dense run (5,500 collections) keeps the longest of each bucket
# and says so. The allocation rate is drawn only from one capability's counts.
"$EV2HP" --view heap -o "$tmp/n2.svg" "$gc/n2.eventlog.gz" 2> /dev/null || fail "heap view: status $?"
"$EV2HP" --view heap -o "$tmp/smallA.svg" "$gc/smallA.eventlog.gz" 2> /dev/null ||
    fail "heap view of smallA: status $?"
"$PYTHON3" - "$tmp" "$gc" <<'PY' || fail "the heap view's collections"
import re, sys
tmp, gc = sys.argv[1], sys.argv[2]
sys.path.insert(0, gc + "/../..")
from gcstats_check import parse_s
def marks(svg, lane):
    return [(float(x), float(w)) for x, w in re.findall(
        r'<rect class="gc%d" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"' % lane, svg)]
def scale(svg):   # user units per second, from the time axis's labels
    ticks = [(float(t), float(x)) for x, t in re.findall(
        r'<text class="axis" x="([\d.]+)"[^>]*text-anchor="middle">([\d.]+)</text>', svg)]
    (t0, x0), (t1, x1) = ticks[0], ticks[-1]
    return (x1 - x0) / (t1 - t0)
svg = open(f"{tmp}/n2.svg").read()
s = parse_s(f"{gc}/n2.stat")
for lane in (0, 1):
    assert len(marks(svg, lane)) == s["gens"][lane]["collections"], (lane, len(marks(svg, lane)))
widest = max(w for _, w in marks(svg, 1)) / scale(svg)
assert abs(widest - s["gens"][1]["max"]) < 0.001, (widest, s["gens"][1]["max"])
assert "collections, each pause as long as it lasted: gen 0 60, 0.093 s; gen 1 16, 0.068 s<" in svg
dense = open(f"{tmp}/smallA.svg").read()
assert 0 < len(marks(dense, 0)) < 5497, len(marks(dense, 0))
assert len(marks(dense, 1)) == 20
assert re.search(r"gen 0 5497, 0\.096 s; gen 1 20, 0\.050 s \(the longest of each [\d.]+ s\)<", dense)
# two capabilities count their allocation apart: no rate made of their counts (it read
# 68.3 TiB/s); one capability's is drawn, at a rate a program can allocate
for name in (svg, dense):
    assert "allocation rate not drawn: each capability counts its own allocation" in name
    assert "allocation rate, on its own scale" not in name
PY
"$EV2HP" --view heap -o "$tmp/n1.svg" "$gc/n1.eventlog.gz" 2> /dev/null || fail "heap view of n1: status $?"
grep -qE 'allocation rate, on its own scale: peak [0-9.]+ (MiB|GiB)/s<' "$tmp/n1.svg" ||
    fail "n1's allocation rate: $(grep -o 'allocation rate[^<]*' "$tmp/n1.svg")"
exit $failed
