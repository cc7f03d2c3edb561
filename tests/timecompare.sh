#!/bin/sh
# timecompare.sh: two time profiles compared as time profiles (issue 39).
#   Two builds of one program, real GHC 9.10 runs (tests/data/timecompare: grow doubled,
#   steady held, shrink halved): each run's folded output agrees with its .prof in total;
#   --summary=json's compare.cost_centres gives every cost centre's base and now samples
#   as each run's own folded output counts them (the lines ending in it), and each run's
#   total; the text and Markdown summaries list the cost centres that grew and shrank
#   most with both runs' samples; no summary format writes a heap line (peak, band table,
#   suspects) for runs without a census, compared or alone.
#   The differential flame graph (SVG and decoded PNG): of two runs written with exact
#   ratios (tests/ratio_profiles.c), frames changed by +5 %, +50 % and +100 % have clearly
#   different saturation, the held one is neutral grey, halved is full blue; by samples
#   by default, by share with --diff-normalize, and the key says which; every frame
#   label's WCAG contrast on its fill is at least 4.5:1; the real runs' grow is full red.
#   The report's flame data carries the same fills (both ways) and says which it is.
. "${SRCDIR:?}/tests/testlib.sh"
tc="$data/timecompare"
base="$tc/tpdouble-base.eventlog" now="$tc/tpdouble-now.eventlog"

# --- the summaries of two real time profiles -------------------------------------------
for run in base now; do
    "$EV2HP" "$tc/tpdouble-$run.eventlog" -o "$tmp/$run.folded" || fail "$run folded: status $?"
    "$PYTHON3" "$SRCDIR/tests/profcheck.py" --total-only "$tc/tpdouble-$run.prof" \
        "$tmp/$run.folded" || fail "$run: folded total differs from the .prof"
done
for fmt in text json markdown; do
    "$EV2HP" --summary="$fmt" --compare "$base" "$now" > "$tmp/cmp.$fmt" 2> "$tmp/err.$fmt" ||
        fail "--summary=$fmt --compare: status $?"
    "$EV2HP" --summary="$fmt" "$now" > "$tmp/one.$fmt" || fail "--summary=$fmt: status $?"
done
"$PYTHON3" - "$tmp" <<'PY' || fail "compare.cost_centres against each run's folded output"
import json, sys
tmp = sys.argv[1]
def own(run):   # a cost centre's samples: the folded lines ending in it
    out = {}
    for line in open(f"{tmp}/{run}.folded"):
        stack, n = line.rsplit(" ", 1)
        leaf = stack.split(";")[-1]
        out[leaf] = out.get(leaf, 0) + int(n)
    return out
base, now = own("base"), own("now")
c = json.load(open(f"{tmp}/cmp.json"))["compare"]
assert c["base_samples"] == sum(base.values()) == 515, c["base_samples"]
assert c["samples"] == sum(now.values()) == 935, c["samples"]
assert c["cost_centres_by"] == "samples", c["cost_centres_by"]
ccs = c["cost_centres"]
names = [x["name"] for x in ccs]
assert sorted(names) == sorted(set(base) | set(now)), names
for x in ccs:
    assert x["base_samples"] == base.get(x["name"], 0), x
    assert x["samples"] == now.get(x["name"], 0), x
    assert abs(x["base_share"] - x["base_samples"] / 515) < 1e-6, x
    assert abs(x["share"] - x["samples"] / 935) < 1e-6, x
# grew most first, shrank most last
assert names[0] == "Main.grow" and names[-1] == "Main.shrink", names
assert ccs[0]["src"] == "tpdouble.hs:(16,1)-(17,57)", ccs[0]
# no heap: no peak, no band change
assert "base_peak" not in c and "bands" not in c and "grew" not in c, sorted(c)
for name in ("cmp.json", "one.json"):
    s = json.load(open(f"{tmp}/{name}"))
    assert s["peak"] is None and s["bands"] == [] and s["suspects"] == [], (name, s["peak"])
PY
# text: each run's total, the grown and the shrunk cost centres with both runs' samples
grep -q '^  samples  935, was 515: +81.6 %$' "$tmp/cmp.text" || fail "text: no totals"
grep -A2 'cost centres that grew most, by samples:' "$tmp/cmp.text" |
    grep -q '^ *425 -> *854 *+429 *+101 % *82.5 % -> *91.3 % *Main.grow ' ||
    fail "text: grow not listed as grown: $(cat "$tmp/cmp.text")"
grep -A1 'cost centres that shrank most, by samples:' "$tmp/cmp.text" |
    grep -q '^ *34 -> *21 *-13 .*Main.shrink ' || fail "text: shrink not listed as shrunk"
grep -q '^| Main.grow | 425 | 854 | +101 % | 82.5 % → 91.3 % |$' "$tmp/cmp.markdown" ||
    fail "markdown: no grow row"
grep -q '^| \*\*Samples\*\* | 515 | 935 | \*\*+81.6 %\*\* | |$' "$tmp/cmp.markdown" ||
    fail "markdown: no totals row"
# no heap line in any of them, compared or alone
for f in cmp.text one.text cmp.markdown one.markdown; do
    grep -q '0 B\|^peak\|^bands \|^suspects\|Peak\|| Band |\|Leak suspects\|by peak' "$tmp/$f" &&
        fail "$f: a heap line: $(grep '0 B\|^peak\|^bands \|^suspects\|Peak\|| Band |\|Leak suspects\|by peak' "$tmp/$f")"
done
[ -s "$tmp/err.text" ] && fail "--summary --compare: stderr: $(cat "$tmp/err.text")"
# --diff-normalize ranks by share: steady's share fell, so it is listed as shrunk
"$EV2HP" --summary=json --diff-normalize --compare "$base" "$now" > "$tmp/norm.json" ||
    fail "--diff-normalize summary: status $?"
"$PYTHON3" - "$tmp/norm.json" <<'PY' || fail "--diff-normalize: the ranking"
import json, sys
c = json.load(open(sys.argv[1]))["compare"]
assert c["cost_centres_by"] == "share", c["cost_centres_by"]
names = [x["name"] for x in c["cost_centres"]]
assert names[0] == "Main.grow" and names[-1] in ("Main.steady", "Main.shrink"), names
PY
# a heap run compared keeps its heap lines
"$EV2HP" --summary --compare "$data/leak-hc.eventlog" "$data/leak-hc.eventlog" > "$tmp/heap.text" ||
    fail "heap compare: status $?"
grep -q '^  peak  ' "$tmp/heap.text" && grep -q '^peak  ' "$tmp/heap.text" ||
    fail "heap compare: the peak lines are gone"
# a heap run beside a time profile, either way round: the side with censuses keeps its
# heap lines, the other has none, and no change of peak from or to 0 B is made up
for way in heap-base time-base; do
    if [ "$way" = time-base ]; then a=$base b=$data/leak-hc.eventlog; else a=$data/leak-hc.eventlog b=$base; fi
    for fmt in text markdown json; do
        "$EV2HP" --summary=$fmt --compare "$a" "$b" >"$tmp/one.$way.$fmt" 2>"$tmp/one.err" ||
            fail "$way $fmt: status $?: $(cat "$tmp/one.err")"
    done
    grep -q 'was 0 B\| 0 B at \|| 0 B |' "$tmp/one.$way.text" "$tmp/one.$way.markdown" &&
        fail "$way: a peak of 0 B: $(grep 'was 0 B\| 0 B at ' "$tmp/one.$way.text" "$tmp/one.$way.markdown")"
done
grep -q '^  peak     not compared: this run has no heap census$' "$tmp/one.heap-base.text" ||
    fail "a time profile compared with a heap run: $(cat "$tmp/one.heap-base.text")"
grep -q '^peak  ' "$tmp/one.heap-base.text" && fail "a time profile has a peak line"
grep -q '^\*\*Peak:\*\* not compared: the base has no heap census\.$' "$tmp/one.time-base.markdown" ||
    fail "a heap run compared with a time profile (markdown): $(cat "$tmp/one.time-base.markdown")"
grep -q '^peak  ' "$tmp/one.time-base.text" || fail "a heap run beside a time profile lost its peak"
"$PYTHON3" - "$tmp/one.heap-base.json" "$tmp/one.time-base.json" <<'PY' ||
import json, sys
time_run, heap_run = (json.load(open(p)) for p in sys.argv[1:])
assert time_run["peak"] is None, time_run["peak"]
assert time_run["compare"]["heap_not_compared"] == "this run has no heap census"
assert heap_run["peak"]["bytes"] > 0
assert heap_run["compare"]["heap_not_compared"] == "the base has no heap census"
for s in (time_run, heap_run):
    assert "base_peak" not in s["compare"] and "grew" not in s["compare"], sorted(s["compare"])
PY
    fail "a heap run beside a time profile (json)"

# --- the differential flame graph's colours --------------------------------------------
gen="$(dirname "$EV2HP")/tests/ratio_profiles"
"$gen" "$tmp/rb.eventlog" "$tmp/rn.eventlog" || fail "ratio_profiles"
"$EV2HP" --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" -o "$tmp/r.svg" -o "$tmp/r.png" ||
    fail "differential flame: status $?"
"$EV2HP" --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" --diff-normalize \
    -o "$tmp/rnorm.svg" -o "$tmp/rnorm.png" || fail "--diff-normalize flame: status $?"
"$EV2HP" --compare "$base" "$now" -o "$tmp/real.svg" -o "$tmp/real.png" ||
    fail "real differential flame: status $?"
"$PYTHON3" - "$tmp" "$SRCDIR/tests" <<'PY' || fail "differential flame colours and contrast"
import sys, xml.etree.ElementTree as ET
tmp = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import pngread
ns = "{http://www.w3.org/2000/svg}"
def rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))
def lum(c):
    lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
           for v in c]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
def contrast(a, b):
    x, y = sorted((lum(a), lum(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)
def saturation(c):
    return (max(c) - min(c)) / max(c)
def frames(name):
    """{frame name: fill}, checking every label's contrast on its frame and the PNG's
    pixels inside each frame against the SVG's fill"""
    root = ET.parse(f"{tmp}/{name}.svg").getroot()
    rects = [r for r in root.iter(ns + "rect") if r.get("class") == "frame"]
    w, h, px = pngread.read(f"{tmp}/{name}.png")
    out = {}
    for r in rects:
        x, y, wd = float(r.get("x")), float(r.get("y")), float(r.get("width"))
        fill = rgb(r.get("fill"))
        frame = r.find(ns + "title").text.split("\n")[0].split(":")[0]
        out[frame] = fill
        if wd >= 4:
            p = tuple(px(int(x) + 2, int(y) + 8)[:3])
            assert all(abs(a - b) <= 2 for a, b in zip(p, fill)), (name, p, fill)
            pixels[name, frame] = p
    labels = [t for t in root.iter(ns + "text") if t.get("class") == "frame-label"]
    assert len(labels) >= 4, (name, len(labels))
    for t in labels:
        tx, ty = float(t.get("x")), float(t.get("y"))
        under = [r for r in rects if float(r.get("x")) <= tx <= float(r.get("x")) +
                 float(r.get("width")) and float(r.get("y")) <= ty - 4 <=
                 float(r.get("y")) + float(r.get("height"))]
        assert len(under) == 1, (name, t.text, len(under))
        k = contrast(rgb(t.get("fill")), rgb(under[0].get("fill")))
        assert k >= 4.5, (name, t.text, t.get("fill"), under[0].get("fill"), k)
    keys = " ".join(t.text for t in root.iter(ns + "text") if t.get("class") == "key")
    return out, keys
pixels = {}
f, key = frames("r")
s = {n: saturation(f["Main." + n]) for n in ("held", "up5", "up50", "up100", "down5", "down50")}
assert s["held"] == 0, s                      # neutral grey
assert s["up5"] < 0.1 and s["down5"] < 0.1, s  # near neutral
assert s["up50"] - s["up5"] > 0.25 and s["up100"] - s["up50"] > 0.25, s
# the same steps in the decoded PNG's pixels
p = {n: saturation(pixels["r", "Main." + n]) for n in ("up5", "up50", "up100")}
assert p["up5"] < 0.1 and p["up50"] - p["up5"] > 0.25 and p["up100"] - p["up50"] > 0.25, p
red, blue = f["Main.up100"], f["Main.down50"]
assert red[0] > 200 and red[1] < 40 and blue[2] > 200 and blue[0] < 60, (red, blue)
assert all(f["Main.up" + n][0] > f["Main.up" + n][2] for n in ("5", "50", "100")), f
assert "pprof -diff_base" in key and "doubled" in key and "halved" in key, key
# normalised: the shares' change (held fell from 1/6 to 1/7: a blue tint); up100's share
# grew by 12/7 -1 = +71 %, less than doubling: less saturated than by samples
g, nkey = frames("rnorm")
assert g["Main.held"][2] > g["Main.held"][0], g["Main.held"]
assert saturation(g["Main.up100"]) < s["up100"] - 0.05, (g["Main.up100"], f["Main.up100"])
assert "difffolded.pl -n" in nkey and "share" in nkey, nkey
# the real runs: grow doubled (full red), steady +7 % (near neutral)
h, _ = frames("real")
assert h["Main.grow"] == (0xd7, 0x19, 0x1c), h["Main.grow"]
assert saturation(h["Main.steady"]) < 0.1, h["Main.steady"]
PY
# the report's differential flame data: fills by the same rule, and what they measure
"$EV2HP" -q --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" -o "$tmp/r.html" || fail "report: status $?"
"$EV2HP" -q --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" --diff-normalize -o "$tmp/rnorm.html" ||
    fail "--diff-normalize report: status $?"
"$PYTHON3" - "$tmp" <<'PY' || fail "the report's differential fills"
import json, re, sys, xml.etree.ElementTree as ET
tmp = sys.argv[1]
ns = "{http://www.w3.org/2000/svg}"
def data(name):
    html = open(f"{tmp}/{name}.html", encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="ev2hp-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))["flame"]
def svg_fills(name):
    root = ET.parse(f"{tmp}/{name}.svg").getroot()
    return sorted(r.get("fill") for r in root.iter(ns + "rect") if r.get("class") == "frame")
for name, normalized in (("r", False), ("rnorm", True)):
    f = data(name)
    assert f["normalized"] is normalized, (name, f["normalized"])
    # every node's fill is one the SVG of the same runs and options draws
    assert sorted(f["fills"]) == svg_fills(name), (name, sorted(f["fills"]), svg_fills(name))
PY
exit $failed
