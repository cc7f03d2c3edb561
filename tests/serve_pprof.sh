#!/bin/sh
# serve_pprof.sh: --serve's /debug/pprof paths, what Parca and Pyroscope scrape, read with
# Google's own parser (tests/pprof/pprofcheck.go, built here offline as in pprof.sh).
# A followed file growing as a program writes it (tests/replay.py): /debug/pprof/heap is
# its last census, ?at=SECONDS the last at or before, each entry for entry the census of
# the .hp (tests/pprof/check.py). A time profile written in three parts:
# /debug/pprof/profile?seconds=2, asked after the first part and spanning the second,
# holds exactly the samples of the second part (the folded stacks of the eventlog cut
# after it, less those of the eventlog cut after the first). Then bad parameters (400),
# the same Host rule as every path (421), a heap-only run's /debug/pprof/profile (404),
# the paths doc/parca.yml and doc/pyroscope.alloy scrape, windows whose clients left
# (their slots freed within 2 s), and a window open when ev2hp is stopped (it ends at
# once, status 0).
# Skipped (77) without curl or go.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/pprof/lib.sh"
. "$SRCDIR/tests/serve/lib.sh"

# --- a followed file's heap -------------------------------------------------------------
log=$SRCDIR/tests/data/markers40-hT.eventlog
"$EV2HP" "$log" -o "$work/batch.hp" || fail "batch .hp"
"$PYTHON3" "$SRCDIR/tests/replay.py" file "$log" "$work/growing.eventlog" --seconds 4 \
    --writes 100 &
pids="$pids $!"
while [ ! -e "$work/growing.eventlog" ]; do sleep 0.05; done
serve_start heap --serve 0 --follow "$work/growing.eventlog" -o "$work/heap.hp"
await_attached
wait_ended
curl -sf -o "$work/last.pb.gz" "${url}debug/pprof/heap" || fail "GET /debug/pprof/heap"
"$pprofcheck" "$work/last.pb.gz" >"$work/last.json" || fail "the parser refuses /debug/pprof/heap"
"$PYTHON3" "$check" heap "$work/last.json" "$work/batch.hp" 1e9 ||
    fail "/debug/pprof/heap is not the last census"
curl -sf -o "$work/at.pb.gz" "${url}debug/pprof/heap?at=0.5" || fail "GET ?at=0.5"
"$pprofcheck" "$work/at.pb.gz" >"$work/at.json" || fail "the parser refuses ?at=0.5"
"$PYTHON3" "$check" heap "$work/at.json" "$work/batch.hp" 0.5 ||
    fail "?at=0.5 is not the last census at or before 0.5 s"
[ "$(http_status "${url}debug/pprof/heap?at=0.000001")" = 404 ] || fail "?at= before the first census"
[ "$(http_status "${url}debug/pprof/heap?at=soon")" = 400 ] || fail "?at=soon"
[ "$(http_status -X POST "${url}debug/pprof/heap")" = 405 ] || fail "POST /debug/pprof/heap"
[ "$(http_status -H 'Host: evil.example' "${url}debug/pprof/heap")" = 421 ] ||
    fail "another Host: not refused"
[ "$(http_status "${url}debug/pprof/profile?seconds=1")" = 404 ] ||
    fail "/debug/pprof/profile of a run without a time profile"
# The paths doc/parca.yml and doc/pyroscope.alloy scrape are ev2hp's (a heap-only run's
# /debug/pprof/profile says why it has nothing, rather than "not found").
paths=$("$PYTHON3" - "$SRCDIR/doc/parca.yml" <<'PY'
import sys, yaml
for job in yaml.safe_load(open(sys.argv[1]))["scrape_configs"]:
    for kind in job["profiling_config"]["pprof_config"].values():
        if kind.get("enabled"):
            print(kind["path"])
PY
) || fail "doc/parca.yml does not parse"
alloy=$(sed -n 's/^ *path *= *"\(.*\)"$/\1/p' "$SRCDIR/doc/pyroscope.alloy")
[ "$(echo $paths)" = "/debug/pprof/heap /debug/pprof/profile" ] &&
    [ "$(echo $alloy)" = "$(echo $paths)" ] || fail "scrape paths: parca '$paths', alloy '$alloy'"
curl -s "${url}debug/pprof/profile?seconds=1" | grep -q "no time profile" ||
    fail "/debug/pprof/profile is not routed"
serve_stop

# --- a time profile, in three parts -------------------------------------------------------
tp=$SRCDIR/tests/data/timeprof/tpsingle-P.eventlog
size=$(wc -c <"$tp")
a=$((size * 85 / 100))   # the ticks lie in the last fifth of the file
b=$((size * 95 / 100))
head -c "$a" "$tp" >"$work/part-a.eventlog"
head -c "$b" "$tp" >"$work/part-b.eventlog"
# what ev2hp reads of each cut (every complete event), with and without the runtime's own
"$EV2HP" "$work/part-a.eventlog" -o "$work/a.folded" 2>/dev/null
"$EV2HP" "$work/part-b.eventlog" -o "$work/b.folded" 2>/dev/null
"$EV2HP" --system-ccs "$work/part-a.eventlog" -o "$work/a-all.folded" 2>/dev/null
ticks_a=$(awk '{ n += $NF } END { print n + 0 }' "$work/a-all.folded")
"$PYTHON3" - "$work/a.folded" "$work/b.folded" "$work/window.folded" <<'PY'
import sys
def read(path):
    out = {}
    for line in open(path):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        out[stack] = int(n)
    return out
a, b = read(sys.argv[1]), read(sys.argv[2])
with open(sys.argv[3], "w") as f:
    for stack, n in b.items():
        if n - a.get(stack, 0):
            f.write("%s %d\n" % (stack, n - a.get(stack, 0)))
PY
cp "$work/part-a.eventlog" "$work/tp.eventlog"
serve_start time --serve 0 --follow "$work/tp.eventlog"
await_attached
samples_read() { [ "$(metric ghc_time_profile_samples_total)" = "$ticks_a" ]; }
poll 300 "the first part read ($ticks_a samples)" samples_read
curl -sf -o "$work/window.pb.gz" "${url}debug/pprof/profile?seconds=2" &
window=$!
sleep 1   # the window is open by then; the part is read well before it closes
tail -c +"$((a + 1))" "$tp" | head -c "$((b - a))" >>"$work/tp.eventlog"
wait "$window" || fail "GET /debug/pprof/profile?seconds=2"
tail -c +"$((b + 1))" "$tp" >>"$work/tp.eventlog"
"$pprofcheck" "$work/window.pb.gz" >"$work/window.json" || fail "the parser refuses the window"
"$PYTHON3" "$check" time "$work/window.json" "$work/window.folded" ||
    fail "the 2 s window is not the samples of the second part"
# plain decimal only: nothing strtod would also take, no value cut at a NUL, no repeat
for bad in 0 301 x 1.5 "" 0x10 0x1p3 "%201" "1%00" "1e1" "+1" "1&seconds=2"; do
    [ "$(http_status "${url}debug/pprof/profile?seconds=$bad")" = 400 ] || fail "seconds=$bad"
done
for bad in 0x10 0x1p3 "%200.5" "0.5%00" "1e-1" "-0" ".5" "0.5&at=1" "inf" "nan"; do
    [ "$(http_status "${url}debug/pprof/heap?at=$bad")" = 400 ] || fail "heap?at=$bad"
done
# Windows whose clients leave free their slots: four clients ask for 300 s and go after
# one; a fifth window is then served (Go's handler ends the wait when its client goes),
# not refused with 503 until the 300 s are over.
for _ in 1 2 3 4; do
    curl -s -o /dev/null --max-time 1 "${url}debug/pprof/profile?seconds=300" &
    pids="$pids $!"
done
sleep 1
limit=$(patience 2)
deadline=$(awk -v l="$limit" 'BEGIN { print int(l * 10) + 10 }')
i=0
st=503
while [ "$st" = 503 ] && [ $i -lt "$deadline" ]; do
    sleep 0.1
    st=$(http_status --max-time 5 "${url}debug/pprof/profile?seconds=1")
    i=$((i + 1))
done
[ "$st" = 200 ] ||
    fail "four windows whose clients left still hold their slots: a fifth got $st ($(patience_said "$limit"))"
# A window open for 300 s does not hold ev2hp when it is stopped.
curl -s -o /dev/null "${url}debug/pprof/profile?seconds=300" &
pids="$pids $!"
sleep 0.5
started=$(date +%s)
serve_stop
[ $(($(date +%s) - started)) -le 5 ] || fail "an open /debug/pprof/profile window held ev2hp"
exit 0
