#!/bin/sh
# ci_truth.sh: what the CI outputs say is what they measure (issue 30).
#   - the tables' growth is named as the whole run's, and the --max-growth message names
#     the rise it gates and the whole run's growth beside it;
#   - breakdowns that differ are said in the comparison, not as damage; a .hp whose JOB
#     line has no +RTS -h option has an unknown breakdown, which mismatches nothing;
#   - a gate's measured and allowed values never print alike when they differ;
#   - --summary=json has every gate's verdict; JUnit names a test case by its gate alone;
#   - control characters of markers, labels and the program reach neither the text
#     summary nor standard error raw.
. "${SRCDIR:?}/tests/testlib.sh"
leak="$data/leak-hc.eventlog"
# a base whose bands are three quarters of the run's: the peak rose by +33.33... %
"$PYTHON3" - "$data/leak-hc.hp" "$tmp/base.hp" <<'PY'
import sys
with open(sys.argv[1], errors="surrogateescape") as f, open(sys.argv[2], "w", errors="surrogateescape") as out:
    for line in f:
        if "\t" in line:
            label, value = line.rstrip("\n").rsplit("\t", 1)
            line = "%s\t%d\n" % (label, int(value) * 3 // 4)
        out.write(line)
PY

# --- the growth column and the --max-growth gate name what they measure ----------------
"$EV2HP" "$leak" --max-growth 1M/s --summary=markdown > "$tmp/g.md" 2> "$tmp/g.err"
[ $? -eq 3 ] || fail "growth: status"
grep -q '^| Band | Peak | Mean | Growth (whole run) | Over the run |$' "$tmp/g.md" ||
    fail "growth: the Markdown column is not named the whole run's"
grep -q 'is what `--max-growth` gates, not the growth over the whole run' "$tmp/g.md" ||
    fail "growth: the Markdown does not say what --max-growth gates"
grep -q "rose +53.4 MiB/s to its peak at 1.11 s (its growth over the whole run: +2.48 MiB/s)" \
    "$tmp/g.err" || fail "growth: the gate's message does not name both: $(cat "$tmp/g.err")"
"$EV2HP" "$leak" --summary > "$tmp/g.txt" || fail "growth: text status"
grep -q "run growth/s" "$tmp/g.txt" || fail "growth: the text column is not named the run's"
grep -q -- "--max-growth gates this rise" "$tmp/g.txt" || fail "growth: the text suspects"

# --- a breakdown mismatch is the comparison's, an unknown breakdown mismatches nothing --
"$EV2HP" "$data/leak-hT.eventlog" --compare "$leak" --summary=json > "$tmp/b.json" \
    2> "$tmp/b.err" || fail "breakdown: status $?"
"$PYTHON3" - "$tmp/b.json" <<'PY' || fail "breakdown: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["damage"] == [], d["damage"]
assert d["compare"]["breakdown_mismatch"].startswith(
    "this run is broken down by closure type and the --compare base by cost-centre stack"), d["compare"]
PY
grep -q "broken down by closure type and the --compare base by cost-centre stack" \
    "$tmp/b.err" || fail "breakdown: standard error does not say it"
"$EV2HP" "$data/leak-hT.eventlog" --compare "$leak" --summary=markdown > "$tmp/b.md" 2> /dev/null
sed -n '/^#### Damage/,$p' "$tmp/b.md" | grep -q "^None.$" ||
    fail "breakdown: Markdown files the mismatch under Damage"
sed -n '/^#### Compared with/,/^####.*Gates\|^#### Markers/p' "$tmp/b.md" |
    grep -q "^\*\*Breakdowns differ:\*\* this run is broken down by closure type" ||
    fail "breakdown: Markdown's comparison does not say it"
sed 's/^JOB.*/JOB "leak 300000"/' "$data/leak-hc.hp" > "$tmp/norts.hp"
"$EV2HP" "$tmp/norts.hp" --summary > "$tmp/u.txt" || fail "unknown breakdown: status"
grep -q "^breakdown  unknown$" "$tmp/u.txt" || fail "unknown breakdown: $(grep ^breakdown "$tmp/u.txt")"
"$EV2HP" "$tmp/norts.hp" --summary=markdown | grep -q "breakdown 0" &&
    fail "unknown breakdown: Markdown says 'breakdown 0'"
"$EV2HP" "$data/leak-hT.eventlog" --compare "$tmp/norts.hp" --summary=json > "$tmp/n.json" \
    2> "$tmp/n.err" || fail "unknown breakdown: compare status"
[ -s "$tmp/n.err" ] && fail "unknown breakdown: a false mismatch: $(cat "$tmp/n.err")"
"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["damage"] == [] and d["compare"]["breakdown_mismatch"] is None' \
    "$tmp/n.json" || fail "unknown breakdown: JSON"

# --- gate messages show the digits that tell measured from allowed ---------------------
"$EV2HP" "$leak" --compare "$tmp/base.hp" --max-increase 33.3 -o "$tmp/x.svg" 2> "$tmp/p.err"
[ $? -eq 3 ] || fail "digits: --max-increase 33.3: status"
"$PYTHON3" - "$tmp/p.err" 'is (\S+) % over .* allows (\S+) %' <<'PY' || fail "digits: $(cat "$tmp/p.err")"
import re, sys
m = re.search(sys.argv[2], open(sys.argv[1]).read())
assert m and m.group(1) != m.group(2), m and m.groups()
PY
peak=$("$EV2HP" "$leak" --summary=json | "$PYTHON3" -c 'import json,sys; print(json.load(sys.stdin)["peak"]["bytes"])')
"$EV2HP" "$leak" --max-peak $((peak - 1)) -o "$tmp/x.svg" 2> "$tmp/k.err"
[ $? -eq 3 ] || fail "digits: --max-peak: status"
"$PYTHON3" - "$tmp/k.err" 'residency (.+?) at .* budget of (.+?);' <<'PY' || fail "digits: $(cat "$tmp/k.err")"
import re, sys
m = re.search(sys.argv[2], open(sys.argv[1]).read())
assert m and m.group(1) != m.group(2), m and m.groups()
PY

# --- gate verdicts in JSON; JUnit test cases named by the gate ---------------------------
"$EV2HP" "$leak" --compare "$tmp/base.hp" --max-peak 512M --max-increase 10 \
    --max-growth 1M/s --summary=json --junit "$tmp/a.xml" > "$tmp/v.json" 2> /dev/null
[ $? -eq 3 ] || fail "verdicts: status"
"$PYTHON3" - "$tmp/v.json" <<'PY' || fail "verdicts: --summary=json"
import json, sys
g = json.load(open(sys.argv[1]))["gates"]
assert [x["gate"] for x in g] == ["max-peak", "max-increase", "max-growth"], g
assert [x["verdict"] for x in g] == ["passed", "failed", "failed"], g
assert g[0]["measured"] == json.load(open(sys.argv[1]))["peak"]["bytes"] and g[0]["allowed"] == 512 * 2**20
assert abs(g[1]["measured"] - 100 / 3) < 0.01 and g[1]["allowed"] == 10 and g[1]["unit"] == "percent"
assert g[0]["message"] is None and "allows +10 %" in g[1]["message"]
assert g[2]["unit"] == "bytes_per_s" and g[2]["allowed"] == 2**20 and g[2]["measured"] > 50 * 2**20
PY
"$EV2HP" "$leak" --summary=json | "$PYTHON3" -c 'import json,sys; assert json.load(sys.stdin)["gates"] == []' ||
    fail "verdicts: no gate, no \"gates\": []"
"$EV2HP" "$leak" --compare "$tmp/base.hp" --max-peak 1G --max-increase 50 --max-growth 2M/s \
    --junit "$tmp/b.xml" -o "$tmp/x.svg" 2> /dev/null
"$PYTHON3" - "$tmp/a.xml" "$tmp/b.xml" <<'PY' || fail "JUnit: test cases named by their thresholds"
import sys, xml.etree.ElementTree as ET
names = [[c.get("name") for c in ET.parse(p).iter("testcase")] for p in sys.argv[1:]]
assert names[0] == names[1], names
assert names[0][0] == "--max-peak: peak residency within the budget", names[0]
fail = [c.find("failure") for c in ET.parse(sys.argv[1]).iter("testcase")][1]
assert "allows +10 %" in fail.get("message"), fail.get("message")
PY

# --- control characters reach neither the text summary nor standard error raw ---------
"$PYTHON3" - "$leak" "$tmp/ctl.eventlog" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"phase: map") == 1
open(sys.argv[2], "wb").write(data.replace(b"phase: map", b"\x1b[2J\n::err", 1))
PY
LC_ALL=C.UTF-8 "$EV2HP" "$tmp/ctl.eventlog" --summary > "$tmp/c.txt" 2> "$tmp/c.err" ||
    fail "control: status"
printf 'JOB "ctl\033[31m +RTS -hc -RTS"\nDATE ""\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n' > "$tmp/ctl.hp"
for i in 1 2 3 4 5; do
    printf 'BEGIN_SAMPLE %d.0\nbad\033]0;x\007\t%d\nEND_SAMPLE %d.0\n' "$i" $((i * 9000)) "$i"
done >> "$tmp/ctl.hp"
LC_ALL=C.UTF-8 "$EV2HP" "$tmp/ctl.hp" --summary --max-peak 10 >> "$tmp/c.txt" 2>> "$tmp/c.err"
[ $? -eq 3 ] || fail "control: .hp status"
"$PYTHON3" - "$tmp/c.txt" "$tmp/c.err" <<'PY' || fail "control characters reach the text summary or stderr"
import re, sys
text, err = (open(p, "rb").read() for p in sys.argv[1:])
for name, out in (("summary", text), ("stderr", err)):
    assert not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", out), (name, re.findall(rb".{0,20}[\x00-\x09\x0b-\x1f\x7f].{0,20}", out))
assert b"0.001905 s  \\x1b[2J\\x0a::err\n" in text, text
assert b"program    ctl\\x1b[31m" in text and b"bad\\x1b]0;x\\x07" in text
assert all(line.startswith(b"ev2hp: ") for line in err.splitlines()), err
assert b"bad\\x1b]0;x\\x07" in err, err
PY
exit $failed
