#!/bin/sh
# groups_browser.sh: the report's grouping control as a user drives it, in headless
# Chromium (tests/browser/groups_test.mjs), against ev2hp --group-by KEY's JSON export of
# the same input: every key of the real GHC 9.10 -hi run of 13,276 bands and of a -hc
# run chosen in the control, the groups' bytes at every census read from the chart's
# read-out, the largest groups shown, the smallest found through the search box and
# drawn, and the bands as they were when the first choice is taken again; no control for
# a -hy run. Skipped (77) only when chromium or node/npm is missing; `bootstrap` installs
# them. The keys in the report's data are checked without a browser by report_groups.sh.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup

cases=""
add() {   # add NAME INPUT CHOICES BANDS KEY...: the report with --bands BANDS, its bands
    name=$1 input=$2 choices=$3 bands=$4   # as they are (not grouped by default)
    shift 4
    "$EV2HP" -q --bands "$bands" --group-by none "$input" -o "$tmp/$name.html"
    exports=""
    for key in "$@"; do
        "$EV2HP" -q --group-by "$key" "$input" -o "$tmp/$name-$key.json"
        exports="$exports${exports:+,}$key=$tmp/$name-$key.json"
    done
    cases="$cases $name|$tmp/$name.html|$choices|$exports"
}
add hi-many "$data/hi-many-g910.eventlog.gz" table,type,closure,module,file,location 15 \
    type closure module file location
# --bands 4: groups folded into OTHER, the smallest found through the search box
add leak-hc "$data/leak-hc.eventlog" stack,cc,module 4 cc module
add leak-hy "$data/leak-hy.eventlog" - 15
# a -hc run of 415 censuses and 300 bands (tests/bench/gen_eventlog): the folded bands
# have values at 256 of them (sink_html.c's TABLE_POINTS), so the groups are drawn there,
# and the page says so
"$(dirname "$EV2HP")/tests/bench/gen_eventlog" -s 8 -k stack -b 300 "$tmp/gen.eventlog" >/dev/null ||
    fail "gen_eventlog"
add gen "$tmp/gen.eventlog" stack,cc,module 15 cc

# shellcheck disable=SC2086 # one word per case
timeout 1200 node "$deps/groups_test.mjs" "$browser" "$tmp" $cases || fail "groups_test.mjs"
exit $failed
