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
"$PYTHON3" - "$work/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, width, height, ctype = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8, 'unexpected bit depth'
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
colours = {}
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, width, 4):
            px = bytes(line[x * bpp:x * bpp + 3])
            colours[px] = colours.get(px, 0) + 1
    prev = line
total = sum(colours.values())
white = colours.get(b'\xff\xff\xff', 0)
print('%dx%d, %d colours, %.0f%% white' % (width, height, len(colours), 100.0 * white / total))
assert len(colours) >= 8, 'the picture is (nearly) blank'
assert white < 0.95 * total, 'the picture is (nearly) all white'
# the chart's biggest band (blue-ish, painted over a large area) must be there
big = max((n, c) for c, n in colours.items() if c != b'\xff\xff\xff')
assert big[0] > 0.05 * total, 'no large coloured area: bands not drawn'
PY
