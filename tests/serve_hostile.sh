#!/bin/sh
# serve_hostile.sh: ev2hp --serve against hostile clients, over real sockets
# (tests/serve/hostile.py plays the attackers; tests/serve_slowloris.sh the long ones):
#   - DNS rebinding: a request for another Host (evil.example, a name the page of a
#     rebound domain sends) gets 421 on every path, and the program (a Unix socket,
#     tests/replay.py recording what it receives) receives nothing; the bound address,
#     localhost and --allow-host names are answered, and only then is a command sent;
#     bound to 0.0.0.0, any address literal is answered, other names are not;
#   - request framing: two Host headers (RFC 9112: 400, whichever comes first), two
#     Content-Length headers, a bad one, or one beside chunked
#     encoding get 400; a declared 1 GB body is refused (413) within 1 s, before its bytes;
#   - 32 clients of /events that never read do not keep a new one from its first census
#     within 10 s: it takes the place of one of them, whose connection is closed;
#   - 200 clients of /events arriving at once, none reading: at most 32 streams stay
#     open (the others' connections are closed, not kept alive for another request),
#     and /metrics answers every probe meanwhile within 1 s (scaled by the load:
#     testlib's patience);
#   - an idle connection, and one sending a header byte a second, are closed when their
#     request has not arrived whole within 10 s;
#   - --allow-host takes host names only, and only with --serve.
# Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
log=$SRCDIR/tests/data/labels-hc-g96.eventlog
hostile=$SRCDIR/tests/serve/hostile.py

# --- usage ------------------------------------------------------------------------------
for bad in "evil.example/x" "" "a b" "évil"; do
    st=0
    "$EV2HP" --serve 0 --allow-host "$bad" "$log" >/dev/null 2>"$work/usage.err" || st=$?
    [ "$st" -eq 2 ] && grep -q -- "--allow-host wants a host name" "$work/usage.err" ||
        fail "--allow-host '$bad': status $st: $(cat "$work/usage.err")"
done
st=0
"$EV2HP" --allow-host ev2hp.example "$log" >/dev/null 2>"$work/usage.err" || st=$?
[ "$st" -eq 2 ] && grep -q -- "--allow-host is for --serve" "$work/usage.err" ||
    fail "--allow-host without --serve: status $st"

# --- Host: a program behind a Unix socket, recording what it receives --------------------
sock=$work/program.sock
: >"$work/control.bin"
"$PYTHON3" "$SRCDIR/tests/replay.py" unix "$log" "$sock" --seconds 6 --writes 100 \
    --record "$work/control.bin" --linger 60 &
pids="$pids $!"
serve_start host --serve 0 --allow-host prof.internal "unix:$sock"
port=${url#http://127.0.0.1:}
port=${port%/}
poll 300 "the first census" sh -c '[ "$(curl -s "$0metrics" | sed -n "s/^ghc_heap_profile_censuses_total //p")" -gt 0 ]' "$url"
for path in "" metrics events report.json live.json profile.hp summary.json chart.svg \
    chart.png nope; do
    for host in evil.example evil.example:$port "127.0.0.1.evil.example" "localhost.evil.example:$port"; do
        st=$(http_status --max-time 5 -H "Host: $host" "${url}$path")
        [ "$st" = 421 ] || fail "GET /$path with Host: $host answered $st, not 421"
    done
done
for c in census heap-profiling/start heap-profiling/stop; do
    st=$(http_status -X POST -H 'Host: evil.example' -H 'X-Requested-By: ev2hp' "${url}control/$c")
    [ "$st" = 421 ] || fail "POST /control/$c with Host: evil.example answered $st, not 421"
done
sleep 0.5
[ ! -s "$work/control.bin" ] || fail "the program received $(wc -c <"$work/control.bin") bytes from refused requests"
for host in "127.0.0.1:$port" localhost "localhost:$port" prof.internal "PROF.internal:80"; do
    st=$(http_status -H "Host: $host" "${url}metrics")
    [ "$st" = 200 ] || fail "GET /metrics with Host: $host answered $st, not 200"
done
[ "$(http_status -X POST -H 'Host: prof.internal' -H 'X-Requested-By: ev2hp' "${url}control/census")" = 202 ] ||
    fail "POST /control/census for an --allow-host name was not sent"
poll 50 "the program receiving the command" test -s "$work/control.bin"

# --- framing ----------------------------------------------------------------------------
body() { http_status -X POST -H 'X-Requested-By: ev2hp' "$@" "${url}control/census"; }
[ "$(body -H 'Content-Length: 3' -H 'Content-Length: 30' -d abc)" = 400 ] ||
    fail "two Content-Length headers are not 400"
[ "$(body -H 'Content-Length: 3' -H 'Content-Length: 3' -d abc)" = 400 ] ||
    fail "a repeated Content-Length is not 400"
[ "$(body -H 'Content-Length: 3x' -d abc)" = 400 ] || fail "a bad Content-Length is not 400"
[ "$(body -H 'Content-Length: -1' -d abc)" = 400 ] || fail "a negative Content-Length is not 400"
[ "$(body -H 'Transfer-Encoding: chunked' -H 'Content-Length: 3' -d abc)" = 400 ] ||
    fail "Content-Length beside chunked encoding is not 400"
# two Host headers, an answered one first or second: 400, and the program receives nothing
for hosts in "127.0.0.1 evil.example" "evil.example 127.0.0.1" "127.0.0.1 127.0.0.1"; do
    st=$("$PYTHON3" "$hostile" hosts "$port" $hosts)
    [ "$st" = 400 ] || fail "two Host headers ($hosts) answered $st, not 400"
done
set -- $("$PYTHON3" "$hostile" bigbody "$port")
[ "$1" = 413 ] || fail "a declared 1 GB body answered $1, not 413"
"$PYTHON3" -c 'import sys; sys.exit(float(sys.argv[1]) >= 1)' "$2" ||
    fail "a declared 1 GB body was refused after $2 s, not within 1 s"
echo "serve_hostile.sh: a declared 1 GB body refused after $2 s"
# the server still answers, the program received one command
[ "$(http_status "${url}metrics")" = 200 ] || fail "/metrics after the attacks"
serve_stop

# bound to every address: any address literal (none can be rebound), names as above
mkfifo "$work/any"
serve_start any --serve 0.0.0.0:0 "$work/any"
any_port=${url##*:}
any_port=${any_port%/}
for host in 10.1.2.3 "10.1.2.3:$any_port" "[fe80::1]:80" localhost; do
    st=$(http_status -H "Host: $host" "http://127.0.0.1:$any_port/metrics")
    [ "$st" = 200 ] || fail "bound to 0.0.0.0: Host: $host answered $st, not 200"
done
st=$(http_status -H "Host: evil.example" "http://127.0.0.1:$any_port/metrics")
[ "$st" = 421 ] || fail "bound to 0.0.0.0: Host: evil.example answered $st, not 421"
serve_stop

# --- /events: 32 clients that never read --------------------------------------------------
mkfifo "$work/in"
serve_start events --serve 0 "$work/in"
port=${url#http://127.0.0.1:}
port=${port%/}
"$PYTHON3" "$hostile" events "$port" 32 "$(patience 14)" >"$work/closed.txt" 2>"$work/attack.err" &
attack=$!
# meanwhile, one idle connection and one slowloris one: each closed at the request's
# deadline (10 s) and opened again, so each is opened twice in 13 s
"$PYTHON3" "$hostile" hold "$port" 1 idle 13 >"$work/idle.txt" &
idle=$!
"$PYTHON3" "$hostile" hold "$port" 1 slowloris 13 >"$work/slowloris.txt" &
slow=$!
pids="$pids $attack $idle $slow"
poll 300 "32 /events clients answered" grep -q ready "$work/attack.err"
feed "$log" "$work/in" 12 120
wait_census=$(patience 10)
curl -sN --max-time "$wait_census" "${url}events" >"$work/events.txt" || true
grep -q '^event: init$' "$work/events.txt" || fail "a new /events client got no init beside 32 idle ones"
grep -q '^event: census$' "$work/events.txt" ||
    fail "a new /events client got no census beside 32 that never read ($(patience_said "$wait_census"))"
# the one it replaced was dropped, and its connection closed
wait "$attack" || true
[ "$(cat "$work/closed.txt")" -ge 1 ] || fail "no connection of the 32 that never read was closed"
# (asked again for up to 10 s: under load a /metrics request can fail beside the held
# connections, and an empty answer is no count)
dropped=
for _ in 1 2 3 4 5 6 7 8 9 10; do
    dropped=$(metric ev2hp_events_clients_dropped_total)
    [ -n "$dropped" ] && [ "$dropped" -ge 1 ] && break
    sleep 1
done
[ -n "$dropped" ] && [ "$dropped" -ge 1 ] ||
    fail "/metrics counts no dropped /events client (${dropped:-no answer})"
wait "$idle" "$slow" || true
[ "$(cat "$work/idle.txt")" -ge 2 ] || fail "an idle connection was not closed within 13 s"
[ "$(cat "$work/slowloris.txt")" -ge 2 ] ||
    fail "a connection sending a header byte a second was not closed within 13 s"
serve_stop

# --- /events: 200 clients at once -----------------------------------------------------------
rm -f "$work/in"
mkfifo "$work/in"
serve_start burst --serve 0 "$work/in"
port=${url#http://127.0.0.1:}
port=${port%/}
feed "$log" "$work/in" 12 120
limit=$(patience 1)
"$PYTHON3" "$hostile" burst "$port" 200 6 "$limit" >"$work/burst.txt"
read -r open missing slowest <"$work/burst.txt"
[ "$open" -le 32 ] || fail "200 /events clients at once: $open streams stayed open, not at most 32"
[ "$missing" -eq 0 ] ||
    fail "200 /events clients at once: $missing /metrics probes got no 200 within $limit s (slowest $slowest s; $(patience_said "$limit"))"
serve_stop
echo "serve_hostile.sh: ok"
