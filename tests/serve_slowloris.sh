#!/bin/sh
# serve_slowloris.sh: connections that hold the live server's slots without using them.
# 100 idle connections and 70 slowloris ones (a header byte a second, never ending;
# tests/serve/hostile.py, each opened again within a second when the server closes it)
# are kept open for 75 s; curl /metrics must get 200 within 5 s as the attack starts and
# after 70 s of it. Meanwhile a client that asks for /profile.hp (a few MB: a dense log
# read whole) and never reads is closed within 45 s: 30 s after its last read
# (HTTP_STALL_SECONDS), not at libmicrohttpd's 60 s idle timeout.
# The one test of the suite that waits 70 s: it runs beside the others.
# Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
hostile=$SRCDIR/tests/serve/hostile.py

"$(dirname "$EV2HP")/tests/bench/gen_eventlog" -s 8 "$work/dense.eventlog" || fail "gen_eventlog"
serve_start slow --serve 0 "$work/dense.eventlog"
port=${url#http://127.0.0.1:}
port=${port%/}
wait_ended
# the 30 s of stall, and 15 s for the server to see it, times the load (testlib's patience)
stalled_for=$(awk -v m="$(patience 15)" 'BEGIN { print 30 + m }')
"$PYTHON3" "$hostile" events "$port" 1 "$stalled_for" /profile.hp >"$work/stalled.txt" &
stalled=$!
pids="$pids $stalled"
"$PYTHON3" "$hostile" hold "$port" 100 idle 75 >"$work/idle.txt" &
idle=$!
"$PYTHON3" "$hostile" hold "$port" 70 slowloris 75 >"$work/slowloris.txt" &
slow=$!
pids="$pids $idle $slow"
scrape() {
    st=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 5 "${url}metrics" || true)
    echo "serve_slowloris.sh: $1: /metrics answered $st"
    [ "${st%% *}" = 200 ] || fail "$1: /metrics answered '$st' beside 100 idle and 70 slowloris connections"
}
sleep 2
scrape "at once"
sleep 68
scrape "after 70 s"
wait "$idle" "$slow" "$stalled" || true
[ "$(cat "$work/stalled.txt")" = 1 ] ||
    fail "a client of /profile.hp that never reads was not closed ($(patience_said "$stalled_for"))"
echo "serve_slowloris.sh: connections opened: idle $(cat "$work/idle.txt"), slowloris $(cat "$work/slowloris.txt")"
serve_stop
echo "serve_slowloris.sh: ok"
