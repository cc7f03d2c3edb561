#!/bin/sh
# fanout.sh: the run model is read once and every output draws from it. One run writing
# SVG, PNG, the HTML report, a .hp and the summary together gives each the very bytes
# (and the same exit status and stderr) it gives alone: with the default options, with a
# width whose report resolution is not a power of two of the chart's, with --include,
# --exclude and a window (the summary then has a profile of its own), and with --compare.
. "${SRCDIR:?}/tests/testlib.sh"

# check NAME SUMMARY-FLAG INPUT [OPTIONS...]: each output alone, then all in one run.
check() {
    name=$1 summary=$2 input=$3
    shift 3
    d="$tmp/$name"
    mkdir -p "$d/alone" "$d/all"
    for ext in svg png html hp; do
        "$EV2HP" "$@" -o "$d/alone/out.$ext" "$input" >"$d/alone/$ext.stdout" 2>"$d/alone/$ext.stderr"
        echo $? >"$d/alone/$ext.status"
    done
    "$EV2HP" "$@" "$summary" "$input" >"$d/alone/summary" 2>"$d/alone/summary.stderr"
    echo $? >"$d/alone/summary.status"
    "$EV2HP" "$@" -o "$d/all/out.svg" -o "$d/all/out.png" -o "$d/all/out.html" \
        -o "$d/all/out.hp" "$summary" "$input" >"$d/all/summary" 2>"$d/all/stderr"
    status=$?
    for ext in svg png html hp; do
        [ "$(cat "$d/alone/$ext.status")" = 0 ] || fail "$name: -o out.$ext alone exits $(cat "$d/alone/$ext.status")"
        [ -s "$d/alone/out.$ext" ] || fail "$name: -o out.$ext alone is empty"
        cmp -s "$d/alone/out.$ext" "$d/all/out.$ext" ||
            fail "$name: out.$ext differs between alone and together"
        cmp -s "$d/alone/$ext.stderr" "$d/all/stderr" ||
            fail "$name: stderr of out.$ext alone is not the fan-out's"
    done
    [ "$status" = 0 ] || fail "$name: the fan-out exits $status"
    [ -s "$d/alone/summary" ] || fail "$name: the summary alone is empty"
    cmp -s "$d/alone/summary" "$d/all/summary" ||
        fail "$name: the summary differs between alone and together"
}

check default --summary "$data/leak-hc.eventlog"
check markers --summary=json "$data/markers40-hT.eventlog"
# 9000 columns: the report keeps 16384 (PROFILE_MAX_COLUMNS), not 18000
check wide --summary "$data/treejoin-hb.eventlog" --width 9000
check filtered --summary=json "$data/leak-hc.eventlog" --include 'Main|GHC' --exclude 'CAF' \
    --from 0.05 --to 0.4 --width 700 --bands 4
check compare --summary=json "$data/leak-hc.eventlog" --compare "$data/leak-hb.eventlog"
check compare_hp --summary "$data/leak-hy.eventlog" --compare "$data/leak-hy.hp" --include a

# the fan-out is really one reading: the filtered summary keeps every band (its own feed)
grep -q '"label"' "$tmp/filtered/all/summary" || fail "filtered: the summary lists no band"

exit $failed
