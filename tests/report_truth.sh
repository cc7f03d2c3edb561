#!/bin/sh
# report_truth.sh: what the HTML report says beside its figures is true (issue 39), in
# headless Chromium (tests/browser/truth_test.mjs, puppeteer-core as tests/report.sh has
# it). The reports are of the bands as they are (--group-by none: a run of thousands of
# bands would be grouped by default):
#   - regrouped in the page, the peak list and the suspects are --group-by's (its
#     --summary=json: the peak's top groups with their bytes, the suspects by label and
#     rise), and the legend and the band table list groups (its JSON export's), not bands;
#   - OTHER's std. dev. is its spread over every census (the JSON export's census totals
#     less the shown bands or groups), and blank, not "0 B", where the report does not
#     have every census (groups drawn at the folded bands' 256 points of 318 censuses);
#   - the heap census's flame graph counts what it leaves out in bytes, not "samples"
#     (tests/bench/gen_eventlog: 25,000 -hc stacks, so that some are left out);
#   - at 1400 px the band table of a --compare report fits its box: growth and R² with
#     no scroll (a -hc run against a -hy one, and the 13,276-band -hi run against itself);
#     type and source columns only for the -hi run (a -hc stack the runtime cut is no
#     info table);
#   - a --compare report names its base (program and arguments, and file) in the summary,
#     every chart tab (the flame views when they are differential), the band table and
#     the read-out.
# Skipped (77) only when chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
gen="$(dirname "$EV2HP")/tests/bench/gen_eventlog"
cases=""

# groups: the control's key against --group-by KEY (--bands 4: groups folded into OTHER)
groups() {   # groups NAME INPUT KEY
    name=$1 input=$2 key=$3
    "$EV2HP" -q --bands 4 --group-by none "$input" -o "$tmp/$name.html" || fail "$name: report"
    "$EV2HP" -q --bands 4 --group-by "$key" "$input" -o "$tmp/$name-$key.json" \
        --summary=json >"$tmp/$name-$key.summary.json" || fail "$name: --group-by $key"
    cases="$cases $name|groups|$tmp/$name.html|$key|$tmp/$name-$key.summary.json|$tmp/$name-$key.json"
}
groups leak-hc "$data/leak-hc.eventlog" cc
groups leak-hc-module "$data/leak-hc.eventlog" module
groups labels-hc-g910 "$data/labels-hc-g910.eventlog" cc
groups hi-many "$data/hi-many-g910.eventlog.gz" type

# OTHER's spread: known (every census a point) and not
"$EV2HP" -q --bands 3 --group-by none "$data/leak-hT.eventlog" -o "$tmp/leak-hT.html" -o "$tmp/leak-hT.json" ||
    fail "leak-hT: report"
cases="$cases spread-bands|spread|$tmp/leak-hT.html|-|$tmp/leak-hT.json"
cases="$cases spread-groups|spread|$tmp/leak-hc.html|cc|$tmp/leak-hc-cc.json"
"$gen" -s 8 -k stack "$tmp/gen.eventlog" >/dev/null || fail "gen_eventlog -s 8"
"$EV2HP" -q --group-by none "$tmp/gen.eventlog" -o "$tmp/gen.html" || fail "gen: report"
cases="$cases spread-unknown|spread|$tmp/gen.html|cc|-"

# units: a heap census flame graph with calling contexts left out; the page's byte sizes
"$gen" -s 1 -k stack -b 25000 "$tmp/stacks.eventlog" >/dev/null || fail "gen_eventlog -b 25000"
"$EV2HP" -q --group-by none "$tmp/stacks.eventlog" -o "$tmp/stacks.html" || fail "stacks: report"
cases="$cases units|units|$tmp/stacks.html"

# the compare table at 1400 px, and the base named
"$EV2HP" -q "$data/leak-hc.eventlog" --compare "$data/leak-hy.eventlog" -o "$tmp/compare.html" ||
    fail "compare: report"
"$EV2HP" -q "$data/leak-hy.eventlog" --summary=json >"$tmp/leak-hy.summary.json" ||
    fail "leak-hy: summary"
"$EV2HP" -q --group-by none "$data/hi-many-g910.eventlog.gz" \
    --compare "$data/hi-many-g910.eventlog.gz" -o "$tmp/compare-hi.html" || fail "compare-hi: report"
cases="$cases fit-hc-hy|fit|$tmp/compare.html|- fit-hi-many|fit|$tmp/compare-hi.html|info"
cases="$cases base|base|$tmp/compare.html|$tmp/leak-hy.summary.json|leak-hy.eventlog"
# both runs with stacks: the flame views are differential, and name the base too
"$EV2HP" -q "$data/leak-hc.eventlog" --compare "$data/labels-hc-g910.eventlog" \
    -o "$tmp/compare-stacks.html" || fail "compare-stacks: report"
"$EV2HP" -q "$data/labels-hc-g910.eventlog" --summary=json >"$tmp/labels.summary.json" ||
    fail "labels-hc-g910: summary"
cases="$cases base-stacks|base|$tmp/compare-stacks.html|$tmp/labels.summary.json|labels-hc-g910.eventlog"

# shellcheck disable=SC2086 # one word per case
timeout 1200 node "$deps/truth_test.mjs" "$browser" "$tmp" $cases || fail "truth_test.mjs"
exit $failed
