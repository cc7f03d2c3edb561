#!/bin/sh
# serve_browser.sh: the live page of ev2hp --serve in headless Chromium
# (tests/browser/live_test.mjs, puppeteer-core as tests/report.sh installs it): a real
# GHC eventlog written into a FIFO over about ten seconds (by the test, once the page is
# open) grows on the page without a reload, keeping the user's grouping (the report's
# control, by --group-by's keys), view and hidden band;
# "census now" gets the server's answer; the page says when the stream ended. Skipped (77) when chromium, node or npm is missing.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without "chromium|chromium-browser" node npm curl
browser=$(find_chromium)
. "$SRCDIR/tests/serve/lib.sh"
deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
sh "$SRCDIR/tests/browser/deps.sh" "$SRCDIR" "$deps"

mkfifo "$work/in"
serve_start live --serve 0 "$work/in"
node "$deps/live_test.mjs" "$browser" "$work" "$url" "$SRCDIR/tests/data/labels-hc-g96.eventlog" \
    "$work/in" || fail "the live page in Chromium"
wait_ended
serve_stop
