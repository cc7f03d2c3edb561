#!/bin/sh
# cli_messages.sh: messages that say what to do (issue 39, point 7), each through the CLI
# with its status, standard output and standard error: an input that is not an eventlog
# says what it is and how to get one (a GHC .prof, JSON .prof, a program, a text file, an
# empty file); an unknown -o extension lists the formats; a flag of the GHC runtime
# (-hc, +RTS, -l, -qg, --eventlog-flush-interval) is a usage error naming +RTS ... -RTS
# (but an option's argument that looks like one is not); a mistyped long option gets
# "did you mean"; --view diff without --compare is a usage error (2), not an output's
# (4); a recovered GHC 9.6 or 9.10 -hc -p log of the non-threaded runtime (GHC issue
# 25165) names that cause in one line, and a clean or merely cut run does not.
. "${SRCDIR:?}/tests/testlib.sh"
log="$data/leak-hT.eventlog"

err_has() { grep -q -- "$1" "$tmp/err" || fail "$2: stderr lacks '$1': $(head -c 400 "$tmp/err")"; }
err_lines() { [ "$(wc -l <"$tmp/err")" -eq "$1" ] || fail "$2: stderr has $(wc -l <"$tmp/err") lines, wanted $1: $(head -c 400 "$tmp/err")"; }
out_empty() { [ -s "$tmp/out" ] && fail "$1: wrote to standard output: $(head -c 100 "$tmp/out")"; true; }
# usage WHAT ARGS...: status 2, one message line and the hint to --help, nothing on stdout
usage() {
    what=$1
    shift
    run 2 "$@"
    out_empty "$what"
    err_lines 2 "$what"
    err_has "^Try 'ev2hp --help'" "$what"
}

# --- inputs that are not an eventlog: what they are, how to get one (status 1) ---------
notlog() {
    what=$1 file=$2 kind=$3 advice=$4
    run 1 "$file"
    out_empty "$what"
    err_lines 1 "$what"
    err_has "^ev2hp: $file: offset 0: not an eventlog: $kind" "$what"
    err_has "$advice" "$what"
}
prof="$data/timeprof/ghc910-leak-p.prof"
notlog ".prof" "$prof" "this is a GHC profiling report (.prof, from +RTS -p)" \
    "run the program with +RTS -p -l -RTS .* give ev2hp the PROG.eventlog it writes"
printf '{"program":"leak","arguments":[],"rts_arguments":["-pj"]}\n' >"$tmp/leak.prof"
notlog "JSON .prof" "$tmp/leak.prof" "this is a GHC profiling report in JSON (.prof, from +RTS -pj)" \
    "+RTS -p -l -RTS"
gzip -c "$prof" >"$tmp/leak.prof.gz"
notlog "gzip'd .prof" "$tmp/leak.prof.gz" "this is a GHC profiling report (.prof, from +RTS -p)" "+RTS -p -l -RTS"
notlog "a program" "$EV2HP" "this is a program, not its eventlog" "run it with +RTS -hT -l -RTS"
notlog "Haskell source" "$data/Flat.hs" "this is a text file" "+RTS -hT -l -RTS writes"
: >"$tmp/empty"
notlog "empty" "$tmp/empty" "the input is empty" "+RTS -hT -l -RTS writes"
{ printf '\001\002'; head -c 4000 /dev/urandom; } >"$tmp/noise"
run 1 "$tmp/noise"
err_has "not an eventlog (it does not start with \"hdrb\")" "noise"

# --- an unknown extension lists the formats ----------------------------------------------
usage "-o x.jpg" -o "$tmp/x.jpg" "$log"
err_has "cannot tell the format of '$tmp/x.jpg' from its name: ev2hp writes .hp, .csv, .json, .svg, .png, .pdf, .ps, .eps, .folded, .pprof, .html (and .hp.gz, .pb.gz)" "-o x.jpg"
err_has "give the format with -f" "-o x.jpg"

# --- a flag of the GHC runtime --------------------------------------------------------
for flag in -hc -hT -hi -l -p -s -N4 -i0.1 -A64m -xc -qg +RTS -RTS --RTS \
    --eventlog-flush-interval=1; do
    usage "$flag" "$flag" "$log"
    err_has "^ev2hp: '$flag' is a flag of the GHC runtime, not of ev2hp: give it to the program between +RTS and -RTS" "$flag"
    err_has "then run ev2hp prog.eventlog" "$flag"
done
usage "-hc after the input" "$log" -hc -o "$tmp/a.svg"
err_has "'-hc' is a flag of the GHC runtime" "-hc after the input"
err_has "(prog +RTS -hc -l -RTS writes prog.eventlog)" "-hc after the input"
[ -e "$tmp/a.svg" ] && fail "-hc: an output was written"
# what only looks like one: an option's argument, or an operand after --
run 0 --title -hc -o "$tmp/t.svg" "$log"
grep -q -- '-hc' "$tmp/t.svg" || fail "--title -hc: the title is not in the chart"
run 0 -o "$tmp/-l.svg" "$log"
[ -s "$tmp/-l.svg" ] || fail "-o -l.svg: not written"
cp "$log" "$tmp/-p"
run 0 -o "$tmp/dash.svg" -- "$tmp/-p"
run 0 --include=-hc -o "$tmp/inc.svg" "$log"
# ev2hp's own -h, -q and -L stay its own
run 0 -h
grep -q '^Usage: ev2hp' "$tmp/out" || fail "-h: no usage"
run 0 -q -L 30 -o "$tmp/q.hp" "$log"

# --- did you mean ----------------------------------------------------------------------
usage "--outptu" --outptu "$tmp/x.svg" "$log"
err_has "^ev2hp: unknown option '--outptu'; did you mean --output?" "--outptu"
usage "--sumary" --sumary "$log"
err_has "did you mean --summary?" "--sumary"
usage "--bnads=3" --bnads=3 "$log"
err_has "unknown option '--bnads=3'; did you mean --bands?" "--bnads=3"
usage "--colour" --colour "$log"
err_has "^ev2hp: unknown or incomplete option '--colour'$" "--colour"

# --- every usage mistake exits 2 -------------------------------------------------------
usage "--view diff without --compare" --view diff -o "$tmp/d.svg" "$log"
err_has "^ev2hp: --view diff draws this run minus a base: give one with --compare BASE" \
    "--view diff"
[ -e "$tmp/d.svg" ] && fail "--view diff: an output was written"
run 0 --view diff --compare "$log" -o "$tmp/d.svg" "$log"

# --- damage with a known cause: one line naming it ---------------------------------------
for f in g96-leak-hcp-lau-b g910-leak-hcp-lau-i g910-labels-hcp-l-2; do
    run 0 -o "$tmp/$f.hp" "$data/damaged/$f.eventlog"
    n=$(grep -c "known cause" "$tmp/err")
    [ "$n" = 1 ] || fail "$f: $n lines of the known cause, wanted 1: $(cat "$tmp/err")"
    err_has "^ev2hp: $data/damaged/$f.eventlog: known cause: this runtime (GHC-9.[0-9.]* rts_p, not threaded), profiling heap and time at once, writes time-profile ticks into a census unlocked (GHC issue 25165); its .hp is intact, and a -threaded build or a run without -p writes a clean eventlog$" "$f"
    # after the run line, which it sums up
    sed -n '/recovered [0-9]* census/{n;p;}' "$tmp/err" | grep -q "known cause" ||
        fail "$f: the known cause does not follow the run line: $(cat "$tmp/err")"
done
# the same runtime's clean time profile, a threaded one, and a cut heap profile: no cause
for f in timeprof/ghc910-leak-p timeprof/tpthreaded-N2-P labels-hc-g910; do
    run 0 --summary -o "$tmp/x.hp" "$data/$f.eventlog"
    grep -q "known cause" "$tmp/err" && fail "$f: a known cause for a clean run: $(cat "$tmp/err")"
done
head -c 15000 "$data/damaged/g96-leak-hcp-lau-b.eventlog" >"$tmp/cut.eventlog"
run 0 -o "$tmp/cut.hp" "$tmp/cut.eventlog"
grep -q "known cause" "$tmp/err" && fail "a cut run before damage: $(cat "$tmp/err")"
exit $failed
