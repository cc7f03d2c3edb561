#!/bin/sh
# nonmoving_strip.sh: the heap view's strip of the nonmoving collector's phases, under
# the capabilities' strips (src/chart/view_heap.c; model/capstats.h's nonmoving timeline).
#   tests/data/gcsched/nonmoving: a real GHC 9.10.3 run of gcwork.hs at -N2 with
#   --nonmoving-gc and the scheduler's events (its README says how it was made), with the
#   runtime's own -s report (nonmoving.stat). tests/nmstrip_check.py measures the strip
#   in the SVG (its rectangles) and in the pictures drawn with it (the PNG decoded; the
#   PDF, EPS and PS rendered at 96 dpi, a user unit a pixel): its synchronisations' and
#   sweeps' extents along the time axis are --summary=json's gc.nonmoving sync_s and
#   sweep_s, its marking the time marked outside the synchronisations as --dump gives
#   the collector's events, within a pixel's worth (see the script for the pictures').
#   The synchronisations' total is also -s's "Gen 1 ... syncs" elapsed (0.047 s, to its
#   half millisecond). gcstats/nonmoving (-l-agu: no scheduler events) has the strip
#   alone. The inks: their own hues, each at least 3:1 on the strip's ground and on
#   white. Runs without the nonmoving collector have no such strip, in the charts or in
#   the report's data (tests/caps_browser.sh checks the report's strip in Chromium).
. "${SRCDIR:?}/tests/testlib.sh"
run="$data/gcsched/nonmoving.eventlog.gz"
"$EV2HP" --summary=json "$run" > "$tmp/s.json" 2> /dev/null || fail "--summary=json: status $?"
"$EV2HP" --dump "$run" > "$tmp/d.txt" 2> /dev/null || fail "--dump: status $?"
"$EV2HP" --view heap -o "$tmp/nm.svg" -o "$tmp/nm.png" -o "$tmp/nm.pdf" -o "$tmp/nm.eps" \
    -o "$tmp/nm.ps" "$run" 2> "$tmp/err" || fail "heap view: status $?"
pictures="$tmp/nm.png"
if have pdftoppm; then
    pdftoppm -r 96 -png -singlefile "$tmp/nm.pdf" "$tmp/nm-pdf" && pictures="$pictures $tmp/nm-pdf.png"
fi
if have gs; then
    for f in eps ps; do
        gs -q -dSAFER -dBATCH -dNOPAUSE -dEPSCrop -dGraphicsAlphaBits=4 -sDEVICE=png16m -r96 \
            -o "$tmp/nm-$f.png" "$tmp/nm.$f" && pictures="$pictures $tmp/nm-$f.png"
    done
fi
echo "pictures: $pictures"
# shellcheck disable=SC2086 # the pictures are words
"$PYTHON3" "$SRCDIR/tests/nmstrip_check.py" "$tmp/s.json" "$tmp/d.txt" "$tmp/nm.svg" $pictures \
    > "$tmp/check" 2>&1 || fail "the strip: $(grep -v ' drawn, ' "$tmp/check")"
cat "$tmp/check"
# the runtime's own -s: "Gen 1 N syncs, ELAPSED s ..." (to 3 decimals)
"$PYTHON3" - "$data/gcsched/nonmoving.stat" "$tmp/check" <<'PY' || fail "the syncs against -s"
import re, sys
s = float(re.search(r"Gen  1 +\d+ syncs, +([\d.]+)s", open(sys.argv[1]).read()).group(1))
units, expected, seconds = map(float, re.search(
    r"SVG sync: ([\d.]+) units drawn, ([\d.]+) for ([\d.]+) s", open(sys.argv[2]).read()).groups())
per_s = expected / seconds
drawn = units / per_s
print("syncs drawn %.6f s, -s %.3f s" % (drawn, s))
assert abs(drawn - s) <= 0.0005 + 1 / per_s, (drawn, s)
PY
# the legend's words and the inks' contrast: each at least 3:1 on the ground and white,
# none a capability's ink
"$PYTHON3" - "$tmp/nm.svg" <<'PY' || fail "the legend or the inks"
import re, sys
svg = open(sys.argv[1]).read()
for word in ("marking", "synchronising (program stopped)", "sweeping",
             "nonmoving GC, from the collector's events"):
    assert re.search(r'<text class="nm-legend"[^>]*>%s</text>' % re.escape(word), svg), word
def lum(h):
    c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    c = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
def contrast(a, b):
    a, b = sorted((lum(a), lum(b)))
    return (b + 0.05) / (a + 0.05)
ground = re.search(r'class="nm-ground"[^>]* fill="(#\w+)"', svg).group(1)
caps = set(re.findall(r'class="cap-(?:running|gc|idle)"[^>]* fill="(#\w+)"', svg))
for phase in ("sync", "mark", "sweep"):
    ink = re.search(r'class="nm-%s"[^>]* fill="(#\w+)"' % phase, svg).group(1)
    for on in (ground, "#ffffff"):
        assert contrast(ink, on) >= 3, (phase, ink, on, contrast(ink, on))
    assert ink not in caps, (phase, ink)
    print(phase, ink, "on the ground %.1f" % contrast(ink, ground))
PY
# without the scheduler's events: the nonmoving strip alone, no capability's
"$EV2HP" --summary=json "$data/gcstats/nonmoving.eventlog.gz" > "$tmp/agu.json" 2> /dev/null
"$EV2HP" --dump "$data/gcstats/nonmoving.eventlog.gz" > "$tmp/agu.txt" 2> /dev/null
"$EV2HP" --view heap -o "$tmp/agu.svg" -o "$tmp/agu.png" "$data/gcstats/nonmoving.eventlog.gz" \
    2> /dev/null || fail "gcstats/nonmoving heap view: status $?"
"$PYTHON3" "$SRCDIR/tests/nmstrip_check.py" "$tmp/agu.json" "$tmp/agu.txt" "$tmp/agu.svg" \
    "$tmp/agu.png" > "$tmp/agu.check" 2>&1 || fail "gcstats/nonmoving: $(cat "$tmp/agu.check")"
grep -q 'class="cap-' "$tmp/agu.svg" && fail "gcstats/nonmoving: a capability's strip"
# no nonmoving collector: no strip, no member in the report's data
for other in gcsched/n4qg caps/n2 gcstats/n2; do
    "$EV2HP" -q --view heap -o "$tmp/o.svg" "$data/$other.eventlog.gz" || fail "$other: status $?"
    grep -q 'class="nm-' "$tmp/o.svg" && fail "$other: a nonmoving strip"
    "$EV2HP" -q -o "$tmp/o.html" "$data/$other.eventlog.gz" || fail "$other report: status $?"
    grep -q '"nonmoving_timeline"' "$tmp/o.html" && fail "$other: nonmoving_timeline in the report"
done
"$EV2HP" -q -o "$tmp/nm.html" "$run" || fail "report: status $?"
grep -q '"nonmoving_timeline":{"width_s":' "$tmp/nm.html" || fail "no nonmoving_timeline in the report"
exit $failed
