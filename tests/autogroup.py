#!/usr/bin/env python3
"""autogroup.py: checks of the default grouping (issue 39, tests/autogroup.sh).

  autogroup.py svg FILE KEY UNDO     the chart is grouped by KEY: its legend's OTHER is at
                                     most a quarter of the chart's peak (both as drawn:
                                     the legend's values, the "peak" label), and the
                                     subtitle says "grouped by KEY" and "--group-by UNDO"
  autogroup.py svg-other FILE        the chart is not grouped: no "grouped by" in it;
                                     prints OTHER's share of the peak
  autogroup.py report FILE KEY UNDO  the report's data: run.grouped_by names KEY and UNDO,
                                     and its OTHER band's peak is at most a quarter of
                                     data.peak.bytes
  autogroup.py summary FILE KEY UNDO the JSON summary: grouped_by names KEY and UNDO, its
                                     grouped share is at most a quarter, and the bands at
                                     the peak it lists hold at least three quarters of it
  autogroup.py labels FILE LABEL...  the JSON summary's bands include every LABEL
"""
import json
import re
import sys

UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def fail(what):
    print(what)
    sys.exit(1)


def size(text):
    number, unit = text.split()
    return float(number) * UNITS[unit]


def texts(svg, cls):
    return re.findall(r'<text class="%s"[^>]*>(?:<title>([^<]*)</title>)?([^<]*)' % cls, svg)


def chart_other(path):
    """OTHER's legend value over the chart's peak label, and the subtitle's whole text."""
    svg = open(path, encoding="utf-8").read()
    legend = [shown for _, shown in texts(svg, "legend")]
    peak = [shown for _, shown in texts(svg, "peak") if shown.startswith("peak ")]
    if not peak:
        fail("%s: no peak label" % path)
    other = 0.0
    if "OTHER" in legend:
        other = size(legend[legend.index("OTHER") + 1])
    sub = texts(svg, "subtitle")
    subtitle = (sub[0][0] or sub[0][1]) if sub else ""
    return other / size(peak[0][5:]), subtitle


def main(argv):
    what, path = argv[1], argv[2]
    if what == "svg":
        key, undo = argv[3], argv[4]
        share, subtitle = chart_other(path)
        if share > 0.25:
            fail("%s: the legend's OTHER is %.0f %% of the chart's peak" % (path, share * 100))
        for want in ("grouped by %s:" % key, "--group-by %s shows" % undo):
            if want not in subtitle:
                fail("%s: the subtitle does not say %r: %r" % (path, want, subtitle))
        print("%.3f" % share)
    elif what == "svg-other":
        share, subtitle = chart_other(path)
        if "grouped by" in subtitle:
            fail("%s: grouped: %r" % (path, subtitle))
        print("%.3f" % share)
    elif what == "report":
        key, undo = argv[3], argv[4]
        t = open(path, encoding="utf-8").read()
        d = json.loads(re.search(r'id="ev2hp-data">\n(.*?)\n</script>', t, re.S).group(1))
        g = d["run"].get("grouped_by")
        if not g or g["key"] != key or g["undo"] != "--group-by " + undo:
            fail("%s: grouped_by is %r" % (path, g))
        other = max([b["peak"] for b in d["run"]["bands"] if b.get("other")] or [0])
        if other > 0.25 * d["peak"]["bytes"]:
            fail("%s: OTHER's peak %d of %d" % (path, other, d["peak"]["bytes"]))
    elif what == "summary":
        key, undo = argv[3], argv[4]
        d = json.load(open(path))
        g = d.get("grouped_by")
        if not g or g["key"] != key or g["undo"] != "--group-by " + undo:
            fail("%s: grouped_by is %r" % (path, g))
        if not (g["grouped_other_share_of_peak"] <= 0.25 and g["other_share_of_peak"] > 0.5):
            fail("%s: shares %r" % (path, g))
        for part in (g["reason"], "--group-by " + undo):
            if part not in g["note"]:
                fail("%s: the note %r lacks %r" % (path, g["note"], part))
        top = sum(b["bytes"] for b in d["peak"]["top"])
        if top < 0.75 * d["peak"]["bytes"]:
            fail("%s: the bands listed at the peak hold %d of %d" % (path, top,
                                                                      d["peak"]["bytes"]))
    elif what == "labels":
        labels = {b["label"] for b in json.load(open(path))["bands"]}
        missing = [x for x in argv[3:] if x not in labels]
        if missing:
            fail("%s: no band %r (%d bands)" % (path, missing, len(labels)))
    else:
        fail("unknown check " + what)


if __name__ == "__main__":
    main(sys.argv)
