#!/bin/sh
# cli.sh: ev2hp as a user meets it: exit statuses, what goes to stdout and stderr.
. "${SRCDIR:?}/tests/testlib.sh"
log="$SRCDIR/tests/data/leak-hT.eventlog"

stderr_is() { grep -q -- "$1" "$tmp/err" || fail "stderr lacks '$1': $(head -c 300 "$tmp/err")"; }
stderr_lines() { [ "$(wc -l < "$tmp/err")" -eq "$1" ] || fail "stderr has $(wc -l < "$tmp/err") lines, wanted $1"; }

run 0 --help
grep -q '^Usage: ev2hp' "$tmp/out" || fail "--help prints no usage"
[ -s "$tmp/err" ] && fail "--help writes to stderr"
run 0 --version
grep -q '^ev2hp [0-9]' "$tmp/out" || fail "--version: $(cat "$tmp/out")"

run 2 --no-such-option
stderr_is "^ev2hp: unknown or incomplete option '--no-such-option'"
stderr_is "Try 'ev2hp --help'"
[ -s "$tmp/out" ] && fail "usage error writes to stdout"
run 2 -o x.gif "$log"
stderr_is "cannot tell the format of 'x.gif'"
run 2 -L 2 "$log"
run 2 a b

# Input problems: status 1 and one line naming the file.
run 1 "$tmp/missing.eventlog"
stderr_is "^ev2hp: $tmp/missing.eventlog: cannot open: No such file or directory$"
stderr_lines 1
: > "$tmp/empty"
run 1 "$tmp/empty"
stderr_is "^ev2hp: $tmp/empty: offset 0: not an eventlog"
stderr_lines 1
printf 'hello, world\n' > "$tmp/text"
run 1 "$tmp/text"
stderr_is "not an eventlog"
head -c 4000 /dev/urandom | tr -d 'h' > "$tmp/noise"
run 1 "$tmp/noise"
stderr_is "not an eventlog"
head -c 100 "$log" > "$tmp/header-cut"
run 1 "$tmp/header-cut"
stderr_is "offset [0-9]*: the file ends inside the header"

# The .hp on stdout, from a file or standard input.
run 0 "$log"
grep -q '^JOB "leak-noprof' "$tmp/out" || fail "JOB line: $(head -1 "$tmp/out")"
[ -s "$tmp/err" ] && fail "a clean run prints: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/expected.hp"
"$EV2HP" < "$log" > "$tmp/stdin.hp" || fail "standard input"
cmp -s "$tmp/expected.hp" "$tmp/stdin.hp" || fail "standard input gives another .hp"
"$EV2HP" - < "$log" > "$tmp/dash.hp" && cmp -s "$tmp/expected.hp" "$tmp/dash.hp" || fail "'-' input"

# -o writes files; several in one read; -f forces the format.
run 0 "$log" -o "$tmp/a.hp" -o "$tmp/b.hp"
cmp -s "$tmp/expected.hp" "$tmp/a.hp" && cmp -s "$tmp/a.hp" "$tmp/b.hp" || fail "-o twice"
[ -s "$tmp/out" ] && fail "-o also wrote to stdout"
run 0 -f hp -o "$tmp/profile.txt" "$log"
cmp -s "$tmp/expected.hp" "$tmp/profile.txt" || fail "-f hp"

# Damage: status 0 and a warning, or 1 with --strict; -q silences warnings.
size=$(wc -c < "$log")
head -c $((size - 1000)) "$log" > "$tmp/cut.eventlog"
run 0 "$tmp/cut.eventlog"
stderr_is "^ev2hp: $tmp/cut.eventlog: offset [0-9]*: the file ends inside an event; kept [0-9]* censuses up to"
run 0 -q "$tmp/cut.eventlog"
[ -s "$tmp/err" ] && fail "-q still warns: $(cat "$tmp/err")"
echo "previous" > "$tmp/keep.hp"
run 1 --strict "$tmp/cut.eventlog" -o "$tmp/keep.hp"
stderr_is "ends inside an event"
stderr_lines 1
[ "$(cat "$tmp/keep.hp")" = previous ] || fail "--strict failure clobbered the output"

# Output that cannot be written: status 4.
run 4 "$log" -f hp -o /dev/full
stderr_is "^ev2hp: /dev/full: cannot write: No space left on device"
"$EV2HP" "$log" > /dev/full 2> "$tmp/err"
[ $? -eq 4 ] || fail "> /dev/full: status not 4"
stderr_is "^ev2hp: (standard output): cannot write"
run 4 "$log" -o "$tmp/no/such/dir/x.hp"
stderr_is "cannot create a temporary file"
ls "$tmp" | grep -q '^\.' && fail "a temporary file was left behind"

# --dump: one line per event with its registry name and fields.
run 0 --dump "$SRCDIR/tests/data/leak-hm.eventlog"
grep -q '^[0-9]* HEAP_PROF_BEGIN profile=0 period=[0-9]* breakdown=2 ' "$tmp/out" || fail "--dump HEAP_PROF_BEGIN"
grep -q '^[0-9]* PROGRAM_ARGS capset=0 args=\["./leak",' "$tmp/out" || fail "--dump PROGRAM_ARGS"
grep -q '^[0-9]* HEAP_PROF_SAMPLE_STRING profile=0 bytes=[0-9]* label="' "$tmp/out" || fail "--dump sample"
events=$(wc -l < "$tmp/out")
[ "$events" -gt 1000 ] || fail "--dump printed only $events lines"

# The report names its input by its file name, not the directories it was read from
# (a report passed around should not show its author's); a .hp too.
mkdir -p "$tmp/home/someone/runs"
cp "$SRCDIR/tests/data/leak-hc.eventlog" "$SRCDIR/tests/data/leak-hc.hp" "$tmp/home/someone/runs/"
for input in leak-hc.eventlog leak-hc.hp; do
    run 0 -q "$tmp/home/someone/runs/$input" -o "$tmp/r.html"
    grep -q "\"name\":\"$input\"" "$tmp/r.html" || fail "$input: the report does not name $input"
    grep -q "someone" "$tmp/r.html" && fail "$input: the report shows the input's directories"
done

exit $failed
