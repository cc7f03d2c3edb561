#!/bin/sh
# stacks.sh: folded stacks and flame graphs of a heap census and of two runs (issue 27),
# on real GHC runs.
#   A -hc heap census: -o x.folded sums to the summary's peak (an eventlog, and the
#   runtime's own .hp); with --at, to the total the CSV gives the last census at or
#   before that time; -hi folds as module -> info table; --at before the first census
#   is refused, said, nothing written.
#   Two builds (tests/evlayout.py rebuild: cost-centre numbers moved, one stack doubled,
#   one halved): the differential folded stacks' columns each sum to that run's own
#   folded output, heap and time profile; the differential flame graph's frames are red
#   where the stack grew and blue where it shrank, read from the SVG's fills and titles
#   and from the PNG's decoded pixels at each frame.
. "${SRCDIR:?}/tests/testlib.sh"
tp="$data/timeprof"

sum() {   # sum FILE [COLUMN-FROM-END]: the sum of a folded file's last (or earlier) column
    awk -v k="${2:-0}" '{ n += $(NF - k) } END { printf "%d\n", n }' "$1"
}
peak() {   # peak SUMMARY.json
    "$PYTHON3" -c 'import json, sys; print(json.load(open(sys.argv[1]))["peak"]["bytes"])' "$1"
}

# --- a heap census ------------------------------------------------------------------
for input in leak-hc.eventlog leak-hc.hp; do
    "$EV2HP" "$data/$input" -o "$tmp/$input.folded" --summary=json > "$tmp/$input.json" \
        || fail "$input: status $?"
    [ "$(sum "$tmp/$input.folded")" = "$(peak "$tmp/$input.json")" ] \
        || fail "$input: folded $(sum "$tmp/$input.folded"), peak $(peak "$tmp/$input.json")"
done
grep -qx 'Main.main;Main.main.m;Main.buildMap;Main.buildMap.\\ 59729400' \
    "$tmp/leak-hc.eventlog.folded" || fail "the eventlog's stacks are not named by their cost centres"
# --at: the last census at or before 1 s, whose total the CSV gives
"$EV2HP" "$data/leak-hc.eventlog" --at 1 -o "$tmp/at.folded" -o "$tmp/all.csv" || fail "--at: status $?"
want=$("$PYTHON3" - "$tmp/all.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1]))][1:]
print(sum(int(v) for v in [r for r in rows if float(r[0]) <= 1.0][-1][1:]))
PY
)
[ "$(sum "$tmp/at.folded")" = "$want" ] || fail "--at 1: folded $(sum "$tmp/at.folded"), CSV $want"
[ "$want" -lt "$(peak "$tmp/leak-hc.eventlog.json")" ] || fail "--at 1 gave the peak's census"
# before the first census: status 4, said, no file
run 4 "$data/leak-hc.eventlog" --at 0.01 -o "$tmp/early.folded"
grep -q 'no heap census at or before --at 0.010 s (the first is at 0.199 s)' "$tmp/err" \
    || fail "--at 0.01: $(cat "$tmp/err")"
[ -e "$tmp/early.folded" ] && fail "--at 0.01: a file was left"
# -hi: module, type, then the info table (a real GHC 9.10 run of the shared corpus)
hi="$SRCDIR/../shared/corpus/newghc/ghc910-leak-hi.eventlog"
if [ -f "$hi" ]; then
    "$EV2HP" "$hi" -o "$tmp/hi.folded" --summary=json > "$tmp/hi.json" || fail "-hi: status $?"
    [ "$(sum "$tmp/hi.folded")" = "$(peak "$tmp/hi.json")" ] || fail "-hi: folded sum"
    grep -qx 'Main;Rec;Rec_Main_3_con_info :: Rec at leak.hs:17:37 [0-9]*' "$tmp/hi.folded" \
        || fail "-hi: no module -> type -> info table stack"
fi

# --- two builds -----------------------------------------------------------------------
"$PYTHON3" "$SRCDIR/tests/evlayout.py" rebuild=lazySum,insertT "$data/leak-hc.eventlog" \
    "$tmp/hc2.eventlog" || fail "rebuild -hc"
"$PYTHON3" "$SRCDIR/tests/evlayout.py" 'rebuild=insertT,buildMap.\' "$tp/leak-P.eventlog" \
    "$tmp/p2.eventlog" || fail "rebuild -P"
# heap against the runtime's .hp (cut labels matched to the whole stacks), and time
for pair in "hc2.eventlog $data/leak-hc.hp" "p2.eventlog $tp/leak-P.eventlog"; do
    now=${pair%% *} base=${pair#* }
    "$EV2HP" "$tmp/$now" -o "$tmp/now.folded" || fail "$now: status $?"
    "$EV2HP" "$base" -o "$tmp/base.folded" || fail "$base: status $?"
    "$EV2HP" "$tmp/$now" --compare "$base" -o "$tmp/diff.folded" || fail "$now diff: status $?"
    [ "$(sum "$tmp/diff.folded")" = "$(sum "$tmp/now.folded")" ] || fail "$now: this run's column"
    [ "$(sum "$tmp/diff.folded" 1)" = "$(sum "$tmp/base.folded")" ] || fail "$now: the base's column"
    grep -q '\.\.\.' "$tmp/diff.folded" && fail "$now: a cut label was not matched"
done
grep -qx 'Main.main;Main.main.t;Main.insertT 245 490' "$tmp/diff.folded" || fail "time diff: insertT"
grep -qx 'Main.main;Main.main.m;Main.buildMap;Main.buildMap.\\ 91 45' "$tmp/diff.folded" \
    || fail "time diff: buildMap"

# the differential flame graph: fills follow the change, in the SVG and in the PNG
"$EV2HP" "$tmp/p2.eventlog" --compare "$tp/leak-P.eventlog" --view flame -o "$tmp/d.svg" \
    -o "$tmp/d.png" || fail "differential flame: status $?"
"$PYTHON3" - "$tmp/d.svg" "$tmp/d.png" "$SRCDIR/tests" <<'PY' || fail "differential flame colours"
import re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[3])
import pngread
ns = "{http://www.w3.org/2000/svg}"
w, h, px = pngread.read(sys.argv[2])
def value(text, where):
    m = re.search(r"(\d+) samples \([^)]*\) " + where, text)
    return int(m.group(1))
hues = set()
for r in ET.parse(sys.argv[1]).getroot().iter(ns + "rect"):
    if r.get("class") != "frame":
        continue
    title = r.find(ns + "title").text
    name = title.split("\n")[0]
    now = int(re.match(r"all: (\d+)", title).group(1)) if name.startswith("all:") else \
        value(title, "in this run")
    base = value(title, "in the base")
    fill = tuple(int(r.get("fill")[i:i + 2], 16) for i in (1, 3, 5))
    red, blue = fill[0] > fill[2] + 40, fill[2] > fill[0] + 40
    grey = fill[0] == fill[1] == fill[2]
    want = "red" if now > base else "blue" if now < base else "grey"
    got = "red" if red else "blue" if blue else "grey" if grey else "?"
    assert got == want, (name, now, base, fill)
    hues.add(got)
    # the PNG: the same fill inside the frame, left of its label
    x, y = float(r.get("x")), float(r.get("y"))
    if float(r.get("width")) >= 4:
        p = px(int(x) + 2, int(y) + 8)
        assert all(abs(a - b) <= 2 for a, b in zip(p, fill)), (name, p, fill)
assert {"red", "blue", "grey"} <= hues, hues
PY
# --- a frame name longer than the flame graph's name buffer (4 KiB) --------------------
# cut where a character ends: a 2-byte character straddling the cut must not become
# U+FFFD in the frame's tooltip
"$PYTHON3" - "$tmp/long.hp" <<'PY'
import sys
label = "a" * 4094 + "\u00e9"
open(sys.argv[1], "w", encoding="utf-8").write(
    'JOB "long +RTS -hc -RTS"\nDATE "Thu Nov 26 2026"\nSAMPLE_UNIT "seconds"\n'
    'VALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\nBEGIN_SAMPLE 1.00\n'
    + label + '\t1000\nMAIN\t500\nEND_SAMPLE 1.00\n')
PY
"$EV2HP" "$tmp/long.hp" --view flame --at 1 -o "$tmp/long.svg" || fail "long frame name: status $?"
grep -q '<title>a\{4094\}$' "$tmp/long.svg" \
    || fail "the long frame's tooltip is not its name cut before the character"
if grep -q "$(printf '\357\277\275')" "$tmp/long.svg"; then
    fail "a frame name was cut inside a character (U+FFFD in the flame graph)"
fi
exit $failed
