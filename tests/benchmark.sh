#!/bin/sh
# benchmark.sh: --summary=benchmark writes what github-action-benchmark's
# customSmallerIsBetter reads (tests/benchmark_check.py has its rules, from the action's
# src/extract.ts), each figure the run's own --summary=json's: a heap profile with the
# collector's events (the peak, the heap's growth, the GC figures), a time profile (the
# GC figures only), a .hp (the peak and growth only); the same run gives the same bytes;
# the names are the same for every run (the action keeps a history per name).
. "${SRCDIR:?}/tests/testlib.sh"
for case in leak-hc.eventlog timeprof/tpsingle-P.eventlog leak-hc.hp gcstats/n2.eventlog.gz; do
    "$EV2HP" -q "$data/$case" --summary=benchmark > "$tmp/b.json" || fail "$case: status $?"
    "$EV2HP" -q "$data/$case" --summary=json > "$tmp/s.json" || fail "$case: json: status $?"
    names=$("$PYTHON3" "$SRCDIR/tests/benchmark_check.py" "$tmp/b.json" "$tmp/s.json") ||
        { fail "$case: $(cat "$tmp/b.json")"; continue; }
    echo "ok: $case: $names"
    "$EV2HP" -q "$data/$case" --summary=benchmark | cmp -s - "$tmp/b.json" ||
        fail "$case: two runs differ"
done
run 2 "$data/leak-hc.eventlog" --summary=benchmarks
grep -q "^ev2hp: --summary is text, json, markdown or benchmark, not 'benchmarks'" "$tmp/err" ||
    fail "a mistyped format: $(cat "$tmp/err")"
exit $failed
