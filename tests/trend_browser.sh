#!/bin/sh
# trend_browser.sh: the page `ev2hp --trend ... -o x.html` writes, in headless Chromium
# (tests/browser/trend_test.mjs): five runs' summaries made from real eventlogs of
# tests/data, one failing its gate, give a page without a console error whose chart
# draws five points per series and whose table lists the five commits in the chart's
# order, the failed one marked. Skipped (77) only when chromium or node/npm is missing.
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
cd "$tmp" || exit 99
"$EV2HP" "$data/leak-hc.eventlog" --summary=json --commit 1111111 \
    --commit-subject 'first <commit>' > c1.json || fail "c1: status $?"
"$EV2HP" "$data/leak-hd.eventlog" --summary=json --commit 2222222 > c2.json || fail "c2"
"$EV2HP" "$data/leak-hy.eventlog" --summary=json --max-peak 10M > c3.json 2> /dev/null
"$EV2HP" "$data/leak-hm.eventlog" --summary=json > c4.json || fail "c4"
"$EV2HP" "$data/leak-hT.eventlog" --summary=json > c5.json || fail "c5"
"$EV2HP" --trend c1.json c2.json c3.json c4.json c5.json -o trend.html || fail "--trend: status $?"
timeout 600 node "$deps/trend_test.mjs" "$browser" "$tmp" trend.html 5 1 || fail "trend_test.mjs"
exit $failed
