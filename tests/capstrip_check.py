#!/usr/bin/env python3
"""capstrip_check.py SUMMARY.json CHART.svg [CHART.png]: the heap view's strip per
capability against --summary=json's capabilities (tests/capabilities.sh).

Each capability's strip is a grey ground (class cap-idle, titled "cap N: ...") spanning
the run, with dark blue (cap-running) and orange (cap-gc) rectangles on it: a slot's
running and collecting time as shares of its height. So the blue area over the ground's
area is the capability's running share, the orange its collecting share, and the grey
left uncovered its idle share. Checks, per capability listed in the JSON, in order: a
strip, titled with the summary's line for it; its blue and orange areas within 1.25 %
(and 0.002) of running and gc: the SVG's coordinates carry one decimal, and a slot at
least 4 units wide is within 1.25 % of its width. With a picture drawn from the same
input (its PNG, or its PDF or EPS rendered at 96 dpi): the pixels inside each strip's
ground, each an anti-aliased blend of the three inks taken apart by area, within 0.02
of the three shares. Prints what differs;
status 1 then."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngread  # noqa: E402

INKS = {"running": (0x10, 0x24, 0x5a), "gc": (0xc8, 0x64, 0x18), "idle": (0xee, 0xee, 0xee)}



def unmix(rgb):
    """A pixel's shares of the running and collecting inks over the idle one: an edge's
    pixel is their blend, by area (least squares over the three channels, clamped)."""
    i = INKS["idle"]
    u = [a - b for a, b in zip(INKS["running"], i)]
    v = [a - b for a, b in zip(INKS["gc"], i)]
    p = [a - b for a, b in zip(rgb, i)]
    dot = lambda a, b: sum(x * y for x, y in zip(a, b))
    uu, uv, vv, pu, pv = dot(u, u), dot(u, v), dot(v, v), dot(p, u), dot(p, v)
    det = uu * vv - uv * uv
    run = (pu * vv - pv * uv) / det
    gc = (pv * uu - pu * uv) / det
    run, gc = min(max(run, 0), 1), min(max(gc, 0), 1)
    if run + gc > 1:
        run, gc = run / (run + gc), gc / (run + gc)
    return run, gc


summary_json, svg_path = sys.argv[1], sys.argv[2]
png_path = sys.argv[3] if len(sys.argv) > 3 else None
caps = json.load(open(summary_json))["capabilities"] or []
svg = open(svg_path).read()
problems = []

NUM = r"(-?[\d.]+)"
grounds = [(float(x), float(y), float(w), float(h), title) for x, y, w, h, title in re.findall(
    r'<rect class="cap-idle" x="%s" y="%s" width="%s" height="%s"[^>]*><title>([^<]*)</title>'
    % (NUM, NUM, NUM, NUM), svg)]
fills = {kind: [tuple(map(float, r)) for r in re.findall(
    r'<rect class="cap-%s" x="%s" y="%s" width="%s" height="%s"' % (kind, NUM, NUM, NUM, NUM),
    svg)] for kind in ("running", "gc")}

if len(grounds) != len(caps):
    problems.append(f"{len(grounds)} strips for {len(caps)} capabilities")
for c, (x, y, w, h, title) in zip(caps, grounds):
    line = "cap %d: %.1f %% running, %.1f %% collecting, %.1f %% idle" % (
        c["cap"], 100 * c["running"], 100 * c["gc"], 100 * c["idle"])
    if title != line:
        problems.append(f"strip titled '{title}', the summary says '{line}'")
    for kind in ("running", "gc"):
        area = sum(fw * fh for fx, fy, fw, fh in fills[kind]
                   if fy >= y - 0.05 and fy + fh <= y + h + 0.05 and fx >= x - 0.05
                   and fx + fw <= x + w + 0.05)
        share = area / (w * h)
        if abs(share - c[kind]) > 0.0125 * c[kind] + 0.002:
            problems.append(f"cap {c['cap']} {kind}: the strip draws {share:.4f}, "
                            f"the summary says {c[kind]:.4f}")
        print(f"cap {c['cap']} {kind}: strip {share:.4f} summary {c[kind]:.4f}")

if png_path:
    width, height, px = pngread.read(png_path)
    for c, (x, y, w, h, _) in zip(caps, grounds):
        counts = dict.fromkeys(INKS, 0.0)
        total = 0
        for py in range(int(round(y)), int(round(y + h))):
            for pxl in range(int(round(x)), int(round(x + w))):
                run, gc = unmix(px(pxl, py))
                counts["running"] += run
                counts["gc"] += gc
                counts["idle"] += 1 - run - gc
                total += 1
        for kind in INKS:
            share = counts[kind] / total
            if abs(share - c[kind]) > 0.02:
                problems.append(f"PNG cap {c['cap']} {kind}: {share:.4f} of the strip's pixels, "
                                f"the summary says {c[kind]:.4f}")
            print(f"PNG cap {c['cap']} {kind}: {share:.4f} summary {c[kind]:.4f}")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
