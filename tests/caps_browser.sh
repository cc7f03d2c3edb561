#!/bin/sh
# caps_browser.sh: the report's strip per capability under its heap view and the
# nonmoving collector's line of its collector section, in headless Chromium
# (tests/browser/caps_test.mjs; issue 35, items 2 and 1). tests/data/caps: real GHC 9.10
# -N2 and -N4 runs with the scheduler's events: each strip's areas are --summary=json's
# capabilities; a non-threaded run (labels-hc-g910, rts_p) has none; the --nonmoving-gc
# run's facts line gives its cycles and syncs as the text summary does, a run with the
# scheduler's events -s's INIT and EXIT (tests/data/gcsched). Skipped (77)
# only when chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
browser_setup
for n in 2 4; do
    "$EV2HP" -q "$data/caps/n$n.eventlog.gz" -o "$tmp/n$n.html"
    "$EV2HP" --summary=json "$data/caps/n$n.eventlog.gz" > "$tmp/n$n.json" 2> /dev/null
done
"$EV2HP" -q "$data/labels-hc-g910.eventlog" -o "$tmp/rts_p.html"
"$EV2HP" -q "$data/gcstats/nonmoving.eventlog.gz" -o "$tmp/nonmoving.html"
# the nonmoving heap's last census (-ln), as the text summary sums it
"$EV2HP" -q "$data/gcstats/nmcensus.eventlog.gz" -o "$tmp/nmcensus.html"
# -s's INIT and EXIT in the collector's facts where the scheduler's tasks give them
# (gcsched), none without (gcstats, -l-agu): -s says INIT 0.004 s, MUT 0.270 s, EXIT 0.001 s
"$EV2HP" -q "$data/gcsched/n4qg.eventlog.gz" -o "$tmp/n4qg.html"
"$EV2HP" -q "$data/gcsched/nonmoving.eventlog.gz" -o "$tmp/nmstrip.html"
"$EV2HP" --summary=json "$data/gcsched/nonmoving.eventlog.gz" > "$tmp/nmstrip.json" 2> /dev/null
timeout 600 node "$deps/caps_test.mjs" "$browser" "$tmp" \
    "n2|$tmp/n2.html|$tmp/n2.json|strips" \
    "n4|$tmp/n4.html|$tmp/n4.json|strips" \
    "non-threaded|$tmp/rts_p.html||none" \
    "nmstrip|$tmp/nmstrip.html|$tmp/nmstrip.json|nmstrip" \
    "nonmoving|$tmp/nonmoving.html||facts:nonmoving collector: 7 concurrent cycles 0.161 s, 7 syncs stopping the program 0.0196 s (the longest 6.301 ms), 34 marks, 7 sweeps" \
    "span|$tmp/n4qg.html||facts:INIT 0.00388 s, MUT 0.27 s, GC 0.252 s, EXIT 0.000744 s elapsed: productivity 51.3 %" \
    "no span|$tmp/nonmoving.html||facts:; MUT 0.117 s, GC 0.185 s elapsed: productivity" \
    "heap census|$tmp/nmcensus.html||facts:12 sweeps; its heap at the last census (+RTS -ln): 4.22 MiB live in 157 segments" ||
    fail "caps_test.mjs"
exit $failed
