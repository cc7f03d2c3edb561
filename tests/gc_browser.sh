#!/bin/sh
# gc_browser.sh: the report's collector section in headless Chromium
# (tests/browser/gc_test.mjs; issue 35). Reports of real GHC 9.10 runs
# (tests/data/gcstats): each generation's collections, parallel collections and worst
# pause as the runtime's own -s report says; a .hp input's report has no section.
# Skipped (77) only when chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
gc="$data/gcstats"
"$EV2HP" -q "$gc/n2.eventlog.gz" -o "$tmp/n2.html"
"$EV2HP" -q "$gc/nonmoving.eventlog.gz" -o "$tmp/nonmoving.html"
"$EV2HP" -q "$data/flat-hc.hp" -o "$tmp/hp.html"
# the -s lines: "Gen  0        60 colls,    60 par ... 0.0095s"
rows() {
    awk '/^  Gen +[0-9]+ +[0-9]+ colls,/ { sub(/s$/, "", $NF); printf "%s%s:%s:%s:%.1f",
        n++ ? "," : "", $2, $3, $5, $NF * 1000 }' "$gc/$1.stat"
}
timeout 600 node "$deps/gc_test.mjs" "$browser" "$tmp" \
    "n2|$tmp/n2.html|$(rows n2)" \
    "nonmoving|$tmp/nonmoving.html|$(rows nonmoving)" \
    "hp|$tmp/hp.html|" || fail "gc_test.mjs"
exit $failed
