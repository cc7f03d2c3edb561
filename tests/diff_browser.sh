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
skip_without "chromium|chromium-browser" node npm
browser=$(find_chromium)
deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
sh "$SRCDIR/tests/browser/deps.sh" "$SRCDIR" "$deps"
runs="$(dirname "$EV2HP")/tests/diff_runs"
d="$data/diff"

# each band's change at the peak in the runtime's own .hp files: key=bytes;...
changes=$("$PYTHON3" - "$d/diffpair-k1-hc.hp" "$d/diffpair-k2-hc.hp" <<'PY'
import re, sys
def peaks(path):
    p = {}
    for line in open(path):
        f = line.split("\t")
        if len(f) == 2 and not line.startswith(("JOB", "DATE", "SAMPLE", "VALUE", "BEGIN", "END")):
            label = re.sub(r"^\(\d+\)", "", f[0])
            p[label] = max(p.get(label, 0), int(f[1]))
    return p
was, now = peaks(sys.argv[1]), peaks(sys.argv[2])
out = []
for key in ("loop/", "busy/", "kept/"):
    [label] = [k for k in now if k.startswith(key)]
    out.append("%s=%d" % (key, now[label] - was[label]))
print(";".join(out))
PY
)
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
