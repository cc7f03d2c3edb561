#!/usr/bin/env python3
"""chartcheck.py: what a reader of ev2hp's charts relies on, checked on the files.

  chartcheck.py text FILE...          valid UTF-8, no U+FFFD (CSV, JSON, SVG)
  chartcheck.py distinct SVG          no two bands share a tooltip, no two legend rows
                                      read the same
  chartcheck.py markers SVG JSON      every marker of the JSON export has its text in the
                                      SVG (a line's tooltip)
  chartcheck.py colours SVG SVG|HTML|JSON  a label has one colour in each picture (and in
                                      both panels of a comparison); the same in both
                                      but where one of them gave its colour to a larger
                                      band (colors.h); an HTML report's bands give
                                      theirs with their data
  chartcheck.py unshared SVG [PNG|HTML|JSON]  no two legend entries share a colour or sit
                                      closer than the palette's least distance (OKLab),
                                      in the SVG's swatches, the PNG's pixels at them
                                      (decoded; drawn from the same input at the same
                                      size) or the report's drawn bands (its data: in
                                      the page, or a live server's /report.json)
  chartcheck.py listed SVG CSV N      the legend lists the N largest bands by area
  chartcheck.py neighbours SVG        bands drawn next to each other differ in colour by
                                      at least CLOSE (OKLab distance), or the lower one's
                                      outline (its line along the top) is that far from both
  chartcheck.py named SVG PNG N       at least N bands besides OTHER drawn, named (not a
                                      bare 0x address), each its own colour, and those
                                      colours among the PNG's pixels (decoded)
Exit status 0 when the property holds; otherwise 1 and a line on stderr saying what failed.
"""
import csv
import json
import sys

import pngread
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(what):
    sys.stderr.write("chartcheck: %s\n" % what)
    sys.exit(1)


def items(svg, cls, tag=None):
    root = ET.parse(svg).getroot()
    for el in root.iter():
        if el.get("class") == cls and (tag is None or el.tag == NS + tag):
            yield el


def tooltip(el):
    t = el.find(NS + "title")
    return t.text if t is not None else None


def check_text(paths):
    for p in paths:
        data = open(p, "rb").read()
        try:
            s = data.decode("utf-8")
        except UnicodeDecodeError as e:
            fail("%s: not valid UTF-8 at byte %d" % (p, e.start))
        if "\ufffd" in s or "\\ufffd" in s.lower():
            fail("%s: has a replacement character" % p)


def legend_rows(svg):
    """The label texts of the legend (start-anchored, not the 'not listed' line)."""
    rows = []
    for el in items(svg, "legend", "text"):
        if el.get("text-anchor") in ("end", "middle"):
            continue
        text = "".join(el.itertext())
        t = tooltip(el)
        if t is not None:
            text = text[: len(text) - len(t)] if text.endswith(t) else text
        if "not listed" in text:
            continue
        rows.append(text)
    return rows


def check_distinct(svg):
    tips = [tooltip(el) for el in items(svg, "band", "path")]
    # two panels of a comparison show one band twice: per panel, by document order
    seen = {}
    for t in tips:
        seen[t] = seen.get(t, 0) + 1
    panels = max(seen.values()) if seen else 1
    dup = [t for t, n in seen.items() if n > panels]
    if dup:
        fail("%s: bands share a tooltip: %r" % (svg, dup[:3]))
    rows = legend_rows(svg)
    dup = sorted({r for r in rows if rows.count(r) > 1})
    if dup:
        fail("%s: legend rows read the same: %r" % (svg, dup[:3]))


def check_markers(svg, js):
    doc = json.load(open(js, encoding="utf-8"))
    tips = [tooltip(el) or "" for el in items(svg, "marker", "path")]
    for m in doc.get("markers", []):
        text = m.get("text", m.get("label", ""))
        if not text:
            continue
        if not any(t.startswith(text + " (") for t in tips):
            fail("%s: marker %r (%s s) has no line with its text" % (svg, text, m.get("time_s")))


def report_data(path):
    """The report's data: from its page (.html) or as a live server gives it (.json)."""
    page = open(path, encoding="utf-8").read()
    if path.endswith(".json"):
        return json.loads(page)
    start = page.index('<script type="application/json" id="ev2hp-data">')
    start = page.index(">", start) + 1
    return json.loads(page[start:page.index("</script>", start)])


def report_colours(html):
    data = report_data(html)
    out = {}
    for run in (data["run"], data.get("base")):
        for band in (run or {}).get("bands", []):
            label = "OTHER" if band.get("other") else band["label"]
            out.setdefault(label, set()).add(band["colour"])
    return out


def colours(svg):
    if svg.endswith((".html", ".json")):
        return report_colours(svg)
    out = {}
    for el in items(svg, "band", "path"):
        out.setdefault(tooltip(el), set()).add(el.get("fill"))
    for el in items(svg, "legend", "rect"):
        out.setdefault(tooltip(el), set()).add(el.get("fill"))
    return out


def check_colours(a, b):
    ca, cb = colours(a), colours(b)
    for d, name in ((ca, a), (cb, b)):
        for label, fills in d.items():
            if len(fills) > 1:
                fail("%s: %r drawn in %d colours" % (name, label, len(fills)))
    common = [l for l in ca if l in cb and l != "OTHER"]
    if not common:
        fail("%s and %s: no band in common" % (a, b))
    # a band drawn in another colour in one picture: its colour of the other taken there
    # by another band (it gave way to a larger one), or the other way round
    def used(d, colour, but):
        return any(colour in f for l, f in d.items() if l != but)
    for l in common:
        if ca[l] != cb[l]:
            (x,), (y,) = ca[l], cb[l]
            if not used(cb, x, l) and not used(ca, y, l):
                fail("%r: %s in %s, %s in %s, neither taken in the other"
                     % (l, x, a, y, b))


LEAST = 0.0366  # colors.c's palette: its two closest colours (palette.py)


def legend_swatches(svg):
    """The legend's band entries (heap totals and OTHER aside): (label, fill, x, y, size)."""
    out = []
    for el in items(svg, "legend", "rect"):
        label = tooltip(el)
        if not label or label == "OTHER" or label in TOTALS:
            continue
        out.append((label, el.get("fill"), float(el.get("x")), float(el.get("y")),
                    float(el.get("width"))))
    return out


TOTALS = ("heap size", "live bytes", "blocks size")   # chart.c's total_style


def unshared(where, colours):
    """colours: [(label, '#rrggbb')]; fails on two labels closer than LEAST."""
    for i, (a, ca) in enumerate(colours):
        for b, cb in colours[i + 1:]:
            if a == b:
                continue
            if ca == cb:
                fail("%s: %r and %r share %s" % (where, a, b, ca))
            if distance(ca, cb) < LEAST - 1e-4:
                fail("%s: %r (%s) and %r (%s) are %.4f apart" % (where, a, ca, b, cb,
                                                                 distance(ca, cb)))


def check_unshared(svg, other=None):
    sw = legend_swatches(svg)
    unshared(svg, [(l, f) for l, f, _, _, _ in sw])
    if other and other.endswith((".html", ".json")):
        data = report_data(other)
        # a band of the base paired with one of this run's (data.pairs) is drawn as
        # that band: in its colour
        now = data["run"]["bands"]
        drawn = [(b["label"], b["colour"]) for b in now if not b.get("other")]
        paired = {}
        for n, b in data.get("pairs") or []:
            if n >= 0 and b >= 0:
                paired[b] = n
        for i, b in enumerate((data.get("base") or {}).get("bands", [])):
            if b.get("other"):
                continue
            if i in paired:
                if b["colour"] != now[paired[i]]["colour"]:
                    fail("%s: %r of the base is not in the colour of %r, its pair"
                         % (other, b["label"], now[paired[i]]["label"]))
            elif b["label"] not in [l for l, _ in drawn]:
                drawn.append(("base: " + b["label"], b["colour"]))
        unshared(other, drawn)
        n = len(drawn)
    elif other:
        try:
            width, height, px = pngread.read(other)
        except ValueError as e:
            fail(str(e))
        sampled = []
        for label, fill, x, y, size in sw:
            got = "#%02x%02x%02x" % px(int(x + size / 2), int(y + size / 2))
            if distance(got, fill) > 0.01:
                fail("%s: %r's swatch is %s, not %s" % (other, label, got, fill))
            sampled.append((label, got))
        unshared(other, sampled)
        n = len(sampled)
    else:
        n = len(sw)
    print("unshared: %s: %d legend entries in %d colours" % (other or svg, len(sw), n))


def check_listed(svg, csv_path, n):
    rows = list(csv.reader(open(csv_path, encoding="utf-8")))
    head, data = rows[0], rows[1:]
    times = [float(r[0]) for r in data]
    area = {}
    for j, name in enumerate(head[1:], 1):
        a = 0.0
        for i in range(1, len(data)):
            a += (float(data[i][j]) + float(data[i - 1][j])) / 2 * (times[i] - times[i - 1])
        label = name.split(")", 1)[1] if name.startswith("(") and ")" in name else name
        area[label] = area.get(label, 0) + a
    largest = sorted(area, key=lambda k: -area[k])[:n]
    listed = {tooltip(el) for el in items(svg, "legend", "rect")}
    listed = {t.rsplit(" #", 1)[0] for t in listed if t}
    missing = [l for l in largest if l not in listed]
    if missing:
        fail("%s: the legend leaves out large bands: %r" % (svg, missing[:3]))


def png_colours(path):
    """The set of '#rrggbb' colours of a PNG's pixels (pngread.py decodes it)."""
    try:
        width, height, px = pngread.read(path)
    except ValueError as e:
        fail(str(e))
    return {"#%02x%02x%02x" % px(x, y) for y in range(height) for x in range(width)}


def check_named(svg, png, n):
    fills = {}
    for el in items(svg, "band", "path"):
        label = tooltip(el)
        if label and label != "OTHER" and not label.startswith("0x"):
            fills[label] = el.get("fill")
    if len(fills) < n or len(set(fills.values())) < n:
        fail("%s: %d named bands in %d colours besides OTHER, fewer than %d"
             % (svg, len(fills), len(set(fills.values())), n))
    seen = set(fills.values()) & png_colours(png)
    if len(seen) < n:
        fail("%s: %d of the named bands' colours, fewer than %d" % (png, len(seen), n))


CLOSE = 0.08   # colors.h: CHART_COLOR_CLOSE


def oklab(hexcolour):
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(hexcolour[i:i + 2], 16)) for i in (1, 3, 5))
    l = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(oklab(a), oklab(b))) ** 0.5


def check_neighbours(svg):
    """Bands are drawn from the top of the stack down, each from its top edge to the axis,
    so of two consecutive band paths the second's outline is the line between them. A run
    of consecutive band paths is one panel's stack."""
    root = ET.parse(svg).getroot()
    groups, run = [], []
    for el in root:
        if el.tag == NS + "path" and el.get("class") == "band":
            run.append(el)
        elif run:
            groups.append(run)
            run = []
    if run:
        groups.append(run)
    pairs = separated = 0
    for run in groups:
        for above, below in zip(run, run[1:]):
            pairs += 1
            fa, fb = above.get("fill"), below.get("fill")
            if distance(fa, fb) >= CLOSE:
                continue
            line = below.get("stroke")
            width = float(below.get("stroke-width") or 0)
            if (line and line.startswith("#") and width >= 0.5 and
                    float(below.get("stroke-opacity") or 1) == 1 and
                    distance(line, fa) >= CLOSE and distance(line, fb) >= CLOSE):
                separated += 1
                continue
            fail("%s: neighbours %r (%s) and %r (%s) are %.3f apart and not separated"
                 % (svg, tooltip(above), fa, tooltip(below), fb, distance(fa, fb)))
    print("neighbours: %s: %d pairs, %d told apart by a separator" % (svg, pairs, separated))


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "text":
        check_text(args)
    elif cmd == "distinct":
        check_distinct(args[0])
    elif cmd == "markers":
        check_markers(args[0], args[1])
    elif cmd == "colours":
        check_colours(args[0], args[1])
    elif cmd == "unshared":
        check_unshared(args[0], args[1] if len(args) > 1 else None)
    elif cmd == "neighbours":
        check_neighbours(args[0])
    elif cmd == "named":
        check_named(args[0], args[1], int(args[2]))
    elif cmd == "listed":
        check_listed(args[0], args[1], int(args[2]))
    else:
        fail("unknown check %s" % cmd)


if __name__ == "__main__":
    main(sys.argv)
