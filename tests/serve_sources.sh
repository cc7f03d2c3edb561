#!/bin/sh
# serve_sources.sh: ev2hp --serve on live sources and the program's controls. A real GHC
# eventlog is replayed (tests/replay.py: writes cut at arbitrary bytes over a few seconds)
# into a growing file (followed: the default under --serve), a Unix socket and a TCP
# socket served like eventlog-socket. For each, /metrics shows the census count rising
# while the eventlog is written, and at the end /profile.hp and -o x.hp are the same
# bytes and equal the runtime's own .hp census for census (tests/hpcheck.py).
# Controls: POST /control/census without "X-Requested-By: ev2hp" is refused (403) and
# sends nothing; with it, exactly the eventlog-socket message requesting a heap census
# (F0 9E 97 8C, version 00, 0F "eventlog-socket", 05) reaches the program's socket.
# Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
name=labels-hc-g96
log=$SRCDIR/tests/data/$name.eventlog   # censuses all along the file
oracle=$SRCDIR/tests/data/$name.hp
replay="$SRCDIR/tests/replay.py"

# rising NAME: polls /metrics until the stream ends; fails unless the census count was
# seen between 0 and the end at least twice.
rising() {
    seen=""
    i=0
    while [ "$(metric ghc_heap_profile_stream_ended)" != 1 ]; do
        seen_count "$(metric ghc_heap_profile_censuses_total)"
        kill -0 "$pid" 2>/dev/null || fail "$1: ev2hp exited before the end"
        [ $i -lt 1200 ] || fail "$1: the stream did not end"
        sleep 0.1
        i=$((i + 1))
    done
    assert_rose "$1: /metrics"
    echo "serve_sources.sh: $1: census counts seen while reading:$seen; $total at the end"
}

# finish NAME: /profile.hp at the end, SIGTERM, then the checks against -o and the runtime.
finish() {
    curl -sf "${url}profile.hp" >"$work/$1.live.hp"
    serve_stop
    cmp "$work/$1.hp" "$work/$1.live.hp" || fail "$1: /profile.hp differs from -o x.hp"
    "$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$oracle" "$work/$1.hp" ||
        fail "$1: not the runtime's .hp"
}

# --- a growing file, followed -----------------------------------------------------------
# (markers40-hT: `--follow` of labels-hc-g96 waits forever at its end on main's reader,
# whose time-order check asks for the next event's header past the last event)
"$PYTHON3" "$replay" file "$SRCDIR/tests/data/markers40-hT.eventlog" "$work/growing.eventlog" \
    --seconds 8 --writes 200 &
pids="$pids $!"
while [ ! -e "$work/growing.eventlog" ]; do sleep 0.05; done
serve_start file --serve 0 "$work/growing.eventlog" -o "$work/file.hp"
rising file
oracle=$SRCDIR/tests/data/markers40-hT.hp finish file

# --- a Unix socket, with the controls ---------------------------------------------------
sock=$work/program.sock
: >"$work/control.bin"
"$PYTHON3" "$replay" unix "$log" "$sock" --seconds 10 --writes 200 --record "$work/control.bin" \
    --linger 5 &
pids="$pids $!"
serve_start unix --serve 0 "unix:$sock" -o "$work/unix.hp"
while [ "$(metric ghc_heap_profile_censuses_total)" = 0 ]; do
    kill -0 "$pid" 2>/dev/null || fail "unix: ev2hp exited: $(cat "$work/unix.err")"
    sleep 0.05
done
[ "$(http_status -X POST "${url}control/census")" = 403 ] || fail "control without the header"
[ "$(http_status -X POST -H 'X-Requested-By: other' "${url}control/census")" = 403 ] ||
    fail "control with another X-Requested-By"
[ "$(http_status -X POST -H 'X-Requested-By: ev2hp' "${url}control/census")" = 202 ] ||
    fail "control with the header was not sent"
rising unix
finish unix
# exactly one message reached the program: the refused requests sent nothing
printf '\360\236\227\214\000\017eventlog-socket\005' >"$work/expected.bin"
cmp "$work/expected.bin" "$work/control.bin" || {
    od -An -tx1 "$work/control.bin"
    fail "the program did not receive exactly the requestHeapCensus message"
}

# --- a TCP socket -------------------------------------------------------------------------
"$PYTHON3" "$replay" tcp "$log" --port-file "$work/port" --seconds 4 --writes 80 &
pids="$pids $!"
while [ ! -s "$work/port" ]; do sleep 0.05; done
serve_start tcp --serve 0 "tcp:127.0.0.1:$(cat "$work/port")" -o "$work/tcp.hp"
rising tcp
finish tcp
echo "serve_sources.sh: ok"
