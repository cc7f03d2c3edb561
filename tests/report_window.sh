#!/bin/sh
# report_window.sh: a window of the report recomputes every view, and every view is a link
# (issue 36, items 3 and 4), in headless Chromium (tests/browser/window_test.mjs): a range
# dragged on the chart gives the band table's figures and the suspects ev2hp gives for the
# same --from/--to (markers40-hT, every census in the report), and the flame graph of a
# -hc run (leak-hc) the window's peak census as `-f folded` has it, or what grew in it
# (the folded census at its last census less its first); a phase chosen from the list is
# the window its markers bound; a view set up in one tab opens the same in another from
# the address, follows a changed fragment, and ignores a fragment that tries markup.
# Skipped (77) only when chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
"$EV2HP" -q "$data/markers40-hT.eventlog" -o "$tmp/m40.html"
"$EV2HP" -q "$data/leak-hc.eventlog" -o "$tmp/leak.html"
# --from/--to: the report opens on the window, the whole run there too
"$EV2HP" -q "$data/markers40-hT.eventlog" --from 0.5 --to 1.5 -o "$tmp/m40w.html"
# --compare: two real GHC runs of one program (tests/data/diff)
"$EV2HP" -q "$data/diff/diffpair-k2-hc.eventlog" --compare "$data/diff/diffpair-k1-hc.eventlog" \
    -o "$tmp/cmp.html"
# the Markdown summary's links (--report-url, relative: beside the report), as GitHub
# renders them
"$EV2HP" -q "$data/leak-hc.eventlog" --summary=markdown --report-url leak.html > "$tmp/leak.md"
# --phases (a real GHC 9.10 run of three phases, tests/phases.sh): the report lists them,
# and the Markdown summary links each phase to its window
phases="$data/phases3-hT.eventlog.gz"
"$EV2HP" -q "$phases" --phases marker -o "$tmp/phases.html" --summary=json > "$tmp/phases.json"
"$EV2HP" -q "$phases" --phases marker --summary=markdown --report-url phases.html \
    > "$tmp/phases.md"
cases=""
if command -v cmark-gfm > /dev/null 2>&1; then
    cmark-gfm -e table -e strikethrough -e autolink "$tmp/leak.md" > "$tmp/leak.md.html"
    cmark-gfm -e table -e strikethrough -e autolink "$tmp/phases.md" > "$tmp/phases.md.html"
    cases="md|markdown-links|$tmp/leak.md.html md|markdown-phase-links|$tmp/phases.md.html"
else
    echo "SKIP: cmark-gfm not installed: the Markdown summary's links are not followed"
fi
timeout 900 node "$deps/window_test.mjs" "$browser" "$tmp" "$EV2HP" \
    "stats|markers40 window|$tmp/m40.html|$data/markers40-hT.eventlog" \
    "stats|leak-hc window|$tmp/leak.html|$data/leak-hc.eventlog" \
    "stats|markers40 --from/--to|$tmp/m40w.html|$data/markers40-hT.eventlog|0.5,1.5" \
    "flame|leak-hc flame|$tmp/leak.html|$data/leak-hc.eventlog" \
    "phase|markers40 phases|$tmp/m40.html" \
    "phases|--phases|$tmp/phases.html|$tmp/phases.json" \
    "compare|--compare|$tmp/cmp.html|$data/diff/diffpair-k1-hc.eventlog" \
    "link|markers40 link|$tmp/m40.html" \
    "link|leak-hc link with a census|$tmp/leak.html||census" \
    "band|a band by its label|$tmp/m40.html||THUNK" \
    "band|a band folded into OTHER|$tmp/m40.html||MUT_VAR_CLEAN" $cases || fail "window_test.mjs"
exit $failed
