#!/bin/sh
# gc_stats.sh: the collector's figures against the runtime's own `+RTS -s` report (issue 35).
#   Real GHC 9.10.3 runs of tests/data/gcstats/gcwork.hs, each with `+RTS -l-agu -s` in
#   the same run (the eventlog carries only GC and user events; tests/data/gcstats/README
#   says how they were made): -threaded -N1, -N2, -N2 -qg, -N2 -A64k (5,500 collections),
#   -N1 -A16m and -N2 --nonmoving-gc. tests/gcstats_check.py parses the -s file as the
#   oracle and checks --summary=json's gc: collections and parallel collections per
#   generation, bytes copied and maximum residency exactly; allocation within 0.1 %; each
#   generation's worst pause within 1 ms and elapsed within 5 %; productivity within 2
#   points; the work balance to -s's two decimals. The text summary prints -s's lines
#   (the same byte counts, the generation lines) and the Markdown its Collector table.
. "${SRCDIR:?}/tests/testlib.sh"
gc="$data/gcstats"
for run in n1 n2 n2qg smallA largeA nonmoving; do
    "$EV2HP" --summary=json "$gc/$run.eventlog.gz" > "$tmp/$run.json" 2> "$tmp/$run.err" ||
        fail "$run: --summary=json status $?"
    "$PYTHON3" "$SRCDIR/tests/gcstats_check.py" "$gc/$run.s" "$tmp/$run.json" > "$tmp/$run.check" ||
        fail "$run against its -s: $(cat "$tmp/$run.check")"
done

# The text summary's lines carry -s's numbers as -s writes them.
"$EV2HP" --summary "$gc/n2.eventlog.gz" > "$tmp/n2.txt" 2> /dev/null || fail "--summary: status $?"
for line in "366,305,072 bytes allocated in the heap" "186,203,376 bytes copied during GC" \
    "6,515,088 bytes maximum residency" "58,992 bytes maximum slop" \
    "Parallel GC work balance: 67.95% (serial 0%, perfect 100%)"; do
    grep -qF "$line" "$tmp/n2.txt" || fail "the text summary lacks '$line'"
done
grep -qE '^  Gen  0      60 colls,     60 par    0\.093s    0\.0016s    0\.0095s' "$tmp/n2.txt" ||
    fail "the text summary's generation 0 line: $(grep 'Gen  0' "$tmp/n2.txt")"
grep -qE '^  Gen  1      16 colls,     15 par    0\.068s    0\.0042s    0\.0219s' "$tmp/n2.txt" ||
    fail "the text summary's generation 1 line: $(grep 'Gen  1' "$tmp/n2.txt")"

"$EV2HP" --summary=markdown "$gc/n2.eventlog.gz" > "$tmp/n2.md" 2> /dev/null ||
    fail "--summary=markdown: status $?"
grep -qF '| Gen 1 | 16 | 15 | ' "$tmp/n2.md" || fail "the Markdown lacks its Collector row"
grep -qF '#### Collector' "$tmp/n2.md" || fail "the Markdown lacks its Collector section"

exit $failed
