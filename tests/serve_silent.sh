#!/bin/sh
# serve_silent.sh: ev2hp --serve's large documents and clients that never read them, over
# real sockets (tests/serve/hostile.py silent). A -hi log of 30,000 info tables with their
# IPE events (tests/bench/gen_eventlog -k ipe, 16 MB: the page is 9.6 MB, /summary.json
# 7.8 MB, /report.json 9.5 MB, /live.json 4.8 MB, more than a socket's buffers take, 4 MB
# on Linux's defaults; /debug/pprof/heap 1.1 MB; the 100,000-band log of
# doc/performance.md makes them tens of MB) is read whole; then, for each document, 120
# clients ask for it and take the first bytes of the answer and no more. ev2hp streams
# every client from a file (the drawings, /live.json and the last census's profile made
# once per state): its memory grows by at most half of what a copy per client held, and
# 32 MB at most, for the 120 (VmRSS while they wait, VmHWM after), where a copy per
# client held most of 120 times the document (/summary.json: 0.97 GB; a profile made per
# request: 0.17 GB). A client that reads meanwhile gets the whole document (the summary:
# the batch run's --summary=json, by table), and the clients that wait are still served
# when the test lets them go (none closed with its answer cut: they stalled for less
# than HTTP_STALL_SECONDS).
# Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
gen="$(dirname "$EV2HP")/tests/bench/gen_eventlog"
"$gen" -s 16 -k ipe -b 30000 "$work/hi.eventlog" || fail "gen_eventlog"
# a live run is never grouped; a batch run of thousands of tables is, unless told
"$EV2HP" --group-by table --summary=json "$work/hi.eventlog" >"$work/batch.summary.json" \
    2>/dev/null || fail "the batch run"

serve_start hi --serve 0 "$work/hi.eventlog"
port=${url#http://127.0.0.1:}
port=${port%/}
wait_ended
status_kb() { sed -n "s/^$1:[[:space:]]*\\([0-9]*\\) kB/\\1/p" "/proc/$pid/status"; }
for path in / /summary.json /report.json /live.json /debug/pprof/heap; do
    # drawn once before the clients come: what is measured is what they cost
    curl -sf -o "$work/first" "${url}${path#/}" || fail "GET $path"
    size=$(wc -c <"$work/first")
    # the bound: half of what a copy per client held, and 32 MB at most; the documents are
    # large enough that the half is twice what 120 connections cost (8 MB measured)
    copies=$((120 * size / 1024))
    [ $((copies / 2)) -ge 16384 ] || fail "$path is $size bytes: the log is not large enough"
    bound=$((copies / 2 < 32768 ? copies / 2 : 32768))
    rss=$(status_kb VmRSS)
    hwm=$(status_kb VmHWM)
    : >"$work/silent.txt"
    "$PYTHON3" "$SRCDIR/tests/serve/hostile.py" silent "$port" "$path" 120 3 \
        >"$work/silent.txt" &
    clients=$!
    pids="$pids $clients"
    poll 300 "120 clients of $path answered" grep -q . "$work/silent.txt"
    [ "$(sed -n 1p "$work/silent.txt")" = 120 ] ||
        fail "of 120 clients of $path, $(sed -n 1p "$work/silent.txt") were answered 200"
    during=$(status_kb VmRSS)
    # a client that reads is served meanwhile, the whole document
    curl -sf --max-time 60 -o "$work/again" "${url}${path#/}" || fail "GET $path beside them"
    cmp -s "$work/first" "$work/again" || fail "$path beside 120 silent clients is not whole"
    wait "$clients" || fail "hostile.py silent $path"
    [ "$(sed -n 2p "$work/silent.txt")" = 0 ] ||
        fail "$(sed -n 2p "$work/silent.txt") of the clients of $path were closed within 3 s, their answer cut"
    peak=$(status_kb VmHWM)
    echo "serve_silent.sh: $path of $size bytes, 120 clients that do not read: VmRSS" \
        "$rss kB, $during kB with them; VmHWM $hwm kB, $peak kB after (at most $bound kB more)"
    [ "$during" -le $((rss + bound)) ] ||
        fail "120 silent clients of $path ($size bytes): VmRSS $rss to $during kB"
    [ "$peak" -le $((hwm + bound)) ] ||
        fail "120 silent clients of $path ($size bytes): VmHWM $hwm to $peak kB"
done
curl -sf -o "$work/summary.json" "${url}summary.json" || fail "GET /summary.json"
cmp -s "$work/batch.summary.json" "$work/summary.json" ||
    fail "/summary.json is not the bytes of --summary=json"
serve_stop
echo "serve_silent.sh: ok"
