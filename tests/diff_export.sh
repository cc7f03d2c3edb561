#!/bin/sh
# diff_export.sh: --compare with --view diff never invents change (issue 39, item 3).
#
# Two real GHC 9.10 -hc runs of one program whose lengths differ 2.3x
# (tests/data/diff/README.md: the leak bands loop and busy grow, the band kept halves):
# - by default the diff is aligned by progress, and the SVG's subtitle says so and why;
# - the diff CSV (-o x.csv) has, per band, no step larger than its steady steps (none at
#   the shorter run's end), and each band's last value is its change at the peak within
#   10 %, the peaks taken from the runtime's own .hp of each run; the band that halved
#   stays negative all along; the JSON export (-o x.json) has the same numbers;
# - the SVG's lines have no jump either, and in the decoded PNG the halved band's line
#   lies below the zero line all along while the leak's ends above it;
# - --align time still works: the CSV stops at the shorter run's last census and the
#   subtitle says where the lines stop.
# Edge cases written by tests/diff_runs (the test eventlog writer), every value known:
# runs of equal length stay aligned by time, with exact values; a run of one census is
# compared at that moment only (by time, whatever --align asks); a census outside the
# other run's span gives no rows and says so.
. "${SRCDIR:?}/tests/testlib.sh"
d="$data/diff"
runs="$(dirname "$EV2HP")/tests/diff_runs"
base="$d/diffpair-k1-hc.eventlog" now="$d/diffpair-k2-hc.eventlog"

run 0 "$now" --compare "$base" --view diff -o "$tmp/d.csv" -o "$tmp/d.json" -o "$tmp/d.svg" \
    -o "$tmp/d.png"
[ -s "$tmp/err" ] && fail "default diff: stderr: $(cat "$tmp/err")"
grep -q 'aligned by share of each run (progress): the runs.* lengths, 3.31 s and 7.68 s, differ by more than a fifth' \
    "$tmp/d.svg" || fail "default diff: the subtitle does not say progress and why"
run 0 "$now" --compare "$base" --view diff --align time -o "$tmp/t.csv" -o "$tmp/t.svg"
grep -q 'aligned by time (--align time), where both runs have censuses: 0.07 s to 3.38 s; this run goes on to 7.75 s' \
    "$tmp/t.svg" || fail "--align time: the subtitle does not say where the lines stop"
# a long BASE path gives way, cut in its middle, to the words on the alignment
long="$tmp/a-folder-with-a-long-name-to-hold-the-base-run-of-this-comparison"
long="$long/and-another-one-inside-it-as-build-trees-have/and-a-third"
mkdir -p "$long" && cp "$base" "$long/base.eventlog"
run 0 "$now" --compare "$long/base.eventlog" --view diff --align time -o "$tmp/long.svg"
grep -q "this run minus $tmp/a-folder[^<]*…[^<]*/base.eventlog, band by band, aligned by time (--align time), where both runs have censuses: 0.07 s to 3.38 s; this run goes on to 7.75 s<" \
    "$tmp/long.svg" || fail "a long BASE path: the subtitle's alignment words are cut"

"$PYTHON3" - "$tmp" "$d" "$SRCDIR/tests" <<'PY' || fail "the diff of the real runs"
import csv, json, re, sys
tmp, d = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from hppeaks import bare, peaks, peak_of
bad = []

def table(path):
    rows = list(csv.reader(open(path, newline="")))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]

was, now = peaks(d + "/diffpair-k1-hc.hp"), peaks(d + "/diffpair-k2-hc.hp")
head, rows = table(tmp + "/d.csv")
if head[0] != "progress":
    bad.append("the default CSV's first column is %r, not progress" % head[0])
xs = [r[0] for r in rows]
if not rows or xs[0] != 0 or xs[-1] != 1 or xs != sorted(xs):
    bad.append("progress does not run from 0 to 1: %s ... %s" % (xs[:2], xs[-2:]))
checked = {}
for j, name in enumerate(head[1:], 1):
    short = bare(name).split("/")[0]
    if short not in ("loop", "busy", "kept"):
        continue
    col = [r[j] for r in rows]
    steps = sorted(abs(b - a) for a, b in zip(col, col[1:]))
    steady = steps[int(len(steps) * 0.9)]
    change = peak_of(now, name) - peak_of(was, name)
    # no jump: no step more than 3 times the band's 90th-percentile step (and 1 % of its
    # change, for a band that holds still)
    if steps[-1] > 3 * steady + 0.01 * abs(change):
        bad.append("%s: a step of %d bytes, its steady steps %d" % (short, steps[-1], steady))
    if abs(col[-1] - change) > 0.1 * abs(change):
        bad.append("%s: the last value %d, its change at the peak %d" % (short, col[-1], change))
    checked[short] = (col[-1], change)
if checked.get("kept", (0, 0))[1] >= 0 or len(checked) != 3:
    bad.append("the three bands, kept halved: %s" % checked)
kept = [r[head.index(next(h for h in head if "kept/" in h))] for r in rows]
if max(kept) >= 0:
    bad.append("the halved band kept is not negative all along: max %d" % max(kept))

# the JSON export: the same alignment, bands and numbers
j = json.load(open(tmp + "/d.json"))
if (j["align"], j["align_reason"]) != ("progress", "lengths_differ"):
    bad.append("JSON alignment %s %s" % (j["align"], j["align_reason"]))
if [b["label"] for b in j["bands"]] != head[1:] or len(j["points"]) != len(rows) or any(
        abs(p[0] - r[0]) > 1e-6 or p[1:] != [int(v) for v in r[1:]]
        for p, r in zip(j["points"], rows)):
    bad.append("the JSON export's bands or points are not the CSV's")
for b in j["bands"]:
    short = bare(b["label"]).split("/")[0]
    if short in checked and b["change_at_peak_bytes"] != checked[short][1]:
        bad.append("JSON: %s changed %d at the peak, the .hp says %d"
                   % (short, b["change_at_peak_bytes"], checked[short][1]))

# the SVG's lines: no jump either (y in layout units, largest step against steady ones)
svg = open(tmp + "/d.svg").read()
paths = re.findall(r'<path class="band" d="M([^"]*)"[^>]*>\s*<title>([^<]*)</title>', svg)
if len(paths) < 3:
    bad.append("the SVG draws %d lines" % len(paths))
for d_attr, title in paths:
    ys = [float(v) for v in re.findall(r"-?[\d.]+", d_attr)[1::2]]
    steps = sorted(abs(b - a) for a, b in zip(ys, ys[1:]))
    if steps and steps[-1] > 3 * steps[int(len(steps) * 0.9)] + 2:
        bad.append("SVG %s: a jump of %.1f units" % (title, steps[-1]))

# the PNG, decoded: the halved band's line (its SVG stroke) lies below the zero line all
# along, the largest growth's (loop) ends above it
sys.path.insert(0, sys.argv[3])
import pngread
zero = float(re.search(r'<path class="zero" d="M([\d.]+) ([\d.]+)L([\d.]+)', svg).group(2))
left, right = (float(v) for v in re.search(r'<path class="zero" d="M([\d.]+) [\d.]+L([\d.]+)',
                                             svg).groups())
def stroke(prefix):
    m = re.search(r'<path class="band"[^>]*stroke="#(\w{6})"[^>]*><title>' + re.escape(prefix), svg)
    return tuple(int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4))
w, h, px = pngread.read(tmp + "/d.png")
def rows_of(colour, x0, x1):
    return [y for x in range(int(x0), int(x1)) for y in range(h)
            if all(abs(a - b) <= 24 for a, b in zip(px(x, y), colour))]
kept_rows = rows_of(stroke("kept/"), left, right)
if not kept_rows or min(kept_rows) <= zero + 1:
    bad.append("PNG: the halved band's line reaches the zero line or above (rows %s, zero %s)"
               % (min(kept_rows or [0]), zero))
loop_rows = rows_of(stroke("loop/"), right - 20, right)
if not loop_rows or max(loop_rows) >= zero - 1:
    bad.append("PNG: loop's line does not end above the zero line")

# --align time: the rows stop at the shorter run's last census (the base's, 3.38 s)
head, rows = table(tmp + "/t.csv")
if head[0] != "time_s" or abs(rows[-1][0] - 3.377) > 0.01 or rows[0][0] < 0.07:
    bad.append("--align time: %s from %s to %s" % (head[0], rows[0][0], rows[-1][0]))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# Edge cases, every value known: grow rises linearly from 0 to GROW, hold stays HOLD.
"$runs" 10 0.1 1.0 1000 2000 "$tmp/eq-base.eventlog" &&
    "$runs" 10 0.1 1.05 3000 1000 "$tmp/eq-now.eventlog" &&
    "$runs" 1 0.5 0.5 1000 2000 "$tmp/one.eventlog" &&
    "$runs" 1 2.0 2.0 1000 2000 "$tmp/late.eventlog" || fail "diff_runs"
# equal lengths (0.9 s and 0.95 s): by time, over 0.1 to 1.0 s
run 0 "$tmp/eq-now.eventlog" --compare "$tmp/eq-base.eventlog" --view diff -o "$tmp/eq.csv" \
    -o "$tmp/eq.svg" -o "$tmp/eq.json"
grep -q 'aligned by time (lengths within a fifth), where both runs have censuses: 0.10 s to 1.00 s; this run goes on to 1.05 s' \
    "$tmp/eq.svg" || fail "equal lengths: not aligned by time, or not said"
grep -q '"align": "time", "align_reason": "lengths_close"' "$tmp/eq.json" ||
    fail "equal lengths: JSON alignment: $(head -c 400 "$tmp/eq.json")"
# one census in the base: compared at its moment only, by time even when progress is asked
run 0 "$tmp/eq-now.eventlog" --compare "$tmp/one.eventlog" --view diff --align progress \
    -o "$tmp/one.csv" -o "$tmp/one.svg"
grep -q 'aligned by time (the base has one census, no length to share out)' "$tmp/one.svg" ||
    fail "one census: the subtitle does not say why by time"
# a census outside the other run: no moment in common, said, no rows
run 0 "$tmp/eq-now.eventlog" --compare "$tmp/late.eventlog" --view diff -o "$tmp/late.csv" \
    -o "$tmp/late.svg"
grep -q 'the runs have no moment in common: nothing to compare' "$tmp/late.svg" ||
    fail "a census outside the other run: not said"
"$PYTHON3" - "$tmp" <<'PY' || fail "the edge cases' numbers"
import csv, sys
tmp = sys.argv[1]
bad = []
def table(name):
    rows = list(csv.reader(open(tmp + "/" + name, newline="")))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]
def grow(t, first, last, top):   # the writer's band: linear, truncated to whole bytes
    return int((t - first) / (last - first) * top) if last > first else 0
head, rows = table("eq.csv")
if head != ["time_s", "(1)grow", "(2)hold"]:
    bad.append("equal lengths: header %s" % head)
if not rows or rows[0][0] != 0.1 or rows[-1][0] != 1.0:
    bad.append("equal lengths: rows from %s to %s, want 0.1 to 1.0" % (rows[0][0], rows[-1][0]))
# at the base's censuses (0.1 s apart) the base is exact; now is linear between its own
for t, g, h in rows:
    i = round((t - 0.1) / 0.1)
    if abs(t - (0.1 + i * 0.1)) > 1e-6:
        continue
    want = (t - 0.1) / 0.95 * 3000 - grow(t, 0.1, 1.0, 1000)
    if abs(g - want) > 2 or h != -1000:
        bad.append("equal lengths at %s: %s %s, want %.0f -1000" % (t, g, h, want))
head, rows = table("one.csv")
want = (0.5 - 0.1) / 0.95 * 3000
if head[0] != "time_s" or len(rows) != 1 or rows[0][0] != 0.5 or abs(rows[0][1] - want) > 2 \
        or rows[0][2] != -1000:
    bad.append("one census: %s %s, want one row at 0.5 s: %.0f -1000" % (head, rows, want))
head, rows = table("late.csv")
if head[0] != "time_s" or rows:
    bad.append("a census outside the other run: %s %s" % (head, rows))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# --view diff without --compare is a usage mistake, for the data as for the picture
run 2 "$base" --view diff -o "$tmp/alone.csv"
grep -q 'give one with --compare BASE' "$tmp/err" || fail "--view diff alone: $(cat "$tmp/err")"
exit $failed
