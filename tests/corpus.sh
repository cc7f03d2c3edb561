#!/bin/sh
# corpus.sh: real GHC eventlogs in tests/data against the .hp the runtime wrote in the
# same run (rules in tests/hpcheck.py), read from a file and from a pipe; a copy cut
# short keeps exactly the censuses before the cut and says so.
. "${SRCDIR:?}/tests/testlib.sh"

for log in "$data"/*.eventlog; do
    name=$(basename "$log" .eventlog)
    if ! "$EV2HP" "$log" > "$tmp/$name.hp" 2> "$tmp/err"; then
        fail "$name: exit status $?: $(cat "$tmp/err")"
        continue
    fi
    [ -s "$tmp/err" ] && fail "$name: unexpected message: $(cat "$tmp/err")"
    if verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$data/$name.hp" "$tmp/$name.hp"); then
        echo "ok: $name: $verdict"
    else
        fail "$name: $verdict"
    fi
    cat "$log" | "$EV2HP" > "$tmp/$name.pipe.hp" 2>/dev/null
    cmp -s "$tmp/$name.hp" "$tmp/$name.pipe.hp" || fail "$name: a pipe gives another .hp"
done

# A run killed mid-write: cut clausify-hm inside its census events (the runtime writes
# them through one buffer, so they sit near the end). The runtime's .hp is the oracle for
# the censuses before the cut (--prefix), and the warning says what was kept.
name=clausify-hm
log="$data/$name.eventlog"
cut=$(( $(wc -c < "$log") * 97 / 100 ))
head -c "$cut" "$log" > "$tmp/cut.eventlog"
"$EV2HP" "$tmp/cut.eventlog" > "$tmp/cut.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "cut: exit status $status"
grep -q "^ev2hp: $tmp/cut.eventlog: offset [0-9]*: the file ends inside an event; kept [0-9]* censuses up to [0-9.]* s" "$tmp/err" ||
    fail "cut: warning was: $(cat "$tmp/err")"
kept=$(grep -c '^BEGIN_SAMPLE' "$tmp/cut.hp")
full=$(grep -c '^BEGIN_SAMPLE' "$tmp/$name.hp")
[ "$kept" -gt 2 ] && [ "$kept" -lt "$full" ] || fail "cut: kept $kept of $full samples"
"$PYTHON3" "$SRCDIR/tests/hpcheck.py" --prefix "$data/$name.hp" "$tmp/cut.hp" >/dev/null ||
    fail "cut: the censuses kept are not the runtime's"
grep -q "kept $((kept - 2)) censuses" "$tmp/err" || fail "cut: count in warning: $(cat "$tmp/err")"

# gzip-compressed input, from a file and a pipe, gives the same .hp; cut short, it keeps
# what was complete and says the compressed data ends early.
gzip -c "$data/leak-hc.eventlog" > "$tmp/leak.eventlog.gz"
"$EV2HP" "$tmp/leak.eventlog.gz" | cmp -s - "$tmp/leak-hc.hp" || fail "gzip file"
gzip -c "$data/leak-hc.eventlog" | "$EV2HP" | cmp -s - "$tmp/leak-hc.hp" || fail "gzip pipe"
head -c 200000 "$tmp/leak.eventlog.gz" > "$tmp/cut.eventlog.gz"
"$EV2HP" "$tmp/cut.eventlog.gz" > /dev/null 2> "$tmp/err" || fail "cut gzip: status $?"
grep -q "offset [0-9]*: the compressed data ends early; kept 0 censuses" "$tmp/err" ||
    fail "cut gzip: $(cat "$tmp/err")"

# Following a FIFO: a census is written as soon as it is complete, before the input ends.
# The writer keeps the FIFO open until the censuses have been seen (or 60 s have passed),
# so the check does not depend on how soon a loaded machine runs ev2hp.
mkfifo "$tmp/fifo"
"$EV2HP" "$tmp/fifo" > "$tmp/live.hp" 2>/dev/null &
pid=$!
{ head -c "$cut" "$log"; while [ ! -e "$tmp/seen" ]; do sleep 0.1; done; } > "$tmp/fifo" &
writer=$!
n=0
until [ "$(grep -c '^END_SAMPLE' "$tmp/live.hp")" -gt 2 ] || [ $n -ge 600 ]; do
    sleep 0.1
    n=$((n + 1))
done
[ "$(grep -c '^END_SAMPLE' "$tmp/live.hp")" -gt 2 ] ||
    fail "fifo: no census written while the input was still open"
: > "$tmp/seen"
wait "$writer" "$pid"

exit $failed
