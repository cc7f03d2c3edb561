#!/usr/bin/env python3
"""nmstrip_check.py SUMMARY.json DUMP CHART.svg [PICTURE.png...]: the heap view's strip of
the nonmoving collector against --summary=json's gc.nonmoving and --dump
(tests/nonmoving_strip.sh).

The strip is a grey ground (class nm-ground) spanning the run, with the synchronisations
(nm-sync), the concurrent marking (nm-mark) and the sweeps (nm-sweep) on it, slot by
slot each phase's time as a share of the slot's height. So a phase's area over the
strip's height is its time drawn along the time axis, in units: the ground's width over
the run's length (duration_s) is the units per second. The phases, as --dump gives the
collector's events: a synchronisation (CONC_SYNC_BEGIN..END, nested BEGINs counted once)
is the program stopped, and covers the marks it finishes, so the strip's marking is the
time in a mark outside any synchronisation (computed here from the dump). Checks:
the synchronisations' and sweeps' drawn extents against gc.nonmoving's sync_s and
sweep_s, the marking's against the dump's concurrent marking, each within a unit (a
pixel) of the time axis; that concurrent marking no more than gc.nonmoving's mark_s;
the ground's tooltip naming the three times. (A slot's edges are whole units, so that
neighbours meet without a seam; its heights are scaled to keep each phase's area its
time, so only the SVG's one decimal and what a full slot could not hold stand between.)
With pictures of the same drawing: the pixels inside the ground, each taken apart into
the four inks by area, give the same extents within 1.5 pixels for the PNG, and within 6
for the PDF, EPS or PS rendered at 96 dpi. The pictures' own error: where a phase's
rectangle meets the one stacked on it inside a pixel, the renderer blends the two edges
one over the other rather than by area (cairo's PNG: the synchronisations 1.3 pixels
short over the fixture's 88; poppler's and Ghostscript's renderings of the many thin
rectangles: up to 5). Prints what it measured
and what differs; status 1 then."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngread  # noqa: E402

PHASES = ("sync", "mark", "sweep")
ROW = 10.0


def hexrgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def solve3(m, v):
    """m (3x3, columns the vectors) x = v by Cramer's rule."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    out = []
    for c in range(3):
        a = [row[:] for row in m]
        for r in range(3):
            a[r][c] = v[r]
        out.append(det(a) / d)
    return out


def dump_phases(path):
    """Seconds in each phase as the strip divides them: a synchronisation over a mark over
    a sweep, each from the first BEGIN of a nesting to the END closing it."""
    depth = dict.fromkeys(PHASES, 0)
    total = dict.fromkeys(PHASES, 0)
    since = 0
    for line in open(path):
        m = re.match(r"(\d+) CONC_(MARK|SYNC|SWEEP)_(BEGIN|END)\b", line)
        if not m:
            continue
        t, phase, edge = int(m.group(1)), m.group(2).lower(), m.group(3)
        now = next((p for p in PHASES if depth[p]), None)
        if now and t > since:
            total[now] += t - since
        since = max(since, t)
        if edge == "BEGIN":
            depth[phase] += 1
        elif depth[phase]:
            depth[phase] -= 1
    return {p: ns / 1e9 for p, ns in total.items()}


summary = json.load(open(sys.argv[1]))
nm = summary["gc"]["nonmoving"]
dumped = dump_phases(sys.argv[2])
svg = open(sys.argv[3]).read()
pictures = sys.argv[4:]
rendered = ("-pdf.png", "-eps.png", "-ps.png")
problems = []
want = {"sync": nm["sync_s"], "mark": dumped["mark"], "sweep": nm["sweep_s"]}
for p in ("sync", "sweep"):
    if abs(dumped[p] - want[p]) > 1e-6:
        problems.append(f"--dump's {p} {dumped[p]:.6f} s, gc.nonmoving {want[p]:.6f} s")
if not 0 < want["mark"] <= nm["mark_s"]:
    problems.append(f"concurrent marking {want['mark']:.6f} s, mark_s {nm['mark_s']:.6f} s")

NUM = r"(-?[\d.]+)"
grounds = re.findall(r'<rect class="nm-ground" x="%s" y="%s" width="%s" height="%s"[^>]*>'
                     r'<title>([^<]*)</title>' % (NUM, NUM, NUM, NUM), svg)
if len(grounds) != 1:
    sys.exit(f"{len(grounds)} nonmoving strips")
gx, gy, gw, gh = map(float, grounds[0][:4])
units_per_s = gw / summary["duration_s"]
tip = ("nonmoving GC: synchronising %.6f s, marking %.6f s beside the program, "
       "sweeping %.6f s" % (want["sync"], want["mark"], want["sweep"]))
if grounds[0][4] != tip:
    problems.append(f"tooltip '{grounds[0][4]}', expected '{tip}'")
inks = {}
for p in PHASES:
    rects = re.findall(r'<rect class="nm-%s" x="%s" y="%s" width="%s" height="%s" fill="(#\w+)"'
                       % (p, NUM, NUM, NUM, NUM), svg)
    area = sum(float(w) * float(h) for x, y, w, h, _ in rects
               if float(y) >= gy - 0.05 and float(y) + float(h) <= gy + gh + 0.05)
    inks[p] = hexrgb(rects[0][4]) if rects else None
    drawn, expected = area / gh, want[p] * units_per_s
    print(f"SVG {p}: {drawn:.2f} units drawn, {expected:.2f} for {want[p]:.6f} s")
    if abs(drawn - expected) > 1:
        problems.append(f"SVG {p}: {drawn:.2f} units drawn, {expected:.2f} expected")
ground = hexrgb(re.search(r'class="nm-ground"[^>]* fill="(#\w+)"', svg).group(1))

for path in pictures:
    if None in inks.values():
        break
    width, height, px = pngread.read(path)
    m = [[inks[p][ch] - ground[ch] for p in PHASES] for ch in range(3)]
    sums = dict.fromkeys(PHASES, 0.0)
    for py in range(int(round(gy)), int(round(gy + gh))):
        for pxl in range(int(round(gx)), int(round(gx + gw))):
            rgb = px(pxl, py)
            if rgb == ground:
                continue
            shares = solve3(m, [rgb[ch] - ground[ch] for ch in range(3)])
            for p, s in zip(PHASES, shares):
                sums[p] += min(max(s, 0), 1)
    for p in PHASES:
        drawn, expected = sums[p] / gh, want[p] * units_per_s
        print(f"{os.path.basename(path)} {p}: {drawn:.2f} pixels drawn, {expected:.2f} expected")
        if abs(drawn - expected) > (6 if path.endswith(rendered) else 1.5):
            problems.append(f"{path} {p}: {drawn:.2f} pixels drawn, {expected:.2f} expected")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
