#!/bin/sh
# summary.sh: --summary=json agrees with what the runtime's own .hp implies (census count,
# peak residency); --max-peak just under the peak is status 3, at the peak status 0, and
# the outputs are written either way.
. "${SRCDIR:?}/tests/testlib.sh"
for log in "$SRCDIR"/tests/data/*.eventlog; do
    name=$(basename "$log" .eventlog)
    "$EV2HP" --summary=json "$log" > "$tmp/s.json" || { fail "$name: status $?"; continue; }
    peak=$("$PYTHON3" - "$SRCDIR/tests/data/$name.hp" "$tmp/s.json" <<'PY'
import json, re, sys
runtime, summary = sys.argv[1:]
samples, current = [], None
for line in open(runtime, errors="replace"):
    if line.startswith("BEGIN_SAMPLE"):
        current = 0
    elif line.startswith("END_SAMPLE"):
        samples.append(current)
        current = None
    elif current is not None and "\t" in line:
        label, value = line.rstrip("\n").rsplit("\t", 1)
        if re.sub(r"^\(\d+\)", "", label) != "MANY":   # never in the eventlog
            current += int(value)
doc = json.load(open(summary))
# The runtime adds an empty sample first and last.
assert doc["censuses"] == len(samples) - 2, (doc["censuses"], len(samples) - 2)
assert doc["peak"]["bytes"] == max(samples), (doc["peak"]["bytes"], max(samples))
top = doc["peak"]["top"]
assert all(a["bytes"] >= b["bytes"] for a, b in zip(top, top[1:])), top
print(doc["peak"]["bytes"])
PY
) || { fail "$name: summary disagrees with the runtime's .hp"; continue; }
    echo "ok: $name: peak $peak"
    "$EV2HP" "$log" --max-peak $((peak - 1)) -o "$tmp/o.hp" 2> "$tmp/err"
    status=$?
    [ "$status" -eq 3 ] || fail "$name: --max-peak under the peak: status $status"
    grep -q "peak residency .* is over the budget of" "$tmp/err" || fail "$name: $(cat "$tmp/err")"
    [ -s "$tmp/o.hp" ] || fail "$name: over budget, the output was not written"
    "$EV2HP" "$log" --max-peak "$peak" -o "$tmp/o.hp" 2> "$tmp/err" || fail "$name: --max-peak at the peak: status $?"
done
# A growth that rounds to 0 B/s is printed without a sign (never "-0 B/s" nor "+0 B/s"),
# in the text summary and in the detail view, on every eventlog at hand (most have bands
# that shrink or grow by less than half a byte a second).
for log in "$SRCDIR"/tests/data/*.eventlog "$SRCDIR"/tests/data/damaged/*.eventlog; do
    name=$(basename "$log" .eventlog)
    "$EV2HP" -q --summary "$log" -o "$tmp/d.svg" --view detail > "$tmp/s.txt" ||
        fail "$name: --summary status $?"
    grep -q ' 0 B/s ' "$tmp/s.txt" || [ "$name" != leak-hc ] || fail "$name: no 0 B/s growth"
    grep -E '[-+]0 B/s' "$tmp/s.txt" && fail "$name: a signed zero growth in --summary"
    grep -E '>[-+]0 B/s<' "$tmp/d.svg" && fail "$name: a signed zero growth in --view detail"
done
"$EV2HP" --summary "$SRCDIR/tests/data/leak-hc.eventlog" > "$tmp/s.txt" || fail "text summary"
grep -q '^peak       [0-9.]* MiB at [0-9.]* s$' "$tmp/s.txt" || fail "text summary: $(cat "$tmp/s.txt")"
grep -q '^markers    3$' "$tmp/s.txt" || fail "text summary markers"
grep -q '^damage     none$' "$tmp/s.txt" || fail "text summary damage"
"$EV2HP" --max-peak 1.5x "$SRCDIR/tests/data/leak-hc.eventlog" 2>/dev/null
[ $? -eq 2 ] || fail "--max-peak 1.5x is not a usage error"

# A note is no damage: a real -hi run whose tables a few IPE events do not name (and an
# input that ends before its first census) says so under notes, its damage "none", in
# every summary format and the report's data
hi=$SRCDIR/tests/data/binary/mapstrings-hi-g910.eventlog.gz
for fmt in text json markdown; do
    "$EV2HP" --summary=$fmt "$hi" >"$tmp/notes.$fmt" 2>/dev/null || fail "notes: $fmt: status $?"
done
grep -q '^damage     none$' "$tmp/notes.text" && grep -A1 '^notes$' "$tmp/notes.text" |
    grep -q '^  [0-9]* info tables have no IPE event' || fail "notes: text: $(tail -4 "$tmp/notes.text")"
grep -A2 '^#### Damage$' "$tmp/notes.markdown" | grep -q '^None\.$' &&
    grep -A2 '^#### Notes$' "$tmp/notes.markdown" | grep -q 'info tables have no IPE event' ||
    fail "notes: markdown"
"$EV2HP" "$hi" -o "$tmp/notes.html" 2>/dev/null || fail "notes: report: status $?"
"$PYTHON3" - "$tmp/notes.json" "$tmp/notes.html" <<'PY' || fail "notes: json or the report's data"
import json, re, sys
s = json.load(open(sys.argv[1]))
assert s["damage"] == [], s["damage"]
assert len(s["notes"]) == 1 and "no IPE event" in s["notes"][0]["what"], s["notes"]
page = open(sys.argv[2]).read()
data = json.loads(re.search(r'<script type="application/json" id="ev2hp-data">(.*?)</script>', page, re.S).group(1))
assert data["warnings"] == [] and len(data["notes"]) == 1, (data["warnings"], data["notes"])
PY
# --group-by closure names closure types as the run's GHC numbers them (GHC 9.10's 4 is
# CONSTR_2_0, as pprof's frames say), not "closure type 4"
"$EV2HP" --group-by closure --summary=json "$SRCDIR/tests/data/hi-many-g910.eventlog.gz" \
    >"$tmp/closure.json" 2>/dev/null || fail "--group-by closure: status $?"
"$PYTHON3" - "$tmp/closure.json" <<'PY' || fail "--group-by closure: the closure types' names"
import json, sys
labels = [b["label"] for b in json.load(open(sys.argv[1]))["bands"]]
assert "CONSTR_2_0" in labels and "CONSTR_1_0" in labels, labels
assert not any(l.startswith("closure type") for l in labels), labels
PY
exit $failed
