#!/bin/sh
# follow_signal.sh: `ev2hp --follow FILE` without --serve, ended by SIGINT or SIGTERM while
# the program is still writing. A real GHC eventlog is replayed into a growing file (its
# first part, to the middle census, at once, the rest a minute later, so the signal always comes mid-input);
# once ev2hp has read the first part (its descriptor's position, from /proc), the signal
# must end it with status 0, the -o outputs written whole for what was read (the .hp a
# prefix of the runtime's, census for census, closed by its END_SAMPLE; the SVG valid;
# the summary JSON), and nothing else left in the output directory.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
. "$SRCDIR/tests/serve/lib.sh"   # processes ended, files removed; fail ends the test
name=markers40-hT
log=$SRCDIR/tests/data/$name.eventlog
# the first part: up to the middle census's begin event (GHC writes its heap censuses
# late in the file), cut inside that event
half=$("$PYTHON3" -c 'import struct, sys
sys.path.insert(0, sys.argv[1])
import replay
data = open(sys.argv[2], "rb").read()
log = replay.Eventlog(data)
begins = [p for p in log.starts if struct.unpack_from(">H", data, p)[0] == 162]
print(begins[len(begins) // 2] + 3)' "$SRCDIR/tests" "$log")

# position NAME PID: how far ev2hp has read the file NAME (0 until it has it open).
position() {
    for fd in /proc/"$2"/fd/*; do
        [ "$(readlink "$fd" 2>/dev/null)" = "$1" ] || continue
        sed -n 's/^pos:[[:space:]]*//p' "/proc/$2/fdinfo/${fd##*/}"
        return
    done
    echo 0
}

for sig in INT TERM; do
    out=$work/$sig
    mkdir "$out"
    grow=$work/$sig.eventlog
    "$PYTHON3" "$SRCDIR/tests/replay.py" file "$log" "$grow" --first-bytes "$half" \
        --delay 60 --seconds 1 2>/dev/null &
    replay=$!
    pids="$pids $replay"
    await_file "$grow"
    # a shell starts background jobs with SIGINT ignored (which ev2hp keeps, as under
    # nohup): the SIGINT run gets its default action back first
    "$PYTHON3" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$EV2HP" --follow "$grow" -o "$out/x.hp" -o "$out/x.svg" \
        --summary=json >"$out/summary.json" 2>"$work/$sig.err" &
    pid=$!
    pids="$pids $pid"
    if [ -d "/proc/$pid/fd" ]; then
        i=0
        while [ "$(position "$grow" "$pid")" -lt "$half" ]; do
            kill -0 "$pid" 2>/dev/null || fail "SIG$sig: ev2hp ended early: $(cat "$work/$sig.err")"
            [ $i -lt 1200 ] || fail "SIG$sig: ev2hp did not read the first part"
            sleep 0.05
            i=$((i + 1))
        done
    else
        sleep 3
    fi
    kill -0 "$replay" 2>/dev/null || fail "the replay ended before the signal"
    kill -"$sig" "$pid"
    st=0
    wait "$pid" || st=$?
    [ "$st" -eq 0 ] || fail "SIG$sig: status $st, not 0: $(cat "$work/$sig.err")"
    tail -1 "$out/x.hp" | grep -q '^END_SAMPLE' || fail "SIG$sig: the .hp is not closed"
    n=$(grep -c '^BEGIN_SAMPLE' "$out/x.hp")
    all=$(grep -c '^BEGIN_SAMPLE' "$SRCDIR/tests/data/$name.hp")
    [ "$n" -gt 2 ] && [ "$n" -lt "$all" ] ||
        fail "SIG$sig: the .hp holds $n samples (the whole run: $all)"
    "$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$SRCDIR/tests/data/$name.hp" "$out/x.hp" --prefix ||
        fail "SIG$sig: the .hp is not a prefix of the runtime's"
    "$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["censuses"] == int(sys.argv[2]) - 2, d["censuses"]' \
        "$out/summary.json" "$n" || fail "SIG$sig: the summary is not of what was read"
    if command -v xmllint >/dev/null; then
        xmllint --noout "$out/x.svg" || fail "SIG$sig: x.svg is not XML"
    fi
    left=$(ls -A "$out" | grep -v '^x\.\(hp\|svg\)$' | grep -v '^summary\.json$' || true)
    [ -z "$left" ] || fail "SIG$sig: files left behind: $left"
    kill "$replay" 2>/dev/null || true
    wait "$replay" 2>/dev/null || true
    echo "follow_signal.sh: SIG$sig after the first half: $((n - 2)) of $((all - 2)) censuses written, status 0"
done
echo "follow_signal.sh: ok"
