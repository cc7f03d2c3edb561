#!/usr/bin/env python3
"""groupcheck.py KEY UNGROUPED.json GROUPED.json [DUMP]

--group-by KEY merges bands exactly: every census of GROUPED (a JSON export made with
--group-by KEY) holds, for each group, the sum of the bytes of its members in the same
census of UNGROUPED (the JSON export of the same input without it), and nothing else.
A band's group is worked out here, independently of ev2hp: for -hi keys (type, closure,
module, file, location) from the IPE events of DUMP (ev2hp --dump of the input), for -hc
keys (cc, module) from the stack the JSON export gives each band. A band the key says
nothing of is a group of its own, under its own label. Exit 0 and a line saying how many
groups and censuses agree; 1 and what differs.
"""
import json
import re
import sys

IPE = re.compile(r' IPE info=(\d+) table_name="(.*?)" closure_desc="(.*?)" type_desc="(.*?)" '
                 r'label="(.*?)" module="(.*?)" srcloc="(.*?)" src_span="(.*?)"$')


def ipe_keys(dump, key):
    keys = {}
    for line in open(dump, encoding="utf-8", errors="replace"):
        m = IPE.search(line.rstrip("\n"))
        if not m:
            continue
        info, _, closure, typ, _, module, srcloc, span = m.groups()
        if not span and srcloc.endswith(":"):
            srcloc = srcloc[:-1]
        if key == "type":
            k = typ
        elif key == "closure":
            k = "closure type " + closure if closure.isdigit() else closure
        elif key == "module":
            k = module
        elif key == "file":
            k = srcloc if span else srcloc.split(":", 1)[0]
            k = "" if k.startswith("<") else k
        else:
            k = srcloc + ":" + span if span else srcloc
        keys["0x%x" % int(info)] = k or None
    return keys


def stack_key(band, key):
    stack = band.get("stack")
    if not stack:
        return None
    cc = stack[0]
    if key == "module":
        return cc["module"] or None
    return (cc["module"] + "." if cc["module"] else "") + cc["label"]


def main(key, ungrouped, grouped, dump=None):
    u, g = json.load(open(ungrouped)), json.load(open(grouped))
    ipe = ipe_keys(dump, key) if dump else {}
    group_of = {}
    for b in u["bands"]:
        k = ipe.get(b["hp_label"]) if dump else None
        if k is None and key in ("cc", "module"):
            k = stack_key(b, key)
        group_of[b["id"]] = k if k is not None else b["label"]
    label = {b["id"]: b["label"] for b in g["bands"]}
    if len(set(label.values())) != len(label):
        return "two groups with one label"
    if len(u["censuses"]) != len(g["censuses"]):
        return "%d censuses, grouped %d" % (len(u["censuses"]), len(g["censuses"]))
    for n, (cu, cg) in enumerate(zip(u["censuses"], g["censuses"])):
        want = {}
        for band, size in cu["entries"]:
            want[group_of[band]] = want.get(group_of[band], 0) + size
        got = {}
        for band, size in cg["entries"]:
            if label[band] in got:
                return "census %d: group %r twice" % (n, label[band])
            got[label[band]] = size
        if got != want:
            diff = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
            return "census %d: %r: grouped %r, members sum to %r" % (
                n, diff[0], got.get(diff[0]), want.get(diff[0]))
    print("same: %d groups of %d bands, %d censuses" % (len(label), len(u["bands"]),
                                                       len(u["censuses"])))
    return None


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    why = main(*sys.argv[1:])
    if why:
        print(why)
        sys.exit(1)
