"""hppeaks.py: each band's peak in a .hp the GHC runtime wrote, for the diff tests.

    hppeaks.py BASE.hp NOW.hp PREFIX...

prints "PREFIX=change;..." (for each band whose label starts with PREFIX: its peak in
NOW less its peak in BASE). Labels are the .hp's without the runtime's "(n)"; a label
the runtime cut ends in "...". Imported, peaks(path) and peak_of(peaks, label) serve
tests/diff_export.sh.
"""
import re
import sys


def bare(label):
    """A label without the stack number the runtime or ev2hp puts before it."""
    return re.sub(r"^\(\d+\)", "", label)


def peaks(path):
    """{label: largest bytes in any census} of a .hp."""
    found = {}
    for line in open(path):
        fields = line.split("\t")
        if len(fields) == 2 and not line.startswith(
                ("JOB", "DATE", "SAMPLE", "VALUE", "BEGIN", "END")):
            label = bare(fields[0])
            found[label] = max(found.get(label, 0), int(fields[1]))
    return found


def peak_of(found, label):
    """The peak of the band label names (whole, or cut at "..." by the runtime)."""
    label = bare(label)
    hits = [v for k, v in found.items()
            if k == label or (k.endswith("...") and label.startswith(k[:-3]))]
    assert len(hits) == 1, (label, hits)
    return hits[0]


if __name__ == "__main__":
    was, now = peaks(sys.argv[1]), peaks(sys.argv[2])
    out = []
    for prefix in sys.argv[3:]:
        [label] = [k for k in now if k.startswith(prefix)]
        out.append("%s=%d" % (prefix, now[label] - peak_of(was, label)))
    print(";".join(out))
