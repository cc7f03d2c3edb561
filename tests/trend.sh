#!/bin/sh
# trend.sh: --trend over five runs' --summary=json, made here from real eventlogs of
# tests/data with different gates (the third fails --max-peak), the first two named by
# --commit, the rest by their file names: the SVG draws five points per series (the
# peak, each band drawn, the growth) at the same five x, the failed commit's mark at its
# x and nowhere else; a summary without a heap census (a time profile) is left out and
# said so; PNG and PDF decode; the same summaries give the same bytes; bad inputs (not
# JSON, cut short, JSON of another shape, one summary) are refused with the file and the
# offset, and the status ev2hp(1) gives.
. "${SRCDIR:?}/tests/testlib.sh"
skip_without pngcheck pdfinfo

cd "$tmp" || exit 99
summary() {   # summary NAME EVENTLOG [OPTION...]: NAME.json, the status kept in $status
    name=$1 log=$2
    shift 2
    "$EV2HP" "$data/$log" --summary=json "$@" > "$name.json" 2> "$name.err"
    status=$?
}
summary c1 leak-hc.eventlog --max-peak 1G --commit 1111111aaaaaaaa \
    --commit-time 2026-11-01T10:00:00+01:00 --commit-subject 'first <commit> & "quoted"'
[ "$status" = 0 ] || fail "c1: status $status"
summary c2 leak-hd.eventlog --max-peak 1G --commit 2222222bbbbbbbb
[ "$status" = 0 ] || fail "c2: status $status"
summary c3 leak-hy.eventlog --max-peak 10M
[ "$status" = 3 ] || fail "c3: --max-peak 10M: status $status, wanted 3"
summary c4 leak-hm.eventlog --max-peak 1G
[ "$status" = 0 ] || fail "c4: status $status"
summary c5 leak-hT.eventlog
[ "$status" = 0 ] || fail "c5: status $status"
summary tp timeprof/tpsingle-P.eventlog
[ "$status" = 0 ] || fail "tp: status $status"

# Five runs and one without a census: 0, the one left out said on standard error.
run 0 --trend c1.json c2.json c3.json tp.json c4.json c5.json -o t.svg -o t.png -o t.pdf \
    -o t.html
grep -q '^ev2hp: tp.json: skipped: the run had no heap census' "$tmp/err" ||
    fail "the summary without a census is not said: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "more than the one note: $(cat "$tmp/err")"

"$PYTHON3" - t.svg <<'PY' || fail "the trend's SVG"
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
def title(e):
    t = e.find("s:title", ns)
    return t.text if t is not None else ""
def content(e):   # a text's own, after its tooltip
    t = e.find("s:title", ns)
    return t.tail if t is not None else e.text
points = {}
for r in root.iter("{http://www.w3.org/2000/svg}rect"):
    if r.get("class") == "trend-point":
        series, commit, value = title(r).split("\n")
        x = float(r.get("x")) + float(r.get("width")) / 2
        points.setdefault(series, []).append((round(x, 1), commit.split(" ")[0], value))
assert len(points) >= 3, points.keys()   # the peak, the growth, a band or more
names = ["1111111", "2222222", "c3", "c4", "c5"]
xs = None
for series, pts in points.items():
    assert len(pts) == 5, (series, len(pts))
    assert [c for _, c, _ in pts] == names, (series, pts)
    assert xs is None or [x for x, _, _ in pts] == xs, (series, pts)
    xs = [x for x, _, _ in pts]
assert any(s.startswith("peak") for s in points), points.keys()
assert any(s.startswith("growth") for s in points), points.keys()
# each series' line through its five points
lines = [p for p in root.iter("{http://www.w3.org/2000/svg}path")
         if p.get("class") in ("trend-peak", "trend-band", "trend-growth")]
assert len(lines) == len(points), (len(lines), len(points))
for p in lines:
    assert len(re.findall(r"-?[0-9.]+", p.get("d"))) == 10, p.get("d")
# the failed gate: one mark, at the third commit, naming the gate
marks = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "gate-failed"]
assert len(marks) == 1, len(marks)
m = marks[0]
mx = float(m.get("x")) + float(m.get("width")) / 2
assert abs(mx - xs[2]) < 0.2, (mx, xs)
assert "max-peak" in title(m) and title(m).startswith("c3:"), title(m)
# the commits' names on the axis, the subtitle says one failed and the one left out
texts = [content(t) for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "commit"]
assert texts == names, texts
sub = [title(t) or content(t) for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "subtitle"][0]
assert "1 commit where a gate failed" in sub and "tp.json" in sub, sub
PY

# The peaks drawn are the summaries' own.
"$PYTHON3" - t.svg c1.json c2.json c3.json c4.json c5.json <<'PY' || fail "the peaks drawn"
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
want = [json.load(open(f))["peak"]["bytes"] for f in sys.argv[2:]]
got = []
for r in root.iter("{http://www.w3.org/2000/svg}rect"):
    t = r.find("{http://www.w3.org/2000/svg}title")
    if r.get("class") == "trend-point" and t.text.startswith("peak"):
        got.append(t.text.split("\n")[2])
def size(n):
    for i, u in enumerate(["B", "KiB", "MiB", "GiB"]):
        if n < 1024 ** (i + 1) or u == "GiB":
            return n / 1024 ** i, u
for g, w in zip(got, want):
    v, u = size(w)
    assert g.endswith(u) and abs(float(g.split()[0]) - v) <= 0.051 * max(1, v / 10), (g, w)
PY

pngcheck -q t.png > /dev/null || fail "t.png: $(pngcheck t.png)"
pdfinfo t.pdf > /dev/null 2>&1 || fail "t.pdf does not open"
grep -q 'first &lt;commit&gt; &amp; &quot;quoted&quot;' t.html ||
    fail "the subject is not escaped in the page"
grep -q '<commit>' t.html && fail "a subject's markup reached the page as markup"
grep -q '^<li><code>tp.json</code>: skipped: the run had no heap census' t.html ||
    fail "the page does not list the summary left out"

# The same summaries, the same bytes.
"$EV2HP" --trend c1.json c2.json c3.json c4.json c5.json -o u.svg -o u.png -o u.html 2> /dev/null
"$EV2HP" --trend c1.json c2.json c3.json c4.json c5.json -o v.svg -o v.png -o v.html 2> /dev/null
for f in svg png html; do
    cmp -s "u.$f" "v.$f" || fail "two runs differ: $f"
done
# Without -o: the SVG on standard output, as with u.svg.
run 0 --trend c1.json c2.json c3.json c4.json c5.json
cmp -s "$tmp/out" u.svg || fail "--trend without -o is not the SVG on standard output"

# A band is one across runs by its label without the "(n)" a run numbers its stacks by;
# a summary written before growth_bytes_per_s was there grows by the sum of its bands'.
printf '%s' '{"peak": {"bytes": 100, "time_s": 1}, "bands": [{"label": "(3)foo", "peak": 60,
  "growth_bytes_per_s": 1.5}, {"label": "(4)bar", "peak": 40, "growth_bytes_per_s": 2.5}],
  "gates": []}' > old1.json
printf '%s' '{"peak": {"bytes": 200, "time_s": 1}, "growth_bytes_per_s": -7,
  "bands": [{"label": "(9)foo", "peak": 150, "growth_bytes_per_s": 3}],
  "gates": [{"gate": "max-peak", "verdict": "unchecked"}]}' > old2.json
run 0 --trend old1.json old2.json -o old.svg
"$PYTHON3" - old.svg <<'PY' || fail "bands across runs, the growth of an older summary"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
series = {}
for r in root.iter("{http://www.w3.org/2000/svg}rect"):
    t = r.find("{http://www.w3.org/2000/svg}title")
    if r.get("class") == "trend-point":
        name, commit, value = t.text.split("\n")
        series.setdefault(name.split(" ")[0], []).append((commit, value))
assert series["foo"] == [("old1", "60 B"), ("old2", "150 B")], series
assert series["bar"] == [("old1", "40 B"), ("old2", "0 B")], series
assert series["growth"] == [("old1", "+4 B/s"), ("old2", "-7 B/s")], series
assert not [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
            if r.get("class") == "gate-failed"], "an unchecked gate is no failure"
PY

# --bands: the N largest in any run (foo, 150 B), 0 all of them.
for bands in 1:foo 0:bar,foo; do
    run 0 --trend old1.json old2.json --bands "${bands%%:*}"
    got=$("$PYTHON3" -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(",".join(sorted({p.find("{http://www.w3.org/2000/svg}title").text.split("\n")[0]
      for p in root.iter("{http://www.w3.org/2000/svg}rect") if p.get("class") == "trend-point"}
      - {"peak (the heap'"'"'s largest census)", "growth (the heap over each run, per second)"})))
' "$tmp/out")
    [ "$got" = "${bands#*:}" ] || fail "--bands ${bands%%:*}: $got"
done

# Bad inputs: the file and where, status 1; the command line's mistakes, status 2.
printf 'hello\n' > text.json
run 1 --trend c1.json text.json -o bad.svg
grep -q '^ev2hp: text.json: offset [0-9]*: not JSON (line 1, column [0-9]*): ' "$tmp/err" ||
    fail "not JSON: $(cat "$tmp/err")"
[ -e bad.svg ] && fail "an output was written for a bad input"
head -c 200 c2.json > cut.json
run 1 --trend c1.json cut.json c3.json -o bad.svg
grep -q '^ev2hp: cut.json: offset 200: not JSON (line [0-9]*, column [0-9]*): .*end of file' \
    "$tmp/err" || fail "cut short: $(cat "$tmp/err")"
printf '{"peak": {"bytes": 10}, "bandz": []}' > shape.json
run 1 --trend c1.json shape.json
grep -q '^ev2hp: shape.json: not a summary of ev2hp --summary=json: "bands" is missing, not an array$' \
    "$tmp/err" || fail "another shape: $(cat "$tmp/err")"
printf '[1, 2]' > array.json
run 1 --trend array.json c1.json
grep -q '^ev2hp: array.json: not a summary of ev2hp --summary=json: an array, not an object$' \
    "$tmp/err" || fail "an array: $(cat "$tmp/err")"
printf '{"program": "x"}' > nopeak.json
run 1 --trend c1.json nopeak.json
grep -q '"peak" is missing' "$tmp/err" || fail "no peak: $(cat "$tmp/err")"
run 1 --trend c1.json missing.json
grep -q '^ev2hp: missing.json: cannot read it: No such file or directory$' "$tmp/err" ||
    fail "a missing file: $(cat "$tmp/err")"
run 1 --trend c1.json tp.json
grep -q '^ev2hp: --trend: 1 of 2 summaries has a heap census: a trend needs two or more$' \
    "$tmp/err" || fail "one left: $(cat "$tmp/err")"
run 2 --trend c1.json
grep -q '^ev2hp: --trend wants two summaries or more' "$tmp/err" || fail "one file: $(cat "$tmp/err")"
run 2 --trend c1.json c2.json -o t.csv
grep -q "^ev2hp: --trend draws .svg, .png, .pdf, .ps, .eps or .html, not 't.csv'" "$tmp/err" ||
    fail "a CSV: $(cat "$tmp/err")"
run 2 --trend c1.json c2.json --max-peak 1G
grep -q '^ev2hp: --trend draws summaries already made: a gate does not apply' "$tmp/err" ||
    fail "a gate: $(cat "$tmp/err")"
run 2 --trend c1.json c2.json --view lines
grep -q '^ev2hp: --trend draws summaries already made: --view does not apply to it' \
    "$tmp/err" || fail "a view: $(cat "$tmp/err")"
# an output that is one of the summaries read (however named), or named twice: refused
# before anything is written, the summaries untouched
cp c2.json keep.json
run 2 --trend c1.json c2.json -f svg -o ./c2.json
grep -q '^ev2hp: ./c2.json: is one of the --trend summaries; refusing to write over it$' \
    "$tmp/err" || fail "-o a summary read: $(cat "$tmp/err")"
cmp -s c2.json keep.json || fail "-o a summary read: the summary was changed"
run 2 --trend c1.json c2.json -o twice.svg -o ./twice.svg
grep -q "^ev2hp: ./twice.svg: is named twice as an output (also as twice.svg)$" "$tmp/err" ||
    fail "an output named twice: $(cat "$tmp/err")"
[ -e twice.svg ] && fail "an output named twice was written"
# --commit and its friends
run 2 "$data/leak-hc.eventlog" --summary=json --commit xyz
grep -q "^ev2hp: --commit wants a commit's sha" "$tmp/err" || fail "--commit xyz: $(cat "$tmp/err")"
run 2 "$data/leak-hc.eventlog" --summary --commit abcdef1
grep -q '^ev2hp: --commit is written into --summary=json' "$tmp/err" || fail "$(cat "$tmp/err")"
run 2 "$data/leak-hc.eventlog" --summary=json --commit-time 2026-11-01T10:00:00Z
grep -q '^ev2hp: --commit-time describes the commit --commit SHA names' "$tmp/err" ||
    fail "$(cat "$tmp/err")"
run 2 "$data/leak-hc.eventlog" --summary=json --commit abcdef1 --commit-time yesterday
grep -q '^ev2hp: --commit-time wants an ISO 8601 time' "$tmp/err" || fail "$(cat "$tmp/err")"
"$PYTHON3" - c1.json c3.json <<'PY' || fail "the commit object"
import json, sys
c1, c3 = (json.load(open(f)) for f in sys.argv[1:])
assert c1["commit"] == {"sha": "1111111aaaaaaaa", "time": "2026-11-01T10:00:00+01:00",
                        "subject": 'first <commit> & "quoted"'}, c1["commit"]
assert "commit" not in c3
# the heap's growth: the sum of every band's (slopes add)
g = sum(b["growth_bytes_per_s"] for b in c1["bands"])
assert abs(c1["growth_bytes_per_s"] - g) < 0.001 * len(c1["bands"]) + 1e-6, (c1["growth_bytes_per_s"], g)
PY
exit $failed
