#!/bin/sh
# serve_browser.sh: the live page of ev2hp --serve in headless Chromium
# (tests/browser/live_test.mjs, puppeteer-core as tests/report.sh installs it): a real
# GHC eventlog written into a FIFO over about ten seconds (by the test, once the page is
# open) grows on the page without a reload, keeping the user's grouping (the report's
# control, by --group-by's keys), view and hidden band;
# "census now" gets the server's answer; the page says when the stream ended; then the
# control's groups equal --group-by's, for a -hc run (cc, module) and a real -hi run
# (type, closure, module, file, location). Skipped (77) when chromium, node or npm is
# missing.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
. "$SRCDIR/tests/serve/lib.sh"
browser_ready

# live NAME EVENTLOG KEY CHECKED...: EVENTLOG served live through a FIFO, grouped by KEY
# while it grows; at the end each CHECKED key against --group-by's JSON export of it
live() {
    name=$1 log=$2 key=$3
    shift 3
    exports=""
    for k in "$@"; do
        "$EV2HP" -q --group-by "$k" "$log" -o "$work/$name-$k.json" || fail "--group-by $k"
        exports="$exports $k=$work/$name-$k.json"
    done
    mkfifo "$work/$name.in"
    serve_start "$name" --serve 0 "$work/$name.in"
    # shellcheck disable=SC2086 # one word per key
    node "$deps/live_test.mjs" "$browser" "$work" "$url" "$log" "$work/$name.in" "$key" \
        $exports || fail "$name: the live page in Chromium"
    wait_ended
    serve_stop
}
live hc "$SRCDIR/tests/data/labels-hc-g96.eventlog" cc cc module
# a real GHC 9.10 -hi run of 13,276 bands: the page's drawings see the info tables
gzip -dc "$data/hi-many-g910.eventlog.gz" >"$work/hi-many.eventlog"
live hi "$work/hi-many.eventlog" type type closure module file location
