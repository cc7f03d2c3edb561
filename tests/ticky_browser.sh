#!/bin/sh
# ticky_browser.sh: the report's Ticky tab in headless Chromium (tests/browser/ticky_test.mjs;
# issue 35, item 4), on the reports of the real -ticky runs of tests/data/ticky (README):
# the table is --summary=json's counters, sortable and searchable, and a chosen counter's
# chart has a point per point of its series; a report of a run without ticky has no tab.
# Skipped (77) only when chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
t="$data/ticky"
for run in P P-ipe; do
    "$EV2HP" -q "$t/$run.eventlog.gz" -o "$tmp/$run.html" --summary=json > "$tmp/$run.json"
done
"$EV2HP" -q "$data/gcstats/n1.eventlog.gz" -o "$tmp/n1.html"
timeout 600 node "$deps/ticky_test.mjs" "$browser" "$tmp" \
    "P|$tmp/P.html|$tmp/P.json" "P-ipe|$tmp/P-ipe.html|$tmp/P-ipe.json" \
    "n1|$tmp/n1.html|" || fail "ticky_test.mjs"
exit $failed
