#!/bin/sh
# robust_cli.sh: ev2hp on input that is not an eventlog, damaged input, and outputs that
# cannot be written, as a user sees it: exit status, the one-line message, and what is
# left on disk (issue 5, "Outputs"). Uses $EV2HP and $SRCDIR from make check.
. "${SRCDIR:?}/tests/testlib.sh"
example="$SRCDIR/share/examples/leak-hc.eventlog"

# expect_one_line WHAT PATTERN: stderr is exactly one line matching PATTERN.
expect_one_line() {
    lines=$(wc -l <"$tmp/err")
    [ "$lines" = 1 ] || fail "$1: $lines lines on stderr: $(cat "$tmp/err")"
    grep -q -- "$2" "$tmp/err" || fail "$1: stderr '$(cat "$tmp/err")' does not match '$2'"
}

# --- not an eventlog: noise, an empty file, a text file -> one line, status 1 ---------
# Noise: the middle of a gzip stream (ev2hp reads gzip, so not its header). Text is read
# as a .hp when it looks like text, so its message says it is neither.
gzip -n -c <"$example" | tail -c +100 | head -c 4096 >"$tmp/noise"
: >"$tmp/empty"
printf 'Hello, this is a text file.\nIt is not an eventlog.\n' >"$tmp/text.txt"
for f in noise empty text.txt; do
    run 1 "$tmp/$f"
    expect_one_line "$f" "^ev2hp: $tmp/$f: [a-z]* [0-9]*: not an eventlog"
    [ -s "$tmp/out" ] && fail "$f: wrote to standard output"
done
run 1 <"$tmp/noise"
expect_one_line "noise on standard input" "^ev2hp: (standard input): offset 0: not an eventlog"

# --- a damaged eventlog: kept with a warning, or --strict status 1 ------------------------
head -c 600000 "$example" >"$tmp/cut.eventlog"
run 0 "$tmp/cut.eventlog" -o "$tmp/cut.hp"
expect_one_line "cut eventlog" "^ev2hp: $tmp/cut.eventlog: offset [0-9]*: the file ends .*; kept [0-9]* census"
grep -q '^BEGIN_SAMPLE' "$tmp/cut.hp" || fail "cut eventlog: no censuses written"

# --- a failed run leaves an existing output untouched, and no temporary file ------------
for case in strict notlog; do
    echo "previous contents" >"$tmp/keep.hp"
    if [ "$case" = strict ]; then
        run 1 --strict "$tmp/cut.eventlog" -o "$tmp/keep.hp"
    else
        run 1 "$tmp/text.txt" -o "$tmp/keep.hp"
    fi
    [ "$(cat "$tmp/keep.hp")" = "previous contents" ] ||
        fail "$case: the existing output was changed"
    leftovers=$(find "$tmp" -name '.keep.hp.*' | wc -l)
    [ "$leftovers" = 0 ] || fail "$case: a temporary file was left behind"
done

# --- outputs that cannot be written: status 4 and a message ------------------------------
# /dev/full has no extension to name a format: -f says it.
run 4 "$example" -f hp -o /dev/full
expect_one_line "-o /dev/full" "^ev2hp: /dev/full: cannot write: "
"$EV2HP" "$example" >/dev/full 2>"$tmp/err"
status=$?
[ "$status" = 4 ] || fail "> /dev/full: status $status, wanted 4 ($(cat "$tmp/err"))"
expect_one_line "> /dev/full" "^ev2hp: (standard output): cannot write: "
# the formats libxml2 writes (SVG, JUnit): its own "I/O error" line is not printed beside
# ev2hp's one line
run 4 "$example" -f svg -o /dev/full
expect_one_line "-f svg -o /dev/full" "^ev2hp: /dev/full: cannot write: No space left on device$"
"$EV2HP" "$example" -f svg >/dev/full 2>"$tmp/err"
status=$?
[ "$status" = 4 ] || fail "-f svg > /dev/full: status $status, wanted 4 ($(cat "$tmp/err"))"
expect_one_line "-f svg > /dev/full" "^ev2hp: (standard output): cannot write: No space left on device$"
run 4 "$example" -o "$tmp/ok.svg" --junit /dev/full
expect_one_line "--junit /dev/full" "^ev2hp: /dev/full: cannot write: No space left on device$"
run 4 "$example" -o "$tmp/no/such/dir/x.hp"
expect_one_line "-o into a missing directory" "^ev2hp: $tmp/no/such/dir/x.hp: "

# --- the complete example converts cleanly ------------------------------------------------
run 0 "$example" -o "$tmp/whole.hp"
[ -s "$tmp/err" ] && fail "whole example: unexpected messages: $(cat "$tmp/err")"

[ "$failed" -eq 0 ] && echo "robust_cli.sh: all passed"
exit $failed
