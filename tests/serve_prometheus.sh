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

# free ports for ev2hp and Prometheus: bound to 0, read back, let go. Prometheus starts
# first (it takes seconds), so that it scrapes the whole replay.
free_port() {
    "$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
prom_port=$(free_port)
cat >"$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: ev2hp
    static_configs:
      - targets: ["127.0.0.1:$port"]
YML
"$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
prom=$!
pids="$pids $prom"
api="http://127.0.0.1:$prom_port/api/v1"
i=0
until curl -sf "http://127.0.0.1:$prom_port/-/ready" >/dev/null 2>&1; do
    kill -0 "$prom" 2>/dev/null || fail "prometheus exited: $(tail -5 "$work/prometheus.log")"
    [ $i -lt 600 ] || fail "prometheus is not ready"
    sleep 0.1
    i=$((i + 1))
done

sock=$work/program.sock
"$PYTHON3" "$SRCDIR/tests/replay.py" unix "$log" "$sock" --seconds 20 --writes 200 --linger 30 &
pids="$pids $!"
serve_start ev2hp --serve "127.0.0.1:$port" "unix:$sock"
[ "$url" = "http://127.0.0.1:$port/" ] || fail "ev2hp serves at $url, not port $port"

# query EXPR: the values of an instant query, one per line
query() {
    curl -sf --data-urlencode "query=$1" "$api/query" |
        "$PYTHON3" -c 'import json, sys
for r in json.load(sys.stdin)["data"]["result"]:
    print(r["value"][1])' 2>/dev/null || true
}

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
