#!/bin/sh
# ghc-events.sh: the test eventlogs of the ghc-events library (its test/ folder, now and
# in its history: GHC 6.12 to 9.x, the Eden and Mercury runtimes), each against the
# output ghc-events' own test suite expects (NAME.eventlog.reference; origins in
# tests/data/ghc-events/README.md). ev2hp must read every event ghc-events reads and no
# other, without a damage warning, and write the censuses it shows, census for census
# (tests/ghcevents_check.py).
set -u
: "${EV2HP:?}" "${SRCDIR:?}" "${PYTHON3:=python3}"
data="$SRCDIR/tests/data/ghc-events"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

count=0
for log in "$data"/*.eventlog.gz; do
    name=$(basename "$log" .eventlog.gz)
    count=$((count + 1))
    "$EV2HP" --dump "$log" > "$tmp/dump" 2> "$tmp/err"
    status=$?
    [ "$status" -eq 0 ] || fail "$name: --dump exit status $status: $(cat "$tmp/err")"
    "$EV2HP" -f csv "$log" > "$tmp/csv" 2>> "$tmp/err"
    status=$?
    [ "$status" -eq 0 ] || fail "$name: exit status $status: $(cat "$tmp/err")"
    # The one message allowed: a log without heap censuses says so.
    if grep -v -q -e ': no heap censuses: ' "$tmp/err"; then
        fail "$name: unexpected message: $(cat "$tmp/err")"
    fi
    if verdict=$("$PYTHON3" "$SRCDIR/tests/ghcevents_check.py" "$data/$name.eventlog.reference.gz" \
                 "$tmp/dump" "$tmp/csv"); then
        echo "ok: $name: $verdict"
    else
        fail "$name: $verdict"
    fi
done
[ "$count" -ge 30 ] || fail "only $count eventlogs in $data"

# GHC 6.12 in full: every one of its events with the fields it wrote (thread ids of 4
# bytes though its header declares 8), none read from the wrong place.
"$EV2HP" --dump "$data/queens-ghc-6.12.1.eventlog.gz" > "$tmp/dump" 2>/dev/null
[ "$(grep -c -v BLOCK_MARKER "$tmp/dump")" -eq 487 ] || fail "GHC 6.12: not 487 events"
grep -q '^1638000 CREATE_SPARK_THREAD thread=5$' "$tmp/dump" || fail "GHC 6.12: thread ids"
grep -q '^1647000 STEAL_SPARK thread=5 cap=3$' "$tmp/dump" || fail "GHC 6.12: a spark steal"
[ "$(grep -c ' SHUTDOWN$' "$tmp/dump")" -eq 4 ] || fail "GHC 6.12: not 4 shutdowns"

exit $failed
