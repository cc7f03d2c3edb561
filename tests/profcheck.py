#!/usr/bin/env python3
"""profcheck.py: ev2hp's folded stacks checked against the runtime's own .prof.

Usage: profcheck.py [--total-only] RUN.prof RUN.folded

The .prof of a `+RTS -P -l` run is an exact oracle: its second table is the tree of
cost-centre stacks (the nesting of its lines is the stack, MAIN the root), and each
line's individual `ticks` is the number of samples in the eventlog whose stack is that
path. The folded file has one line per stack, outermost frame first ("Module.label"
joined by ';', MAIN left out as the eventlog leaves it out; the empty stack is "MAIN"),
then the count. Every stack must agree both ways: each folded line is a .prof path with
the same ticks, and each .prof line with ticks is in the folded file.

A `+RTS -p` .prof has no ticks column: then each stack's share of the total must match
the .prof's individual %time as the runtime rounds it (one decimal), and the total ticks
of its header must equal the folded total.

--total-only checks the total alone. That is all that holds for the GHC 9.6 runs (-P and
-p) and the GHC 9.10 -p runs seen so far: the total ticks agree, but the .prof's per-stack
ticks or %time do not follow the eventlog's samples (queens.safe 2.0 % in a 9.10 .prof, 5
of 552 samples in its eventlog), so there the runtime's two outputs disagree with each
other. GHC 9.0.2 and 9.10.3 -P runs agree stack for stack. In `-threaded` runs with
several capabilities a few ticks can move between neighbouring stacks for the same reason
(the runtime reads each capability's current stack twice, racing with it).

Prints one line per disagreement and exits 1 when there is any; prints a one-line
account and exits 0 otherwise.
"""
import re
import sys


def read_prof(path):
    """The stacks of the .prof's tree: {path: ticks or %time}, the header's total ticks,
    and whether the tree has a ticks column."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    total = None
    for line in lines[:10]:
        m = re.search(r"\((\d+) ticks @", line)
        if m:
            total = int(m.group(1))
    header = None
    for i, line in enumerate(lines):
        if line.startswith("COST CENTRE") and " no. " in line:
            header = i
    if header is None:
        sys.exit("%s: no cost-centre tree" % path)
    has_ticks = "ticks" in lines[header].split()
    stacks = {}
    chain = []  # (indent, frame)
    for line in lines[header + 1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        fields = line.split()
        name, module = fields[0], fields[1]
        # name module src no. entries %time %alloc %time %alloc [ticks bytes]
        nums = fields[-6:] if has_ticks else fields[-4:]
        while chain and chain[-1][0] >= indent:
            chain.pop()
        frame = "%s.%s" % (module, name.replace(";", ":"))
        chain.append((indent, frame))
        frames = [f for _, f in chain][1:]  # the root MAIN is not in the eventlog
        key = ";".join(frames) if frames else "MAIN"
        value = int(fields[-2]) if has_ticks else float(nums[0])
        stacks[key] = stacks.get(key, 0) + value
    return stacks, total, has_ticks


def read_folded(path):
    folded = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                sys.exit("%s: line %d is not 'frames count': %r" % (path, n, line))
            folded[stack] = folded.get(stack, 0) + int(count)
    return folded


def main():
    args = sys.argv[1:]
    total_only = args[:1] == ["--total-only"]
    if total_only:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    prof, total, has_ticks = read_prof(args[0])
    folded = read_folded(args[1])
    bad = []
    folded_total = sum(folded.values())
    if total is not None and folded_total != total:
        bad.append("total: .prof %d ticks, folded %d" % (total, folded_total))
    if total_only:
        if total is None:
            bad.append("no total ticks in the .prof")
    elif has_ticks:
        for stack, count in folded.items():
            if prof.get(stack) != count:
                bad.append("%s: folded %d, .prof %s" % (stack, count, prof.get(stack)))
        for stack, ticks in prof.items():
            if ticks and stack not in folded:
                bad.append("%s: .prof %d ticks, not in the folded file" % (stack, ticks))
    else:
        for stack, pct in prof.items():
            share = 100.0 * folded.get(stack, 0) / folded_total if folded_total else 0
            if abs(share - pct) > 0.051:
                bad.append("%s: folded %.2f %%, .prof %.1f %%" % (stack, share, pct))
        for stack in folded:
            if stack not in prof:
                bad.append("%s: in the folded file, not in the .prof" % stack)
    for b in bad:
        print(b)
    if bad:
        return 1
    how = "total only" if total_only else "ticks" if has_ticks else "%time"
    print("%d stacks, %d ticks agree (%s)" % (len(folded), folded_total, how))
    return 0


if __name__ == "__main__":
    sys.exit(main())
