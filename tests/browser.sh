#!/bin/sh
# browser.sh: a real browser draws ev2hp's SVG. Headless Chromium renders the chart of
# the bundled example to a PNG, and the picture must not be blank: python3 decodes the
# PNG (zlib) and counts distinct colours. Skipped (77) only when chromium is missing.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without "chromium|chromium-browser"
browser=$(find_chromium)
work=$tmp
"$EV2HP" "$SRCDIR/share/examples/leak-hc.eventlog" -o "$work/chart.svg"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --screenshot="$work/shot.png" --window-size=1280,720 \
    "file://$work/chart.svg" >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
"$PYTHON3" - "$work/shot.png" "$SRCDIR/tests" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import pngread   # tests/pngread.py
width, height, px = pngread.read(sys.argv[1])
colours = {}
for y in range(0, height, 4):
    for x in range(0, width, 4):
        c = bytes(px(x, y))
        colours[c] = colours.get(c, 0) + 1
total = sum(colours.values())
white = colours.get(b'\xff\xff\xff', 0)
print('%dx%d, %d colours, %.0f%% white' % (width, height, len(colours), 100.0 * white / total))
assert len(colours) >= 8, 'the picture is (nearly) blank'
assert white < 0.95 * total, 'the picture is (nearly) all white'
# the chart's biggest band (blue-ish, painted over a large area) must be there
big = max((n, c) for c, n in colours.items() if c != b'\xff\xff\xff')
assert big[0] > 0.05 * total, 'no large coloured area: bands not drawn'
PY
