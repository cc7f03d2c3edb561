#!/usr/bin/env python3
"""hpcheck.py RUNTIME.hp OURS.hp [--prefix]

The project's oracle: do the censuses ev2hp wrote from an eventlog equal the censuses the
GHC runtime wrote to its own .hp in the same run?

By the rules of the runtime's two outputs (see ../shared/corpus/README.md):
- sample times differ by design (mutator CPU seconds against elapsed time): not compared,
  but ours must not go backwards;
- empty samples (the runtime's first and last) are left out on both sides;
- the "(ccsID)" prefix of -hc labels is dropped (the eventlog does not record it, ev2hp
  numbers stacks itself), and so is the "MANY" retainer band (never in the eventlog);
- labels, byte counts and the order of censuses must be equal. An entry order inside a
  census may differ, so each census is compared as a multiset of (label, bytes).
With --prefix (an eventlog cut short) ours may hold fewer censuses, each equal in order.
With --subset PCT (an eventlog the runtime damaged) ours may skip censuses anywhere, but
each must equal, in order, a census of the runtime (none forged), and at least PCT percent
of the runtime's must be there.
Exit 0 and "same ..." when they agree; 1 and what differs otherwise.
"""
import re
import sys
from collections import Counter

NUMBERED = re.compile(r"^\(\d+\)")


def censuses(path):
    """The non-empty censuses of a .hp file and whether its header is complete."""
    found, current, header = [], None, set()
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            word = line.split(" ", 1)[0]
            if word in ("JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT") and current is None:
                header.add(word)
            elif word == "BEGIN_SAMPLE":
                current = (float(line.split()[1]), Counter())
            elif word == "END_SAMPLE":
                if current is None:
                    sys.exit("%s:%d: END_SAMPLE outside a sample" % (path, number))
                found.append(current)
                current = None
            elif current is not None and "\t" in line:
                label, value = line.rsplit("\t", 1)
                label = NUMBERED.sub("", label)
                if label != "MANY":
                    current[1][label] += int(value)
            elif word == "MARK" or not line.strip():
                continue
            else:
                sys.exit("%s:%d: unexpected line %r" % (path, number, line[:80]))
    return header, found


def subset(expected, got, percent):
    """--subset: got is expected with censuses left out, and no fewer than percent of it."""
    i = 0
    for n, census in enumerate(got, 1):
        while i < len(expected) and expected[i] != census:
            i += 1
        if i == len(expected):
            print("differ: census %d of ours (%d entries) is no later census of the runtime "
                  "(forged)" % (n, len(census)))
            sys.exit(1)
        i += 1
    share = 100.0 * len(got) / len(expected) if expected else 100.0
    if share < percent:
        print("differ: %d of the runtime's %d censuses (%.1f %%), fewer than %g %%"
              % (len(got), len(expected), share, percent))
        sys.exit(1)
    print("subset %d of %d censuses (%.1f %%), none forged" % (len(got), len(expected), share))


def main():
    args = sys.argv[1:]
    percent = None
    if "--subset" in args:
        k = args.index("--subset")
        percent = float(args[k + 1])
        del args[k:k + 2]
    prefix = "--prefix" in args
    runtime_path, ours_path = [a for a in args if a != "--prefix"]
    _, runtime = censuses(runtime_path)
    header, ours = censuses(ours_path)
    problems = []
    missing = {"JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT"} - header
    if missing:
        problems.append("no %s line" % ", ".join(sorted(missing)))
    times = [t for t, _ in ours]
    if any(later < earlier for earlier, later in zip(times, times[1:])):
        problems.append("sample times go backwards")
    expected = [c for _, c in runtime if c]
    got = [c for _, c in ours if c]
    if percent is not None:
        if problems:
            print("differ: " + "; ".join(problems))
            sys.exit(1)
        subset(expected, got, percent)
        return
    if len(got) != len(expected) and not (prefix and len(got) <= len(expected)):
        problems.append("%d censuses, the runtime wrote %d" % (len(got), len(expected)))
    for i, (a, b) in enumerate(zip(expected, got), 1):
        if a != b:
            problems.append("census %d differs: only the runtime has %s, only ours has %s"
                            % (i, sorted((a - b).items())[:2], sorted((b - a).items())[:2]))
            break
    if problems:
        print("differ: " + "; ".join(problems))
        sys.exit(1)
    print("same %d censuses, %d entries" % (len(got), sum(len(c) for c in got)))


if __name__ == "__main__":
    main()
