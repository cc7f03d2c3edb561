#!/bin/sh
# end_of_run.sh: what led up to the end of a killed run (issue 35, item 5).
#   tests/data/end/grow-killed.eventlog.gz is a real GHC 9.10.3 program (Grow.hs beside
#   it, its heap growing steadily) killed with SIGKILL, so its eventlog has no end-of-data
#   marker. Made in the Debian sid chroot (shared/tools/newghc.sh sid):
#     ghc -O1 -threaded -eventlog -rtsopts Grow.hs -o grow
#     ./grow +RTS -hT -l -i0.05 --eventlog-flush-interval=0.05 -RTS & p=$!
#     sleep 2; kill -9 $p; gzip -9 grow.eventlog
#   The summary's paragraph (text, Markdown) and JSON `end` are checked by
#   tests/end_check.py against the run's own data: the censuses of the CSV export (the
#   last census, its total, the growth over the last censuses, the band that grew most),
#   --dump's events (the last event, the last markers, the collector's share of the last
#   second from the leaders' GC_START/GC_END). A run that ended with its marker has no
#   paragraph and `complete: true`; a .hp, which has no such marker, `end: null`.
. "${SRCDIR:?}/tests/testlib.sh"
run="$data/end/grow-killed.eventlog.gz"
"$EV2HP" --summary=json "$run" > "$tmp/end.json" 2> "$tmp/json.err" ||
    fail "--summary=json: status $?"
grep -qF "grow-killed.eventlog.gz: offset 48435: the file ends without the end-of-data marker" \
    "$tmp/json.err" || fail "stderr does not say where the file ends: $(cat "$tmp/json.err")"
"$EV2HP" --summary "$run" > "$tmp/end.txt" 2> /dev/null || fail "--summary: status $?"
"$EV2HP" -o "$tmp/end.csv" "$run" 2> /dev/null || fail "-o end.csv: status $?"
"$EV2HP" --dump "$run" > "$tmp/end.dump" 2> /dev/null || fail "--dump: status $?"
"$PYTHON3" "$SRCDIR/tests/end_check.py" "$tmp/end.json" "$tmp/end.csv" "$tmp/end.dump" \
    "$tmp/end.txt" > "$tmp/check" || fail "against the data: $(cat "$tmp/check")"
# the words of the paragraph, as a person reads them
grep -qE '^end        The eventlog ends without its end-of-data marker .*: its last event is at 1\.989 s\. The last complete census is at 1\.965 s: 14\.3 MiB, growing 6\.32 MiB/s over the last 5 censuses \(from 6\.31 MiB at 0\.697 s\)\..* The collector took 34\.1 % of the last second \(0\.341 s of 1\.000 s\)\. The last markers: "batch 75" at 1\.919 s, "batch 76" at 1\.969 s, "batch 77" at 1\.989 s\. Fastest growing at the end: ghc-prim:GHC\.Types\.: \(\+3\.79 MiB/s, 8\.59 MiB\)' \
    "$tmp/end.txt" || fail "the text paragraph: $(grep '^end' "$tmp/end.txt")"

"$EV2HP" --summary=markdown "$run" > "$tmp/end.md" 2> /dev/null || fail "--summary=markdown: status $?"
grep -qF '#### How the run ended' "$tmp/end.md" || fail "the Markdown lacks its section"
# the band's label through the Markdown's escaping (':' escaped: no autolink)
grep -qF 'Fastest growing at the end: ghc-prim\:GHC.Types.\: (+3.79 MiB/s, 8.59 MiB)' "$tmp/end.md" ||
    fail "the Markdown paragraph: $(grep 'Fastest' "$tmp/end.md")"

# A run that ended with its end-of-data marker: no paragraph, complete: true.
"$EV2HP" --summary=json "$data/gcstats/n1.eventlog.gz" > "$tmp/n1.json" 2> /dev/null ||
    fail "complete run: status $?"
"$PYTHON3" -c 'import json, sys
e = json.load(open(sys.argv[1]))["end"]
assert e["complete"] is True and e["last_event_s"] > 0, e' "$tmp/n1.json" ||
    fail "complete run's end"
"$EV2HP" --summary "$data/gcstats/n1.eventlog.gz" > "$tmp/n1.txt" 2> /dev/null
grep -q '^end ' "$tmp/n1.txt" && fail "a complete run has an end paragraph"
# a .hp has no end-of-data marker to see: null
"$EV2HP" --summary=json "$data/flat-hc.hp" > "$tmp/hp.json" 2> /dev/null || fail ".hp: status $?"
"$PYTHON3" -c 'import json, sys
assert json.load(open(sys.argv[1]))["end"] is None' "$tmp/hp.json" || fail ".hp's end is not null"
exit $failed
