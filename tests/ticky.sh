#!/bin/sh
# ticky.sh: ticky counters (issue 35, point 4) against the runtime's own ticky report.
#   tests/data/ticky/P.hs, a deterministic program built with -ticky -ticky-allocd (GHC
#   9.10.3), run twice: +RTS -lT (P.eventlog.gz) and +RTS -r (P.ticky, the oracle);
#   tests/data/ticky/README has the commands. tests/ticky_check.py checks --summary=json's
#   ticky: every counter of the report listed with its name, arity and kinds; each
#   counter's totals the sum of its samples (the eventlog read by the script's own
#   parser); those that ended before the last sample equal to the report. The text and
#   Markdown summaries list the counters; --dump names the three events.
. "${SRCDIR:?}/tests/testlib.sh"
t="$data/ticky"
"$EV2HP" --summary=json "$t/P.eventlog.gz" > "$tmp/p.json" 2> "$tmp/p.err" ||
    fail "--summary=json: status $?"
"$PYTHON3" "$SRCDIR/tests/ticky_check.py" "$t/P.ticky" "$t/P.eventlog.gz" "$tmp/p.json" \
    > "$tmp/check" || fail "against the -r report: $(cat "$tmp/check")"
grep -q '^12 counters of the report, 9 of them ended before the last sample$' "$tmp/check" ||
    fail "the check's count: $(cat "$tmp/check")"

"$EV2HP" --summary "$t/P.eventlog.gz" > "$tmp/p.txt" 2> /dev/null || fail "--summary: status $?"
grep -qF "ticky      12 counters, 18 samples; they allocated 97.8% of the run's allocation" \
    "$tmp/p.txt" || fail "the text summary's ticky line: $(grep '^ticky' "$tmp/p.txt")"
grep -qE '^ +1000000 +16000000 +16000000 +1\.3% +1 I +sat_s2x7\{v\} \(Main\) \(fun\) in s2x0$' \
    "$tmp/p.txt" || fail "the text summary lacks the allocated closure's counter"

grep -qF '  3 counters were at work at the last sample (0.95 s): what they did after it is in no event' \
    "$tmp/p.txt" || fail "the text summary does not say which counters the last sample left short"

"$EV2HP" --summary=markdown "$t/P.eventlog.gz" > "$tmp/p.md" 2> /dev/null ||
    fail "--summary=markdown: status $?"
grep -qF '#### Ticky counters' "$tmp/p.md" || fail "the Markdown lacks its Ticky section"
grep -qF '| Main.\$wbuild{v r2wN} (fun) | 2 | ii | 19901316 | 1093061200 | 0 | 89.9 % |' \
    "$tmp/p.md" || fail "the Markdown lacks build's row"

# Each counter's info table named from the IPE events of a -finfo-table-map build.
"$EV2HP" --summary=json "$t/P-ipe.eventlog.gz" > "$tmp/ipe.json" 2> /dev/null ||
    fail "--summary=json of the IPE run: status $?"
"$PYTHON3" - "$tmp/ipe.json" <<'PY' || fail "info tables named from IPE events"
import json, sys
counters = json.load(open(sys.argv[1]))["ticky"]["counters"]
assert len(counters) == 12 and all(c["info_table"] for c in counters), counters
sat = next(c for c in counters if c["name"].startswith("sat_s2x7"))
assert sat["info_table"] == "sat_s2x7_info :: Int -> Int at P.hs:32:13-27", sat
PY
"$EV2HP" --summary=json "$t/P.eventlog.gz" 2> /dev/null | grep -q '"info_table": "' &&
    fail "info tables named without IPE events"

# -o x.csv of a ticky run without a census: the counters' table; -o x.json: the
# export with the summary's ticky object; a run with censuses keeps its CSV of censuses.
"$EV2HP" -o "$tmp/t.csv" -o "$tmp/t.json" "$t/P-ipe.eventlog.gz" 2> /dev/null ||
    fail "-o csv/json: status $?"
head -n 1 "$tmp/t.csv" | grep -qx 'name,arity,kinds,entries,allocs,allocd,alloc_share,info,info_table.' ||
    fail "the ticky CSV's header: $(head -n 1 "$tmp/t.csv")"
grep -qF 'sat_s2x7{v} (Main) (fun) in s2x0,1,I,1000000,16000000,16000000,0.013157,0x404cf0,sat_s2x7_info :: Int -> Int at P.hs:32:13-27' \
    "$tmp/t.csv" || fail "the ticky CSV lacks sat_s2x7's row"
[ "$(wc -l < "$tmp/t.csv")" -eq 13 ] || fail "the ticky CSV: $(wc -l < "$tmp/t.csv") lines"
"$EV2HP" --summary=json "$t/P-ipe.eventlog.gz" > "$tmp/s.json" 2> /dev/null
"$PYTHON3" - "$tmp/t.json" "$tmp/s.json" <<'PY' || fail "-o x.json's ticky is not the summary's"
import json, sys
export, summary = (json.load(open(p)) for p in sys.argv[1:])
assert export["ticky"] == summary["ticky"] and len(export["ticky"]["counters"]) == 12
assert export["censuses"] == []
PY
"$EV2HP" -o "$tmp/c.csv" -o "$tmp/c.json" "$data/gcstats/n1.eventlog.gz" 2> /dev/null
head -c 6 "$tmp/c.csv" | grep -qx 'time_s' || fail "a run without ticky: CSV $(head -n 1 "$tmp/c.csv")"
grep -q '"ticky"' "$tmp/c.json" && fail "a run without ticky: its JSON names ticky"

"$EV2HP" --dump "$t/P.eventlog.gz" > "$tmp/dump" 2> /dev/null || fail "--dump: status $?"
grep -q 'unknown event 21[012]' "$tmp/dump" && fail "--dump leaves ticky events unnamed"
for ev in 'TICKY_COUNTER_BEGIN_SAMPLE$' 'TICKY_COUNTER_SAMPLE id=[0-9]* entries=[0-9]* allocs=' \
    'TICKY_COUNTER_DEF id=[0-9]* arity=2 kinds="ii" name="Main.\$wbuild'; do
    grep -q " $ev" "$tmp/dump" || fail "--dump lacks $ev"
done
exit $failed
