#!/bin/sh
# live.sh: ev2hp reading a program while it writes, through the command line.
#
# Real GHC eventlogs from tests/data are played back by tests/replay.py into a growing
# file (--follow; starting empty, and starting mid-header), a Unix socket (the program
# starts listening late) and a TCP socket (one connection dropped inside the census
# events, then made again with the header and definitions repeated), cut at seeded
# arbitrary bytes over a few seconds. The .hp written must equal the runtime's own .hp
# census for census (a dropped connection may lose the census it cut, never forge one),
# and the messages must say what happened. A program that never listens, or dies, is a
# bounded wait with a clear message. Every step runs under timeout; files live in a
# fresh temporary directory and TCP ports are picked by the OS, so runs can overlap.
set -u
: "${EV2HP:?}" "${SRCDIR:?}" "${PYTHON3:=python3}"
data="$SRCDIR/tests/data"
replay="$SRCDIR/tests/replay.py"
check="$SRCDIR/tests/hpcheck.py"
tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
T="timeout 60"

# Waits (at most 60 s: the machine may be loaded) until a file exists, or is not empty with -s.
await() {
    n=0
    while [ ! "$1" "$2" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
    [ "$1" "$2" ] || fail "$2 never appeared"
}

same_as_runtime() {   # NAME OUR.hp LABEL [--subset PCT]
    name=$1 ours=$2 label=$3
    shift 3
    if verdict=$("$PYTHON3" "$check" "$@" "$data/$name.hp" "$ours"); then
        echo "ok: $label: $verdict"
    else
        fail "$label: $verdict"
    fi
}

# unexpected: the messages of $tmp/err but the one saying the runtime held the censuses
# back: a replay spreads a recorded eventlog over seconds, and when the runtime wrote the
# censuses after the other events, as GHC 9.0 does, they come late, as they did from the
# program (census/heldback.h; tests/serve_wait.sh tests that message).
unexpected() {
    grep -v -e " came at once, held back " -e ": no census yet, though " \
        -e ": no census since the one at " "$tmp/err" || true
}

# 1. A file followed from empty: the replay creates it, waits a second, then writes.
log=clausify-hm
"$PYTHON3" "$replay" file "$data/$log.eventlog" "$tmp/empty.eventlog" --seconds 3 \
    --delay 1 --seed 1 2>/dev/null &
pids="$pids $!"
await -e "$tmp/empty.eventlog"
[ -s "$tmp/empty.eventlog" ] && echo "note: the file was no longer empty at the start"
$T "$EV2HP" --follow "$tmp/empty.eventlog" -o "$tmp/empty.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "follow empty: status $status: $(cat "$tmp/err")"
[ -n "$(unexpected)" ] && fail "follow empty: unexpected messages: $(unexpected)"
same_as_runtime $log "$tmp/empty.hp" "follow from an empty file"

# 1b. A whole file followed: the run ends at its end-of-data marker, not waiting past it
# for the next event's header (the time-order check looked 10 bytes ahead of the last
# event, and a followed file never says end-of-file).
for f in labels-hc-g96 leak-hc; do
    $T "$EV2HP" --follow "$data/$f.eventlog" -o "$tmp/whole.hp" 2> "$tmp/err"
    status=$?
    [ "$status" -eq 0 ] || fail "follow whole $f: status $status: $(cat "$tmp/err")"
    "$EV2HP" "$data/$f.eventlog" -o "$tmp/plain.hp" 2>/dev/null
    cmp -s "$tmp/whole.hp" "$tmp/plain.hp" || fail "follow whole $f: not the plain conversion"
done

# 2. A file followed from half its header (700 bytes, then a pause).
"$PYTHON3" "$replay" file "$data/leak-hc.eventlog" "$tmp/half.eventlog" --seconds 3 \
    --first-bytes 700 --delay 1 --seed 2 2>/dev/null &
pids="$pids $!"
await -s "$tmp/half.eventlog"
$T "$EV2HP" --follow "$tmp/half.eventlog" -o "$tmp/half.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "follow half-written: status $status: $(cat "$tmp/err")"
same_as_runtime leak-hc "$tmp/half.hp" "follow from a half-written header"
# Without --follow the same half-written file is what it is: cut short, said so.
head -c 700 "$data/leak-hc.eventlog" > "$tmp/cut.eventlog"
$T "$EV2HP" "$tmp/cut.eventlog" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "half-written without --follow: status not 1"

# 3. A Unix socket whose program listens only after 1.5 s: ev2hp says it waits, then
#    reads the whole stream.
"$PYTHON3" "$replay" unix "$data/$log.eventlog" "$tmp/prog.sock" --seconds 3 --delay 1.5 \
    --seed 3 2>/dev/null &
pids="$pids $!"
$T "$EV2HP" "unix:$tmp/prog.sock" -o "$tmp/unix.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "unix: status $status: $(cat "$tmp/err")"
grep -q "^ev2hp: unix:$tmp/prog.sock: waiting for the program to listen (No such file or directory)$" \
    "$tmp/err" || fail "unix: no waiting message: $(cat "$tmp/err")"
grep -q "^ev2hp: unix:$tmp/prog.sock: connected$" "$tmp/err" ||
    fail "unix: no connected message: $(cat "$tmp/err")"
same_as_runtime $log "$tmp/unix.hp" "unix socket, program listening late"

# 4. TCP, the whole stream over one connection cut at 150 seeded places.
"$PYTHON3" "$replay" tcp "$data/leak-hT.eventlog" --port-file "$tmp/port" --seconds 3 \
    --writes 150 --seed 4 2>/dev/null &
pids="$pids $!"
await -s "$tmp/port"
$T "$EV2HP" "tcp:127.0.0.1:$(cat "$tmp/port")" -o "$tmp/tcp.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "tcp: status $status: $(cat "$tmp/err")"
[ -n "$(unexpected)" ] && fail "tcp: unexpected messages: $(unexpected)"
same_as_runtime leak-hT "$tmp/tcp.hp" "tcp socket"
rm -f "$tmp/port"

# 5. TCP, the connection dropped at an arbitrary byte inside the census events (98 % of
#    clausify-hm's events), then made again: the new header and the repeated definitions
#    are not doubled (no warning about them, labels as the runtime's), the census the
#    drop cut is lost and counted, no census is forged, and the gap is said.
"$PYTHON3" "$replay" tcp "$data/$log.eventlog" --port-file "$tmp/port" --seconds 3 \
    --drop-at 0.98 --seed 5 2>/dev/null &
pids="$pids $!"
await -s "$tmp/port"
port=$(cat "$tmp/port")
$T "$EV2HP" "tcp:127.0.0.1:$port" -o "$tmp/drop.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "drop: status $status: $(cat "$tmp/err")"
same_as_runtime $log "$tmp/drop.hp" "a dropped connection" --subset 98
grep -q "^ev2hp: tcp:127.0.0.1:$port: the connection closed at [0-9.]* s into the run; connecting again$" \
    "$tmp/err" || fail "drop: no notice of the drop: $(cat "$tmp/err")"
grep -q "^ev2hp: tcp:127.0.0.1:$port: offset [0-9]*: the connection closed at [0-9.]* s into the run and was made again [0-9.]* s later; the events in between are missing (a marker shows where)$" \
    "$tmp/err" || fail "drop: no warning of the gap: $(cat "$tmp/err")"
grep -q "^ev2hp: tcp:127.0.0.1:$port: 1 census cut by a dropped connection was lost$" \
    "$tmp/err" || fail "drop: the lost census is not counted: $(cat "$tmp/err")"
grep -q "defined again\|HEAP_PROF_BEGIN\|damage" "$tmp/err" &&
    fail "drop: the repeated definitions were taken for damage: $(cat "$tmp/err")"
kept=$(grep -c '^BEGIN_SAMPLE' "$tmp/drop.hp")
full=$(grep -c '^BEGIN_SAMPLE' "$tmp/unix.hp")
[ "$kept" -eq $((full - 1)) ] || fail "drop: kept $kept of $full samples, not one fewer"
grep -q "^MARK " "$tmp/drop.hp" || fail "drop: no marker where the gap began"
rm -f "$tmp/port"

# 6. The program dies mid-stream and never listens again: ev2hp waits --wait seconds,
#    keeps what it read, and says why the stream ended (damage: status 0, 1 with --strict).
"$PYTHON3" "$replay" unix "$data/$log.eventlog" "$tmp/dies.sock" --seconds 1 \
    --drop-at 0.99 --no-reconnect --seed 6 2>/dev/null &
pids="$pids $!"
await -e "$tmp/dies.sock"
$T "$EV2HP" --wait 0.5 "unix:$tmp/dies.sock" -o "$tmp/dies.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "dies: status $status: $(cat "$tmp/err")"
grep -q "the connection closed before the end-of-data marker, and then no program listening after 0.5 s (No such file or directory); kept [0-9]* censuses" \
    "$tmp/err" || fail "dies: message: $(cat "$tmp/err")"
same_as_runtime $log "$tmp/dies.hp" "a program that died" --prefix

# 7. Nobody ever listens: a bounded wait, a one-line error naming the input, status 1,
#    and no output left behind.
start=$(date +%s)
$T "$EV2HP" --wait 1 "unix:$tmp/nobody.sock" -o "$tmp/nobody.hp" 2> "$tmp/err"
status=$?
[ "$status" -eq 1 ] || fail "nobody: status $status"
[ $(( $(date +%s) - start )) -le 10 ] || fail "nobody: waited far longer than --wait 1"
grep -q "^ev2hp: unix:$tmp/nobody.sock: waiting for the program to listen" "$tmp/err" ||
    fail "nobody: no waiting message: $(cat "$tmp/err")"
grep -q "^ev2hp: unix:$tmp/nobody.sock: no program listening after 1 s (No such file or directory)$" \
    "$tmp/err" || fail "nobody: error: $(cat "$tmp/err")"
[ -e "$tmp/nobody.hp" ] && fail "nobody: an output was left behind"
$T "$EV2HP" --wait 0 "tcp:127.0.0.1:1" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "tcp port 1: status not 1"
grep -q "^ev2hp: tcp:127.0.0.1:1: no program listening (Connection refused)$" "$tmp/err" ||
    fail "tcp port 1: $(cat "$tmp/err")"

# 8. Usage: --wait is for sockets; addresses are checked before anything is opened.
"$EV2HP" --wait 3 "$data/leak-hc.eventlog" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--wait with a file: status not 2"
grep -q "^ev2hp: --wait is for an input unix:PATH or tcp:HOST:PORT$" "$tmp/err" ||
    fail "--wait with a file: $(cat "$tmp/err")"
"$EV2HP" --wait soon "unix:$tmp/x" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--wait soon: status not 2"
"$EV2HP" "tcp:localhost" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "tcp without a port: status not 2"
grep -q "^ev2hp: tcp:localhost: expected tcp:HOST:PORT" "$tmp/err" ||
    fail "tcp without a port: $(cat "$tmp/err")"

# 9. The replay server records what a client writes back (the control tests use it):
#    the 22 bytes of a census request arrive as sent.
"$PYTHON3" "$replay" unix "$data/leak-hc.eventlog" "$tmp/rec.sock" --seconds 1 \
    --record "$tmp/received" --seed 7 2>/dev/null &
rpid=$!
pids="$pids $rpid"
await -e "$tmp/rec.sock"
"$PYTHON3" - "$tmp/rec.sock" <<'EOF' || fail "record: the client failed"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"\xf0\x9e\x97\x8c\x00\x0feventlog-socket\x05")
while s.recv(65536):
    pass
EOF
wait $rpid
printf '\360\236\227\214\000\017eventlog-socket\005' | cmp -s - "$tmp/received" ||
    fail "record: the bytes received differ"

exit $failed
