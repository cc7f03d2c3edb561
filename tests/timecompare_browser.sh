#!/bin/sh
# timecompare_browser.sh: the report of time profiles in headless Chromium
# (tests/browser/timecompare_test.mjs; issue 39). A time profile without a census, alone
# or compared with another, offers only the flame and icicle tabs (no Area ... Diff: no
# heap to draw); a -hc run (heap and time profile) still offers every tab. The frame labels
# of each flame graph, differential too, meet WCAG AA contrast on their fills, and the
# differential one's note says what its colour measures. Skipped (77) only when chromium
# or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
tc="$data/timecompare"

"$EV2HP" -q "$tc/tpdouble-now.eventlog" -o "$tmp/one.html"
"$EV2HP" -q --compare "$tc/tpdouble-base.eventlog" "$tc/tpdouble-now.eventlog" -o "$tmp/two.html"
"$(dirname "$EV2HP")/tests/ratio_profiles" "$tmp/rb.eventlog" "$tmp/rn.eventlog"
"$EV2HP" -q --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" -o "$tmp/ratio.html"
"$EV2HP" -q "$data/labels-hc-g96.eventlog" -o "$tmp/heap.html"

timeout 600 node "$deps/timecompare_test.mjs" "$browser" "$tmp" \
    "one|$tmp/one.html|flame,icicle|" \
    "two|$tmp/two.html|flame,icicle|diff" \
    "ratio|$tmp/ratio.html|flame,icicle|diff" \
    "heap|$tmp/heap.html|area,normalized,stream,lines,heap,detail,flame,icicle|" ||
    fail "timecompare_test.mjs"
exit $failed
