#!/bin/sh
# diff_browser.sh: the report's Diff tab never invents change (issue 39, item 3), in
# headless Chromium (tests/browser/diff_test.mjs). The two real GHC 9.10 runs of
# tests/data/diff (2.3x apart in length): the tab opens aligned by progress and says
# why; no line jumps; the band kept, which halved, stays below zero; the read-out at the
# right end gives each band's change at the peak within 10 % (from the runtime's own .hp
# of each run); by time, the lines stop at the shorter run's end and say so. Edge cases
# from tests/diff_runs: equal lengths open by time; a run of one census offers no
# progress and is drawn as one moment. Skipped (77) only when chromium or node/npm is
# missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
runs="$(dirname "$EV2HP")/tests/diff_runs"
d="$data/diff"

# each band's change at the peak in the runtime's own .hp files: key=bytes;...
changes=$("$PYTHON3" "$SRCDIR/tests/hppeaks.py" "$d/diffpair-k1-hc.hp" "$d/diffpair-k2-hc.hp" \
    loop/ busy/ kept/)
"$EV2HP" -q "$d/diffpair-k2-hc.eventlog" --compare "$d/diffpair-k1-hc.eventlog" \
    -o "$tmp/pair.html"
"$runs" 10 0.1 1.0 1000 2000 "$tmp/eq-base.eventlog"
"$runs" 10 0.1 1.05 3000 1000 "$tmp/eq-now.eventlog"
"$runs" 1 0.5 0.5 1000 2000 "$tmp/one.eventlog"
"$EV2HP" -q "$tmp/eq-now.eventlog" --compare "$tmp/eq-base.eventlog" -o "$tmp/equal.html"
"$EV2HP" -q "$tmp/eq-now.eventlog" --compare "$tmp/one.eventlog" -o "$tmp/one.html"

timeout 1200 node "$deps/diff_test.mjs" "$browser" "$tmp" "pair|$tmp/pair.html|progress|$changes" \
    "equal|$tmp/equal.html|time|-" "one|$tmp/one.html|time|-" || fail "diff_test.mjs"
exit $failed
