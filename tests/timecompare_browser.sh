#!/bin/sh
# timecompare_browser.sh: the report of time profiles in headless Chromium
# (tests/browser/timecompare_test.mjs; issue 39). A time profile without a census, alone
# or compared with another, offers only the flame and icicle tabs (no Area ... Diff: no
# heap to draw); a -hc run (heap and time profile) still offers every tab. The frame labels
# of each flame graph, differential too, are in the colours ev2hp's SVG flame graph of the
# same input gives them on the same fills (chart_text_on: WCAG AA contrast, test_chart.c),
# and the differential one's note says what its colour measures. Skipped (77) only when
# chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
tc="$data/timecompare"

"$EV2HP" -q "$tc/tpdouble-now.eventlog" -o "$tmp/one.html"
"$EV2HP" -q --compare "$tc/tpdouble-base.eventlog" "$tc/tpdouble-now.eventlog" -o "$tmp/two.html"
"$(dirname "$EV2HP")/tests/ratio_profiles" "$tmp/rb.eventlog" "$tmp/rn.eventlog"
"$EV2HP" -q --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" -o "$tmp/ratio.html"
"$EV2HP" -q "$data/labels-hc-g96.eventlog" -o "$tmp/heap.html"
# the same flame graphs drawn by ev2hp, twice as wide as the page draws them
flame="--view flame --width 2800"
"$EV2HP" -q $flame "$tc/tpdouble-now.eventlog" -o "$tmp/one.svg"
"$EV2HP" -q $flame --compare "$tc/tpdouble-base.eventlog" "$tc/tpdouble-now.eventlog" \
    -o "$tmp/two.svg"
"$EV2HP" -q $flame --compare "$tmp/rb.eventlog" "$tmp/rn.eventlog" -o "$tmp/ratio.svg"
"$EV2HP" -q $flame "$data/labels-hc-g96.eventlog" -o "$tmp/heap.svg"

timeout 600 node "$deps/timecompare_test.mjs" "$browser" "$tmp" \
    "one|$tmp/one.html|$tmp/one.svg|flame,icicle|" \
    "two|$tmp/two.html|$tmp/two.svg|flame,icicle|diff" \
    "ratio|$tmp/ratio.html|$tmp/ratio.svg|flame,icicle|diff" \
    "heap|$tmp/heap.html|$tmp/heap.svg|area,normalized,stream,lines,heap,detail,flame,icicle|" ||
    fail "timecompare_test.mjs"
exit $failed
