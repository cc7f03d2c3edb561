#!/bin/sh
# csv_spreadsheet.sh: band labels that a spreadsheet would run, and bytes that are not
# UTF-8, in the CSV and the folded stacks. A .hp (inputs may be .hp) whose bands are named
# =1+1, =HYPERLINK(...), +cmd|' /C calc'!A0, -2+3, @SUM(1,2) (OWASP's CSV injection) and
# one with a byte that is no UTF-8:
#   - the CSV opened by a real spreadsheet engine, gnumeric's ssconvert, reads every
#     header cell as the label's text (no formula evaluated: =1+1 is not 2, the
#     HYPERLINK not "y"), the bad byte as U+FFFD; the CSV is valid UTF-8 and RFC 4180
#     (Python's csv module reads each formula-like label with its one leading apostrophe);
#   - the folded stacks are valid UTF-8, the bad byte U+FFFD.
# Skipped (77) without ssconvert (bootstrap installs gnumeric).
set -u
. "${SRCDIR:?}/tests/testlib.sh"
skip_without ssconvert

{
    printf 'JOB "prog +RTS -hc -RTS"\nDATE "now"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
    for i in 1 2 3; do
        printf 'BEGIN_SAMPLE %d.0\n' "$i"
        printf '=1+1\t%d\n' $((i * 900))
        printf '=HYPERLINK("http://example.org","y")\t%d\n' $((i * 800))
        printf "+cmd|' /C calc'!A0\t%d\n" $((i * 700))
        printf -- '-2+3\t%d\n' $((i * 600))
        printf '@SUM(1,2)\t%d\n' $((i * 500))
        printf 'bad\377byte/outer\t%d\n' $((i * 400))
        printf 'END_SAMPLE %d.0\n' "$i"
    done
} >"$tmp/evil.hp"
run 0 "$tmp/evil.hp" -o "$tmp/evil.csv" -o "$tmp/evil.folded"

# gnumeric's values of the header row: what a person opening the CSV sees
ssconvert -T Gnumeric_stf:stf_csv "$tmp/evil.csv" "$tmp/seen.csv" >/dev/null 2>&1 ||
    fail "ssconvert cannot read the CSV"
"$PYTHON3" - "$tmp/evil.csv" "$tmp/seen.csv" <<'PY' || fail "the CSV's labels act in a spreadsheet"
import csv, sys
labels = ["=1+1", '=HYPERLINK("http://example.org","y")', "+cmd|' /C calc'!A0", "-2+3",
          "@SUM(1,2)", "bad\ufffdbyte/outer"]
raw = open(sys.argv[1], "rb").read().decode("utf-8")   # strict: valid UTF-8
header = next(csv.reader(raw.splitlines()))
want = ["time_s"] + ["'" + l if l[0] in "=+-@" else l for l in labels]
assert header == want, (header, want)
seen = next(csv.reader(open(sys.argv[2], encoding="utf-8")))
assert seen == ["time_s"] + labels, seen
PY
"$PYTHON3" - "$tmp/evil.folded" <<'PY' || fail "the folded stacks are not valid UTF-8"
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")   # strict
assert "outer;bad\ufffdbyte 1200" in text.splitlines(), text
PY
exit $failed
