#!/bin/sh
# serve_link.sh: the live page of ev2hp --serve opened with a view in its address (issue
# 36, item 4) keeps it as the run grows, and its window's figures are ev2hp's for the same
# --from/--to (item 3), in headless Chromium (tests/browser/live_link_test.mjs): a real
# GHC eventlog (markers40-hT) written into a FIFO while the page is open; with
# --from/--to the live report says it holds the window alone. Skipped (77) when chromium,
# node, npm or curl is missing.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
. "$SRCDIR/tests/serve/lib.sh"
browser_ready
log="$data/markers40-hT.eventlog"
"$EV2HP" -q "$log" --from 0.5 --to 1.5 --summary=json > "$work/window.json"
mkfifo "$work/in"
serve_start link --serve 0 "$work/in"
node "$deps/live_link_test.mjs" "$browser" "$work" "$url" "$log" "$work/in" \
    "$work/window.json" || fail "the live page's link"
wait_ended
serve_stop
# --from/--to under --serve: the live report holds the window alone (the server's copies
# draw it), and says so (run.window_only), so the page does not call it the whole run
serve_start win --serve 0 --from 0.5 --to 1.5 "$log"
window_only() {
    curl -sf "${url%/}/report.json" | "$PYTHON3" -c 'import json, sys
r = json.load(sys.stdin)["run"]
sys.exit(0 if r.get("window_only") and r["window"]["from_s"] == 0.5 and r["censuses"] else 1)'
}
poll 300 "a report.json of the window alone" window_only
serve_stop
exit 0
