#!/bin/sh
# timeprof.sh: time profiles of real GHC runs (tests/data/timeprof) against the .prof the
# runtime wrote in the same run (tests/profcheck.py): the folded stacks of each GHC 9.0
# and 9.10 -P run stack for stack, single and -N2 threaded; the GHC 9.6 -P run and the
# GHC 9.10 -p run in total (see tests/data/timeprof/README.md). Then the
# command line: --system-ccs, --from/--to, an input without a time profile, the flame
# graph drawn by default for a time-profile-only eventlog (and the HTML report's), and
# --summary's time profile.
. "${SRCDIR:?}/tests/testlib.sh"
data="$SRCDIR/tests/data/timeprof"

for name in tpsingle-P tpthreaded-N2-P leak-P ghc910-tpsingle-P ghc96-tpsingle-P ghc910-leak-p; do
    "$EV2HP" "$data/$name.eventlog" -o "$tmp/$name.folded" || { fail "$name: status $?"; continue; }
    only=""
    case $name in ghc910-leak-p|ghc96-*) only=--total-only ;; esac
    "$PYTHON3" "$SRCDIR/tests/profcheck.py" $only "$data/$name.prof" "$tmp/$name.folded" \
        || fail "$name: folded stacks differ from the .prof"
done

# The threaded run has samples of both capabilities.
"$EV2HP" --summary=json "$data/tpthreaded-N2-P.eventlog" > "$tmp/thr.json" || fail "summary: status $?"
"$PYTHON3" - "$tmp/thr.json" <<'PY' || fail "threaded summary"
import json, sys
t = json.load(open(sys.argv[1]))["time_profile"]
assert t["ticks"] == 198, t["ticks"]
assert len(t["capabilities"]) == 2 and all(c > 0 for c in t["capabilities"]), t
assert t["interval_s"] == 0.001, t
top = t["top"][0]
assert top["label"] == "tri" and top["module"] == "Main" and top["individual_ticks"] == 166, top
PY

# --system-ccs: the runtime's own cost centres come back, and the total is every sample.
"$EV2HP" --system-ccs "$data/tpsingle-P.eventlog" -o "$tmp/sys.folded" || fail "--system-ccs: status $?"
grep -qx 'SYSTEM.SYSTEM 4' "$tmp/sys.folded" && grep -qx 'GC.GC 1' "$tmp/sys.folded" \
    || fail "--system-ccs: no SYSTEM/GC lines"
grep -q '^GC\.\|^SYSTEM\.' "$tmp/tpsingle-P.folded" && fail "system cost centres without --system-ccs"

# --to leaves out the later samples.
"$EV2HP" --to 0.2 "$data/tpsingle-P.eventlog" -o "$tmp/early.folded" || fail "--to: status $?"
early=$(awk '{ n += $NF } END { print n }' "$tmp/early.folded")
[ "$early" -gt 0 ] && [ "$early" -lt 544 ] || fail "--to 0.2: $early samples of 544"

# An eventlog without a time profile, whose heap bands are not stacks (-hT): status 4,
# one line naming the output, no file.
"$EV2HP" "$SRCDIR/tests/data/leak-hT.eventlog" -o "$tmp/none.folded" 2> "$tmp/err"
st=$?
[ $st -eq 4 ] || fail "no time profile: status $st"
grep -q 'none.folded: the input has no time profile' "$tmp/err" || fail "no time profile: $(cat "$tmp/err")"
[ -e "$tmp/none.folded" ] && fail "no time profile: a file was left"

# The flame graph: drawn by default for an eventlog with a time profile and no heap
# censuses, in SVG and PNG. Read back: one <rect class="frame"> per drawn context, the
# root spanning the others, each with a <title> giving its whole name, module, source
# location and samples; labels never wider than their frame's text room allows.
"$EV2HP" "$data/tpsingle-P.eventlog" -o "$tmp/flame.svg" -o "$tmp/flame.png" 2> "$tmp/err" || fail "flame: status $?"
# nothing is missing: no word about heap censuses
[ -s "$tmp/err" ] && fail "flame by default: stderr: $(cat "$tmp/err")"
"$EV2HP" "$data/tpsingle-P.eventlog" --height 500 -o "$tmp/tall.svg" || fail "--height: status $?"
grep -q 'viewBox="0 0 1280 500"' "$tmp/tall.svg" || fail "--height 500 not kept for a flame graph"
"$EV2HP" "$data/tpsingle-P.eventlog" --view icicle -o "$tmp/icicle.svg" || fail "icicle: status $?"
"$PYTHON3" - "$tmp/flame.svg" "$tmp/icicle.svg" "$tmp/flame.png" <<'PY' || fail "flame graph read back"
import re, struct, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
def frames(path):
    root = ET.parse(path).getroot()
    out = []
    for r in root.iter(ns + "rect"):
        if "frame" in (r.get("class") or "").split():
            t = r.find(ns + "title")
            out.append((float(r.get("x")), float(r.get("y")), float(r.get("width")),
                        t.text if t is not None else None))
    return out
f = frames(sys.argv[1])
assert len(f) >= 9, len(f)
root = [x for x in f if x[3].startswith("all:")]
assert len(root) == 1 and "544 samples" in root[0][3], root
go = [x for x in f if x[3].startswith("Main.collatz.go\n")]
assert len(go) == 1, go
t = go[0][3]
assert "module Main, tpsingle.hs:(12,9)-(13,73)" in t and "354 samples (65.07 %)" in t, t
# widths follow the samples: collatz.go is 354/544 of the root
assert abs(go[0][2] / root[0][2] - 354 / 544) < 1e-3, (go, root)
# flame: the root at the bottom; icicle: at the top
assert root[0][1] == max(x[1] for x in f)
i = frames(sys.argv[2])
iroot = [x for x in i if x[3].startswith("all:")][0]
assert iroot[1] == min(x[1] for x in i)
png = open(sys.argv[3], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", png[16:24])
# without --height, as tall as the 6 levels need, no taller (and the SVG the same)
svg_h = float(ET.parse(sys.argv[1]).getroot().get("height"))
assert w == 1280 and h == svg_h and 200 <= h < 300, (w, h, svg_h)
PY

# refused VIEW FILE: --view VIEW -o FILE of an eventlog without a time profile nor a heap
# profile of stacks: status 4, said, nothing written.
refused() {
    run 4 "$SRCDIR/tests/data/leak-hT.eventlog" --view "$1" -o "$tmp/$2"
    grep -q "no time profile to draw" "$tmp/err" || fail "--view $1 -o $2: $(cat "$tmp/err")"
    [ -e "$tmp/$2" ] && fail "--view $1 -o $2 without a time profile: a file was left"
}
refused flame none.svg
# A heap profile still draws its heap chart by default.
"$EV2HP" "$SRCDIR/tests/data/leak-hc.eventlog" -o "$tmp/heap.svg" || fail "heap chart: status $?"
grep -q 'class="frame' "$tmp/heap.svg" && fail "heap chart drawn as a flame graph"
# The HTML report: the same refusal; a time profile's report carries its tree and opens
# on the flame graph when there is no census, on the heap chart when there are some.
refused icicle none.html
"$EV2HP" "$data/tpsingle-P.eventlog" -o "$tmp/tp.html" || fail "html of a time profile: status $?"
grep -q '"view":"flame"' "$tmp/tp.html" || fail "html of a time profile does not open on the flame graph"
grep -q '"flame":{"ccs":\[' "$tmp/tp.html" || fail "html of a time profile has no flame data"
"$EV2HP" "$SRCDIR/tests/data/labels-hc-g96.eventlog" -o "$tmp/both.html" || fail "html: status $?"
grep -q '"flame":{"ccs":\[' "$tmp/both.html" || fail "html of heap and time profile: no flame data"
grep -q '"view":' "$tmp/both.html" && fail "html of heap and time profile: not on the heap chart"
"$EV2HP" "$SRCDIR/tests/data/leak-hT.eventlog" -o "$tmp/heap.html" || fail "html: status $?"
grep -q '"flame":null' "$tmp/heap.html" || fail "html of a -hT heap profile: flame data"
# a -hc heap profile's report carries its peak census as a flame graph, in bytes
"$EV2HP" "$SRCDIR/tests/data/leak-hc.eventlog" -o "$tmp/hc.html" || fail "html -hc: status $?"
grep -q '"unit":"bytes"' "$tmp/hc.html" || fail "html of a -hc heap profile: no census flame data"
"$EV2HP" --view sideways "$data/tpsingle-P.eventlog" -o "$tmp/x.svg" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--view sideways: not a usage error"

exit $failed
