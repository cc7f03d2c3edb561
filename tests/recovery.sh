#!/bin/sh
# recovery.sh: real eventlogs that GHC 9.6 and 9.10 damaged themselves (non-threaded
# runtime, +RTS -hc -p: timer ticks and census events race in one buffer), against the .hp
# the runtime wrote in the same run (intact): every census ev2hp writes is one of the
# runtime's, in order (none forged), at least 95 % of them are recovered, each damaged
# region gets its warning and the run its "recovered" line; --strict fails and writes
# nothing; --stop-at-damage keeps only what precedes the first damage; the JSON summary
# lists the regions.
. "${SRCDIR:?}/tests/testlib.sh"
data="$SRCDIR/tests/data/damaged"

for log in "$data"/*.eventlog; do
    name=$(basename "$log" .eventlog)
    "$EV2HP" "$log" > "$tmp/$name.hp" 2> "$tmp/err"
    status=$?
    [ "$status" -eq 0 ] || fail "$name: exit status $status: $(cat "$tmp/err")"
    if verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$data/$name.hp" "$tmp/$name.hp" \
                 --subset 95); then
        echo "ok: $name: $verdict"
    else
        fail "$name: $verdict"
    fi
    regions=$(grep -c -e ': offset [0-9]*: damaged region of [0-9]* bytes skipped (' \
                      -e ': offset [0-9]*: a time-profile tick inside the census' "$tmp/err")
    [ "$regions" -ge 1 ] || fail "$name: no damaged region reported: $(cat "$tmp/err")"
    grep -q "^ev2hp: $log: recovered [0-9]* census\(es\)\?; [0-9]* lost to damage at offsets\? [0-9]" \
        "$tmp/err" || fail "$name: no run line: $(cat "$tmp/err")"
    grep -v -q '^ev2hp: ' "$tmp/err" && fail "$name: a message not of the one form"
    cat "$log" | "$EV2HP" > "$tmp/$name.pipe.hp" 2>/dev/null
    cmp -s "$tmp/$name.hp" "$tmp/$name.pipe.hp" || fail "$name: a pipe gives another .hp"

    # --strict: damage is a failure, nothing written.
    "$EV2HP" --strict "$log" -o "$tmp/strict.hp" 2>/dev/null
    status=$?
    [ "$status" -eq 1 ] || fail "$name: --strict exit status $status"
    [ -e "$tmp/strict.hp" ] && fail "$name: --strict wrote its output"

    # --stop-at-damage: the censuses before the first damage, each the runtime's.
    "$EV2HP" --stop-at-damage "$log" > "$tmp/stop.hp" 2>/dev/null
    status=$?
    [ "$status" -eq 0 ] || fail "$name: --stop-at-damage exit status $status"
    "$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$data/$name.hp" "$tmp/stop.hp" --subset 0 >/dev/null ||
        fail "$name: --stop-at-damage forged a census"
    [ "$(grep -c BEGIN_SAMPLE "$tmp/stop.hp")" -le "$(grep -c BEGIN_SAMPLE "$tmp/$name.hp")" ] ||
        fail "$name: --stop-at-damage kept more than recovery"

    # The JSON summary lists every region the warnings name.
    "$EV2HP" --summary=json "$log" > "$tmp/summary.json" 2>/dev/null
    "$PYTHON3" - "$tmp/summary.json" "$regions" <<'PY' || fail "$name: summary damage"
import json, sys
s = json.load(open(sys.argv[1]))
regions = [d for d in s["damage"] if "offset" in d and
           ("damaged region" in d["what"] or "time-profile tick" in d["what"])]
assert len(regions) == int(sys.argv[2]), s["damage"]
assert any(d["what"].startswith("recovered ") for d in s["damage"]), s["damage"]
PY
done
exit $failed
