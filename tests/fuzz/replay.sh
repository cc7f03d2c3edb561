#!/bin/sh
# replay.sh: every fuzz target over its seed corpus and its saved crashes, without
# libFuzzer (tests/fuzz/README). For each directory tests/fuzz/corpus/NAME it runs the
# replay_NAME program built beside ev2hp on corpus/NAME and crashes/NAME. A crash, a
# sanitizer report, a failed invariant or a hang (timeout) fails the test.
set -u
: "${EV2HP:?}" "${SRCDIR:?}"
builddir=$(dirname "$EV2HP")
status=0
for corpus in "$SRCDIR"/tests/fuzz/corpus/*/; do
    name=$(basename "$corpus")
    replay="$builddir/tests/fuzz/replay_$name"
    if [ ! -x "$replay" ]; then
        echo "replay.sh: no $replay for corpus $name" >&2
        status=1
        continue
    fi
    set -- "$corpus"
    [ -d "$SRCDIR/tests/fuzz/crashes/$name" ] && set -- "$@" "$SRCDIR/tests/fuzz/crashes/$name"
    log=$(mktemp)
    if timeout 600 "$replay" "$@" 2>"$log"; then
        :
    else
        echo "replay.sh: $name failed (status $?):" >&2
        tail -n 40 "$log" >&2
        status=1
    fi
    rm -f "$log"
done
exit $status
