#!/bin/sh
# ci.sh: what a CI job gets, through the command line (issue 20).
#   --summary=markdown on a real run: a table, the same peak as --summary, a sparkline
#   per band, --bands rows; with --compare against a base at half the size, +100 %.
#   Gates: --max-increase 50 against that base is status 3, 150 status 0; --max-growth
#   is 3 on a run whose suspect grows faster, 0 on runs without suspects; a gate that
#   cannot be checked is status 1 and says why; every failing gate is reported and the
#   outputs are written. --junit validates against tests/junit.xsd with a failure per
#   failed gate. Labels with '|', backticks and <script> render as text (GitHub's own
#   renderer, cmark-gfm, when installed; a structural check of the table always). The
#   text summary draws sparklines on a UTF-8 locale only.
. "${SRCDIR:?}/tests/testlib.sh"
leak="$data/leak-hc.eventlog"
blocks='▁▂▃▄▅▆▇█'

# A .hp of the run at a factor of its size: every band's bytes multiplied by num/den.
scale_hp() {   # scale_hp IN OUT NUM DEN
    "$PYTHON3" - "$@" <<'PY'
import sys
src, dst, num, den = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(src, errors="surrogateescape") as f, open(dst, "w", errors="surrogateescape") as out:
    for line in f:
        if "\t" in line:
            label, value = line.rstrip("\n").rsplit("\t", 1)
            out.write(f"{label}\t{int(value) * num // den}\n")
        else:
            out.write(line)
PY
}

# --- Markdown on a real run ----------------------------------------------------------
LC_ALL=C "$EV2HP" --summary "$leak" > "$tmp/s.txt" || fail "text summary: status $?"
LC_ALL=C "$EV2HP" --summary=markdown "$leak" > "$tmp/s.md" || fail "markdown: status $?"
text_peak=$(sed -n 's/^peak       \(.*\)$/\1/p' "$tmp/s.txt")
md_peak=$(sed -n 's/^- \*\*Peak:\*\* \(.*\)$/\1/p' "$tmp/s.md")
[ -n "$text_peak" ] && [ "$text_peak" = "$md_peak" ] ||
    fail "markdown peak '$md_peak' is not the text summary's '$text_peak'"
grep -q '^| Band | Peak | Mean | Growth (whole run) | Over the run |$' "$tmp/s.md" || fail "no band table"
grep -q '^| :--- | ---: | ---: | ---: | :--- |$' "$tmp/s.md" || fail "no table alignment row"
bands=$(sed -n 's/^bands      \([0-9]*\),.*/\1/p' "$tmp/s.txt")
"$PYTHON3" - "$tmp/s.md" "$bands" "$blocks" <<'PY' || fail "markdown band rows"
import sys
md, bands, blocks = open(sys.argv[1]).read().split("\n"), int(sys.argv[2]), sys.argv[3]
start = md.index("| Band | Peak | Mean | Growth (whole run) | Over the run |") + 2
rows = []
for line in md[start:]:
    if not line.startswith("|"):
        break
    rows.append(line)
# every band of the run (13, fewer than --bands' 15), each with a sparkline of blocks
assert len(rows) == bands, (len(rows), bands)
for r in rows:
    spark = r.rstrip(" |").rsplit("| ", 1)[1]
    assert spark and all(c in blocks for c in spark), r
    assert "█" in spark, r      # each band reaches its own peak
PY
LC_ALL=C "$EV2HP" --summary=markdown --bands 3 "$leak" > "$tmp/b3.md" || fail "--bands 3: status $?"
rows=$(sed -n '/^| Band /,/^$/p' "$tmp/b3.md" | grep -c "^|")
[ "$rows" -eq 5 ] || fail "--bands 3: $rows table lines (a header, its rule and 3 bands wanted)"
grep -q '^3 of 13 bands' "$tmp/b3.md" || fail "--bands 3 does not say how many are left out"
grep -q '^- \*\*(8)buildMap' "$tmp/s.md" || fail "markdown: the suspect is not listed"
grep -q '^- 0.834584 s: phase\\: tree$' "$tmp/s.md" || fail "markdown: markers"

# --- the text summary: sparklines on a UTF-8 locale only -----------------------------
LC_ALL= LC_CTYPE= LANG=C.UTF-8 "$EV2HP" --summary "$leak" > "$tmp/u.txt" || fail "utf-8 summary"
grep -q "^ .*  [$blocks]\{13,24\}  *(8)buildMap" "$tmp/u.txt" || fail "UTF-8 text summary has no sparkline"
grep -q "[$blocks]" "$tmp/s.txt" && fail "C locale text summary has block characters"
LC_ALL=C LANG=C.UTF-8 "$EV2HP" --summary "$leak" | grep -q "[$blocks]" &&
    fail "LC_ALL=C does not override LANG"

# --- --compare against a base at half the size ---------------------------------------
scale_hp "$data/leak-hc.hp" "$tmp/half.hp" 1 2
LC_ALL=C "$EV2HP" --summary=markdown --compare "$tmp/half.hp" "$data/leak-hc.hp" \
    > "$tmp/c.md" || fail "compare: status $?"
grep -q '^| \*\*Peak\*\* | .* | .* | \*\*+100 %\*\* |$' "$tmp/c.md" || fail "compare: no +100 % peak row"
grep -q '^| ([0-9]*)lazySum/main | .* | .* | +100 % |$' "$tmp/c.md" || fail "compare: no +100 % band row"

# --- the guide's example (doc/guide.md, "In CI") is what ev2hp writes ---------------------
mkdir -p "$tmp/demo/base"
cp "$leak" "$tmp/demo/prog.eventlog"
scale_hp "$data/leak-hc.hp" "$tmp/demo/base/prog.eventlog" 3 4
(cd "$tmp/demo" && LC_ALL=C.UTF-8 "$EV2HP" prog.eventlog --compare base/prog.eventlog \
    --max-peak 512M --max-increase 10 --max-growth 1M/s --bands 5 --summary=markdown \
    > summary.md 2> /dev/null)
[ $? -eq 3 ] || fail "the guide's example: status"
sed -n '/^### In CI$/,/^## /p' "$SRCDIR/doc/guide.md" | sed -n 's/^> \{0,1\}//p' \
    > "$tmp/demo/readme.md"
cmp -s "$tmp/demo/summary.md" "$tmp/demo/readme.md" ||
    fail "doc/guide.md's In CI summary is not what ev2hp writes: $(diff "$tmp/demo/readme.md" "$tmp/demo/summary.md" | head -5)"

# --- gates ---------------------------------------------------------------------------
gate() {   # gate STATUS ARGS...: ev2hp exits STATUS
    want=$1
    shift
    rm -f "$tmp/o.svg"
    LC_ALL=C "$EV2HP" "$@" -o "$tmp/o.svg" > "$tmp/out" 2> "$tmp/err"
    got=$?
    [ "$got" -eq "$want" ] || fail "$*: status $got, not $want: $(cat "$tmp/err")"
    [ "$want" -eq 2 ] || [ -s "$tmp/o.svg" ] || fail "$*: the output was not written"
}
gate 3 --compare "$tmp/half.hp" --max-increase 50 "$data/leak-hc.hp"
grep -q "^ev2hp: .*leak-hc.hp: peak residency .* is +100 % over the --compare base's .*; --max-increase allows +50 %$" "$tmp/err" ||
    fail "--max-increase 50: $(cat "$tmp/err")"
gate 0 --compare "$tmp/half.hp" --max-increase 150 "$data/leak-hc.hp"
gate 0 --compare "$tmp/half.hp" --max-increase 100% "$data/leak-hc.hp"
gate 1 --max-increase 10 "$leak"
grep -q "^ev2hp: .*: --max-increase cannot be checked: there is no --compare base$" "$tmp/err" ||
    fail "--max-increase without a base: $(cat "$tmp/err")"
gate 3 --max-growth 1M/s "$leak"
grep -q "^ev2hp: .*: leak suspect (8)buildMap.* rose +53.4 MiB/s to its peak at 1.11 s (its growth over the whole run: +2.48 MiB/s); --max-growth allows 1.00 MiB/s for the rise$" "$tmp/err" ||
    fail "--max-growth 1M/s: $(cat "$tmp/err")"
gate 0 --max-growth 100M/s "$leak"
# in a --from window, the suspect judged is the one the summary names there
gate 3 --max-growth 1M/s --from 2 --summary=markdown "$leak"
suspect=$(sed -n 's/^- \*\*\(.*\)\*\*: rose .*/\1/p' "$tmp/out" | head -1)
[ "$suspect" = '(3)main' ] && grep -q "leak suspect (3)main rose" "$tmp/err" ||
    fail "--max-growth --from 2: '$suspect', $(cat "$tmp/err")"
for clean in flat-hc clausify-hm; do
    gate 0 --max-growth 1K/s "$data/$clean.eventlog"
done
gate 1 --max-growth 512K/s "$data/noheap/"*.eventlog
grep -q "max-growth cannot be checked: the input has no heap census" "$tmp/err" ||
    fail "--max-growth without a census: $(cat "$tmp/err")"
# every gate evaluated and reported: two fail, the status is 3, both are said
gate 3 --compare "$tmp/half.hp" --max-increase 50 --max-growth 1M/s --max-peak 1G "$leak"
[ "$(grep -c '^ev2hp: ' "$tmp/err")" -eq 2 ] || fail "two failed gates, not two messages: $(cat "$tmp/err")"
# a gate that cannot be checked decides over one that failed: status 1, both reported
gate 1 --max-increase 50 --max-peak 1K "$leak"
grep -q "over the budget of 1.00 KiB" "$tmp/err" && grep -q "cannot be checked" "$tmp/err" ||
    fail "unchecked and failed gates: $(cat "$tmp/err")"
for bad in "--max-increase -5" "--max-increase x" "--max-increase 0x10" "--max-growth 1M" \
           "--max-growth /s" "--max-growth 1Q/s" "--summary=html"; do
    # shellcheck disable=SC2086
    "$EV2HP" $bad "$leak" > /dev/null 2> "$tmp/err"
    [ $? -eq 2 ] || fail "$bad is not a usage error"
done

# The gates' verdicts in the Markdown summary.
LC_ALL=C "$EV2HP" --summary=markdown --compare "$tmp/half.hp" --max-increase 50 \
    --max-growth 1G/s "$data/leak-hc.hp" > "$tmp/g.md" 2> /dev/null
grep -q '^| `--max-increase` | +50 % | +100 % | ❌ \*\*failed\*\*: peak residency' "$tmp/g.md" ||
    fail "markdown: the failed gate"
grep -q '^| `--max-growth` | 1.00 GiB/s | .* | ✅ passed |$' "$tmp/g.md" || fail "markdown: the passed gate"

# --- JUnit ---------------------------------------------------------------------------
junit() {   # junit FILE TESTS FAILURES ERRORS
    xmllint --noout --schema "$SRCDIR/tests/junit.xsd" "$1" 2> "$tmp/xsd" ||
        fail "$1 does not validate: $(cat "$tmp/xsd")"
    "$PYTHON3" - "$@" <<'PY' || fail "$1: JUnit content"
import sys
import xml.etree.ElementTree as ET
path, tests, failures, errors = sys.argv[1], *map(int, sys.argv[2:])
root = ET.parse(path).getroot()
suite = root.find("testsuite")
cases = suite.findall("testcase")
assert len(cases) == tests == int(suite.get("tests")) == int(root.get("tests")), len(cases)
failed = [c for c in cases if c.find("failure") is not None]
erred = [c for c in cases if c.find("error") is not None]
assert len(failed) == failures == int(suite.get("failures")), len(failed)
assert len(erred) == errors == int(suite.get("errors")), len(erred)
for c in failed:
    f = c.find("failure")
    assert "measured: " in f.text and "allowed: " in f.text, f.text
    assert f.get("message") and f.get("type", "").startswith("max-"), f.attrib
assert suite.find("system-out").text.startswith("program    "), "no summary"
PY
}
LC_ALL=C "$EV2HP" --compare "$tmp/half.hp" --max-increase 50 --max-growth 1M/s --max-peak 1G \
    --junit "$tmp/j.xml" "$leak" 2> /dev/null
[ $? -eq 3 ] || fail "--junit with failed gates: status"
junit "$tmp/j.xml" 3 2 0
grep -q 'measured: +100 %' "$tmp/j.xml" && grep -q 'allowed: +50 %' "$tmp/j.xml" ||
    fail "JUnit: the values of --max-increase"
LC_ALL=C "$EV2HP" --max-increase 50 --max-peak 1G --junit "$tmp/j2.xml" "$leak" 2> /dev/null
[ $? -eq 1 ] || fail "--junit with an unchecked gate: status"
junit "$tmp/j2.xml" 2 0 1
LC_ALL=C "$EV2HP" --max-peak 1G --junit "$tmp/j3.xml" "$leak" > "$tmp/out" ||
    fail "--junit, gate passed: status $?"
junit "$tmp/j3.xml" 1 0 0
[ -s "$tmp/out" ] && fail "--junit alone wrote to standard output"
# a failed run leaves no report behind
LC_ALL=C "$EV2HP" --max-peak 1G --junit "$tmp/j4.xml" "$tmp/missing.eventlog" 2> /dev/null
[ -e "$tmp/j4.xml" ] && fail "an unreadable input left a JUnit report"

# --- control characters in a label ---------------------------------------------------
# XML 1.0 cannot carry them: the JUnit report marks each with U+FFFD (as the SVG does, one
# helper for both) and stays valid.
hp_labelled "$tmp/ctl.hp" ctl "$(printf 'ctl\001 \033[31mred')"
LC_ALL=C "$EV2HP" --max-growth 1K/s --junit "$tmp/ctl.xml" "$tmp/ctl.hp" 2> /dev/null
[ $? -eq 3 ] || fail "control characters: status (the band grows)"
junit "$tmp/ctl.xml" 1 1 0
grep -q "leak suspect ctl$(printf '\357\277\275') $(printf '\357\277\275')\[31mred rose" \
    "$tmp/ctl.xml" || fail "control characters are not marked with U+FFFD in --junit"

# --- labels that are markup ----------------------------------------------------------
# A .hp (inputs may be .hp) whose bands are named like markup; the largest is hostile.
hp_labelled "$tmp/evil.hp" 'evil <script>alert(1)</script> | `x`' '<script>alert(1)</script>' \
    'a|b' '`code` and *stars* and _under_' '[link](http://example.com) <b>bold</b> &amp;' \
    '$x$ @someone #1 ~~gone~~ \' 'www.example.org/path' 'x@example.org and WWW.Example.org'
LC_ALL=C "$EV2HP" --summary=markdown --max-growth 1K/s --compare "$tmp/evil.hp" \
    --junit "$tmp/evil.xml" "$tmp/evil.hp" > "$tmp/evil.md" 2> "$tmp/err"
[ $? -eq 3 ] || fail "hostile labels: status (a suspect grows): $(cat "$tmp/err")"
grep -q "<script>\|<b>" "$tmp/evil.md" && fail "markdown holds a raw tag: $(grep '<' "$tmp/evil.md")"
junit "$tmp/evil.xml" 1 1 0
"$PYTHON3" - "$tmp/evil.md" <<'PY' || fail "hostile labels break the band table"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index("| Band | Peak | Mean | Growth (whole run) | Over the run |")
for line in lines[start:start + 9]:
    # cells split on '|' that no backslash escapes, as GFM splits them
    cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
    assert len(cells) == 5, (len(cells), line)
PY
if command -v cmark-gfm > /dev/null 2>&1; then
    gfm_seen "$tmp/evil.md" "$tmp/evil.seen" || fail "cmark-gfm: status $?"
    "$PYTHON3" - "$tmp/evil.seen" <<'PY' || fail "hostile labels do not render as text"
import json, sys
page = json.load(open(sys.argv[1]))
# only the tags the summary itself writes: no script, link (autolinks of www. and
# email addresses included), code, emphasis, strike
bad = set(page["tags"]) - {"h3", "h4", "ul", "li", "strong", "p", "table", "thead", "tbody",
                          "tr", "th", "td", "code"}
assert not bad, bad
assert "<code>" not in page["html"].split("<table>")[1].split("</table>")[0], "code in the table"
# the text a reader sees (an invisible WORD JOINER stands before each '@')
labels = {r[0].replace("\u2060", "") for r in page["rows"] if len(r) == 5}
for want in ["<script>alert(1)</script>", "a|b", "`code` and *stars* and _under_",
             "[link](http://example.com) <b>bold</b> &amp;", "$x$ @someone #1 ~~gone~~ \\",
             "www.example.org/path", "x@example.org and WWW.Example.org"]:
    assert want in labels, (want, labels)
assert all(len(r) in (4, 5) for r in page["rows"]), page["rows"]
PY
else
    echo "SKIP: cmark-gfm not installed: hostile labels checked structurally only"
fi
exit $failed
