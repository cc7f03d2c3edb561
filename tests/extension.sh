#!/bin/sh
# extension.sh: the format's extension rule on real eventlogs. Each is written again
# (tests/evlayout.py) as a later GHC may write it: every event 3 bytes longer (fixed-size
# types declared longer, variable-size events longer than their fields), without
# HEAP_PROF_SAMPLE_END, with an event type this reader does not know, without block
# markers. Each copy must convert census for census against the runtime's .hp of the
# original run, to the same bytes as the original, without a warning and under --strict;
# a time profile widened gives the same folded stacks.
. "${SRCDIR:?}/tests/testlib.sh"
layout="$SRCDIR/tests/evlayout.py"

check() {  # check NAME MODE: the copy of tests/data/NAME.eventlog in layout MODE
    name=$1 mode=$2
    "$PYTHON3" "$layout" "$mode" "$data/$name.eventlog" "$tmp/$name-$mode.eventlog" ||
        { fail "$name $mode: evlayout failed"; return; }
    "$EV2HP" --strict "$tmp/$name-$mode.eventlog" > "$tmp/$name-$mode.hp" 2> "$tmp/err"
    status=$?
    [ "$status" -eq 0 ] || { fail "$name $mode: exit status $status: $(cat "$tmp/err")"; return; }
    [ -s "$tmp/err" ] && fail "$name $mode: unexpected message: $(cat "$tmp/err")"
    if verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$data/$name.hp" "$tmp/$name-$mode.hp"); then
        echo "ok: $name $mode: $verdict"
    else
        fail "$name $mode: $verdict"
    fi
    [ -e "$tmp/$name.hp" ] || "$EV2HP" "$data/$name.eventlog" > "$tmp/$name.hp" 2>/dev/null
    cmp -s "$tmp/$name.hp" "$tmp/$name-$mode.hp" || fail "$name $mode: not the original's .hp"
}

# -hc (stacks: the events whose length their fields fix), by GHC 9.0 and 9.10; -hb
# (biographical begins, fixed-size); -hm (string samples).
for name in leak-hc labels-hc-g910 leak-hb clausify-hm; do
    check "$name" widen
done
check leak-hc widen=1
check leak-hc widen=40
for mode in noend unknown noblocks; do
    check leak-hc "$mode"
done

# A time profile (+RTS -P): ticks 3 bytes longer, every one still counted.
prof="$data/timeprof/leak-P.eventlog"
"$PYTHON3" "$layout" widen "$prof" "$tmp/prof-widen.eventlog" || fail "time profile: evlayout failed"
"$EV2HP" "$prof" -o "$tmp/prof.folded" 2>/dev/null
"$EV2HP" --strict "$tmp/prof-widen.eventlog" -o "$tmp/prof-widen.folded" 2> "$tmp/err" ||
    fail "time profile widened: $(cat "$tmp/err")"
[ -s "$tmp/prof.folded" ] && cmp -s "$tmp/prof.folded" "$tmp/prof-widen.folded" ||
    fail "time profile widened: other folded stacks"

# Damage stays damage: one stack event of a widened file 2 bytes longer still (its
# length field +2, two bytes inserted) is not the extension its type carries; its
# census is dropped, the others are kept, each the runtime's.
"$PYTHON3" - "$tmp/leak-hc-widen.eventlog" "$tmp/odd.eventlog" <<'PY' || fail "odd: could not build"
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
# the 40th HEAP_PROF_SAMPLE_COST_CENTRE (tag 163, variable size): found by walking the events
pos = data.index(b"datb") + 4
sizes, p = {}, 8
while data[p:p + 4] == b"etb\0":
    tag, size = struct.unpack(">Hh", data[p + 4:p + 8])
    dlen, = struct.unpack(">I", data[p + 8:p + 12])
    xlen, = struct.unpack(">I", data[p + 12 + dlen:p + 16 + dlen])
    sizes[tag] = size
    p += 16 + dlen + xlen + 4
seen = 0
while True:
    tag, = struct.unpack(">H", data[pos:pos + 2])
    size = sizes[tag]
    head = 10 if size >= 0 else 12
    if size < 0:
        size, = struct.unpack(">H", data[pos + 10:pos + 12])
    if tag == 163:
        seen += 1
        if seen == 40:
            data[pos + 10:pos + 12] = struct.pack(">H", size + 2)
            data[pos + 12 + size:pos + 12 + size] = b"\x00\x00"
            break
    pos += head + size
open(sys.argv[2], "wb").write(data)
PY
"$EV2HP" "$tmp/odd.eventlog" > "$tmp/odd.hp" 2> "$tmp/err"
grep -q "HEAP_PROF_SAMPLE_COST_CENTRE event of [0-9]* bytes does not fit its stack, nor the 3 bytes more that the events of its type carry" "$tmp/err" ||
    fail "odd: warning was: $(cat "$tmp/err")"
"$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$data/leak-hc.hp" "$tmp/odd.hp" --subset 90 >/dev/null ||
    fail "odd: $("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$data/leak-hc.hp" "$tmp/odd.hp" --subset 90)"
[ "$(grep -c BEGIN_SAMPLE "$tmp/odd.hp")" -lt "$(grep -c BEGIN_SAMPLE "$tmp/leak-hc.hp")" ] ||
    fail "odd: the census holding the odd event was kept"

exit $failed
