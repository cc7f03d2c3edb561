#!/bin/sh
# report_size.sh: the HTML report of a dense -hc run stays small (issue 39). The report's
# band table keeps every band, and the bands folded into OTHER carry their bytes at up to
# 256 points each (sink_html.c, TABLE_POINTS): written as decimal arrays they made the
# 115 MB class's report 1.06 MiB. They are packed (write_packed_counts: base-32 digits,
# differences, runs of zeros), and read back by the page (kit.js, unpackCounts).
#   - the 115 MB class itself, bench.sh's gen-hc-128M (`gen_eventlog -s 128 -k stack`:
#     5,087 censuses of 396 -hc bands, 381 folded), generated into a pipe (no 134 MB on
#     disk; about a second): its report of every band (--group-by none: never grouped by
#     default) is under 1 MiB;
#   - a smaller dense log (`gen_eventlog -s 16 -k stack`: the same 396 bands, 381 folded
#     at the table's 256 points, 636 censuses): the folded values take at most 2 bytes a
#     value (decimal: 3.6); decoded as the page decodes them, they sum to OTHER at each of
#     the table's points (kept censuses), and the table has every band of the JSON export,
#     under its label there (rebuilt from frame indices as the page does: report_table.py).
#   - the many-band dense variant (`gen_eventlog -s 115 -b 4000 -n 60`: 3,770 stacks,
#     3,755 folded, --group-by stack to keep every band; about a second into a pipe): its
#     labels are written as indices into one table of frame texts (sink/stacklabels.h),
#     each frame once, and its folded values in units of 8 bytes, each a difference from
#     the band's last value: the report is under 2.5 MB (it was 3.99 MB with the labels
#     written whole and the values as counts). The page's labels are the
#     old ones byte for byte (report_table.py rebuilds them as kit.js does; report.sh,
#     groups_browser.sh and report_groups.sh read them in the page).
# The page drawing and finding folded bands from the packed values is tests/report.sh's
# (data-hi-many: the smallest of 13,276 found and drawn) and tests/groups_browser.sh's
# (a generated run's groups at the folded bands' points, against --group-by).
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
gen="$(dirname "$EV2HP")/tests/bench/gen_eventlog"

"$gen" -s 128 -k stack /dev/stdout | "$EV2HP" -q --group-by none - -o "$tmp/class.html" ||
    fail "gen_eventlog -s 128 | ev2hp -o report.html"
size=$(wc -c <"$tmp/class.html")
[ "$size" -lt 1048576 ] ||
    fail "the report of the 115 MB class (gen_eventlog -s 128 -k stack) is $size bytes, not under 1 MiB"

"$gen" -s 115 -b 4000 -n 60 /dev/stdout |
    "$EV2HP" -q --group-by stack - -o "$tmp/many.html" || fail "gen_eventlog -b 4000 | ev2hp"
many=$(wc -c <"$tmp/many.html")
[ "$many" -lt 2500000 ] ||
    fail "the report of 4,000 dense bands (gen_eventlog -s 115 -b 4000 -n 60) is $many bytes"
verdict=$("$PYTHON3" - "$tmp/many.html" 2>&1 <<'EOF'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
table = json.loads(re.search(r'id="ev2hp-data">\n(.*?)\n</script>', page, re.S).group(1))["run"]["table"]
text = [r[0] for r in table["bands"] if not isinstance(r[0], list)]
if len(table["bands"]) < 3000 or len(text) > 1:   # OTHER
    sys.exit("%d of %d labels written whole" % (len(text), len(table["bands"])))
print("%d stack labels of %d frames" % (len(table["bands"]) - len(text), len(table["frames"])))
EOF
) || fail "4,000 dense bands: $verdict"

"$gen" -s 16 -k stack "$tmp/small.eventlog" >/dev/null || fail "gen_eventlog -s 16"
"$EV2HP" -q --group-by none "$tmp/small.eventlog" -o "$tmp/small.html" -o "$tmp/small.json" ||
    fail "ev2hp -o small.html -o small.json"
verdict=$("$PYTHON3" - "$tmp/small.html" "$tmp/small.json" "$SRCDIR/tests" 2>&1 <<'EOF'
import json, re, sys
sys.path.insert(0, sys.argv[3])
from report_table import unpack_counts, unpack_table
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'id="ev2hp-data">\n(.*?)\n</script>', page, re.S).group(1))
export = json.load(open(sys.argv[2], encoding="utf-8"))  # every band of the run
run = data["run"]
table = run["table"]
if len(table["bands"]) != len(export["bands"]):
    sys.exit("the table has %d bands, the export %d" % (len(table["bands"]), len(export["bands"])))
folded = [r for r in table["bands"] if r[3] < 0]
packed = sum(len(r[10]) for r in folded)
values = len(folded) * len(table["t"])
if len(table["t"]) != 256 or len(folded) < 300:
    sys.exit("%d folded bands at %d points: not the dense shape" % (len(folded), len(table["t"])))
sums = [0] * len(table["t"])
for r in folded:
    if not isinstance(r[10], str):
        sys.exit("%s: its values are not packed" % r[0])
    got = unpack_counts(r[10], table["unit"])
    if len(got) != len(sums):
        sys.exit("%s: %d values unpacked, not %d" % (r[0], len(got), len(sums)))
    sums = [a + b for a, b in zip(sums, got)]
# OTHER is the folded bands' sum at every kept census, and the table's times are kept ones
other = next(i for i, b in enumerate(run["bands"]) if b.get("other"))
at = {t: i for i, t in enumerate(run["t"])}
want = [run["v"][other][at[t]] for t in table["t"]]
if sums != want:
    c = next(c for c in range(len(sums)) if sums[c] != want[c])
    sys.exit("at %g s the folded bands unpacked sum to %d, OTHER is %d" % (table["t"][c], sums[c], want[c]))
if packed > 2 * values:
    sys.exit("%d folded values take %d bytes (over 2 a value)" % (values, packed))
# the labels the page rebuilds from frame indices are the export's, byte for byte
labels = sorted(r[0] for r in unpack_table(table)["bands"])
want = sorted(re.sub(r"^\(\d+\)", "", b["label"]) for b in export["bands"])
if labels != want:
    sys.exit("labels differ: %r" % sorted(set(labels) ^ set(want))[:2])
print("%d folded bands x %d points in %d bytes" % (len(folded), len(table["t"]), packed))
EOF
) || fail "small dense log: $verdict"
echo "report_size.sh: the 115 MB class's report $size bytes, 4,000 bands' $many; $verdict"
exit $failed
