#!/bin/sh
# make_damaged_runs.sh OUT: real eventlogs that GHC 9.6 and 9.10 damage themselves, each with
# the .hp the runtime wrote in the same run, for tests/recovery_table.py. Not run by make
# check: it needs the GHC chroots of ../shared/tools/newghc.sh (~/ghc-trixie: GHC 9.6.6,
# ~/ghc-sid: GHC 9.10.3) and root, and takes about half an hour.
#
# The programs are tests/data/damaged/bla.hs and leak.hs and tests/data/markers40.hs,
# profiled (bla: -O0 -prof -fprof-late; the others -O1 -prof -fprof-auto), run on the
# non-threaded runtime with +RTS -hc -p -l-au -iI: a heap and a time profile at once, so
# timer ticks and census events race in one buffer. Each run is stopped by SIGINT after
# at most T seconds of wall time (the runtime then writes its .hp, .prof and eventlog
# whole). OUT/NAME.{eventlog,hp,prof}, and NAME.wall: the wall seconds the run took.
# tests/data/damaged/g96-leak-hcp-lau-b and g910-leak-hcp-lau-i are two of these runs
# (ghc96-leak-b, ghc910-leak-i). leak.hs also made tests/data/timeprof/ghc910-leak-p.
set -u
src=$(cd "$(dirname "$0")" && pwd)
out=$(cd "${1:?usage: make_damaged_runs.sh OUT}" && pwd)
build() {  # build SUITE PROG FLAGS
    cp "$src/$4" "$HOME/ghc-$1/w/$2.hs"
    chroot "$HOME/ghc-$1" sh -c "cd /w && ghc $3 -rtsopts $2.hs -o $2 >/dev/null" ||
        { echo "$1: building $2 failed"; exit 1; }
}
run() {  # run SUITE TAG PROG INTERVAL T ARGS...
    suite=$1 tag=$2 prog=$3 i=$4 t=$5; shift 5
    v=$([ "$suite" = trixie ] && echo ghc96 || echo ghc910)
    name=$v-$prog-$tag
    [ -f "$out/$name.hp" ] && return
    start=$(date +%s.%N)
    chroot "$HOME/ghc-$suite" sh -c "cd /w && timeout -s INT $t ./$prog $* +RTS -hc -p \
-l-au -i$i -po$name -ol$name.eventlog -RTS >/dev/null"
    end=$(date +%s.%N)
    for x in eventlog hp prof; do mv "$HOME/ghc-$suite/w/$name.$x" "$out/" 2>/dev/null; done
    echo "$end - $start" | bc > "$out/$name.wall"
    echo "$name: $(cat "$out/$name.wall") s, $(stat -c %s "$out/$name.eventlog") bytes"
}
for s in trixie sid; do
    build $s bla "-O0 -prof -fprof-late" data/damaged/bla.hs
    build $s leak "-O1 -prof -fprof-auto" data/damaged/leak.hs
    build $s markers40 "-O1 -prof -fprof-auto" data/markers40.hs
done
for s in trixie sid; do
    run $s a bla 0.02 1500 8 10000      # the long ones: ~25 min and ~12 min
    run $s d markers40 0.01 750
    run $s b leak 0.01 40 100
    run $s e bla 0.05 40 3 10000
    run $s f leak 0.02 60 200
    run $s g leak 0.01 90 300
    run $s h bla 0.1 90 100 10000
    run $s i leak 0.005 45 150
    run $s j bla 0.02 60 100 5000
    run $s k leak 0.05 120 2000
    run $s l bla 0.1 150 100 20000
    run $s m leak 0.02 30 2000
    run $s n bla 0.01 30 100 10000
done
