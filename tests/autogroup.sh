#!/bin/sh
# autogroup.sh: defaults that show the heap (issue 39; census/autogroup.h). On real GHC
# 9.10 runs whose largest 15 bands leave most of the peak in OTHER, the default chart,
# report and summaries are grouped by the key that shows the heap, say so with the flag
# that undoes it, and leave OTHER at most a quarter of the peak:
#   tests/data/hi-many-g910 (-hi, 13,276 tables), tests/data/hi-4k-g910 (-hi, 4,431
#   tables) and hc-2k-g910 (-hc, 2,032 stacks: by module), made by tests/data/hi-many.py
#   (its comment has the commands), and ../shared/corpus/newghc/ghc910-forest-hi (13,346
#   tables) when the corpus is there.
# The exports stay exact per band (the .hp is the runtime's; the JSON export is that of
# --group-by table), --group-by table gives the bands as they are, explicit choices turn
# the default off, a pipe is not read twice (a warning names the key instead), a
# --compare base is grouped by the same key, and a small run is drawn as before.
. "${SRCDIR:?}/tests/testlib.sh"

check() {   # check NAME INPUT KEY UNDO
    name=$1 input=$2 key=$3 undo=$4
    "$EV2HP" "$input" -o "$tmp/$name.svg" -o "$tmp/$name.html" --summary=json \
        > "$tmp/$name.summary.json" 2> "$tmp/$name.err" || fail "$name: exit status $?"
    # nothing said but the note of the tables --binary would name (tests/binary.sh)
    grep -v "info tables have no IPE event and are shown as addresses" "$tmp/$name.err" \
        > "$tmp/$name.rest"
    [ -s "$tmp/$name.rest" ] && fail "$name: unexpected message: $(cat "$tmp/$name.rest")"
    if share=$("$PYTHON3" "$SRCDIR/tests/autogroup.py" svg "$tmp/$name.svg" "$key" "$undo"); then
        echo "$name: grouped by $key, OTHER $share of the chart's peak"
    else
        fail "$name: svg: $share"
    fi
    verdict=$("$PYTHON3" "$SRCDIR/tests/autogroup.py" report "$tmp/$name.html" "$key" "$undo") ||
        fail "$name: report: $verdict"
    verdict=$("$PYTHON3" "$SRCDIR/tests/autogroup.py" summary "$tmp/$name.summary.json" \
              "$key" "$undo") || fail "$name: summary: $verdict"
    # the text and Markdown summaries say it, with the flag that undoes it
    "$EV2HP" "$input" --summary > "$tmp/$name.txt" || fail "$name: text: exit status $?"
    grep -q "^grouping   grouped by $key: the 15 largest of .* left .* % of the peak in OTHER .*; --group-by $undo shows every $undo\$" \
        "$tmp/$name.txt" || fail "$name: text: $(grep -m1 grouping "$tmp/$name.txt")"
    "$EV2HP" "$input" --summary=markdown > "$tmp/$name.md" || fail "$name: md: exit status $?"
    grep -q "^- \*\*Grouped by $key:\*\* the 15 largest .*; \`--group-by $undo\` shows every $undo\$" \
        "$tmp/$name.md" || fail "$name: markdown: no grouping line"
    # --group-by UNDO: the bands as they are, OTHER as large as before, nothing said
    "$EV2HP" "$input" --group-by "$undo" -o "$tmp/$name-all.svg" || fail "$name: $undo: $?"
    if share=$("$PYTHON3" "$SRCDIR/tests/autogroup.py" svg-other "$tmp/$name-all.svg"); then
        echo "$name: --group-by $undo: OTHER $share of the chart's peak"
        "$PYTHON3" -c 'import sys; sys.exit(float(sys.argv[1]) <= 0.25)' "$share" ||
            fail "$name: --group-by $undo: OTHER only $share: the run does not test the default"
    else
        fail "$name: --group-by $undo: $share"
    fi
    "$EV2HP" "$input" --group-by "$undo" --summary=json | grep -q '"grouped_by"' &&
        fail "$name: --group-by $undo: the summary says grouped"
}
check hi-many "$data/hi-many-g910.eventlog.gz" type table
check hi-4k "$data/hi-4k-g910.eventlog.gz" type table
check hc-2k "$data/hc-2k-g910.eventlog.gz" module stack
forest=$SRCDIR/../shared/corpus/newghc/ghc910-forest-hi.eventlog
if [ -f "$forest" ]; then
    check forest "$forest" type table
else
    echo "autogroup.sh: no corpus: the forest run left out"
fi
"$PYTHON3" "$SRCDIR/tests/autogroup.py" labels "$tmp/hi-many.summary.json" '[]' Box Maybe Int ||
    fail "hi-many: the summary's bands are not the types"

# The exports stay exact per band: the .hp is the runtime's, the JSON export --group-by
# table's, byte for byte, while the chart of the same run is grouped.
for name in hi-4k hc-2k; do
    gunzip -c "$data/$name-g910.hp.gz" > "$tmp/$name.runtime.hp"
    "$EV2HP" "$data/$name-g910.eventlog.gz" -o "$tmp/$name.hp" -o "$tmp/$name.json" \
        -o "$tmp/$name-too.svg" || fail "$name: exports: exit status $?"
    verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$tmp/$name.runtime.hp" "$tmp/$name.hp") ||
        fail "$name: .hp: $verdict"
    "$EV2HP" "$data/$name-g910.eventlog.gz" --group-by none -o "$tmp/$name-none.json" ||
        fail "$name: --group-by none: $?"
    cmp -s "$tmp/$name.json" "$tmp/$name-none.json" || fail "$name: the JSON export is grouped"
    grep -q 'grouped by' "$tmp/$name-too.svg" || fail "$name: the chart beside them is not grouped"
done

# An explicit choice turns the default off: --group-by, --include, --exclude, --bands 0.
log="$data/hi-4k-g910.eventlog.gz"
for opts in "--group-by type" "--include ." "--exclude ^$" "--bands 0"; do
    # shellcheck disable=SC2086 # the options, word by word
    "$EV2HP" "$log" $opts -o "$tmp/opt.svg" --summary=json > "$tmp/opt.json" ||
        fail "$opts: exit status $?"
    grep -q 'grouped by' "$tmp/opt.svg" && fail "$opts: the chart says it was grouped by default"
    grep -q '"grouped_by"' "$tmp/opt.json" && fail "$opts: the summary says grouped_by"
done
# --group-by type is what the default draws, apart from what the subtitle says of it
"$EV2HP" "$log" -o "$tmp/default.svg" && "$EV2HP" "$log" --group-by type -o "$tmp/type.svg" ||
    fail "type: exit status $?"
for f in default type; do
    "$PYTHON3" -c 'import re, sys
sys.stdout.write(re.sub(r"<text class=\"subtitle\".*?</text>", "", open(sys.argv[1]).read(), 1))' \
        "$tmp/$f.svg" > "$tmp/$f-cut.svg"
done
cmp -s "$tmp/default-cut.svg" "$tmp/type-cut.svg" ||
    fail "the default chart is not --group-by type's but for its subtitle"

# The gates judge the bands the summary lists: grouped, the leak suspect --max-growth
# names is the type [] (5.85 MiB/s), every table's largest is 0x5edc88 (2.55 MiB/s); the
# JUnit report carries the text summary, which says it was grouped.
"$EV2HP" "$log" --max-growth 100K/s --junit "$tmp/gates.xml" --summary=json > "$tmp/gates.json"
[ $? -eq 3 ] || fail "--max-growth: not status 3"
grep -q '"message": "leak suspect \[\] rose' "$tmp/gates.json" ||
    fail "--max-growth: the verdict is not of the type []"
grep -q 'grouping   grouped by type' "$tmp/gates.xml" || fail "--junit: no grouping line"
"$EV2HP" "$log" --max-growth 100K/s --group-by table --summary=json > "$tmp/gates.json"
grep -q '"message": "leak suspect 0x5edc88 rose' "$tmp/gates.json" ||
    fail "--max-growth --group-by table: the verdict is not of the table 0x5edc88"

# The views of bands say it; the heap view (the runtime's totals) and the census flame
# graph (its own tree of the bands) are drawn as they are.
for view in lines detail heap flame; do
    "$EV2HP" "$log" --view "$view" -o "$tmp/$view.svg" || fail "--view $view: exit status $?"
    case $view in heap | flame) want=0 ;; *) want=1 ;; esac
    [ "$(grep -c 'grouped by type' "$tmp/$view.svg")" = "$want" ] ||
        fail "--view $view: 'grouped by type' not said $want time(s)"
done

# A pipe is read once: the bands stay as they are, and a warning names the key.
gunzip -c "$log" | "$EV2HP" -o "$tmp/pipe.svg" 2> "$tmp/pipe.err" || fail "pipe: exit status $?"
grep -q "^ev2hp: (standard input): the 15 largest of 4431 bands leave .* % of the peak in OTHER: --group-by type shows what the heap holds" \
    "$tmp/pipe.err" || fail "pipe: $(cat "$tmp/pipe.err")"
grep -q 'grouped by' "$tmp/pipe.svg" && fail "pipe: the chart says it was grouped"

# --compare: the base grouped by the run's key (its types matched by name).
"$EV2HP" "$log" --compare "$data/hi-many-g910.eventlog.gz" -o "$tmp/cmp.svg" --summary=json \
    > "$tmp/cmp.json" || fail "compare: exit status $?"
"$PYTHON3" - "$tmp/cmp.json" <<'PY' || fail "compare: the base is not grouped by type"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["grouped_by"]["key"] == "type", d.get("grouped_by")
both = {b["label"]: b for b in d["compare"]["bands"] if b["base"] and b["now"]}
for label in ("[]", "Box", "Maybe"):
    assert label in both, (label, sorted(both)[:10])
PY
grep -q 'grouped by type' "$tmp/cmp.svg" || fail "compare: the chart does not say it was grouped"

# The rule's edges on generated -hc runs of equal stacks (tests/autogroup_runs: STACKS
# cost centres in MODULES modules, so each key's share is known): by cc nothing changes,
# so module is weighed next; a key that helps no more is not taken; when none brings OTHER
# to a quarter, the one that leaves least is, and says what it leaves; exactly half the
# peak in OTHER is not "most" of it.
runs="$(dirname "$EV2HP")/tests/autogroup_runs"
edge() {   # edge STACKS MODULES KEY|- OTHER GROUPED: the summary's grouped_by
    "$runs" "$1" "$2" "$tmp/edge.eventlog" || fail "autogroup_runs $1 $2"
    "$EV2HP" "$tmp/edge.eventlog" --summary=json > "$tmp/edge.json" ||
        fail "edge $1 $2: exit status $?"
    "$PYTHON3" - "$tmp/edge.json" "$3" "$4" "$5" <<'PY' || fail "edge $1 $2"
import json, sys
g = json.load(open(sys.argv[1])).get("grouped_by")
key, other, grouped = sys.argv[2], sys.argv[3], sys.argv[4]
if key == "-":
    sys.exit("grouped: %r" % g if g else 0)
if not g or g["key"] != key or (g["other_share_of_peak"], g["grouped_other_share_of_peak"]) != (
        float(other), float(grouped)):
    sys.exit("grouped_by %r, not %s %s %s" % (g, key, other, grouped))
PY
}
edge 100 10 module 0.85 0
edge 100 100 - - -
edge 100 40 module 0.85 0.55
edge 30 1 - - -
edge 31 1 module 0.5161 0

# A small run is drawn as before: nothing grouped, the same bytes as --group-by none.
for name in leak-hc labels-hc-g910; do
    "$EV2HP" "$data/$name.eventlog" -o "$tmp/$name.svg" --summary=json > "$tmp/$name.json" &&
        "$EV2HP" "$data/$name.eventlog" --group-by none -o "$tmp/$name-none.svg" \
            --summary=json > "$tmp/$name-none.json" || fail "$name: exit status $?"
    cmp -s "$tmp/$name.svg" "$tmp/$name-none.svg" || fail "$name: the chart changed"
    cmp -s "$tmp/$name.json" "$tmp/$name-none.json" || fail "$name: the summary changed"
done

exit $failed
