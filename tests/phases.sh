#!/bin/sh
# phases.sh: --phases (issue 36, point 2; census/phases.h, facts/phases.h):
#   - a real GHC 9.10 run (tests/data/phases3.hs: traceMarker "load", "serve", "shutdown";
#     serve leaks): --phases marker finds the three; each phase's censuses, peak and
#     growth equal those computed here from the CSV export of that window (--from
#     marker:X --to marker:Y -o w.csv: its rows' totals; growth the least-squares slope
#     of the totals against time), and its suspects are the window's summary's; only
#     serve is a suspect and fails --max-growth (status 3, its message on standard
#     error, none for the others); the text and Markdown summaries list the three;
#   - --max-pause and --min-productivity per phase: the collections whose pause began in
#     it, checked against the --dump's GC_START/GC_END pairs;
#   - --junit has one test case per gate of the run and per phase and gate, named by
#     the phase, valid against tests/junit.xsd;
#   - --phases REGEX: only the matching markers; "X start"/"X end" pairs bound phase X,
#     and what does not pair is dropped and said (written by tests/phase_runs);
#   - the detail view of a phase's window marks its suspects (facts/suspects.h, handed
#     to the chart by its sink);
#   - with --from/--to, each phase is cut to the window, those outside it left out (said);
#   - no marker, a REGEX matching none (the markers named), a bad REGEX and a pipe are
#     usage errors (status 2); a phase without a census says so (no numbers) and its
#     gate cannot be checked (status 1).
. "${SRCDIR:?}/tests/testlib.sh"
runs="$(dirname "$EV2HP")/tests/phase_runs"
log="$data/phases3-hT.eventlog.gz"

# --- the real run -----------------------------------------------------------------------
"$EV2HP" "$log" --phases marker --summary=json > "$tmp/phases.json" 2> "$tmp/err" ||
    fail "--phases marker: status $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "--phases marker: standard error: $(cat "$tmp/err")"
# each phase's window as CSV, and its summary, by the markers
"$EV2HP" "$log" --from marker:load --to marker:serve -o "$tmp/load.csv" \
    --summary=json > "$tmp/load.json" || fail "load window: status $?"
"$EV2HP" "$log" --from marker:serve --to marker:shutdown -o "$tmp/serve.csv" \
    --summary=json > "$tmp/serve.json" || fail "serve window: status $?"
"$EV2HP" "$log" --from marker:shutdown -o "$tmp/shutdown.csv" \
    --summary=json > "$tmp/shutdown.json" || fail "shutdown window: status $?"
"$PYTHON3" - "$tmp" <<'PY' || fail "the phases are not their windows' figures"
import csv, json, sys
tmp = sys.argv[1]
doc = json.load(open(tmp + "/phases.json"))
phases = doc["phases"]
names = [p["name"] for p in phases]
assert names == ["load", "serve", "shutdown"], names
markers = {m["text"]: m["time_s"] for m in doc["markers"]}
for i, p in enumerate(phases):
    rows = list(csv.reader(open("%s/%s.csv" % (tmp, p["name"]))))[1:]
    t = [float(r[0]) for r in rows]
    tot = [sum(int(x) for x in r[1:]) for r in rows]
    n = len(t)
    assert p["censuses"] == n and n >= 10, (p["name"], p["censuses"], n)
    assert p["peak_bytes"] == max(tot), (p["name"], p["peak_bytes"], max(tot))
    tm, ym = sum(t) / n, sum(tot) / n
    slope = sum((a - tm) * (b - ym) for a, b in zip(t, tot)) / sum((a - tm) ** 2 for a in t)
    g = p["growth_bytes_per_s"]
    # the CSV's times are to the microsecond, the census's to the nanosecond
    assert abs(g - slope) <= 1e-4 * max(abs(slope), 1e4), (p["name"], g, slope)
    assert p["start_s"] == markers[p["name"]], (p["name"], p["start_s"])
    if i + 1 < len(phases):
        assert p["end_s"] == phases[i + 1]["start_s"] and not p["to_end"], p
    else:
        assert p["to_end"] and p["end_s"] == doc["duration_s"], p
    window = json.load(open("%s/%s.json" % (tmp, p["name"])))
    assert p["suspects"] == [s["label"] for s in window["suspects"]], (p["name"], p["suspects"])
    assert window["peak"]["bytes"] == p["peak_bytes"], p["name"]
    assert p["gates"] == [], p["gates"]
leaky = [p["name"] for p in phases if p["suspects"]]
assert leaky == ["serve"], leaky
serve = phases[1]
assert serve["suspects"][0] == "containers-0.7-inplace:Data.Map.Internal.Bin", serve
assert serve["grew_most"]["label"] == serve["suspects"][0], serve["grew_most"]
assert serve["growth_bytes_per_s"] > 1 << 20, serve
for p in (phases[0], phases[2]):
    assert p["growth_bytes_per_s"] < 1 << 10, p
PY

# the detail view marks the suspects facts/suspects finds, handed down by the chart's
# sink: serve's two in its window, none in load's
for w in "serve --to marker:shutdown:2" "load --to marker:serve:0"; do
    set -- ${w%:*}
    "$EV2HP" "$log" --from "marker:$1" "$2" "$3" --view detail -o "$tmp/detail.svg" ||
        fail "detail view of $1: status $?"
    n=$(grep -o '<text class="suspect"' "$tmp/detail.svg" | wc -l)
    [ "$n" -eq "${w##*:}" ] || fail "detail view of $1: $n suspects marked, not ${w##*:}"
done

# the gates per phase: only serve fails --max-growth; every phase passes --max-peak 8M
"$EV2HP" "$log" --phases marker --max-growth 1M/s --max-peak 8M --junit "$tmp/j.xml" \
    --summary=json > "$tmp/gates.json" 2> "$tmp/err"
status=$?
[ $status -eq 3 ] || fail "--max-growth per phase: status $status, expected 3"
grep -q '^ev2hp: .*: phase "serve": leak suspect containers-0.7-inplace:Data.Map.Internal.Bin rose +2.97 MiB/s to its peak at 1.57 s; --max-growth allows 1.00 MiB/s for the rise$' \
    "$tmp/err" || fail "no message for serve's --max-growth: $(cat "$tmp/err")"
grep -q 'phase "\(load\|shutdown\)"' "$tmp/err" && fail "a passing phase on standard error: $(cat "$tmp/err")"
"$PYTHON3" - "$tmp/gates.json" <<'PY' || fail "the phases' verdicts"
import json, sys
doc = json.load(open(sys.argv[1]))
got = {(p["name"], g["gate"]): g["verdict"] for p in doc["phases"] for g in p["gates"]}
want = {(n, g): "passed" for n in ("load", "serve", "shutdown") for g in ("max-peak", "max-growth")}
want[("serve", "max-growth")] = "failed"
assert got == want, got
PY
if command -v xmllint > /dev/null; then
    xmllint --noout --schema "$SRCDIR/tests/junit.xsd" "$tmp/j.xml" 2> "$tmp/xsd" ||
        fail "JUnit not valid: $(cat "$tmp/xsd")"
    "$PYTHON3" - "$tmp/j.xml" <<'PY' || fail "the JUnit's test cases"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = [(c.get("classname"), c.get("name"), [x.tag for x in c]) for c in root.iter("testcase")]
names = [n for _, n, _ in cases]
want = ["--max-peak: peak residency within the budget",
        "--max-growth: no leak suspect growing faster than allowed"]
want += ["%s: %s" % (p, g) for p in ("load", "serve", "shutdown") for g in want[:2]]
assert names == want, names
failed = [n for _, n, kids in cases if "failure" in kids]
# the whole run's suspect rose faster than 1M/s too
assert failed == [want[1], "serve: " + want[1]], failed
assert [c for c, _, _ in cases] == ["ev2hp.gates"] * 2 + ["ev2hp.phases"] * 6
suite = root.find("testsuite")
assert suite.get("tests") == "8" and suite.get("failures") == "2", suite.attrib
PY
else
    echo "xmllint not installed: the JUnit's schema not checked"
fi

# the collector's gates per phase: the collections whose pause began in the phase, as the
# --dump's GC_START/GC_END pairs give them (one capability: each pair one collection)
"$EV2HP" "$log" --phases marker --max-pause 5ms --min-productivity 95 --summary=json \
    > "$tmp/gc.json" 2> "$tmp/err"
status=$?
[ $status -eq 3 ] || fail "collector gates: status $status, expected 3"
grep -q '^ev2hp: .*: phase "serve": productivity 85.5 % (collector 0.130 s of the phase'"'"'s 0.900 s) is below --min-productivity'"'"'s 95.0 %$' \
    "$tmp/err" || fail "collector gates: serve's productivity not said: $(cat "$tmp/err")"
"$EV2HP" "$log" --dump > "$tmp/dump" || fail "--dump: status $?"
"$PYTHON3" - "$tmp/gc.json" "$tmp/dump" <<'PY' || fail "the collector's gates per phase"
import json, sys
doc = json.load(open(sys.argv[1]))
marks, pauses, start = {}, [], None
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 2:
        continue
    t = int(f[0])
    if f[1] == "USER_MARKER":
        marks[line.split('text="')[1].rstrip('"\n')] = t
    elif f[1] == "GC_START":
        start = t
    elif f[1] == "GC_END" and start is not None:
        pauses.append((start, t))
        start = None
names = [p["name"] for p in doc["phases"]]
for i, p in enumerate(doc["phases"]):
    s = marks[p["name"]]
    e = marks[names[i + 1]] if i + 1 < len(names) else None
    mine = [(a, b) for a, b in pauses if a >= s and (e is None or a <= e)]
    end = e if e is not None else round(p["end_s"] * 1e9)
    worst = max(b - a for a, b in mine)
    gc = sum(min(b, e) - a if e is not None else b - a for a, b in mine)
    productivity = 100 * (end - s - gc) / (end - s)
    g = {x["gate"]: x for x in p["gates"]}
    assert g["max-pause"]["measured"] == worst / 1e9, (p["name"], g["max-pause"], worst)
    assert abs(g["min-productivity"]["measured"] - productivity) < 1e-3, \
        (p["name"], g["min-productivity"], productivity)
    assert g["max-pause"]["verdict"] == ("failed" if worst > 5e6 else "passed"), p
verdicts = {(p["name"], x["gate"]): x["verdict"] for p in doc["phases"] for x in p["gates"]}
assert verdicts[("shutdown", "max-pause")] == "passed" == verdicts[("shutdown", "min-productivity")]
assert verdicts[("serve", "min-productivity")] == "failed", verdicts
PY

# the text and Markdown summaries list the three, serve's suspect under it
"$EV2HP" "$log" --phases marker --summary > "$tmp/text" || fail "text: status $?"
sed -n '/^phases /,/^collector/p' "$tmp/text" > "$tmp/text.phases"
grep -q '^phases     3, each over its own censuses:$' "$tmp/text.phases" ||
    fail "text: no phases line: $(cat "$tmp/text")"
for p in load serve "shutdown  (to the end)"; do
    grep -q "  $p\$" "$tmp/text.phases" || fail "text: no row of $p: $(cat "$tmp/text.phases")"
done
[ "$(grep -c ' suspect ' "$tmp/text.phases")" -eq 2 ] || fail "text: serve's two suspects"
"$EV2HP" "$log" --phases marker --max-growth 1M/s --summary=markdown > "$tmp/md" 2>/dev/null
grep -q '^| serve | 0.685993 s | 0.900007 s | 5.98 MiB | +4.78 MiB/s | .*| ❌ `--max-growth` +2.97 MiB/s |$' \
    "$tmp/md" || fail "Markdown: serve's row: $(grep '^| serve' "$tmp/md")"
grep -q '^| load | .* | none | ✅ passed |$' "$tmp/md" || fail "Markdown: load's row"

# --phases REGEX on the real run: the matching markers only
"$EV2HP" "$log" --phases 'serv|shut' --summary=json > "$tmp/re.json" || fail "regex: status $?"
"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [p["name"] for p in d["phases"]] == ["serve", "shutdown"], d["phases"]' \
    "$tmp/re.json" || fail "regex: not serve and shutdown"

# with --from/--to, the phases are cut to the window; the one outside it is left out, said
"$EV2HP" "$log" --phases marker --from 1 --to 2 --summary=json > "$tmp/cut.json" 2> "$tmp/err" ||
    fail "cut: status $?"
grep -q -- '--phases: 1 of the phases lie outside --from/--to, left out' "$tmp/err" ||
    fail "cut: not said: $(cat "$tmp/err")"
"$EV2HP" "$log" --from 1 --to marker:shutdown --summary=json > "$tmp/cutwin.json" ||
    fail "cut window: status $?"
"$PYTHON3" - "$tmp/cut.json" "$tmp/cutwin.json" <<'PY' || fail "phases cut to --from/--to"
import json, sys
serve, shutdown = json.load(open(sys.argv[1]))["phases"]
win = json.load(open(sys.argv[2]))
assert (serve["name"], serve["start_s"]) == ("serve", 1.0), serve
assert (shutdown["end_s"], shutdown["to_end"]) == (2.0, False), shutdown
assert (serve["censuses"], serve["peak_bytes"]) == (win["censuses"], win["peak"]["bytes"]), serve
PY

# --- edge cases -------------------------------------------------------------------------
# expect_usage NAME TEXT ARGS...: status 2, one line on standard error holding TEXT
expect_usage() {
    local name=$1 text=$2
    shift 2
    "$EV2HP" "$@" --summary > "$tmp/out" 2> "$tmp/err"
    status=$?
    [ $status -eq 2 ] || fail "$name: status $status, expected 2"
    grep -qF -- "$text" "$tmp/err" || fail "$name: stderr: $(cat "$tmp/err")"
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$name: more than one line: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$name: wrote a summary"
}
"$runs" "$tmp/none.eventlog" c:10:100:0 c:20:200:0 || fail "phase_runs"
expect_usage "no marker" "--phases marker: the run has no marker (traceMarker)" \
    "$tmp/none.eventlog" --phases marker
"$runs" "$tmp/two.eventlog" m:5:alpha c:10:100:0 m:15:beta c:20:200:0 || fail "phase_runs"
expect_usage "regex matching none" \
    '--phases zzz: no marker matches; the run'"'"'s markers: "alpha", "beta"' \
    "$tmp/two.eventlog" --phases zzz
expect_usage "bad regex" "--phases (: not a regular expression (POSIX extended)" \
    "$tmp/two.eventlog" --phases '('
"$EV2HP" - --phases marker --summary < "$tmp/two.eventlog" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "a pipe: not a usage error"
grep -q "takes a file read twice" "$tmp/err" || fail "a pipe: $(cat "$tmp/err")"

# a phase without a census: said, no numbers; its gate cannot be checked (status 1)
"$runs" "$tmp/gap.eventlog" c:10:100:0 m:20:quiet m:30:busy c:40:100:50 c:50:100:100 \
    c:60:100:150 c:70:100:200 || fail "phase_runs"
"$EV2HP" "$tmp/gap.eventlog" --phases marker --max-peak 1K --summary=json \
    > "$tmp/gap.json" 2> "$tmp/err"
status=$?
[ $status -eq 1 ] || fail "no census: status $status, expected 1"
grep -q 'phase "quiet": --max-peak cannot be checked: the phase has no heap census' "$tmp/err" ||
    fail "no census: stderr: $(cat "$tmp/err")"
# --max-growth says so too, as of the whole run (gates.c judges both alike)
"$EV2HP" "$tmp/gap.eventlog" --phases marker --max-growth 1M/s > /dev/null 2> "$tmp/err"
grep -q 'phase "quiet": --max-growth cannot be checked: the phase has no heap census' \
    "$tmp/err" || fail "no census: --max-growth: $(cat "$tmp/err")"
"$PYTHON3" - "$tmp/gap.json" <<'PY' || fail "a phase without a census"
import json, sys
quiet, busy = json.load(open(sys.argv[1]))["phases"]
assert quiet["name"] == "quiet" and quiet["censuses"] == 0, quiet
assert quiet["peak_bytes"] is None and quiet["growth_bytes_per_s"] is None, quiet
assert quiet["grew_most"] is None and quiet["suspects"] == [], quiet
assert quiet["gates"][0]["verdict"] == "unchecked", quiet["gates"]
assert (quiet["start_s"], quiet["end_s"]) == (0.02, 0.03), quiet
# busy: 4 censuses, b rising by 50 bytes every 10 ms: 5000 B/s, a suspect
assert busy["censuses"] == 4 and busy["peak_bytes"] == 300 and busy["to_end"], busy
assert abs(busy["growth_bytes_per_s"] - 5000) < 1e-3, busy
assert busy["suspects"] == ["b"] and busy["grew_most"]["label"] == "b", busy
PY
"$EV2HP" "$tmp/gap.eventlog" --phases marker --summary > "$tmp/gap.txt" ||
    fail "no census: text: status $?"
grep -q '^ *0.020000 *0.010000 *0 *- *- *quiet  (no census)$' "$tmp/gap.txt" ||
    fail "no census: text: $(sed -n '/^phases/,/^markers/p' "$tmp/gap.txt")"

# at most 1000 phases: the first in time kept, the rest dropped and said
items=$(seq 1 1002 | sed 's/^\(.*\)$/m:\1:p\1/')
"$runs" "$tmp/many.eventlog" c:1:10:0 $items c:2000:10:0 || fail "phase_runs"
"$EV2HP" "$tmp/many.eventlog" --phases marker --summary=json > "$tmp/many.json" \
    2> "$tmp/err" || fail "many phases: status $?"
grep -q -- '--phases: the phases past the first 1000 are dropped (2 phases; 0 counted' \
    "$tmp/err" || fail "many phases: not said: $(cat "$tmp/err")"
"$PYTHON3" -c 'import json,sys; p=json.load(open(sys.argv[1]))["phases"]; assert len(p) == 1000 and p[-1]["name"] == "p1000", (len(p), p[-1])' \
    "$tmp/many.json" || fail "many phases: not the first 1000"

# pairs: "X start" to the first "X end" after it; what does not pair is dropped, said
"$runs" "$tmp/pairs.eventlog" "m:0:t1 start" c:10:100:0 m:15:noise c:20:100:10 \
    "m:25:t2 start" "m:30:t1 end" c:40:100:20 "m:45:t3 end" "m:50:t2 end" "m:55:t4 start" \
    c:60:100:30 "m:65:t2 start" "m:66:t2 start" "m:70:t2 end" || fail "phase_runs"
"$EV2HP" "$tmp/pairs.eventlog" --phases '^t[0-9]+ (start|end)$' --summary=json \
    > "$tmp/pairs.json" 2> "$tmp/err" || fail "pairs: status $?"
"$PYTHON3" - "$tmp/pairs.json" <<'PY' || fail "pairs"
import json, sys
d = json.load(open(sys.argv[1]))
got = [(p["name"], p["start_s"], p["end_s"], p["censuses"]) for p in d["phases"]]
assert got == [("t1", 0.0, 0.03, 2), ("t2", 0.025, 0.05, 1), ("t2", 0.066, 0.07, 0)], got
notes = [n["what"] for n in d["notes"]]
want = ['--phases: "t3 end" at 0.045000 s dropped: no start before it',
        '--phases: "t2 start" at 0.065000 s dropped: the same start again before its end',
        '--phases: "t4 start" at 0.055000 s dropped: no end after it']
assert notes == want, notes
PY
# a name twice in JUnit: the second "(2)", so no two test cases share a name
"$EV2HP" "$tmp/pairs.eventlog" --phases '^t[0-9]+ (start|end)$' --max-peak 1M \
    --junit "$tmp/pairs.xml" 2> /dev/null
"$PYTHON3" - "$tmp/pairs.xml" <<'PY' || fail "pairs: JUnit names"
import sys, xml.etree.ElementTree as ET
names = [c.get("name") for c in ET.parse(sys.argv[1]).getroot().iter("testcase")]
assert names == ["--max-peak: peak residency within the budget"] + [
    "%s: --max-peak: peak residency within the budget" % p for p in ("t1", "t2", "t2 (2)")], names
PY
for n in "t3 end" "t4 start" "t2 start"; do
    grep -q "\"$n\" at .* dropped" "$tmp/err" || fail "pairs: $n not said: $(cat "$tmp/err")"
done
exit $failed
