#!/bin/sh
# png.sh: PNG charts of the real eventlogs in tests/data, as a user and a CI job meet them:
# a valid PNG of exactly the size asked for, with its Title chunk; byte-identical twice;
# --scale multiplies the pixels; SVG and PNG from one read; -f png to a pipe or file, but
# not to a terminal.
. "${SRCDIR:?}/tests/testlib.sh"

# size FILE: "WIDTH HEIGHT" from the IHDR chunk (big-endian words at bytes 16 and 20).
size() {
    od -An -tu1 -j16 -N8 "$1" |
        awk '{ printf "%d %d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

# valid FILE: pngcheck's verdict when it is installed, the signature otherwise.
valid() {
    if command -v pngcheck >/dev/null 2>&1; then
        pngcheck -q "$1" >/dev/null 2>&1
    else
        [ "$(od -An -tx1 -N8 "$1" | tr -d ' ')" = 89504e470d0a1a0a ]
    fi
}

# has_title FILE: a tEXt or iTXt chunk with the keyword Title.
has_title() {
    grep -aq 'tEXtTitle' "$1" || grep -aq 'iTXtTitle' "$1"
}

for log in "$data"/*.eventlog; do
    name=$(basename "$log" .eventlog)
    out="$tmp/$name.png"
    if ! "$EV2HP" "$log" -o "$out" --width 1600 --height 900 2> "$tmp/err"; then
        fail "$name: exit status $?: $(cat "$tmp/err")"
        continue
    fi
    valid "$out" || fail "$name: not a valid PNG"
    [ "$(size "$out")" = "1600 900" ] || fail "$name: size $(size "$out"), wanted 1600 900"
    has_title "$out" || fail "$name: no Title chunk"
    grep -aq 'tIME' "$out" && fail "$name: a tIME chunk (the clock) in the file"
    "$EV2HP" "$log" -o "$tmp/again.png" --width 1600 --height 900 2>/dev/null
    cmp -s "$out" "$tmp/again.png" || fail "$name: two runs give different bytes"
    echo "ok: $name: $(size "$out") $(wc -c < "$out") bytes"
done

log="$data/leak-hc.eventlog"

# --scale: the same chart with more pixels.
"$EV2HP" "$log" -o "$tmp/x2.png" --scale 2 --width 800 --height 450 2>"$tmp/err" ||
    fail "--scale 2: $(cat "$tmp/err")"
[ "$(size "$tmp/x2.png")" = "1600 900" ] || fail "--scale 2: size $(size "$tmp/x2.png")"
"$EV2HP" "$log" -o "$tmp/x15.png" --scale 1.5 --width 801 --height 451 2>/dev/null
[ "$(size "$tmp/x15.png")" = "1202 677" ] || fail "--scale 1.5: size $(size "$tmp/x15.png")"

# One read, two pictures.
"$EV2HP" "$log" -o "$tmp/both.svg" -o "$tmp/both.png" 2>"$tmp/err" ||
    fail "svg and png: $(cat "$tmp/err")"
[ -s "$tmp/both.svg" ] && valid "$tmp/both.png" || fail "svg and png: not both written"

# -f png to standard output: fine into a file or a pipe.
"$EV2HP" "$log" -f png > "$tmp/stdout.png" 2>"$tmp/err" || fail "-f png > file: $(cat "$tmp/err")"
"$EV2HP" "$log" -o "$tmp/file.png" 2>/dev/null
cmp -s "$tmp/stdout.png" "$tmp/file.png" || fail "-f png to stdout differs from -o"
"$EV2HP" "$log" -f png 2>/dev/null | cat > "$tmp/pipe.png"
cmp -s "$tmp/pipe.png" "$tmp/file.png" || fail "-f png to a pipe differs from -o"

# ... but not to a terminal: script(1) runs ev2hp on a pseudo-terminal.
if command -v script >/dev/null 2>&1 &&
   script -qec "true" /dev/null >/dev/null 2>&1; then
    script -qec "\"$EV2HP\" \"$log\" -f png; echo status=\$?" /dev/null \
        > "$tmp/tty" 2>&1 < /dev/null
    grep -q "refusing to write PNG to a terminal" "$tmp/tty" ||
        fail "-f png on a terminal: $(head -c 200 "$tmp/tty" | tr -d '\0')"
    grep -q "status=2" "$tmp/tty" || fail "-f png on a terminal: not status 2"
else
    echo "skip: no script(1) to make a terminal"
fi

exit $failed
