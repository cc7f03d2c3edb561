#!/bin/sh
# autogroup_browser.sh: the report of a real -hi run of thousands of info tables, grouped
# by default (issue 39; census/autogroup.h), in headless Chromium
# (tests/browser/autogroup_test.mjs): the subtitle says "grouped by type" and the flag
# that undoes it, the legend lists types and OTHER's groups; the same run with
# --group-by table and a small run say nothing of it. The report's data is checked
# without a browser by tests/autogroup.sh. Skipped (77) only when chromium or node/npm
# is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup

"$EV2HP" -q "$data/hi-4k-g910.eventlog.gz" -o "$tmp/hi.html"
"$EV2HP" -q "$data/hc-2k-g910.eventlog.gz" -o "$tmp/hc.html"
"$EV2HP" -q "$data/hi-4k-g910.eventlog.gz" --group-by table -o "$tmp/table.html"
"$EV2HP" -q "$data/leak-hc.eventlog" -o "$tmp/small.html"

timeout 1200 node "$deps/autogroup_test.mjs" "$browser" "$tmp" \
    "hi|$tmp/hi.html|type|table|[],Box,Maybe" "hc|$tmp/hc.html|module|stack|G1,G2,Main" \
    "table|$tmp/table.html|-|-|-" "small|$tmp/small.html|-|-|-" || fail "autogroup_test.mjs"
exit $failed
