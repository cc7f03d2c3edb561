# lib.sh: what the live tests (tests/serve*.sh) share: starting ev2hp --serve in the
# background and finding its address, feeding it, reading its endpoints, stopping it.
# Sourced after tests/testlib.sh. Their files go to $work (testlib's $tmp). On exit every
# process started here is ended and $work removed. A failure ends the test at once (fail
# is redefined: the later steps of a live run need the earlier ones).

work=$tmp
leak_checks     # the live server runs on: a leak there grows (testlib.sh)
pids=""
serve_cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    for p in $pids; do wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap serve_cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# browser_ready: browser_setup for a test of the live page, which also wants curl.
browser_ready() {
    browser_setup curl
}

# serve_start NAME ARGS...: runs ev2hp ARGS (with --serve) in the background, its standard
# output to $work/NAME.out and error to $work/NAME.err; sets pid and url once it listens.
serve_start() {
    name=$1
    shift
    : >"$work/$name.err"   # before the background job opens it: sed below reads it at once
    "$EV2HP" "$@" >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    pids="$pids $pid"
    url=""
    i=0
    tries=$(patience_tries 300)
    while [ $i -lt "$tries" ]; do
        url=$(sed -n 's/^ev2hp: serving \(http:[^ ]*\)$/\1/p' "$work/$name.err")
        [ -n "$url" ] && return 0
        kill -0 "$pid" 2>/dev/null || fail "$name: ev2hp exited early: $(cat "$work/$name.err")"
        sleep 0.1
        i=$((i + 1))
    done
    fail "$name: no 'ev2hp: serving' line on standard error ($(patience_said $((tries / 10))))"
}

# feed SOURCE TARGET SECONDS: writes SOURCE into TARGET (a FIFO) slowly, in the background.
feed() {
    "$PYTHON3" "$SRCDIR/tests/serve/feed.py" "$@" &
    pids="$pids $!"
}

# await_file PATH: until a replay (tests/replay.py) has written into PATH, 30 s at most
# (times the load: testlib's patience).
await_file() {
    i=0
    tries=$(patience_tries 600)
    while [ ! -s "$1" ]; do
        [ $i -lt "$tries" ] || fail "nothing was written into $1 ($(patience_said $((tries / 20))))"
        sleep 0.05
        i=$((i + 1))
    done
}

# metric NAME: the value of an unlabelled sample of /metrics.
metric() {
    curl -sf "${url}metrics" | sed -n "s/^$1 //p"
}

# http_status [CURL ARGS] URL: the status code alone.
http_status() {
    curl -s -o /dev/null -w '%{http_code}' "$@"
}

# poll TRIES WHAT CHECK...: runs CHECK every 0.1 s until it succeeds; fails when ev2hp
# ($pid) has exited first or after TRIES tries (times the load: testlib's patience),
# saying what did not happen and how long it waited.
poll() {
    tries=$(patience_tries "$1")
    what=$2
    shift 2
    i=0
    until "$@"; do
        kill -0 "$pid" 2>/dev/null || fail "ev2hp exited before $what"
        [ $i -lt "$tries" ] || fail "$what: not within $(patience_said $((tries / 10)))"
        sleep 0.1
        i=$((i + 1))
    done
}

# wait_ended: until /metrics says the stream ended (the input read whole).
stream_ended() { [ "$(metric ghc_heap_profile_stream_ended)" = 1 ]; }
wait_ended() { poll 1200 "its input ended" stream_ended; }

# await_attached: until the input is open. Before, the documents answer 503 ("waiting for
# the program"): ev2hp prints its address before its reader has opened the input.
input_open() {
    st=$(http_status "${url}profile.hp")
    [ "$st" = 200 ] || [ "$st" = 503 ] ||
        fail "GET /profile.hp answered $st before the input opened"
    [ "$st" = 200 ]
}
await_attached() { poll 300 "its input opened" input_open; }

# seen_count N: adds the census count N to those seen ($seen, each once).
seen_count() {
    case " $seen " in *" $1 "*) ;; *) seen="$seen $1" ;; esac
}

# assert_rose WHO: at least two of the counts seen lie between 0 and the run's count at
# the end ($total, from /metrics): WHO saw the count rise while the input was read.
assert_rose() {
    total=$(metric ghc_heap_profile_censuses_total)
    k=0
    for n in $seen; do [ "$n" -gt 0 ] && [ "$n" -lt "$total" ] && k=$((k + 1)); done
    [ $k -ge 2 ] || fail "$1 did not see the census count rise (saw:$seen; $total at the end)"
}

# free_port: a free port of 127.0.0.1 (bound to 0, read back, let go).
free_port() {
    "$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# prometheus_start PROMETHEUS PORT: a real Prometheus scraping 127.0.0.1:PORT/metrics
# every second (job "ev2hp"), its data in $work; sets prom (its pid) and api (its HTTP
# API's address) once it is ready.
prometheus_start() {
    prom_port=$(free_port)
    cat >"$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: ev2hp
    static_configs:
      - targets: ["127.0.0.1:$2"]
YML
    "$1" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
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
}

# query EXPR: the values of an instant query of Prometheus ($api), one per line.
query() {
    curl -sf --data-urlencode "query=$1" "$api/query" |
        "$PYTHON3" -c 'import json, sys
for r in json.load(sys.stdin)["data"]["result"]:
    print(r["value"][1])' 2>/dev/null || true
}

# serve_stop: SIGTERM; ev2hp must end with status 0.
serve_stop() {
    kill -TERM "$pid"
    st=0
    wait "$pid" || st=$?
    [ "$st" -eq 0 ] || fail "ev2hp ended with status $st after SIGTERM: $(cat "$work/$name.err")"
}
