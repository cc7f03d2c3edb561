#!/bin/sh
# compare.sh: --compare of two real runs of different programs (an eventlog against an
# eventlog, and against a .hp) gives one well-formed SVG with two titled charts on one
# memory scale (the same top tick on both), --y-max fixes that tick, and
# --summary=json --compare reports the change of peak with the arithmetic the runtime's
# own .hp files imply, and pairs the bands of two builds by the one matching rule.
. "${SRCDIR:?}/tests/testlib.sh"

# The y-axis tick texts of each chart: two charts, the same ticks, titles "base:" and
# "this run:"; with a y_max argument, the top tick reads it.
check_svg() {
    "$PYTHON3" - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
path = sys.argv[1]
want_top = sys.argv[2] if len(sys.argv) > 2 else None
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(path).getroot()          # well-formed, or this raises
texts = [t for t in root.iter(ns + "text")]
titles = ["".join(t.itertext()) for t in texts if t.get("class") == "title"]
assert len(titles) == 2, titles
assert titles[0].startswith("base: ") and titles[1].startswith("this run: "), titles
# y ticks: class axis, anchored end (the time ticks are centred); split at the gap
# between the two charts (a tick at 0 opens each chart's list from the bottom up)
ticks = [(float(t.get("y")), "".join(t.itertext())) for t in texts
         if t.get("class") == "axis" and t.get("text-anchor") == "end"]
charts, current = [], []
for y, s in ticks:
    if s == "0" and current:
        charts.append(current)
        current = []
    current.append(s)
charts.append(current)
assert len(charts) == 2, charts
assert charts[0] == charts[1], charts      # one memory scale for both
if want_top:
    assert charts[0][-1] == want_top, (charts[0][-1], want_top)
print(charts[0][-1])
PY
}

# expected peaks: the largest census sum of the runtime's .hp (MANY is never in an
# eventlog; a .hp read as base keeps it)
hp_peak() {
    "$PYTHON3" - "$1" "$2" <<'PY'
import re, sys
path, keep_many = sys.argv[1], sys.argv[2] == "keep"
peak, current = 0, None
for line in open(path, errors="replace"):
    if line.startswith("BEGIN_SAMPLE"):
        current = 0
    elif line.startswith("END_SAMPLE"):
        peak = max(peak, current)
        current = None
    elif current is not None and "\t" in line:
        label, value = line.rstrip("\n").rsplit("\t", 1)
        if keep_many or re.sub(r"^\(\d+\)", "", label) != "MANY":
            current += int(value)
print(peak)
PY
}

check_summary() {   # base-file base-peak now-peak
    "$PYTHON3" - "$tmp/s.json" "$2" "$3" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
base, now = int(sys.argv[2]), int(sys.argv[3])
c = doc["compare"]
assert doc["peak"]["bytes"] == now, (doc["peak"]["bytes"], now)
assert c["base_peak"]["bytes"] == base, (c["base_peak"], base)
assert c["peak_change_bytes"] == now - base, c["peak_change_bytes"]
assert abs(c["peak_change_percent"] - 100.0 * (now - base) / base) < 0.001, c
for g in c["grew"]:
    assert g["now"] > (g["base"] or 0), g
growth = [g["now"] - (g["base"] or 0) for g in c["grew"]]
assert growth == sorted(growth, reverse=True), growth
PY
}

leak_peak=$(hp_peak "$data/leak-hc.hp" drop)
for base in clausify-hm.eventlog clausify-hm.hp; do
    "$EV2HP" --compare "$data/$base" "$data/leak-hc.eventlog" -o "$tmp/c.svg" \
        || fail "$base: status $?"
    check_svg "$tmp/c.svg" > /dev/null || fail "$base: the compare SVG"
    "$EV2HP" --compare "$data/$base" "$data/leak-hc.eventlog" -o "$tmp/y.svg" --y-max 200M \
        || fail "$base --y-max: status $?"
    check_svg "$tmp/y.svg" "200 MiB" > /dev/null || fail "$base: --y-max 200M top tick"
    case $base in *.hp) many=keep ;; *) many=drop ;; esac
    base_peak=$(hp_peak "$data/clausify-hm.hp" $many)
    "$EV2HP" --summary=json --compare "$data/$base" "$data/leak-hc.eventlog" > "$tmp/s.json" \
        || fail "$base: summary status $?"
    check_summary "$base" "$base_peak" "$leak_peak" || fail "$base: summary arithmetic"
done

# the other way round: a smaller run now, a negative change; text summary says so
"$EV2HP" --summary --compare "$data/leak-hc.eventlog" "$data/clausify-hm.eventlog" \
    > "$tmp/s.txt" || fail "reversed: status $?"
grep -q '^  peak .*: -' "$tmp/s.txt" || fail "reversed: no negative change in the text summary"

# clipping is said on the chart
"$EV2HP" --compare "$data/clausify-hm.eventlog" "$data/leak-hc.eventlog" --y-max 10M \
    -o "$tmp/clip.svg" || fail "clip: status $?"
grep -q 'clipped: values above 10 MiB' "$tmp/clip.svg" || fail "clip: no note"

# Two builds of one program, made from a real GHC run (tests/evlayout.py rebuild): every
# cost-centre number moved, lazySum's bytes doubled, insertT's halved. Against the
# original eventlog the bands are "renumbered", against the runtime's .hp "cut"; both
# changes are in compare.bands with base and now and their ratio, no band twice, and the
# text and Markdown summaries list the growth and the shrinkage.
"$PYTHON3" "$SRCDIR/tests/evlayout.py" rebuild=lazySum,insertT "$data/leak-hc.eventlog" \
    "$tmp/rebuilt.eventlog" || fail "rebuild: evlayout"
check_bands() {   # summary.json expected-match
    "$PYTHON3" - "$1" "$2" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["compare"]
want = sys.argv[2]
bands = {b["label"]: b for b in c["bands"]}
assert len(bands) == len(c["bands"]), "a band listed twice"
for b in c["bands"]:
    # MAIN, the empty stack, has no cost-centre number to move
    assert b["match"] == (want if b["label"] != "MAIN" or want == "cut" else "same"), b
    assert b["base"] is not None and b["now"] is not None, b
lazy, ins = bands["lazySum/main"], bands["insertT/main.t/main"]
assert lazy["now"] == 2 * lazy["base"], lazy
assert abs(ins["now"] / ins["base"] - 0.5) < 1e-6, ins
assert c["grew"][0]["label"] == "lazySum/main", c["grew"]
assert c["shrank"][0]["label"] == "insertT/main.t/main", c["shrank"]
PY
}
for base in leak-hc.eventlog:renumbered leak-hc.hp:cut; do
    "$EV2HP" --summary=json --compare "$data/${base%%:*}" "$tmp/rebuilt.eventlog" > "$tmp/r.json" \
        || fail "rebuild $base: status $?"
    check_bands "$tmp/r.json" "${base##*:}" || fail "rebuild $base: compare.bands"
done
"$EV2HP" --summary --compare "$data/leak-hc.eventlog" "$tmp/rebuilt.eventlog" > "$tmp/r.txt" \
    || fail "rebuild text: status $?"
grep -A1 '^  grew most' "$tmp/r.txt" | grep -q '+.*lazySum/main  (renumbered)$' \
    || fail "rebuild text: growth not listed: $(cat "$tmp/r.txt")"
grep -A1 '^  shrank most' "$tmp/r.txt" | grep -q -- '-.*insertT/main.t/main  (renumbered)$' \
    || fail "rebuild text: shrinkage not listed"
"$EV2HP" --summary=markdown --compare "$data/leak-hc.eventlog" "$tmp/rebuilt.eventlog" \
    > "$tmp/r.md" || fail "rebuild markdown: status $?"
grep -q '^| lazySum/main \*(renumbered)\* | .* | +100 % |$' "$tmp/r.md" || fail "rebuild markdown: growth"
grep -q '^| insertT/main.t/main \*(renumbered)\* | .* | -50 % |$' "$tmp/r.md" \
    || fail "rebuild markdown: shrinkage"

# --view diff of the two builds: a line per band that changed, warm for the doubled band,
# cool for the halved one, in the SVG (strokes and tooltips) and the decoded PNG;
# the legend gives each change at the peak, growth first; PDF and EPS too; aligned by
# share of each run as well; without --compare it is refused.
"$EV2HP" "$tmp/rebuilt.eventlog" --compare "$data/leak-hc.eventlog" --view diff \
    -o "$tmp/d.svg" -o "$tmp/d.png" -o "$tmp/d.pdf" -o "$tmp/d.eps" || fail "diff view: status $?"
"$EV2HP" "$tmp/rebuilt.eventlog" --compare "$data/leak-hc.hp" --view diff --align progress \
    -o "$tmp/dp.svg" || fail "diff view --align progress: status $?"
grep -q 'aligned by share of each run' "$tmp/dp.svg" || fail "--align progress: not said"
head -c 4 "$tmp/d.pdf" | grep -q '%PDF' || fail "diff view: not a PDF"
head -c 10 "$tmp/d.eps" | grep -q '%!PS' || fail "diff view: not EPS"
"$PYTHON3" - "$tmp/d.svg" "$tmp/d.png" "$SRCDIR/tests" <<'PY' || fail "diff view: colours"
import re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[3])
import pngread
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
strokes = {}
for p in root.iter(ns + "path"):
    if p.get("class") == "band":
        label, change = re.match(r"(.*): (\S+ ?\S*) at the peak", p.find(ns + "title").text).groups()
        c = tuple(int(p.get("stroke")[i:i + 2], 16) for i in (1, 3, 5))
        hue = "warm" if c[0] > c[2] + 60 else "cool" if c[2] > c[0] + 60 else "grey"
        want = "warm" if change.startswith("+") else "cool" if change.startswith("-") else "grey"
        assert hue == want, (label, change, c)
        strokes[label] = c
assert strokes["lazySum/main"][0] > 150 and strokes["insertT/main.t/main"][2] > 150, strokes
legend = ["".join(t.itertext()) for t in root.iter(ns + "text") if t.get("class") == "legend-change"]
assert legend[0] == "+52.8 MiB" and legend[-1] == "-4.48 MiB", legend
assert any(e.get("class") == "zero" for e in root.iter()), "no zero line"
w, h, px = pngread.read(sys.argv[2])
seen = set()
for y in range(0, h, 2):
    for x in range(0, w, 2):
        for name, c in (("warm", strokes["lazySum/main"]), ("cool", strokes["insertT/main.t/main"])):
            if all(abs(a - b) <= 12 for a, b in zip(px(x, y), c)):
                seen.add(name)
assert seen == {"warm", "cool"}, seen
PY
run 2 "$data/leak-hc.eventlog" --view diff -o "$tmp/nodiff.svg"
grep -q 'give one with --compare BASE' "$tmp/err" || fail "--view diff alone: $(cat "$tmp/err")"
run 2 "$data/leak-hc.eventlog" --align sideways -o "$tmp/x.svg"

# The two-panel chart against the .hp: a cut label is drawn as the eventlog's whole one,
# one legend entry and one colour for the pair (chartcheck colours: a label has one
# colour in both panels).
"$EV2HP" "$tmp/rebuilt.eventlog" --compare "$data/leak-hc.hp" -o "$tmp/cut.svg" \
    || fail "cut chart: status $?"
grep -q 'buildMap.\\/buildMap/m\.\.\.' "$tmp/cut.svg" && fail "cut chart: the .hp's cut label is drawn"
"$PYTHON3" "$SRCDIR/tests/chartcheck.py" colours "$tmp/cut.svg" "$tmp/cut.svg" \
    || fail "cut chart: a band has two colours"

# The runtime's own .hp of the same run as base: every band matched "cut", none new or
# gone, nothing changed.
"$EV2HP" --summary=json "$data/leak-hc.eventlog" --compare "$data/leak-hc.hp" > "$tmp/h.json" \
    || fail "hp base: status $?"
"$PYTHON3" - "$tmp/h.json" <<'PY' || fail "hp base: not every band matched cut"
import json, sys
c = json.load(open(sys.argv[1]))["compare"]
assert len(c["bands"]) == 13, len(c["bands"])
for b in c["bands"]:
    assert b["match"] == "cut" and b["base"] == b["now"], b
assert c["grew"] == [] and c["shrank"] == [], c
PY

# -hi across GHC versions (real runs of one program, 9.6 and 9.10): tables renamed by the
# compiler pair by closure type, type and location ("location"), their descriptions
# agreeing after the name.
hi="$SRCDIR/../shared/corpus/newghc"
if [ -f "$hi/ghc910-leak-hi.eventlog" ] && [ -f "$hi/ghc96-leak-hi.eventlog" ]; then
    "$EV2HP" --summary=json "$hi/ghc910-leak-hi.eventlog" --compare "$hi/ghc96-leak-hi.eventlog" \
        > "$tmp/hi.json" || fail "-hi compare: status $?"
    "$PYTHON3" - "$tmp/hi.json" <<'PY' || fail "-hi compare: location pairs"
import json, sys
c = json.load(open(sys.argv[1]))["compare"]
loc = [b for b in c["bands"] if b["match"] == "location"]
assert loc, "no location pair"
for b in loc:
    a, z = b["label"], b["base_label"]
    assert a.split(" :: ", 1)[0] != z.split(" :: ", 1)[0], b
    assert a.split(" :: ", 1)[1] == z.split(" :: ", 1)[1], b
PY
fi

# What --help, the guide and the manual say: with --compare, .folded outputs become
# differential ("stack base now") while .hp, CSV, JSON and pprof outputs are INPUT's alone,
# the same bytes as without --compare.
"$EV2HP" "$data/leak-hc.eventlog" -o "$tmp/alone.hp" -o "$tmp/alone.csv" \
    -o "$tmp/alone.json" -o "$tmp/alone.pprof" -o "$tmp/alone.folded" || fail "alone: status $?"
"$EV2HP" "$data/leak-hc.eventlog" --compare "$tmp/rebuilt.eventlog" -o "$tmp/with.hp" \
    -o "$tmp/with.csv" -o "$tmp/with.json" -o "$tmp/with.pprof" -o "$tmp/with.folded" \
    || fail "with --compare: status $?"
for ext in hp csv json pprof; do
    cmp -s "$tmp/alone.$ext" "$tmp/with.$ext" || fail "--compare changed the .$ext output"
done
awk 'NF < 2 || $(NF-1) !~ /^[0-9]+$/ || $NF !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' \
    "$tmp/with.folded" || fail "--compare: .folded lines are not 'stack base now'"
awk '{ now += $NF } END { print now }' "$tmp/with.folded" > "$tmp/with.now"
awk '{ now += $NF } END { print now }' "$tmp/alone.folded" | cmp -s - "$tmp/with.now" \
    || fail "--compare: the folded 'now' column is not INPUT's folded total"

# a base that is not there: status 1, named
"$EV2HP" --compare "$tmp/none.eventlog" "$data/leak-hc.eventlog" -o "$tmp/n.svg" \
    2> "$tmp/err" && fail "missing base: status 0"
grep -q "none.eventlog: cannot open" "$tmp/err" || fail "missing base: message $(cat "$tmp/err")"
test -e "$tmp/n.svg" && fail "missing base: an output was written"
# --view diff with a band label longer than a tooltip holds (1 KiB): the tooltips are cut
# where a character ends, so a 2-byte character straddling the cut is not U+FFFD
for run in now:2000 base:1000; do
    "$PYTHON3" - "$tmp/long-${run%:*}.hp" "${run#*:}" <<'PY'
import sys
label = "a" * 1086 + "\u00e9"
open(sys.argv[1], "w", encoding="utf-8").write(
    'JOB "long +RTS -hc -RTS"\nDATE "Thu Nov 26 2026"\nSAMPLE_UNIT "seconds"\n'
    'VALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\nBEGIN_SAMPLE 1.00\n'
    + label + '\t' + sys.argv[2] + '\nMAIN\t500\nEND_SAMPLE 1.00\n')
PY
done
"$EV2HP" "$tmp/long-now.hp" --compare "$tmp/long-base.hp" --view diff -o "$tmp/long.svg" \
    || fail "diff view, long label: status $?"
[ "$(grep -o '<title>a\{1086\}</title>' "$tmp/long.svg" | wc -l)" -eq 2 ] \
    || fail "diff view, long label: the tooltips are not the label cut before the character"
if grep -q "$(printf '\357\277\275')" "$tmp/long.svg"; then
    fail "diff view: a label was cut inside a character (U+FFFD in a tooltip)"
fi
exit $failed
