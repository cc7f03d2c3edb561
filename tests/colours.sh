#!/bin/sh
# colours.sh: every band shown its own colour (chart/colors.h), on real GHC runs of 15 and
# more bands, where a hash of the label alone gave two legend entries one colour (before:
# 2 pairs in leak-hT, 4 in labels-hc-g910, 7 in hi-many with --bands 30, 7 in a --compare
# of labels-hc-g910 with labels-hc-g96). For each: no two legend entries share a colour
# or sit closer than the palette's least distance, in the SVG (its swatches' fills), in
# the PNG drawn from the same input (pngread.py: the swatches' pixels) and in the
# report's drawn bands (its data); the report draws each band in the SVG's colour;
# the same input gives the same colours again. Then, in headless Chromium
# (tests/browser/colours_test.mjs): the report's legend and band paths, for the bands as
# they are and for each grouping the page offers, against ev2hp --group-by's SVG, and a
# folded band drawn out of OTHER whose own colour a drawn band has. The browser part is
# skipped (the rest still runs) when chromium or node/npm is missing.
. "${SRCDIR:?}/tests/testlib.sh"
check="$PYTHON3 $SRCDIR/tests/chartcheck.py"
corpus=$SRCDIR/../shared/corpus

# one run: NAME INPUT [EV2HP OPTIONS...]
check_run() {
    name=$1 input=$2
    shift 2
    "$EV2HP" -q "$input" "$@" -o "$tmp/$name.svg" -o "$tmp/$name.png" -o "$tmp/$name.html" ||
        { fail "$name: status $?"; return; }
    $check unshared "$tmp/$name.svg" "$tmp/$name.png" || fail "$name: SVG or PNG"
    $check unshared "$tmp/$name.svg" "$tmp/$name.html" || fail "$name: report"
    $check colours "$tmp/$name.svg" "$tmp/$name.html" || fail "$name: report and SVG differ"
    "$EV2HP" -q "$input" "$@" -o "$tmp/$name-again.svg" || fail "$name: again: status $?"
    cmp -s "$tmp/$name.svg" "$tmp/$name-again.svg" || fail "$name: not the same SVG again"
}
check_run leak-hT "$data/leak-hT.eventlog"
check_run leak-hd "$data/leak-hd.eventlog"
check_run labels-hc-g910 "$data/labels-hc-g910.eventlog"
# every table (a run of thousands is grouped by type by default: tests/autogroup.sh)
check_run hi-many30 "$data/hi-many-g910.eventlog.gz" --bands 30 --group-by table
check_run hi-many-type "$data/hi-many-g910.eventlog.gz" --group-by type
check_run compare "$data/labels-hc-g910.eventlog" --compare "$data/labels-hc-g96.eventlog"
# two panels on one legend
check_run compare2 "$data/leak-hc.eventlog" --compare "$data/leak-hc.hp" --bands 30
if [ -d "$corpus" ]; then
    check_run circsim "$corpus/circsim-hc.eventlog"
    check_run circsim-thr "$corpus/circsim-thr-hT.eventlog"
    check_run fluid "$corpus/fluid-killed-hc.eventlog"
    check_run fibheaps "$corpus/fibheaps-hd.eventlog"
fi

# the legend's 30 entries are 30 colours (the run's --bands 30 are all listed)
$check unshared "$tmp/hi-many30.svg" | grep -q ': 30 legend entries in 30 colours' ||
    fail "hi-many30: not 30 legend entries in 30 colours"

# In the browser: the report's drawn bands, grouped too, and a band drawn out of OTHER.
if ! command -v node >/dev/null || ! command -v npm >/dev/null || [ -z "$(find_chromium)" ]; then
    echo "colours.sh: no chromium or node/npm: the browser part skipped"
    exit $failed
fi
deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
sh "$SRCDIR/tests/browser/deps.sh" "$SRCDIR" "$deps"
cases=""
add() {   # add NAME INPUT BANDS KEY...: the report and SVGs with --bands BANDS, the bands
    name=$1 input=$2 bands=$3   # as they are (the report's control then offers the keys)
    shift 3
    "$EV2HP" -q --bands "$bands" --group-by none "$input" -o "$tmp/b-$name.html" \
        -o "$tmp/b-$name.svg" ||
        fail "$name: status"
    charts="=$tmp/b-$name.svg"
    for key in "$@"; do
        "$EV2HP" -q --bands "$bands" --group-by "$key" "$input" -o "$tmp/b-$name-$key.svg" ||
            fail "$name --group-by $key: status"
        charts="$charts,$key=$tmp/b-$name-$key.svg"
    done
    cases="$cases $name|$tmp/b-$name.html|$charts"
}
add hi-many "$data/hi-many-g910.eventlog.gz" 30 type closure module location
add leak-hc "$data/leak-hc.eventlog" 15 cc module
add labels "$data/labels-hc-g910.eventlog" 15 cc
cases="$cases compare|$tmp/compare.html|=$tmp/compare.svg"
# shellcheck disable=SC2086 # one word per case
timeout 1200 node "$deps/colours_test.mjs" "$(find_chromium)" "$tmp" $cases ||
    fail "colours_test.mjs"
exit $failed
