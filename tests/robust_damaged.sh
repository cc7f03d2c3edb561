#!/bin/sh
# robust_damaged.sh: ev2hp on hundreds of randomly damaged copies of real eventlogs
# (bit flips, cuts, splices, insertions; tests/mutate.c), reproducibly: copy N is made
# with seed N. Every run must end by itself (no hang), with status 0 or 1 (never a crash
# or a sanitizer abort), with no sanitizer report, and with a message whenever the status
# is not 0; every message has the one form "ev2hp: FILE: ...". In the ASan + UBSan build
# this is the "no input crashes ev2hp" check of issue 5.
#
#     ROBUST_DAMAGED_COUNT=N (default 300) sets how many copies; ROBUST_DAMAGED_FIRST the
#     first seed (to replay one case: ROBUST_DAMAGED_FIRST=17 ROBUST_DAMAGED_COUNT=1).
. "${SRCDIR:?}/tests/testlib.sh"
mutate="$(dirname "$EV2HP")/tests/mutate"
count=${ROBUST_DAMAGED_COUNT:-300}
first=${ROBUST_DAMAGED_FIRST:-1}
set -- "$data/treejoin-hb.eventlog" "$data/leak-hm.eventlog" \
       "$SRCDIR/share/examples/leak-hc.eventlog"
files=$#
failures=0
# Each case runs two programs (mutate, then ev2hp under timeout) and reads their messages
# with the shell's own read and case, not with grep: 300 cases, so every process saved
# per case is 300 fewer starts.
seed=$first
last=$((first + count - 1))
while [ "$seed" -le "$last" ]; do
    i=$((seed % files + 1))
    j=$(((seed / files) % files + 1))
    eval "in=\${$i} donor=\${$j}"
    "$mutate" "$seed" "$tmp/damaged.eventlog" "$in" "$donor" || exit 2
    timeout 60 "$EV2HP" "$tmp/damaged.eventlog" -o "$tmp/out.hp" 2>"$tmp/err" >/dev/null
    status=$?
    why=""
    case $status in
        0|1) ;;
        124) why="hang (timeout)" ;;
        *) why="status $status" ;;
    esac
    lines=0 sanitizer="" form=""
    while IFS= read -r line || [ -n "$line" ]; do
        lines=$((lines + 1))
        case $line in
            *Sanitizer* | *"runtime error"*) sanitizer=" sanitizer report" ;;
        esac
        case $line in
            "ev2hp: "*) ;;
            *) form=" a message not of the form 'ev2hp: FILE: ...'" ;;
        esac
    done <"$tmp/err"
    why="$why$sanitizer"
    if [ "$status" -ne 0 ] && [ "$lines" -eq 0 ]; then
        why="$why status $status without a message"
    fi
    why="$why$form"
    if [ -n "$why" ]; then
        echo "FAIL seed $seed ($(basename "$in") + $(basename "$donor")):$why" >&2
        head -n 20 "$tmp/err" >&2
        cp "$tmp/damaged.eventlog" "damaged-$seed.eventlog" 2>/dev/null &&
            echo "  (kept as damaged-$seed.eventlog)" >&2
        failures=$((failures + 1))
        failed=1
    fi
    seed=$((seed + 1))
done
echo "robust_damaged.sh: $count damaged eventlogs, $failures failures"
exit $failed
