#!/bin/sh
# ghc_live.sh: a real GHC program streaming its own eventlog to a Unix socket, read live.
#
# tests/ghc/Live.hs is built with GHC (Debian's ghc 9.0.2; skipped, status 77, when ghc
# is missing) and linked with tests/ghc/socket_writer.c, our eventlog writer on the
# runtime's eventlog_writer hook (the one eventlog-socket uses), which also obeys
# eventlog-socket's control messages. 1: ev2hp is started first, waits for the program
# to listen, and reads unix:PATH while the program runs; GHC 9.0.2 writes the same
# censuses into its own .hp, which ours must equal census for census. 2: run with
# censuses once in 100 s (none in a 2-second run), a client requests censuses with the
# control message; the eventlog must then hold them, as the runtime's .hp does. 3: the
# writer drops the connection after 1 s and restarts the runtime's event logging for
# the next client, as eventlog-socket does (GHC 9.0's runtime may flush an empty block
# before the new header): ev2hp connects again and goes on; the censuses it writes are
# the runtime's, none forged, and the gap is said, not taken for damage.
. "${SRCDIR:?}/tests/testlib.sh"
command -v ghc > /dev/null 2>&1 || { echo "SKIP: no ghc (Debian: ghc)"; exit 77; }
src="$SRCDIR/tests/ghc"
check="$SRCDIR/tests/hpcheck.py"

if ! timeout 600 ghc -O0 -threaded -eventlog -no-hs-main -outputdir "$tmp/o" "$src/Live.hs" \
        "$src/socket_writer.c" -optl-pthread -o "$tmp/live" > "$tmp/build" 2>&1; then
    echo "FAIL: building the GHC program:"
    cat "$tmp/build"
    exit 1
fi
cd "$tmp" || exit 1

# 1. Read live; ev2hp first, the program after it.
timeout 120 "$EV2HP" --wait 60 "unix:$tmp/live.sock" -o "$tmp/ours.hp" 2> "$tmp/err" &
ev2hp=$!
# The program starts once ev2hp says it waits (not after a fixed pause: on a loaded
# machine ev2hp may not have run yet, and would then find the program already there).
i=0
while ! grep -q "waiting for the program to listen" "$tmp/err" 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
LIVE_SOCKET="$tmp/live.sock" timeout 120 ./live 200000 +RTS -hT -i0.02 -l -RTS \
    > "$tmp/out" 2> "$tmp/prog.err" || fail "the program: status $?: $(cat "$tmp/prog.err")"
wait $ev2hp
status=$?
[ "$status" -eq 0 ] || fail "ev2hp: status $status: $(cat "$tmp/err")"
grep -q "^ev2hp: unix:$tmp/live.sock: waiting for the program to listen" "$tmp/err" ||
    fail "no waiting message: $(cat "$tmp/err")"
grep -v "waiting for the program\|: connected$" "$tmp/err" | grep -q . &&
    fail "unexpected messages: $(cat "$tmp/err")"
if verdict=$("$PYTHON3" "$check" "$tmp/live.hp" "$tmp/ours.hp"); then
    echo "ok: read live from the program: $verdict"
else
    fail "read live: $verdict"
fi
[ "$(grep -c '^BEGIN_SAMPLE' "$tmp/ours.hp")" -gt 3 ] || fail "read live: too few censuses"

# 2. Censuses on request: three census requests (command 5) from a client.
rm -f "$tmp/live.hp"
LIVE_SOCKET="$tmp/ctl.sock" timeout 120 ./live 100000 +RTS -hT -i100 -l -RTS \
    > /dev/null 2> "$tmp/prog.err" &
prog=$!
timeout 120 "$PYTHON3" - "$tmp/ctl.sock" "$tmp/ctl.eventlog" <<'EOF' || fail "control client failed"
import os, socket, sys, threading, time
path, out = sys.argv[1], sys.argv[2]
for _ in range(600):
    if os.path.exists(path):
        break
    time.sleep(0.1)
s = socket.socket(socket.AF_UNIX)
s.connect(path)
census = b"\xf0\x9e\x97\x8c\x00\x0feventlog-socket\x05"
def requests():
    for _ in range(3):
        time.sleep(0.4)
        s.sendall(census)
threading.Thread(target=requests, daemon=True).start()
with open(out, "wb") as f:
    while True:
        data = s.recv(65536)
        if not data:
            break
        f.write(data)
EOF
wait $prog || fail "control: the program: status $?: $(cat "$tmp/prog.err")"
"$EV2HP" "$tmp/ctl.eventlog" -o "$tmp/ctl.hp" 2> "$tmp/err" || fail "control: ev2hp failed"
n=$(grep -c '^BEGIN_SAMPLE' "$tmp/ctl.hp")
# Ours has an empty census at 0 and one at the end besides the requested ones.
[ "$n" -ge 3 ] || fail "control: no census came of the requests ($n samples)"
if verdict=$("$PYTHON3" "$check" "$tmp/live.hp" "$tmp/ctl.hp"); then
    echo "ok: censuses on request: $verdict"
else
    fail "control: $verdict"
fi
# 3. A dropped connection, with the runtime restarting its logging for the next client.
rm -f "$tmp/live.hp"
LIVE_DROP_AFTER=1 LIVE_SOCKET="$tmp/drop.sock" timeout 120 ./live 200000 +RTS -hT -i0.02 -l \
    -RTS > /dev/null 2> "$tmp/prog.err" &
prog=$!
timeout 120 "$EV2HP" --wait 60 "unix:$tmp/drop.sock" -o "$tmp/drop.hp" 2> "$tmp/err"
status=$?
wait $prog || fail "drop: the program: status $?: $(cat "$tmp/prog.err")"
[ "$status" -eq 0 ] || fail "drop: ev2hp: status $status: $(cat "$tmp/err")"
grep -q "^ev2hp: unix:$tmp/drop.sock: offset [0-9]*: the connection closed at [0-9.]* s into the run and was made again" \
    "$tmp/err" || fail "drop: the gap is not said: $(cat "$tmp/err")"
grep -q "damage\|HEAP_PROF_BEGIN\|defined again\|not an eventlog" "$tmp/err" &&
    fail "drop: the restart was taken for damage: $(cat "$tmp/err")"
if verdict=$("$PYTHON3" "$check" --subset 30 "$tmp/live.hp" "$tmp/drop.hp"); then
    echo "ok: a dropped connection, logging restarted: $verdict"
else
    fail "drop: $verdict"
fi
exit $failed
