#!/bin/sh
# serve_labels.sh: labels and program arguments a program can give that break naive
# readers and writers (tests/hostile_labels.c: a line feed, a carriage return, U+2028,
# two cost centres of the same name, two labels that differ only in bytes that are not
# UTF-8; a -hc run and a -hi run):
#   - the .hp ev2hp writes reads back, and is written again byte for byte (-o and
#     /profile.hp), line breaks escaped as \n and \r;
#   - /metrics gives each band its own series (id: the band's number), none twice, the
#     same from scrape to scrape, and a real Prometheus stores every band;
#   - the report draws every label, live and in a report file, in headless Chromium
#     (tests/browser/labels_test.mjs), and the live page offers no control after the end.
# Prometheus and Chromium parts are skipped when they are not installed.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
gen="$(dirname "$EV2HP")/tests/hostile_labels"
"$gen" hc "$work/hc.eventlog" || fail "hostile_labels hc"
"$gen" hi "$work/hi.eventlog" || fail "hostile_labels hi"

# --- the .hp reads back ----------------------------------------------------------------
for k in hc hi; do
    "$EV2HP" "$work/$k.eventlog" -o "$work/$k.hp" || fail "$k: -o $k.hp"
    "$EV2HP" "$work/$k.hp" -o "$work/$k.again.hp" || fail "$k: ev2hp cannot read its own .hp"
    cmp "$work/$k.hp" "$work/$k.again.hp" || fail "$k: the .hp read back is not the same bytes"
done
head -1 "$work/hc.hp" | grep -qxF 'JOB "hostile\nprogram arg\rument +RTS -hc -l"' ||
    fail "the program's arguments: $(head -1 "$work/hc.hp")"
grep -qxF "$(printf '(1)line\\nfeed\t1008')" "$work/hc.hp" || fail "a label with a line feed"
grep -qxF "$(printf '(2)carriage\\rreturn\t2008')" "$work/hc.hp" || fail "a label with a carriage return"
n=$(grep -c BEGIN_SAMPLE "$work/hc.hp")
[ "$n" -eq 12 ] || fail "the .hp holds $n samples, not 10 censuses and the runtime's 2"

# --- /metrics: a series per band -------------------------------------------------------
serve_start hc --serve 0 --bands 0 --trace 0 "$work/hc.eventlog"
wait_ended
curl -sf "${url}profile.hp" >"$work/live.hp"
cmp "$work/hc.hp" "$work/live.hp" || fail "/profile.hp is not -o x.hp"
curl -sf "${url}metrics" >"$work/m1"
sleep 1.2    # the shown bands are computed again at most once a second
curl -sf "${url}metrics" >"$work/m2"
grep '^ghc_heap_profile_bytes{' "$work/m1" | sed 's/} .*/}/' >"$work/series1"
grep '^ghc_heap_profile_bytes{' "$work/m2" | sed 's/} .*/}/' >"$work/series2"
n=$(wc -l <"$work/series1")
[ "$n" -eq 8 ] || fail "/metrics has $n band series for the 8 bands: $(cat "$work/series1")"
[ -z "$(sort "$work/series1" | uniq -d)" ] || fail "/metrics repeats series: $(sort "$work/series1" | uniq -d)"
cmp "$work/series1" "$work/series2" || fail "the series changed from one scrape to the next"
grep -qF 'ghc_heap_profile_bytes{band="Dup",id="3"} ' "$work/m1" &&
    grep -qF 'ghc_heap_profile_bytes{band="Dup",id="4"} ' "$work/m1" ||
    fail "two cost centres named alike: $(grep Dup "$work/m1")"
if command -v promtool >/dev/null; then
    promtool check metrics <"$work/m1" || fail "promtool check metrics"
fi
if command -v prometheus >/dev/null; then
    port=${url#http://127.0.0.1:}
    port=${port%/}
    prometheus_start "$(command -v prometheus)" "$port"
    poll 300 "Prometheus storing every band" sh -c \
        '[ "$(curl -sf --data-urlencode "query=count(ghc_heap_profile_bytes{job=\"ev2hp\"})" "$0/query" | grep -o "\"[0-9]*\"]" )" = "\"8\"]" ]' "$api" ||
        fail "Prometheus holds $(query 'count(ghc_heap_profile_bytes{job="ev2hp"})') series, not 8"
    echo "serve_labels.sh: Prometheus stores 8 band series"
fi
serve_stop

# --- the report, live and in a file, in Chromium ------------------------------------------
browser=$(find_chromium)
if [ -n "$browser" ] && command -v node >/dev/null && command -v npm >/dev/null; then
    deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
    sh "$SRCDIR/tests/browser/deps.sh" "$SRCDIR" "$deps"
    "$EV2HP" "$work/hi.eventlog" -o "$work/hi.html" || fail "-o hi.html"
    "$EV2HP" "$work/hc.eventlog" -o "$work/hc.html" || fail "-o hc.html"
    serve_start hi --serve 0 "$work/hi.eventlog"
    node "$deps/labels_test.mjs" "$browser" "$work" "$url" "$work/hi.html" "$work/hc.html" ||
        fail "labels with line breaks in the report, in Chromium"
    serve_stop
else
    echo "serve_labels.sh: no chromium, node or npm: the report's part skipped"
fi
echo "serve_labels.sh: ok"
