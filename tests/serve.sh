#!/bin/sh
# serve.sh: ev2hp --serve end to end, over HTTP with curl. A real GHC eventlog is written
# slowly into a FIFO (cut inside events) while ev2hp serves it:
#   - the server prints its address, bound to 127.0.0.1 for a bare port (not reachable on
#     the machine's other addresses); /metrics answers before the input opens, drawings
#     say 503 until then;
#   - /metrics shows the census count rising while the input is written, passes
#     `promtool check metrics`, and at the end counts every census;
#   - /events delivers one census event per census, then "end";
#   - at the end /profile.hp, /chart.svg, /chart.png and /summary.json are the bytes of
#     -o x.hp, -o x.svg, -o x.png and --summary=json of the same run (-hc stacks and time
#     profiles: serve_summary.sh); SVG, PNG valid;
#   - 404 for anything else (a --path-as-is traversal too), 405 for other methods, 403
#     for control without X-Requested-By, 409 with it (a FIFO is no socket);
#   - labels that are markup (<script>, quotes, </) never reach the page as markup nor
#     /metrics unescaped;
#   - SIGTERM ends it with status 0 and leaves no file behind, also in the middle of the
#     input (the outputs then hold what was read); --every rewrites outputs while reading.
# Skipped (77) without curl; promtool, xmllint and pngcheck are used when installed.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
log=$SRCDIR/tests/data/labels-hc-g96.eventlog   # censuses all along the file

# --- usage --------------------------------------------------------------------------
for bad in 65536 x :80 "::1:80" "host:" ""; do
    st=0
    "$EV2HP" --serve "$bad" "$log" 2>"$work/usage.err" >/dev/null || st=$?
    [ "$st" -eq 2 ] || fail "--serve '$bad': status $st, not 2"
    grep -q -- "--serve wants" "$work/usage.err" || fail "--serve '$bad': $(cat "$work/usage.err")"
done
# a port in use is a failure of the run (status 4, the address and the reason, one
# line, nothing written), not a usage error
"$PYTHON3" -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$work/taken.port" &
taker=$!
pids="$pids $taker"
i=0
until [ -s "$work/taken.port" ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
taken=$(cat "$work/taken.port")
st=0
"$EV2HP" --serve "$taken" "$log" -o "$work/never.svg" >/dev/null 2>"$work/taken.err" || st=$?
[ "$st" -eq 4 ] || fail "--serve on a port in use: status $st, not 4"
[ "$(wc -l <"$work/taken.err")" -eq 1 ] &&
    grep -q "^ev2hp: --serve: cannot serve on 127.0.0.1 port $taken: Address already in use$" "$work/taken.err" ||
    fail "--serve on a port in use: $(cat "$work/taken.err")"
[ ! -e "$work/never.svg" ] || fail "--serve on a port in use wrote its -o output"
kill "$taker"

# --- a run read live ----------------------------------------------------------------
mkfifo "$work/in"
out=$work/out
mkdir "$out"
serve_start run --serve 0 "$work/in" -o "$out/x.hp" -o "$out/x.svg" -o "$out/x.png"
case $url in http://127.0.0.1:*/) ;; *) fail "a bare port is served at $url" ;; esac
port=${url#http://127.0.0.1:}
port=${port%/}
# nothing read yet: metrics say 0, drawings wait
[ "$(metric ghc_heap_profile_censuses_total)" = 0 ] || fail "censuses before any input"
[ "$(http_status "${url}chart.svg")" = 503 ] || fail "a drawing before the input opened"
# loopback only: the machine's other addresses do not answer
for ip in $(hostname -I 2>/dev/null || true); do
    case $ip in 127.*|::1|*:*) continue ;; esac
    [ "$(http_status --max-time 3 "http://$ip:$port/metrics")" = 000 ] ||
        fail "a bare port answers on $ip"
done
curl -sN "${url}events" >"$work/events.txt" &
sse=$!
pids="$pids $sse"
feed "$log" "$work/in" 4
seen=""
while [ "$(metric ghc_heap_profile_stream_ended)" != 1 ]; do
    n=$(metric ghc_heap_profile_censuses_total)
    case " $seen " in *" $n "*) ;; *) seen="$seen $n" ;; esac
    sleep 0.1
done
total=$(metric ghc_heap_profile_censuses_total)
expected=$(grep -c BEGIN_SAMPLE "$SRCDIR/tests/data/labels-hc-g96.hp")
expected=$((expected - 2))   # the runtime's empty samples at 0 and at the end
[ "$total" = "$expected" ] || fail "/metrics counts $total censuses, the runtime's .hp $expected"
rising=0
for n in $seen; do [ "$n" -gt 0 ] && [ "$n" -lt "$total" ] && rising=$((rising + 1)); done
[ $rising -ge 2 ] || fail "/metrics did not show the count rising while the input was written (saw:$seen)"
echo "serve.sh: census counts seen while reading:$seen"

curl -sf "${url}metrics" >"$work/metrics.txt"
if command -v promtool >/dev/null; then
    promtool check metrics <"$work/metrics.txt" || fail "promtool check metrics"
fi
grep -q '^ghc_heap_profile_bytes{band="OTHER",id="-1"} ' "$work/metrics.txt" ||
    grep -q '^ghc_heap_profile_bytes{band=' "$work/metrics.txt" || fail "no band in /metrics"
for f in ghc_heap_profile_bytes ghc_heap_profile_censuses_total ghc_heap_profile_last_census_seconds; do
    grep -q "^# HELP $f " "$work/metrics.txt" && grep -q "^# TYPE $f " "$work/metrics.txt" ||
        fail "/metrics: $f without HELP and TYPE"
done

curl -sf "${url}profile.hp" >"$work/live.hp"
curl -sf "${url}chart.svg" >"$work/live.svg"
curl -sf "${url}chart.png" >"$work/live.png"
curl -sf "${url}" >"$work/live.html"
# HEAD: the headers alone
[ "$(curl -sI "${url}chart.svg" | head -1 | tr -d '\r')" = "HTTP/1.1 200 OK" ] || fail "HEAD /chart.svg"
# Every answer, a buffer (/metrics, a refusal) or a stream (/chart.svg), says its type,
# not to be stored and not to be sniffed; the page, that it runs its own inline code only.
# (POST /metrics: a 405, Allow: GET, HEAD)
for path in "" metrics chart.svg nope POST:metrics; do
    method=GET
    case $path in POST:*) method=POST path=${path#POST:} ;; esac
    curl -s -X "$method" -D "$work/headers" -o /dev/null "${url}$path"
    tr -d '\r' <"$work/headers" >"$work/headers.txt"
    for h in "Cache-Control: no-store" "X-Content-Type-Options: nosniff" "Content-Type: "; do
        grep -qi "^$h" "$work/headers.txt" || fail "$method /$path: no '$h' header"
    done
    csp=$(grep -ci "^Content-Security-Policy: default-src 'none'" "$work/headers.txt" || :)
    [ "$csp" = "$([ -z "$path" ] && [ "$method" = GET ] && echo 1 || echo 0)" ] ||
        fail "/$path: Content-Security-Policy only on the page"
done

# --- anything else -------------------------------------------------------------------
for path in nope index.html metrics/ chart.svg/ events/x %2e%2e/etc/passwd; do
    [ "$(http_status "${url}$path")" = 404 ] || fail "/$path is not 404"
done
[ "$(http_status --path-as-is "${url}../../etc/passwd")" = 404 ] || fail "traversal is not 404"
[ "$(http_status --path-as-is "${url}/../profile.hp")" = 404 ] || fail "//../profile.hp is not 404"
[ "$(http_status -X POST "${url}metrics")" = 405 ] || fail "POST /metrics is not 405"
[ "$(http_status -X DELETE "${url}")" = 405 ] || fail "DELETE / is not 405"
[ "$(http_status "${url}control/census")" = 405 ] || fail "GET /control/census is not 405"
for c in census heap-profiling/start heap-profiling/stop; do
    [ "$(http_status -X POST "${url}control/$c")" = 403 ] || fail "/control/$c without the header"
    [ "$(http_status -X POST -H 'X-Requested-By: evil' "${url}control/$c")" = 403 ] ||
        fail "/control/$c with another X-Requested-By"
    [ "$(http_status -X POST -H 'X-Requested-By: ev2hp' "${url}control/$c")" = 409 ] ||
        fail "/control/$c of a FIFO is not 409"
done
# a body past the limit
head -c 5000 /dev/zero | tr '\0' a >"$work/body"
[ "$(http_status -X POST -H 'X-Requested-By: ev2hp' --data-binary @"$work/body" \
    "${url}control/census")" = 413 ] || fail "a large body is not 413"

serve_stop
kill "$sse" 2>/dev/null || true
wait "$sse" 2>/dev/null || true

# the outputs, and the endpoints at the end: the same bytes
cmp "$out/x.hp" "$work/live.hp" || fail "/profile.hp differs from -o x.hp"
cmp "$out/x.svg" "$work/live.svg" || fail "/chart.svg differs from -o x.svg"
cmp "$out/x.png" "$work/live.png" || fail "/chart.png differs from -o x.png"
"$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$SRCDIR/tests/data/labels-hc-g96.hp" "$out/x.hp" ||
    fail "-o x.hp of the live run is not the runtime's .hp"
command -v xmllint >/dev/null && { xmllint --noout "$work/live.svg" || fail "/chart.svg is not XML"; }
command -v pngcheck >/dev/null && { pngcheck -q "$work/live.png" || fail "/chart.png is not a valid PNG"; }
ls "$out" | grep -v '^x\.\(hp\|svg\|png\)$' && fail "files left behind in the output directory"

# /events: init, one census event per census, end
n=$(grep -c '^event: census$' "$work/events.txt" || true)
[ "$n" = "$total" ] || fail "/events sent $n census events for $total censuses"
grep -q '^event: init$' "$work/events.txt" || fail "/events: no init"
grep -q '^event: end$' "$work/events.txt" || fail "/events: no end"
grep '^data: ' "$work/events.txt" | sed 's/^data: //' | "$PYTHON3" -c '
import json, sys
last = 0
for line in sys.stdin:
    d = json.loads(line)
    if "census" in d:
        assert d["census"] == last + 1, (d["census"], last)
        last = d["census"]
        assert sum(v for _, v in d["values"]) == d["total"], d
' || fail "/events: census messages are not consecutive JSON summing to the total"

# --- markup in labels -----------------------------------------------------------------
mkfifo "$work/in2"
serve_start markup --serve 0 --summary=json "$work/in2"
feed "$SRCDIR/tests/data/markup/markup.hp" "$work/in2" 0.5
wait_ended
curl -sf "${url}" >"$work/markup.html"
curl -sf "${url}report.json" >"$work/markup.json"
curl -sf "${url}metrics" >"$work/markup.metrics"
curl -sf "${url}summary.json" >"$work/markup.summary.json"
[ "$(metric ghc_heap_profile_markers_total)" = 1 ] || fail "/metrics: the marker is not counted"
# the page's only </script> are its own three (data, live.js, report.js)
n=$(grep -o '</script>' "$work/markup.html" | wc -l)
[ "$n" -eq 3 ] || fail "the page holds $n </script> (the labels' reached it as markup)"
grep -q '<script>throw' "$work/markup.html" && fail "a label reached the page as a script"
"$PYTHON3" -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/markup.json" ||
    fail "/report.json is not JSON"
grep -qF 'ghc_heap_profile_bytes{band="a</script><script>throw 2</script>",id=' "$work/markup.metrics" ||
    fail "a band with markup is not in /metrics as its text"
grep -qF 'ghc_heap_profile_bytes{band="b\"quoted\"\\back",id=' "$work/markup.metrics" ||
    fail "quotes and backslashes are not escaped in /metrics"
if command -v promtool >/dev/null; then
    promtool check metrics <"$work/markup.metrics" || fail "promtool: labels with markup"
fi
serve_stop
cmp "$work/markup.out" "$work/markup.summary.json" || fail "/summary.json differs from --summary=json"

# --- SIGTERM in the middle of the input; --every ----------------------------------------
mkfifo "$work/in3"
mid=$work/mid
mkdir "$mid"
serve_start mid --serve 127.0.0.1:0 --every 0.3 "$work/in3" -o "$mid/m.hp" -o "$mid/m.svg"
feed "$log" "$work/in3" 60
await_file "$mid/m.svg"     # --every writes it while the input is read
[ "$(metric ghc_heap_profile_stream_ended)" = 0 ] || fail "the input ended too soon for --every"
while [ "$(metric ghc_heap_profile_censuses_total)" = 0 ]; do sleep 0.1; done
serve_stop
n=$(grep -c BEGIN_SAMPLE "$mid/m.hp")
[ "$n" -ge 3 ] && [ "$n" -lt $((expected + 2)) ] ||
    fail "SIGTERM mid-input: the .hp holds $n samples"
tail -1 "$mid/m.hp" | grep -q '^END_SAMPLE' || fail "SIGTERM mid-input: the .hp is not closed"
command -v xmllint >/dev/null && { xmllint --noout "$mid/m.svg" || fail "m.svg is not XML"; }
ls "$mid" | grep -v '^m\.\(hp\|svg\)$' && fail "files left behind after SIGTERM"
echo "serve.sh: ok"
