#!/bin/sh
# valgrind_corpus.sh: every eventlog of a directory (default ../shared/corpus, the real
# GHC files) converted to .hp and .svg under valgrind; any invalid access or leak fails.
# Not part of make check (minutes, and valgrind is not a build dependency):
#
#     EV2HP=build/ev2hp SRCDIR=. sh tests/valgrind_corpus.sh [DIR]
#
# tests/valgrind.supp silences fontconfig's process-lifetime caches, nothing of ev2hp's.
. "${SRCDIR:?}/tests/testlib.sh"
dir=${1:-$SRCDIR/../shared/corpus}
for f in "$dir"/*.eventlog "$data"/*.hp; do
    [ -e "$f" ] || continue
    valgrind -q --leak-check=full --error-exitcode=9 \
        --suppressions="$SRCDIR/tests/valgrind.supp" \
        "$EV2HP" "$f" -o "$tmp/out.hp" -o "$tmp/out.svg" 2>"$tmp/err"
    status=$?
    if [ "$status" -eq 9 ] || grep -q '^==' "$tmp/err"; then
        fail "$f (status $status)"
        sed -n '1,40p' "$tmp/err"
    else
        echo "ok   $f (status $status)"
    fi
done
exit $failed
