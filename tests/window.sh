#!/bin/sh
# window.sh: --from/--to in every output (issue 36, point 1), on real GHC runs with
# traceMarker phases (tests/data/markers40-hT.eventlog, markers40.hs; and the corpus's GHC
# 9.10 run when ../shared is there):
#   - --from marker:X --to marker:Y writes, in the CSV, .hp, JSON, folded stacks, pprof,
#     SVG and every summary, the same bytes as --from/--to the seconds of those markers;
#   - those outputs hold the window's censuses only (the CSV's and the JSON's are the whole
#     run's CSV rows whose time is in the window; the .hp has as many samples);
#   - the summary's figures for the window are those computed from the window's CSV: the
#     census count, the peak (bytes and time), each band's peak, mean and growth (the
#     least-squares slope over the censuses) and its R2; --max-peak gates the window's
#     peak; the folded stacks are the window's peak census (as --at its time says);
#   - a marker that is not there is a usage error (status 2) naming the markers there
#     are; a pipe cannot be read twice to find a marker (status 2, saying so); --to's
#     marker is the first after the start.
. "${SRCDIR:?}/tests/testlib.sh"

# check LOG FROM_MARKER TO_MARKER [stacks]: stacks: the run has them (-hc), so folded
# stacks are written too, of the window's peak census
check() {
    local log=$1 from=$2 to=$3 stacks=${4:-} f form name secs fs ts peak
    name="$(basename "$log"): $from .. $to"
    "$EV2HP" "$log" --summary=json > "$tmp/all.json" || { fail "$name: summary: status $?"; return; }
    "$EV2HP" "$log" -o "$tmp/all.csv" || { fail "$name: whole CSV: status $?"; return; }
    # the markers' seconds, as the summary lists them (6 decimals, as -s and .hp print)
    secs=$("$PYTHON3" - "$tmp/all.json" "$from" "$to" <<'PY'
import json, sys
doc, a, b = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
ms = sorted(doc["markers"], key=lambda m: m["time_s"])
f = next(m["time_s"] for m in ms if m["text"].startswith(a))
t = next(m["time_s"] for m in ms if m["text"].startswith(b) and m["time_s"] > f)
# a microsecond either side of the printed time holds the marker itself
print("%.6f %.6f %.6f %.6f" % (f, t, f - 1e-6, t + 1e-6))
PY
) || { fail "$name: markers not in the summary"; return; }
    set -- $secs
    fs=$1 ts=$2 fs_wide=$3 ts_wide=$4
    for form in marker seconds; do
        if [ $form = marker ]; then
            set -- --from "marker:$from" --to "marker:$to"
        else
            set -- --from "$fs_wide" --to "$ts_wide"
        fi
        mkdir "$tmp/$form"
        [ -n "$stacks" ] && set -- "$@" -o "$tmp/$form/w.folded"
        "$EV2HP" "$log" "$@" -o "$tmp/$form/w.csv" -o "$tmp/$form/w.hp" \
            -o "$tmp/$form/w.json" -o "$tmp/$form/w.pb.gz" -o "$tmp/$form/w.html" \
            -o "$tmp/$form/w.svg" > /dev/null 2> "$tmp/$form/err" ||
            { fail "$name ($form): status $?: $(cat "$tmp/$form/err")"; return; }
        for f in text json markdown; do
            "$EV2HP" "$log" "$@" --summary=$f > "$tmp/$form/summary.$f" ||
                fail "$name ($form): --summary=$f: status $?"
        done
    done
    # (the SVG's time axis starts at the window's seconds: its censuses are compared)
    # (each summary names its window, whose seconds differ by the microsecond: that line
    # is checked below)
    for form in marker seconds; do
        for f in text json markdown; do
            grep -v '^window \|^ *"window": \|^- \*\*Window:\*\*' "$tmp/$form/summary.$f" \
                > "$tmp/$form/figures.$f"
        done
    done
    for f in w.csv w.hp w.json ${stacks:+w.folded} w.pb.gz figures.text figures.json \
             figures.markdown; do
        cmp -s "$tmp/marker/$f" "$tmp/seconds/$f" ||
            fail "$name: $f differs between the markers and their seconds ($fs, $ts)"
    done
    census_count() { grep -o '[0-9]* censuses' "$1"; }
    [ "$(census_count "$tmp/marker/w.svg")" = "$(census_count "$tmp/seconds/w.svg")" ] ||
        fail "$name: the SVGs' censuses differ"
    set -- "$tmp/all.csv" "$tmp/marker/w.csv" "$tmp/marker/w.hp" "$tmp/marker/w.json" \
        "$tmp/marker/summary.json" "$fs" "$ts" "$tmp/marker/w.html" "$SRCDIR/tests"
    "$PYTHON3" - "$@" <<'PY' || fail "$name: the window's outputs"
import csv, json, sys
whole, wcsv, whp, wjson, summary = sys.argv[1:6]
fs, ts = float(sys.argv[6]), float(sys.argv[7])
sys.path.insert(0, sys.argv[9])
from chartcheck import report_data

def rows(path):
    r = list(csv.reader(open(path, newline="")))
    return r[0][1:], [(float(x[0]), [int(v or 0) for v in x[1:]]) for x in r[1:]]

labels, all_rows = rows(whole)
wlabels, w = rows(wcsv)
expect = [t for t, _ in all_rows if fs <= t <= ts]
# no census so near a marker that the microsecond either side would take it in or out
assert all(abs(t - fs) > 2e-6 and abs(t - ts) > 2e-6 for t, _ in all_rows)
got = [t for t, _ in w]
assert got == expect, ("CSV censuses", got, expect)
assert 0 < len(got) < len(all_rows), (len(got), len(all_rows))
samples = sum(1 for line in open(whp) if line.startswith("BEGIN_SAMPLE"))
assert samples == len(got) + 2, ("hp samples", samples, len(got))   # + the empty first and last
assert [c["time_s"] for c in json.load(open(wjson))["censuses"]] == got, "JSON censuses"

doc = json.load(open(summary))
assert doc["window"] == {"from_s": fs, "to_s": ts}, doc["window"]
# the report's run names its window, which it opens on, and holds the whole run (issue
# 36: the page computes the window's figures, tests/report_window.sh checks them)
run = report_data(sys.argv[8])["run"]
assert run["window"] == doc["window"], ("report window", run["window"])
assert run["censuses"] == len(all_rows), ("report censuses", run["censuses"], len(all_rows))
assert doc["censuses"] == len(got), ("censuses", doc["censuses"], len(got))
totals = [sum(v) for _, v in w]
peak = max(totals)
assert doc["peak"]["bytes"] == peak, ("peak", doc["peak"]["bytes"], peak)
assert abs(doc["peak"]["time_s"] - w[totals.index(peak)][0]) < 1e-6, "peak time"

times = [t for t, _ in w]
n, mt = len(times), sum(times) / len(times)
checked = 0
import re
plain = [re.sub(r"^\(\d+\)", "", l) for l in wlabels]   # -hc: "(n)" before the stack
for band in doc["bands"]:
    names = [l for l in (band["label"], band["hp_label"]) if l in plain]
    if not names or plain.count(names[0]) != 1:
        continue
    ys = [v[plain.index(names[0])] for _, v in w]
    my = sum(ys) / n
    sxx = sum((t - mt) ** 2 for t in times)
    sxy = sum((t - mt) * (y - my) for t, y in zip(times, ys))
    syy = sum((y - my) ** 2 for y in ys)
    slope = sxy / sxx
    r2 = sxy * sxy / (sxx * syy) if syy > 0 else 0.0
    assert band["peak"] == max(ys), (band["label"], band["peak"], max(ys))
    assert abs(band["mean"] - my) <= 0.051, (band["label"], band["mean"], my)
    # (the CSV's times are to the microsecond: the slope from them is within 1e-4)
    assert abs(band["growth_bytes_per_s"] - slope) <= 0.006 + 1e-4 * abs(slope), \
        (band["label"], band["growth_bytes_per_s"], slope)
    assert abs(band["growth_r2"] - r2) <= 0.00006, (band["label"], band["growth_r2"], r2)
    checked += 1
assert checked >= 3, checked
print("ok: %d censuses of %d, peak %d, %d bands' growth" % (len(got), len(all_rows), peak,
                                                          checked))
PY
    # the gate is of the window's peak; the folded stacks are its census
    # (the peak's time a microsecond on: --at takes the last census at or before it)
    peak=$("$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["peak"]["bytes"], "%.6f" % (d["peak"]["time_s"] + 1e-6))' "$tmp/marker/summary.json")
    set -- $peak
    grep -q "^window     $fs s to $ts s (--from, --to)" "$tmp/marker/summary.text" ||
        fail "$name: the text summary does not name its window"
    grep -q "^- \*\*Window:\*\* $fs s to $ts s" "$tmp/marker/summary.markdown" ||
        fail "$name: the Markdown summary does not name its window"
    "$EV2HP" "$log" --from "marker:$from" --to "marker:$to" --max-peak $(($1 - 1)) \
        -o "$tmp/g.csv" 2> /dev/null
    [ $? -eq 3 ] || fail "$name: --max-peak under the window's peak passed"
    "$EV2HP" "$log" --from "marker:$from" --to "marker:$to" --max-peak "$1" -o "$tmp/g.csv" ||
        fail "$name: --max-peak at the window's peak: status $?"
    if [ -n "$stacks" ]; then
        "$EV2HP" "$log" --at "$2" -o "$tmp/at.folded" || fail "$name: --at $2: status $?"
        cmp -s "$tmp/at.folded" "$tmp/marker/w.folded" ||
            fail "$name: the window's folded stacks are not its peak census (at $2 s)"
        "$EV2HP" "$log" -o "$tmp/all.folded" || fail "$name: folded: status $?"
        cmp -s "$tmp/all.folded" "$tmp/marker/w.folded" &&
            fail "$name: the window's folded stacks are the whole run's"
    fi
    rm -rf "$tmp/marker" "$tmp/seconds"
    echo "ok: $name ($fs s to $ts s)"
}

log=$SRCDIR/tests/data/markers40-hT.eventlog
check "$log" "phase 3 start" "phase 6 end"
check "$log" "phase 2" "burst 7"
check "$SRCDIR/tests/data/leak-hc.eventlog" "phase: tree" "phase: lazy" stacks
newghc=$SRCDIR/../shared/corpus/newghc/ghc910-markers-hT.eventlog
if [ -f "$newghc" ]; then
    check "$newghc" "phase 2 start" "phase 5 end"
else
    echo "skip: $newghc is not there"
fi

# A marker that is not there: status 2, naming the markers there are.
run 2 "$log" --from "marker:no such phase" --summary
grep -q 'no marker begins with "no such phase"; the run.s markers: "start", "phase 1 start"' \
    "$tmp/err" || fail "unknown marker: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "unknown marker: something was written"
# All of a run's few markers are named, without "..."; a run without markers says so.
run 2 "$SRCDIR/tests/data/leak-hc.eventlog" --to marker:x -o "$tmp/x.csv"
grep -q 'the run.s markers: "phase: map", "phase: tree", "phase: lazy"$' "$tmp/err" ||
    fail "leak-hc's markers: $(cat "$tmp/err")"
[ -e "$tmp/x.csv" ] && fail "unknown marker: the CSV was written"
run 2 "$SRCDIR/tests/data/flat-hc.eventlog" --from marker:x --summary
grep -q 'marker:x: the run has no marker' "$tmp/err" || fail "no markers: $(cat "$tmp/err")"
# A window with no census says so, whatever the outputs (a CSV alone here).
run 0 "$SRCDIR/tests/data/leak-hc.eventlog" --from 100 -o "$tmp/empty.csv"
grep -q 'the window 100 s to the end holds no census' "$tmp/err" ||
    fail "an empty window: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/empty.csv")" -eq 1 ] || fail "an empty window: the CSV has censuses"
# --to's marker is the first after the start: none here.
run 2 "$log" --from "marker:phase 6" --to "marker:phase 3" --summary
grep -q 'no marker after 1.316321 s begins with "phase 3"' "$tmp/err" ||
    fail "--to before --from: $(cat "$tmp/err")"
# A pipe cannot be read twice.
"$EV2HP" --from marker:start --summary < "$log" > "$tmp/out" 2> "$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "a pipe: status $status"
grep -q 'give the window in seconds' "$tmp/err" || fail "a pipe: $(cat "$tmp/err")"
run 2 "$log" --from marker: --summary
exit $failed
