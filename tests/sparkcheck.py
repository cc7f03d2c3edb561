"""sparkcheck.py EV2HP TMPDIR EVENTLOG...: each band's sparkline (--summary=json lists every
band's; the Markdown's must be the same) against its bytes at every census of the JSON
export (sparklines.sh).

A sparkline has a cell per slot of the window's time, from its first census, each slot
the smallest power of two nanoseconds wide that makes at most 24 (sparkline.h). The
export gives census times to the microsecond, so a census within 2 us of a slot's edge,
and a width the span's rounding leaves open, count as either: a sparkline passes when
some reading of the times satisfies every rule.
"""
import html
import json
import math
import os
import re
import subprocess
import sys

BLOCKS = "▁▂▃▄▅▆▇█"
SLOP_NS = 2000


def md_label(cell):
    text = html.unescape(cell.strip())
    return re.sub(r"\\(.)", r"\1", text)


def sparklines(md):
    """label -> sparkline, from the summary's band table."""
    out, dup = {}, set()
    rows = md.split("| Band | Peak |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    for row in rows:
        cells = re.split(r"(?<!\\)\|", row)
        label, spark = md_label(cells[1]), cells[-2].strip()
        if label in out:
            dup.add(label)
        out[label] = spark
    for label in dup:
        del out[label]   # bands with one label cannot be told apart here
    return out


def widths(span_ns):
    """The slot widths the span (known to SLOP_NS) can give."""
    found = set()
    for s in (max(span_ns - SLOP_NS, 0), span_ns + SLOP_NS):
        w = 1
        while s // w >= 24:
            w *= 2
        found.add(w)
    return sorted(found)


def check(spark, times, values, w):
    """None when the sparkline agrees with the census values at width w, else why."""
    first = times[0]
    if len(spark) != (times[-1] - first) // w + 1 and not any(
            len(spark) == (times[-1] + d - first) // w + 1 for d in (-SLOP_NS, SLOP_NS)):
        return "%d cells, not %d at width %d ns" % (len(spark), (times[-1] - first) // w + 1, w)
    peak = max(values)

    def slots(t):
        return {min(max((t + d - first) // w, 0), len(spark) - 1)
                for d in (-SLOP_NS, 0, SLOP_NS)}
    if peak == 0:
        return None
    at_peak = [t for t, v in zip(times, values) if v == peak]
    if not any(spark[c] == "█" for t in at_peak for c in slots(t)):
        return "no █ in the slot of its largest census (%.6f s)" % (at_peak[0] / 1e9)
    for t, v in zip(times, values):
        if 8 * v >= peak and all(spark[c] == "▁" for c in slots(t)):
            return "▁ at %.6f s, where it has %d of its peak %d bytes" % (t / 1e9, v, peak)
    return None


def main():
    ev2hp, tmp = sys.argv[1:3]
    failed = False
    for log in sys.argv[3:]:
        name = os.path.basename(log)
        js, sm = os.path.join(tmp, "spark.json"), os.path.join(tmp, "summary.json")
        md = subprocess.run([ev2hp, log, "--summary=markdown", "--bands", "0", "-o", js],
                            capture_output=True, text=True)
        if md.returncode or "| Band | Peak |" not in md.stdout:
            continue   # no heap profile (a time profile only): no band table
        with open(sm, "w") as out:
            subprocess.run([ev2hp, log, "--summary=json"], stdout=out, check=True,
                           stderr=subprocess.DEVNULL)
        doc, summary = json.load(open(js)), json.load(open(sm))
        times = [round(c["time_s"] * 1e9) for c in doc["censuses"]]
        labels = {b["id"]: b["label"] for b in doc["bands"]}
        column = {i: [0] * len(times) for i in labels}
        for k, c in enumerate(doc["censuses"]):
            for band, value in c["entries"]:
                column[band][k] += value
        by_label = {}
        for i, label in labels.items():
            by_label.setdefault(label, []).append(i)
        # every band's sparkline (the JSON summary lists them all) against its census values
        bad, checked = 0, 0
        spark_of = {}
        for band in summary["bands"]:
            label, spark = band["label"], band["sparkline"]
            ids = by_label.get(label, [])
            if len(ids) != 1:
                continue   # bands with one label cannot be told apart here
            spark_of[label] = spark
            checked += 1
            values = column[ids[0]]
            why = [check(spark, times, values, w) for w in widths(times[-1] - times[0])]
            if all(why):
                print("FAIL: %s: %s: %s %s" % (name, label, spark, why[0]))
                bad += 1
        # and the Markdown shows the same sparklines
        shown = sparklines(md.stdout)
        for label, spark in shown.items():
            if label in spark_of and spark_of[label] != spark:
                print("FAIL: %s: %s: Markdown %s, JSON %s" % (name, label, spark, spark_of[label]))
                bad += 1
        failed |= bad > 0
        if not bad:
            print("ok: %s: %d of %d sparklines agree with %d censuses (%d in Markdown alike)"
                  % (name, checked, len(summary["bands"]), len(times), len(shown)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
