#!/bin/sh
# serve_prometheus.sh: a real Prometheus scrapes ev2hp --serve. Prometheus (Debian's
# prometheus, installed by bootstrap) is started on a free port with a 1 s scrape interval
# and /metrics of ev2hp as its only target, while a real GHC eventlog is replayed into a
# Unix socket over 20 seconds; its HTTP API must then show the target up and
# ghc_heap_profile_censuses_total rising through at least two values between 0 and the
# run's count, with the bands of ghc_heap_profile_bytes. Skipped (77) without prometheus
# or curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without prometheus curl
prometheus=$(command -v prometheus)
. "$SRCDIR/tests/serve/lib.sh"
log=$SRCDIR/tests/data/labels-hc-g96.eventlog

# Prometheus starts first (it takes seconds), so that it scrapes the whole replay.
port=$(free_port)
prometheus_start "$prometheus" "$port"

sock=$work/program.sock
"$PYTHON3" "$SRCDIR/tests/replay.py" unix "$log" "$sock" --seconds 20 --writes 200 --linger 30 &
pids="$pids $!"
serve_start ev2hp --serve "127.0.0.1:$port" "unix:$sock"
[ "$url" = "http://127.0.0.1:$port/" ] || fail "ev2hp serves at $url, not port $port"

seen=""
i=0
while :; do
    kill -0 "$prom" 2>/dev/null || fail "prometheus exited: $(tail -5 "$work/prometheus.log")"
    n=$(query 'ghc_heap_profile_censuses_total{job="ev2hp"}')
    [ -z "$n" ] || seen_count "$n"
    [ "$(metric ghc_heap_profile_stream_ended)" = 1 ] && [ -n "$n" ] &&
        [ "$n" = "$(metric ghc_heap_profile_censuses_total)" ] && break
    [ $i -lt 900 ] || fail "Prometheus did not see the run's end (saw:$seen)"
    sleep 0.2
    i=$((i + 1))
done
assert_rose Prometheus
echo "serve_prometheus.sh: Prometheus saw the census count:$seen"
[ "$(query 'up{job="ev2hp"}')" = 1 ] || fail "the target is not up"
# the range of the counter over the run, from the TSDB: rising, never falling
curl -sf --data-urlencode 'query=ghc_heap_profile_censuses_total{job="ev2hp"}[5m]' "$api/query" |
    "$PYTHON3" -c 'import json, sys
values = [float(v) for _, v in json.load(sys.stdin)["data"]["result"][0]["values"]]
assert values == sorted(values), values
assert len(set(values)) >= 3, values
' || fail "the stored series of ghc_heap_profile_censuses_total does not rise"
bands=$(curl -sf --data-urlencode 'query=count(ghc_heap_profile_bytes{job="ev2hp"})' "$api/query" |
    "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["data"]["result"][0]["value"][1])')
[ "$bands" -ge 2 ] || fail "Prometheus holds $bands series of ghc_heap_profile_bytes"
serve_stop
echo "serve_prometheus.sh: ok ($bands band series)"
