#!/bin/sh
# report.sh: the HTML report (-o report.html) in a real browser. Reports of every eventlog
# in tests/data and ../shared/corpus (CORPUS), one with --compare, are driven in headless
# Chromium by tests/browser/report_test.mjs (puppeteer-core, which uses the installed
# browser and downloads nothing): no console errors, every view, hover values against
# the census data (the JSON export), hiding and isolating bands, zoom, table sorting and
# filtering, growth and suspects against --summary=json, flame and icicle graphs of time
# profiles (frames hovered, their samples against -o x.folded). puppeteer-core comes from the npm registry through `npm ci` with the
# project's package-lock.json, installed once into tests/browser-deps of the build tree.
# Also checks without a browser that the file is self-contained (no http/https reference).
# Skipped (77) only when chromium or node/npm is missing; `bootstrap` installs them.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without "chromium|chromium-browser" node npm
browser=$(find_chromium)
work=$tmp

# puppeteer-core, as pinned by package-lock.json; again only when the lock file changed
deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
sh "$SRCDIR/tests/browser/deps.sh" "$SRCDIR" "$deps"

# `npm run lint` (doc/guide.md: the report's JavaScript) with the
# same lock file's eslint and prettier: on a copy beside those node_modules, since the
# source tree of a distcheck has none (and is read-only). A name the page uses that no
# browser defines is caught here, not in a user's console.
lint=$work/lint
mkdir -p "$lint/share" "$lint/tests"
cp -R "$SRCDIR/share/report" "$lint/share/"
cp -R "$SRCDIR/tests/browser" "$lint/tests/"
cp "$SRCDIR/eslint.config.mjs" "$SRCDIR/.prettierrc.json" "$lint/"
chmod -R u+w "$lint"   # a distcheck's sources are read-only; the copy must clean up
ln -s "$deps/node_modules" "$lint/node_modules"
(cd "$lint" && node_modules/.bin/eslint share/report tests/browser &&
    node_modules/.bin/prettier --check share/report tests/browser >/dev/null) ||
    { echo "FAIL: npm run lint: the page's JavaScript (above)"; exit 1; }

cases=""
add() {   # add NAME INPUT [FLAGS [EV2HP OPTIONS...]]
    name=$1 input=$2 flags=${3:-}
    if [ $# -ge 3 ]; then shift 3; else shift $#; fi
    "$EV2HP" -q "$input" "$@" -o "$work/$name.html" -o "$work/$name.json" \
        --summary=json >"$work/$name.summary.json"
    # the folded stacks, when the input has a time profile (else ev2hp says so and fails)
    "$EV2HP" -q "$input" -o "$work/$name.folded" 2>/dev/null || rm -f "$work/$name.folded"
    # any address but the SVG namespace's (a name, never fetched), or an @import
    if grep -Eo "https?://[^\"' )]*|//[a-z0-9.-]+\.[a-z]+/|@import" "$work/$name.html" |
        grep -qvx 'http://www.w3.org/2000/svg'; then
        echo "FAIL: $name: the report refers to something outside itself"; exit 1
    fi
    cases="$cases $name|$work/$name.html|$work/$name.json|$flags|$work/$name.summary.json"
    cases="$cases|$work/$name.folded"
}
for log in "$SRCDIR"/tests/data/*.eventlog; do
    add "data-$(basename "$log" .eventlog)" "$log"
done
# time profiles (flame graphs), an eventlog without heap, real damaged GHC 9.6/9.10 runs
for log in "$SRCDIR"/tests/data/timeprof/*.eventlog "$SRCDIR"/tests/data/noheap/*.eventlog \
    "$SRCDIR"/tests/data/damaged/*.eventlog; do
    d=$(basename "$(dirname "$log")")
    add "$d-$(basename "$log" .eventlog)" "$log"
done
corpus=${CORPUS:-$SRCDIR/../shared/corpus}
if [ -d "$corpus" ]; then
    for log in "$corpus"/*.eventlog "$corpus"/newghc/*.eventlog; do
        [ -f "$log" ] || continue
        name=corpus-$(basename "$log" .eventlog)
        # every table as it is (by default a run of thousands is grouped by type)
        case $name in *-hi) add "$name" "$log" hi --group-by table ;; *) add "$name" "$log" ;; esac
    done
else
    echo "report.sh: no corpus at $corpus: tests/data only"
fi
# a real -hi run of 13,276 bands (issue 31): every band in the table, the smallest found
# through the search box and drawn out of OTHER (every table: --group-by table)
add data-hi-many "$SRCDIR/tests/data/hi-many-g910.eventlog.gz" hi,many --group-by table
add compare "$SRCDIR/tests/data/leak-hc.eventlog" compare --compare "$SRCDIR/tests/data/leak-hy.eventlog"
# two builds of one program (tests/evlayout.py rebuild) against the runtime's .hp: the
# Diff tab, the band table's change columns, both runs in the read-out
"$PYTHON3" "$SRCDIR/tests/evlayout.py" rebuild=lazySum,insertT "$SRCDIR/tests/data/leak-hc.eventlog" \
    "$work/rebuilt.eventlog" || { echo "FAIL: evlayout rebuild"; exit 1; }
add compare-builds "$work/rebuilt.eventlog" compare,builds --compare "$SRCDIR/tests/data/leak-hc.hp"
# the same with --align progress: the Diff tab opens aligned by share of each run
add compare-progress "$work/rebuilt.eventlog" compare,builds,progress \
    --compare "$SRCDIR/tests/data/leak-hc.hp" --align progress
add hp-input "$SRCDIR/tests/data/leak-hc.hp"
# Labels and a title that are markup: the data stays data (two </script>, ours; the
# browser test fails on any script error, and hover values are checked as usual).
add markup "$SRCDIR/tests/data/markup/markup.hp"
n=$(grep -c '</script>' "$work/markup.html")
[ "$n" = 2 ] || { echo "FAIL: markup: $n </script> in the report, want 2"; exit 1; }
grep -q '<title>&lt;/title&gt;&lt;script&gt;' "$work/markup.html" ||
    { echo "FAIL: markup: the title is not escaped"; exit 1; }
[ -n "${REPORT_SCREENSHOT:-}" ] &&
    add shot "$SRCDIR/share/examples/leak-hc.eventlog" "shot=$REPORT_SCREENSHOT"

# shellcheck disable=SC2086 # one word per case
# a guard against a hang, not a time limit: 48 pages took over 600 s at a load of 30
timeout 3600 node "$deps/report_test.mjs" "$browser" "$work" $cases
