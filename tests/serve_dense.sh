#!/bin/sh
# serve_dense.sh: ev2hp --serve on a dense log (tests/bench/gen_eventlog: 4,000 -hc bands
# of long cost-centre names, as in the real 115 MB log the issue quotes), --bands 0
# --trace 0, so that the band list /events sends passes 1 MiB:
#   - a fast /events reader, connected from the start, stays connected: every census and
#     the end; one that never reads is dropped, its connection closed; a client that
#     comes later gets init (over 1 MiB);
#   - 20 slow readers of /profile.hp (4 KiB a second each) keep ev2hp within 256 MB: the
#     .hp is streamed from the spool, not copied per request.
# Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
gen="$(dirname "$EV2HP")/tests/bench/gen_eventlog"
start=$(date +%s)
"$gen" -s 40 -k stack -b 4000 -n 60 "$work/dense.eventlog" || fail "gen_eventlog"

mkfifo "$work/in"
serve_start dense --serve 0 --bands 0 --trace 0 "$work/in"
port=${url#http://127.0.0.1:}
port=${port%/}
curl -sN --max-time 300 "${url}events" >"$work/fast.txt" &
fast=$!
# beside it, one that never reads: dropped (by queue or by time) and its connection closed
"$PYTHON3" "$SRCDIR/tests/serve/hostile.py" events "$port" 1 15 >"$work/stalled.txt" &
stalled=$!
pids="$pids $fast $stalled"
feed "$work/dense.eventlog" "$work/in" 8 200
wait_ended
echo "serve_dense.sh: read whole after $(($(date +%s) - start)) s"
poll 600 "the fast reader's end" grep -q '^event: end$' "$work/fast.txt"
total=$(metric ghc_heap_profile_censuses_total)
n=$(grep -c '^event: census$' "$work/fast.txt" || true)
[ "$n" = "$total" ] || fail "the fast reader got $n census events of $total"
wait "$stalled" || true
[ "$(cat "$work/stalled.txt")" = 1 ] || fail "the connection of a client that never reads was not closed"
[ "$(metric ev2hp_events_clients_dropped_total)" = 1 ] ||
    fail "$(metric ev2hp_events_clients_dropped_total) clients dropped, not the one that never reads"
big=$(grep '^data: ' "$work/fast.txt" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$big" -gt 1048576 ] || fail "the largest /events message is $big bytes: the log is not dense enough"
curl -sN --max-time 5 "${url}events" >"$work/late.txt" || true
grep -q '^event: init$' "$work/late.txt" || fail "a later client got no init"
init=$(sed -n '3p' "$work/late.txt" | wc -c)
[ "$init" -gt 1048576 ] || fail "the init message is $init bytes, not over 1 MiB"
echo "serve_dense.sh: $total censuses to a fast reader, largest message $big bytes, init $init bytes"

# --- 20 slow readers of /profile.hp ------------------------------------------------------
size=$(curl -sfI "${url}profile.hp" | tr -d '\r' | sed -n 's/^Content-Length: //ip')
rss() { sed -n "s/^VmRSS:[[:space:]]*\\([0-9]*\\) kB/\\1/p" "/proc/$pid/status"; }
before=$(rss)
"$PYTHON3" "$SRCDIR/tests/serve/hostile.py" slowread "$port" /profile.hp 20 5 >"$work/read.txt" &
readers=$!
pids="$pids $readers"
sleep 3
during=$(rss)
wait "$readers" || true
echo "serve_dense.sh: /profile.hp of $size bytes; ev2hp's RSS $before kB, $during kB with 20 slow readers"
# AddressSanitizer's own memory (its quarantine alone is 256 MB) is more than ev2hp's: a
# sanitized build is held to the growth only
if ldd "$EV2HP" 2>/dev/null | grep -q 'libasan'; then
    echo "serve_dense.sh: a sanitized build: the 256 MB bound is not checked, the growth is"
else
    [ "$during" -lt $((256 * 1024)) ] || fail "20 slow readers of /profile.hp: ev2hp holds $during kB"
fi
[ "$during" -lt $((before + 64 * 1024)) ] ||
    fail "20 slow readers of /profile.hp: ev2hp grew from $before to $during kB"
serve_stop
echo "serve_dense.sh: ok"
