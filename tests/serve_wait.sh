#!/bin/sh
# serve_wait.sh: a followed run whose runtime holds its censuses back says why, once
# (issue 39, point 5). The input: a real GHC 9.10.3 -hi run written without a flush
# interval (tests/data/pprof/ghc910-leak-hi.eventlog, the corpus's ghc910-leak-hi: its
# first census event, with HEAP_PROF_BEGIN, at byte 154,499 of 193,001, after events of
# its whole 1.15 s run). Fed as the program wrote it: the bytes before the first census,
# a hold, then the rest at once.
#   1. ev2hp --serve reading a FIFO, the page in headless Chromium
#      (tests/browser/live_wait_test.mjs): the page says why it waits and what to run, and
#      offers no control of the program; standard error says it once. Read from a
#      program's socket instead (tests/replay.py), the page offers the controls
#      (tests/browser/live_control_test.mjs).
#   2. ev2hp --follow FILE without --serve: standard error says it once while the file
#      is held, and the .hp is a plain run's; held 3 s only, it says so when the
#      censuses come, at once.
#   3. The same run followed whole, and read as a plain file: nothing said.
# Waits scale with the load (testlib's patience). Skipped (77) without chromium, node,
# npm or curl.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
. "$SRCDIR/tests/serve/lib.sh"
browser_ready

log="$data/pprof/ghc910-leak-hi.eventlog"
cut=154499
# the cut is where the first census's HEAP_PROF_BEGIN (tag 160) begins
[ "$(od -An -tx1 -j $cut -N2 "$log" | tr -d ' ')" = 00a0 ] ||
    fail "byte $cut of $log is not the HEAP_PROF_BEGIN event"
said="no census yet, though the program's events have arrived up to 1.15 s into its run (censuses may come late, in one burst): the GHC runtime buffers its events and writes them only when a buffer fills; to see censuses as they are taken, run the program with +RTS --eventlog-flush-interval=1 (GHC 9.2 and later) or stream it through eventlog-socket"
burst="[0-9]* censuses came at once, held back [0-9]* s while the program's other events arrived: the GHC runtime buffers its events"

# --- 1. --serve from a FIFO, the page in Chromium -------------------------------------
mkfifo "$work/leak.in"
serve_start leak --serve 0 "$work/leak.in"
wait_s=$(patience 60)
node "$deps/live_wait_test.mjs" "$browser" "$work" "$url" "$log" "$work/leak.in" "$cut" \
    "$wait_s" || fail "the live page in Chromium ($(patience_said "$wait_s"))"
wait_ended
n=$(grep -c -F "ev2hp: $work/leak.in: $said" "$work/leak.err" || true)
[ "$n" = 1 ] || fail "--serve: standard error says it $n times, wanted once: $(cat "$work/leak.err")"
serve_stop

# --- 1b. a program's socket: the controls are offered (until the stream ends) -------
"$PYTHON3" "$SRCDIR/tests/replay.py" unix "$data/markers40-hT.eventlog" "$work/prog.sock" \
    --seconds 30 --writes 300 --record "$work/control.bin" --linger 5 &
pids="$pids $!"
serve_start sock --serve 0 "unix:$work/prog.sock"
node "$deps/live_control_test.mjs" "$browser" "$work" "$url" "$wait_s" ||
    fail "the live page of a socket in Chromium ($(patience_said "$wait_s"))"
wait_ended
serve_stop

# --- 2. --follow a file that grows, without --serve ------------------------------------
head -c $cut "$log" >"$work/grow.eventlog"
"$EV2HP" --follow "$work/grow.eventlog" -o "$work/grow.hp" 2>"$work/grow.err" &
follow=$!
pids="$pids $follow"
tries=$(patience 60 | cut -d. -f1)
i=0
until grep -q -F "$said" "$work/grow.err"; do
    kill -0 "$follow" 2>/dev/null || fail "--follow ended before the rest: $(cat "$work/grow.err")"
    [ $i -lt $((tries * 10)) ] || fail "--follow: nothing said ($(patience_said "$tries"))"
    sleep 0.1
    i=$((i + 1))
done
tail -c +$((cut + 1)) "$log" >>"$work/grow.eventlog"
wait "$follow" || fail "--follow: status $?: $(cat "$work/grow.err")"
n=$(grep -c -F "ev2hp: $work/grow.eventlog: $said" "$work/grow.err" || true)
[ "$n" = 1 ] || fail "--follow: standard error says it $n times, wanted once: $(cat "$work/grow.err")"
"$EV2HP" "$log" -o "$work/plain.hp" 2>"$work/plain.err" || fail "plain: status"
cmp -s "$work/grow.hp" "$work/plain.hp" || fail "--follow: the .hp differs from a plain run's"

# --- 2b. a hold shorter than the wait: said when the censuses come, at once ----------
head -c $cut "$log" >"$work/short.eventlog"
"$EV2HP" --follow "$work/short.eventlog" -o "$work/short.hp" 2>"$work/short.err" &
follow=$!
pids="$pids $follow"
sleep 3
tail -c +$((cut + 1)) "$log" >>"$work/short.eventlog"
wait "$follow" || fail "--follow, 3 s: status $?: $(cat "$work/short.err")"
# the reader's clock may see a longer hold on a loaded machine: then it waited, and said so
n=$(grep -c -e "ev2hp: $work/short.eventlog: $burst" -e "no census yet" "$work/short.err" || true)
[ "$n" = 1 ] || fail "--follow, held 3 s: said $n times, wanted once: $(cat "$work/short.err")"
cmp -s "$work/short.hp" "$work/plain.hp" || fail "--follow, 3 s: the .hp differs from a plain run's"

# --- 3. nothing held back: nothing said --------------------------------------------
grep -q "no census" "$work/plain.err" && fail "a plain run says: $(cat "$work/plain.err")"
"$EV2HP" --follow "$log" -o "$work/whole.hp" 2>"$work/whole.err" || fail "--follow whole: status"
grep -q "no census" "$work/whole.err" && fail "--follow of a whole file says: $(cat "$work/whole.err")"
cmp -s "$work/whole.err" "$work/plain.err" ||
    fail "--follow of a whole file says more than a plain run: $(cat "$work/whole.err")"
exit 0
