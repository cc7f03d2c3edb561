#!/bin/sh
# serve_summary.sh: what ev2hp --serve draws at the end of a live input is what -o draws,
# for the inputs whose summary reads more than the censuses: a -hc run (the summary's
# bands name their cost-centre stacks, defined as the input goes) and time profiles (the
# summary's and the charts' time profile grows tick by tick, without a census). Each real
# GHC eventlog is replayed into a growing file (tests/replay.py: writes cut at arbitrary
# bytes) that ev2hp follows while serving; once /metrics says the stream ended,
# /summary.json is the bytes of --summary=json and /chart.svg the bytes of -o x.svg of the
# same run, and the summary names stacks (-hc) or time-profile cost centres. /live.json
# (the live model: recent censuses whole) holds every census of -o x.csv, band for band.
# /profile.hp fetched while the input is written is the runtime's .hp so far, closed.
# Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
replay="$SRCDIR/tests/replay.py"

# same NAME EVENTLOG KEY: replays EVENTLOG into a growing file served live; at the end
# /summary.json and /chart.svg must be the bytes of the run's own outputs, and the
# summary must hold KEY (what only the cost centres or the time profile give).
same() {
    grow=$work/$1.eventlog
    "$PYTHON3" "$replay" file "$2" "$grow" --seconds 3 --writes 60 --seed 7 &
    pids="$pids $!"
    await_file "$grow"
    serve_start "$1" --serve 0 --summary=json -o "$work/$1.svg" -o "$work/$1.csv" "$grow"
    wait_ended
    curl -sf "${url}summary.json" >"$work/$1.live.json" || fail "$1: GET /summary.json"
    curl -sf "${url}chart.svg" >"$work/$1.live.svg" || fail "$1: GET /chart.svg"
    curl -sf "${url}live.json" >"$work/$1.model.json" || fail "$1: GET /live.json"
    serve_stop
    "$PYTHON3" - "$work/$1.csv" "$work/$1.model.json" <<'PY' || fail "$1: /live.json is not -o x.csv"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
model = json.load(open(sys.argv[2]))
assert model["ended"] and model["censuses"] == len(rows), (model["censuses"], len(rows))
assert not model["merged"] and len(model["recent"]) == len(rows)   # fewer than 600
for row, census in zip(rows, model["recent"]):
    values = [0] * (len(row) - 1)
    for band, n in census["values"]:
        values[band] += n
    assert float(row[0]) == census["t"], (row[0], census["t"])
    assert [int(v) for v in row[1:]] == values, (row, census)
PY
    cmp "$work/$1.out" "$work/$1.live.json" || fail "$1: /summary.json differs from --summary=json"
    cmp "$work/$1.svg" "$work/$1.live.svg" || fail "$1: /chart.svg differs from -o x.svg"
    grep -q "$3" "$work/$1.live.json" || fail "$1: /summary.json has no $3"
    echo "serve_summary.sh: $1: /summary.json and /chart.svg are -o's"
}

# /profile.hp while the input is written: the spool is flushed when asked for (not per
# census), and every answer is the runtime's .hp so far, closed, census for census.
oracle=$SRCDIR/tests/data/labels-hc-g96   # censuses all along the file
grow=$work/mid.eventlog
"$PYTHON3" "$replay" file "$oracle.eventlog" "$grow" --seconds 6 --writes 120 &
pids="$pids $!"
await_file "$grow"
serve_start mid --serve 0 -o "$work/mid.hp" "$grow"
await_attached
k=0
while [ "$(metric ghc_heap_profile_stream_ended)" != 1 ]; do
    kill -0 "$pid" 2>/dev/null || fail "mid: ev2hp exited before the end"
    curl -sf "${url}profile.hp" >"$work/mid.$k.hp" || fail "mid: GET /profile.hp"
    k=$((k + 1))
    [ $k -lt 600 ] || fail "mid: the stream did not end"
    sleep 0.1
done
curl -sf "${url}profile.hp" >"$work/mid.live.hp"
serve_stop
cmp "$work/mid.hp" "$work/mid.live.hp" || fail "mid: /profile.hp at the end differs from -o x.hp"
all=$(grep -c '^BEGIN_SAMPLE' "$work/mid.hp")
partial=0
for f in "$work"/mid.[0-9]*.hp; do
    tail -1 "$f" | grep -q '^END_SAMPLE' || fail "mid: $f is not closed"
    "$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$oracle.hp" "$f" --prefix \
        >/dev/null || fail "mid: /profile.hp while reading is not the runtime's .hp so far"
    n=$(grep -c '^BEGIN_SAMPLE' "$f")
    [ "$n" -gt 2 ] && [ "$n" -lt "$all" ] && partial=$((partial + 1))
done
[ $partial -ge 1 ] || fail "mid: no /profile.hp was fetched while the input was written"
echo "serve_summary.sh: /profile.hp fetched $k times while reading, $partial of them partial"

same hc "$SRCDIR/tests/data/leak-hc.eventlog" '"stack":'
same timeprof "$SRCDIR/tests/data/timeprof/leak-P.eventlog" '"time_profile":'
same both "$SRCDIR/tests/data/timeprof/ghc910-leak-p.eventlog" '"time_profile":'
echo "serve_summary.sh: ok"
