#!/bin/sh
# colours_live.sh: the live page's bands (ev2hp --serve: /report.json, the data its page
# draws) no two alike, in the colours of the live chart (/chart.svg), on real runs whose
# labels' own colours collide (leak-hT: `:` and ARR_WORDS; a comparison of two -hc runs
# of 30 bands). tests/colours.sh checks the static report and the page's own colouring
# (groups, a band drawn out of OTHER) in Chromium; the live page runs the same script on
# this data. Skipped (77) without curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
check="$PYTHON3 $SRCDIR/tests/chartcheck.py"

live() {   # live NAME ARGS...: serves a finished input; checks /report.json and /chart.svg
    name=$1
    shift
    serve_start "$name" --serve 0 "$@"
    wait_ended
    curl -sf "${url}report.json" >"$work/$name.json" || fail "$name: GET /report.json"
    curl -sf "${url}chart.svg" >"$work/$name.svg" || fail "$name: GET /chart.svg"
    serve_stop
    $check unshared "$work/$name.svg" "$work/$name.json" || fail "$name: /report.json"
    $check colours "$work/$name.svg" "$work/$name.json" ||
        fail "$name: /report.json and /chart.svg differ"
}
live leak-hT "$data/leak-hT.eventlog"
live compare --bands 30 --compare "$data/labels-hc-g96.eventlog" "$data/labels-hc-g910.eventlog"
exit 0
