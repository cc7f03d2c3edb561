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

# GHC 9.2 to 9.14's rts/include/rts/storage/ClosureTypes.h, in order: a closure type the
# IPE event gives as a number is named by it (9.2 to 9.4 end at SMALL_MUT_ARR_PTRS_FROZEN_
# CLEAN and COMPACT_NFDATA, 9.6 adds CONTINUATION, 9.14 ANN_FRAME).
CLOSURE_TYPES = """INVALID_OBJECT CONSTR CONSTR_1_0 CONSTR_0_1 CONSTR_2_0 CONSTR_1_1 CONSTR_0_2
CONSTR_NOCAF FUN FUN_1_0 FUN_0_1 FUN_2_0 FUN_1_1 FUN_0_2 FUN_STATIC THUNK THUNK_1_0
THUNK_0_1 THUNK_2_0 THUNK_1_1 THUNK_0_2 THUNK_STATIC THUNK_SELECTOR BCO AP PAP AP_STACK IND
IND_STATIC RET_BCO RET_SMALL RET_BIG RET_FUN UPDATE_FRAME CATCH_FRAME UNDERFLOW_FRAME
STOP_FRAME BLOCKING_QUEUE BLACKHOLE MVAR_CLEAN MVAR_DIRTY TVAR ARR_WORDS MUT_ARR_PTRS_CLEAN
MUT_ARR_PTRS_DIRTY MUT_ARR_PTRS_FROZEN_DIRTY MUT_ARR_PTRS_FROZEN_CLEAN MUT_VAR_CLEAN
MUT_VAR_DIRTY WEAK PRIM MUT_PRIM TSO STACK TREC_CHUNK ATOMICALLY_FRAME CATCH_RETRY_FRAME
CATCH_STM_FRAME WHITEHOLE SMALL_MUT_ARR_PTRS_CLEAN SMALL_MUT_ARR_PTRS_DIRTY
SMALL_MUT_ARR_PTRS_FROZEN_DIRTY SMALL_MUT_ARR_PTRS_FROZEN_CLEAN COMPACT_NFDATA CONTINUATION
ANN_FRAME""".split()
RTS = re.compile(r'RTS_IDENTIFIER .*?"GHC-(\d+)\.(\d+)')


def closure_name(number, version):
    """The name of closure type number for GHC version (major, minor); None if unknown."""
    if not version or version[0] != 9 or not 2 <= version[1] <= 14:
        return None
    count = 66 if version[1] >= 14 else 65 if version[1] >= 6 else 64
    return CLOSURE_TYPES[number] if number < count else None


IPE = re.compile(r' IPE info=(\d+) table_name="(.*?)" closure_desc="(.*?)" type_desc="(.*?)" '
                 r'label="(.*?)" module="(.*?)" srcloc="(.*?)" src_span="(.*?)"$')


def ipe_keys(dump, key):
    keys, version = {}, None
    for line in open(dump, encoding="utf-8", errors="replace"):
        r = RTS.search(line)
        if r:
            version = (int(r.group(1)), int(r.group(2)))
        m = IPE.search(line.rstrip("\n"))
        if not m:
            continue
        info, _, closure, typ, _, module, srcloc, span = m.groups()
        if not span and srcloc.endswith(":"):
            srcloc = srcloc[:-1]
        if key == "type":
            k = typ
        elif key == "closure":
            if closure.isdigit():
                k = closure_name(int(closure), version) or "closure type " + closure
            else:
                k = closure
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
