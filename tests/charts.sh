#!/bin/sh
# charts.sh: charts a user can trust, on every real eventlog of tests/data (and of
# ../shared/corpus when it is there): no two bands share a tooltip or a legend row;
# CSV, JSON and SVG are valid UTF-8 without replacement characters; every marker's text
# is in the SVG; a band's colour is the same with and without --include and in --compare;
# bands drawn next to each other differ in colour or are separated by a line;
# the legend of --bands 0 lists the largest bands; at every accepted size the chart is
# drawn; a window outside the run is a warning.
. "${SRCDIR:?}/tests/testlib.sh"
check="$PYTHON3 $SRCDIR/tests/chartcheck.py"

inputs="$data/*.eventlog"
[ -d "$SRCDIR/../shared/corpus" ] && inputs="$inputs $SRCDIR/../shared/corpus/*.eventlog"

for f in $inputs; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .eventlog)
    # --view area: a time profile alone would be drawn as a flame graph, without markers
    "$EV2HP" -q "$f" --view area -o "$tmp/$n.svg" -o "$tmp/$n.csv" -o "$tmp/$n.json" ||
        { fail "$n: status $?"; continue; }
    $check text "$tmp/$n.svg" "$tmp/$n.csv" "$tmp/$n.json" || fail "$n: text"
    $check distinct "$tmp/$n.svg" || fail "$n: distinct"
    $check markers "$tmp/$n.svg" "$tmp/$n.json" || fail "$n: markers"
    $check neighbours "$tmp/$n.svg" >/dev/null || fail "$n: neighbours"
    "$EV2HP" -q "$f" --view normalized --bands 40 -o "$tmp/$n-norm.svg" || fail "$n: normalized"
    $check neighbours "$tmp/$n-norm.svg" >/dev/null || fail "$n: neighbours, normalized"
    # every band: whole labels, every one told apart
    "$EV2HP" -q "$f" --bands 0 --trace 0 -o "$tmp/$n-all.svg" || fail "$n: --bands 0 status"
    $check distinct "$tmp/$n-all.svg" || fail "$n: distinct with --bands 0"
    $check text "$tmp/$n-all.svg" || fail "$n: text with --bands 0"
    $check neighbours "$tmp/$n-all.svg" || fail "$n: neighbours with --bands 0"
done

# The legend of --bands 0 lists the largest bands, whatever their number.
big="$data/leak-hc.eventlog"
"$EV2HP" -q "$big" --bands 0 --trace 0 --height 300 -o "$tmp/few.svg" -o "$tmp/few.csv" ||
    fail "bands 0: status"
$check listed "$tmp/few.svg" "$tmp/few.csv" 5 || fail "bands 0: the largest are not listed"
grep -q 'not listed' "$tmp/few.svg" || fail "bands 0: the legend does not say what it leaves out"

# Colours: a function of the label alone.
"$EV2HP" -q "$big" -o "$tmp/all.svg" || fail "colours: status"
"$EV2HP" -q "$big" --include 'main' -o "$tmp/inc.svg" || fail "colours: --include status"
$check colours "$tmp/all.svg" "$tmp/inc.svg" || fail "colours differ with --include"
"$EV2HP" -q "$big" --compare "$data/leak-hc.hp" -o "$tmp/cmp.svg" || fail "colours: --compare status"
$check colours "$tmp/all.svg" "$tmp/cmp.svg" || fail "colours differ in --compare"
"$EV2HP" -q "$big" -o "$tmp/all.html" || fail "colours: report status"
$check colours "$tmp/all.svg" "$tmp/all.html" || fail "colours differ in the report"
$check distinct "$tmp/cmp.svg" || fail "compare: distinct"
# two runs of one program (GHC 9.6)
"$EV2HP" -q "$data/labels-hc-g96.eventlog" -o "$tmp/r1.svg" &&
    "$EV2HP" -q "$data/damaged/labels-hc-g96-2.eventlog" -o "$tmp/r2.svg" || fail "two runs: status"
$check colours "$tmp/r1.svg" "$tmp/r2.svg" || fail "colours differ across two runs"

# Markers close together: each one's text is in the SVG, and the chart says how many
# have no label of their own.
m="$data/markers40-hT.eventlog"
for w in 200 400 1280; do
    "$EV2HP" -q "$m" --width $w -o "$tmp/m$w.svg" -o "$tmp/m$w.json" || fail "markers $w: status"
    $check markers "$tmp/m$w.svg" "$tmp/m$w.json" || fail "markers at width $w"
done
grep -q 'unlabelled' "$tmp/m200.svg" || fail "markers: a narrow chart does not count unlabelled markers"

# Every accepted size draws (SVG and PNG), from the smallest to a large one.
for size in "200 200" "400 300" "640 480" "1280 720" "3000 2000"; do
    set -- $size
    "$EV2HP" -q "$data/labels-hc-g910.eventlog" --width "$1" --height "$2" \
        -o "$tmp/s.svg" -o "$tmp/s.png" || fail "size $1x$2: status"
    $check distinct "$tmp/s.svg" || fail "size $1x$2: distinct"
done

# --title '' removes the title; a y-axis title is there.
"$EV2HP" -q "$big" --title '' -o "$tmp/nt.svg" || fail "no title: status"
grep -q 'class="title"' "$tmp/nt.svg" && fail "--title '' still draws a title"
grep -q '>memory</text>' "$tmp/nt.svg" || fail "no y-axis title"

# A title too long for the chart's 1,024 bytes is cut where a character ends: 1,022
# bytes of "a", then "é" (two bytes) across the cut; the tooltip holds no U+FFFD.
long_title="$(printf '%01022d' 0 | tr 0 a)é and more"
"$EV2HP" -q "$data/leak-hc.hp" --title "$long_title" -o "$tmp/lt.svg" || fail "long title: status"
$check text "$tmp/lt.svg" || fail "long title: cut inside a character"

# A window outside the run: a warning, a chart of the run's extent, status 0.
"$EV2HP" "$big" --from 100 -o "$tmp/w.svg" 2>"$tmp/w.err" || fail "window: status $?"
grep -q 'holds no census' "$tmp/w.err" || fail "window: no warning"
grep -q 'outside the run' "$tmp/w.svg" || fail "window: the chart does not say so"
grep -q 'window 100 to 101' "$tmp/w.svg" && fail "window: an invented time range"

# --summary of a runtime .hp names its breakdown.
"$EV2HP" "$data/leak-hc.hp" --summary >"$tmp/sum.txt" || fail "summary .hp: status"
grep -q 'by cost-centre stack' "$tmp/sum.txt" || fail "summary .hp: no breakdown"

exit $failed
