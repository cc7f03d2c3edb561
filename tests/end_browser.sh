#!/bin/sh
# end_browser.sh: the report says what led up to the end of a killed run, in headless
# Chromium (tests/browser/end_test.mjs; issue 35, items 5 and 2): the report of
# tests/data/end/grow-killed (a real GHC 9.10 program killed with SIGKILL, see
# end_of_run.sh) shows the text summary's paragraph word for word; a complete run's
# report (tests/data/gcstats/n1) shows none. Skipped (77) only when chromium or
# node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
run="$data/end/grow-killed.eventlog.gz"
"$EV2HP" -q "$run" -o "$tmp/killed.html"
"$EV2HP" -q "$data/gcstats/n1.eventlog.gz" -o "$tmp/n1.html"
# the text summary's paragraph, without its "end        " column
"$EV2HP" --summary "$run" 2> /dev/null | sed -n 's/^end        //p' > "$tmp/end.txt"
[ -s "$tmp/end.txt" ] || fail "the text summary has no end paragraph"
# each capability's shares (issue 35, item 2): the text summary's line, on a -N4 run
"$EV2HP" -q "$data/caps/n4.eventlog.gz" -o "$tmp/n4.html"
"$EV2HP" --summary "$data/caps/n4.eventlog.gz" 2> /dev/null |
    sed -n 's/^capabilities //p' > "$tmp/caps.txt"
[ -s "$tmp/caps.txt" ] || fail "the text summary has no capabilities line"
timeout 600 node "$deps/end_test.mjs" "$browser" "$tmp" \
    "killed|$tmp/killed.html|$tmp/end.txt" \
    "complete|$tmp/n1.html|" \
    "caps|$tmp/n4.html|$tmp/caps.txt|#capabilities" \
    "no caps|$tmp/n1.html||#capabilities" || fail "end_test.mjs"
exit $failed
