#!/usr/bin/env python3
"""report_groups.py KEY REPORT.html UNGROUPED.json GROUPED.json

The report's grouping control groups by the keys ev2hp writes into the report's data
(run.table.group_by: per key a table of group names and per band of the band table the
index of its group, -1 for a band the key says nothing of). Those keys must be
--group-by's: every band of REPORT (ev2hp INPUT -o REPORT.html) is matched to its band
in UNGROUPED (ev2hp INPUT -o UNGROUPED.json) by its label as the runtime wrote it, the
bands are summed per census by the report's keys, and the sums must be the censuses of
GROUPED (ev2hp --group-by KEY INPUT -o GROUPED.json): the same groups under the same
labels, the same bytes in every census. A band the key says nothing of stays a group of
its own, under its own label. With KEY "none": REPORT must have no keys at all.
Exit 0 and a line saying how much agrees; 1 and what differs.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_table import unpack_table  # noqa: E402


def report_data(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="ev2hp-data">\n(.*?)\n</script>', text, re.S)
    if not m:
        sys.exit("%s: no report data" % path)
    return json.loads(m.group(1))


def main(key, report, ungrouped, grouped):
    data = report_data(report)
    table = unpack_table(data["run"]["table"]) if data["run"].get("table") else {}
    group_by = table.get("group_by")
    if key == "none":
        if group_by is not None:
            return "the report has grouping keys: %s" % [k["key"] for k in group_by["keys"]]
        if '"group_by"' in open(report, encoding="utf-8").read():
            return "the report's data names group_by"
        print("no keys, as wanted")
        return None
    if not group_by:
        return "the report has no grouping keys"
    keys = {k["key"]: k for k in group_by["keys"]}
    if key not in keys:
        return "the report has no key %r (it has %s)" % (key, sorted(keys))
    k = keys[key]
    rows = table["bands"]
    if len(k["of"]) != len(rows):
        return "%d indices for %d bands" % (len(k["of"]), len(rows))
    if len({n for n, _ in k["names"]}) != len(k["names"]):
        return "a group name twice"
    u, g = json.load(open(ungrouped)), json.load(open(grouped))
    # a band is matched by the label the report shows (the export's without the "(n)" of
    # a stack), then by the label as the runtime wrote it, then by its peak: two stacks
    # cut to the same text stay two bands (a wrong match can only fail the sums below)
    by_label = {}
    for b in u["bands"]:
        by_label.setdefault(re.sub(r"^\(\d+\)", "", b["label"]), []).append(b)
    peak = {}
    for c in u["censuses"]:
        for band, size in c["entries"]:
            peak[band] = max(peak.get(band, 0), size)
    group_of = {}  # ungrouped band id -> group label
    for row, i in zip(rows, k["of"]):
        label, raw = row[0], row[1]
        found = [b for b in by_label.get(label, []) if b["id"] not in group_of]
        for narrower in (lambda b: b["hp_label"] == (raw if raw is not None else label),
                         lambda b: peak.get(b["id"]) == row[4]):
            if len(found) > 1 and any(narrower(b) for b in found):
                found = [b for b in found if narrower(b)]
        if not found:
            return "band %r: not in the JSON export" % label
        if i < -1 or i >= len(k["names"]):
            return "band %r: group index %d out of range" % (label, i)
        group_of[found[0]["id"]] = k["names"][i][0] if i >= 0 else found[0]["label"]
    label = {b["id"]: b["label"] for b in g["bands"]}
    for n, (cu, cg) in enumerate(zip(u["censuses"], g["censuses"])):
        want = {}
        for band, size in cu["entries"]:
            if band not in group_of:
                return "census %d: band %r is not in the report's table" % (n, band)
            want[group_of[band]] = want.get(group_of[band], 0) + size
        got = {label[band]: size for band, size in cg["entries"]}
        if got != want:
            diff = sorted(x for x in set(got) | set(want) if got.get(x) != want.get(x))
            return "census %d: group %r: --group-by %r, the report's keys sum to %r" % (
                n, diff[0], got.get(diff[0]), want.get(diff[0]))
    if len(u["censuses"]) != len(g["censuses"]):
        return "%d censuses, grouped %d" % (len(u["censuses"]), len(g["censuses"]))
    names = {n for n, _ in k["names"]}
    missing = names - set(label.values())
    if missing:
        return "groups of the report that --group-by has not: %r" % sorted(missing)[:3]
    print("same: %s: %d named groups of %d bands, %d censuses" % (
        key, len(names), len(rows), len(u["censuses"])))
    return None


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    why = main(*sys.argv[1:])
    if why:
        print(why)
        sys.exit(1)
