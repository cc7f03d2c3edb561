#!/bin/sh
# robust_io.sh: outputs that are never lost, inputs and budgets that never surprise
# (issue 12), as a user meets them: exit status, the one-line message, stdout, and what
# is left on disk. Uses $EV2HP, $SRCDIR and $PYTHON3 from make check.
. "${SRCDIR:?}/tests/testlib.sh"
writer=""
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null
    chmod -R u+w "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# one_line PATTERN: stderr is exactly one line, matching PATTERN.
one_line() {
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "stderr is not one line: $(cat "$tmp/err")"
    grep -q -- "$1" "$tmp/err" || fail "stderr '$(cat "$tmp/err")' lacks '$1'"
}
stderr_has() { grep -q -- "$1" "$tmp/err" || fail "stderr '$(cat "$tmp/err")' lacks '$1'"; }
no_leftovers() {
    left=$(find "$tmp" -name '.*.[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]' | wc -l)
    [ "$left" = 0 ] || fail "$1: temporary files left: $(find "$tmp" -name '.*')"
}

cp "$data/leak-hT.eventlog" "$tmp/v.eventlog"
cp "$data/leak-hc.eventlog" "$tmp/hc.eventlog"
cd "$tmp" || exit 1
"$EV2HP" v.eventlog >expected.hp || fail "plain conversion"

# --- an output that is the input or BASE, one output named twice: status 2, one line ----
run 2 v.eventlog -f hp -o v.eventlog
one_line "^ev2hp: v.eventlog: is the input; refusing to write over it$"
cmp -s v.eventlog "$data/leak-hT.eventlog" || fail "the input was written over"
run 2 -f hp -o ./v.eventlog <v.eventlog
one_line "^ev2hp: ./v.eventlog: is the input"
ln -s v.eventlog alias.eventlog
run 2 alias.eventlog -f hp -o v.eventlog
one_line "is the input"
run 2 v.eventlog --compare hc.eventlog -f hp -o hc.eventlog
one_line "^ev2hp: hc.eventlog: is the --compare base"
cmp -s hc.eventlog "$data/leak-hc.eventlog" || fail "BASE was written over"
cp expected.hp in.hp
"$EV2HP" in.hp >>in.hp 2>"$tmp/err"
[ $? = 2 ] || fail "appending standard output to the input: not status 2"
one_line "^ev2hp: (standard output): is the input"
cmp -s in.hp expected.hp || fail "appending to the input changed it"
run 2 v.eventlog -o - -o -
one_line "^ev2hp: (standard output): is named twice as an output$"
[ -s out ] && fail "-o - -o - wrote to standard output"
run 2 v.eventlog -o a.svg -o a.svg
one_line "^ev2hp: a.svg: is named twice as an output$"
run 2 v.eventlog -o a.svg -o ./a.svg
one_line "^ev2hp: ./a.svg: is named twice as an output (also as a.svg)$"
[ -e a.svg ] && fail "a refused run wrote a.svg"
run 0 v.eventlog -f svg -o /dev/null -o /dev/null   # a device twice is harmless
run 2 v.eventlog -o /dev/stdout -o -
one_line "^ev2hp: (standard output): is named twice as an output (also as /dev/stdout)$"
echo previous >appended.hp
"$EV2HP" v.eventlog -o /dev/stdout >>appended.hp || fail "-o /dev/stdout"
[ "$(head -1 appended.hp)" = previous ] && tail -n +2 appended.hp | cmp -s - expected.hp ||
    fail "-o /dev/stdout did not append to the file standard output appends to"
[ "$(find . -name '*pipe*' -o -name '.stdout*' | wc -l)" = 0 ] || fail "-o /dev/stdout made a file"

# --- a replaced file keeps its mode (and owner, where we may set it) --------------------
echo old >mode.hp
chmod 600 mode.hp
run 0 v.eventlog -o mode.hp
[ "$(stat -c %a mode.hp)" = 600 ] || fail "mode 600 became $(stat -c %a mode.hp)"
cmp -s mode.hp expected.hp || fail "mode.hp not written"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody mode.hp
    run 0 v.eventlog -o mode.hp
    [ "$(stat -c %U mode.hp)" = nobody ] || fail "owner nobody became $(stat -c %U mode.hp)"
fi

# --- a symbolic link is written through to its target -------------------------------------
echo old >target.hp
ln -s target.hp link.hp
run 0 v.eventlog -o link.hp
[ -L link.hp ] || fail "the symbolic link was replaced by a file"
cmp -s target.hp expected.hp || fail "the link's target was not written"
ln -s missing.hp dangling.hp
run 0 v.eventlog -o dangling.hp
[ -L dangling.hp ] && cmp -s missing.hp expected.hp || fail "a dangling link's target was not made"

# --- a read-only directory: an existing writable file is written in place ------------------
mkdir ro
echo previous >ro/keep.hp
chmod 666 ro/keep.hp
chmod 555 ro
as_user=""
if [ "$(id -u)" = 0 ]; then
    # root writes anywhere: run as nobody, who may not
    chmod 755 "$tmp"
    command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
        as_user="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
    [ -n "$as_user" ] || echo "SKIP: read-only directory (root, and no setpriv)"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
    $as_user "$EV2HP" "$tmp/v.eventlog" -o "$tmp/ro/keep.hp" >out 2>err
    status=$?
    [ "$status" = 0 ] || fail "in place in a read-only directory: status $status ($(cat err))"
    cmp -s ro/keep.hp expected.hp || fail "ro/keep.hp was not written in place"
    $as_user "$EV2HP" "$tmp/v.eventlog" -o "$tmp/ro/new.hp" >out 2>err
    status=$?
    [ "$status" = 4 ] || fail "a new file in a read-only directory: status $status"
    one_line "ro/new.hp: cannot create a temporary file beside it: Permission denied"
    $as_user "$EV2HP" --strict "$tmp/v.eventlog" -o "$tmp/ro/keep.hp" >/dev/null 2>&1
    [ "$(ls -A ro | wc -l)" = 1 ] || fail "the read-only directory gained files: $(ls -A ro)"
fi
chmod 755 ro

# --- .gz outputs are gzip-compressed; extensions are matched without regard to case ------
run 0 v.eventlog -o x.hp.gz -o UP.SVG -o Data.CSV.GZ -o plain.gz
gzip -t x.hp.gz && gzip -dc x.hp.gz | cmp -s - expected.hp || fail "x.hp.gz is not the .hp, compressed"
gzip -dc plain.gz | cmp -s - expected.hp || fail "plain.gz is not a compressed .hp"
grep -q '<svg' UP.SVG || fail "UP.SVG is not an SVG"
gzip -dc Data.CSV.GZ | head -1 | grep -q '^time_s,' || fail "Data.CSV.GZ is not a compressed CSV"
run 0 x.hp.gz -o back.hp                      # and it reads back
cmp -s back.hp expected.hp || fail "x.hp.gz does not read back"

# --- a terminal on standard input is refused with a hint ------------------------------------
if command -v script >/dev/null; then
    script -qec "'$EV2HP' -o tty.hp; echo status=\$?" /dev/null </dev/null >tty.txt 2>&1
    grep -q "standard input is a terminal; name an eventlog" tty.txt ||
        fail "a terminal on stdin: $(cat tty.txt)"
    grep -q "status=2" tty.txt || fail "a terminal on stdin: not status 2: $(cat tty.txt)"
    [ -e tty.hp ] && fail "a terminal on stdin: tty.hp written"
else
    echo "SKIP: a terminal on standard input (no script(1))"
fi

# --- eventlogs built byte by byte: GHC 6.12's short STARTUP, no census, totals past 2^64 --
"$PYTHON3" - <<'EOF' || fail "building eventlogs"
import struct
def header(types):
    b = b"hdrb" + b"hetb"
    for tag, size in types:
        b += b"etb\0" + struct.pack(">HhI", tag, size, 0) + struct.pack(">I", 0) + b"ete\0"
    return b + b"hete" + b"hdre" + b"datb"
def fixed(tag, t, payload):
    return struct.pack(">HQ", tag, t) + payload
def var(tag, t, payload):
    return struct.pack(">HQH", tag, t, len(payload)) + payload
end = struct.pack(">H", 0xffff)
# GHC 6.12: CREATE_THREAD and RUN_THREAD declared with 8 bytes but written with a 4-byte
# thread id, STARTUP declared with 0 but written with 2 (as in ghc-events' queens-ghc-6.12.1).
log = header([(0, 8), (1, 8), (17, 0), (16, -1)])
log += fixed(17, 1000, struct.pack(">H", 4))
log += fixed(0, 2000, struct.pack(">I", 1))
log += fixed(1, 3000, struct.pack(">I", 1))
log += var(16, 4000, b"hello from 6.12")
open("ghc612.eventlog", "wb").write(log + end)
# A census whose entries total 2^64 bytes.
log = header([(160, -1), (162, 8), (164, -1), (165, 8)])
log += var(160, 10, struct.pack(">BQI", 0, 10**8, 7) + b"\0" * 7)
log += fixed(162, 100, struct.pack(">Q", 0))
log += var(164, 101, struct.pack(">BQ", 0, 2**64 - 1) + b"A\0")
log += var(164, 102, struct.pack(">BQ", 0, 1) + b"B\0")
log += fixed(165, 103, struct.pack(">Q", 0))
open("overflow.eventlog", "wb").write(log + end)
EOF
run 0 --dump ghc612.eventlog
grep -q '^1000 STARTUP caps=4$' out || fail "GHC 6.12 STARTUP: $(head -1 out)"
[ "$(wc -l <out)" = 4 ] || fail "GHC 6.12: $(wc -l <out) events dumped, wanted 4"
grep -q "^2000 CREATE_THREAD thread=1$" out || fail "GHC 6.12 CREATE_THREAD: $(sed -n 2p out)"
run 0 ghc612.eventlog -o none.hp
one_line "^ev2hp: ghc612.eventlog: no heap censuses: the program ran without heap profiling; run it with +RTS -h... -l"
run 1 ghc612.eventlog --max-peak 1K -o none.svg
stderr_has "^ev2hp: ghc612.eventlog: --max-peak cannot be checked: the input has no heap census$"
run 1 overflow.eventlog -o overflow.hp
one_line "^ev2hp: overflow.eventlog: offset [0-9]*: the census's total passes 2^64 bytes"
[ -e overflow.hp ] && fail "an overflowing eventlog wrote its output"

# --- --compare of different breakdowns warns ---------------------------------------------
run 0 v.eventlog --compare hc.eventlog -o cmp.svg
one_line "^ev2hp: v.eventlog: this run is broken down by closure type and the --compare base by cost-centre stack"
run 0 v.eventlog --compare v.eventlog -o cmp.svg
[ -s err ] && fail "--compare of one breakdown warns: $(cat err)"

# --- .hp input: the line as it is, times going backwards, MARK, totals past 2^64 ---------
printf 'JOB "abc\n' >quote.hp
run 1 quote.hp
one_line "^ev2hp: quote.hp: line 1: expected a quoted string after the keyword: 'JOB \"abc'$"
printf 'JOB "p"\nBEGIN_SAMPLE 2.0\nA\t10\nEND_SAMPLE 2.0\nBEGIN_SAMPLE 1.0\nA\t20\nEND_SAMPLE 1.0\n' >back.hp
run 0 back.hp -o back.out.hp
one_line "^ev2hp: back.hp: line 5: the census at 1.000000 s is before the one at 2.000000 s; 1 census going backwards was put at the time of the one before$"
printf 'JOB "p"\nBEGIN_SAMPLE 1.0\nA\t18446744073709551615\nB\t1\nEND_SAMPLE 1.0\n' >big.hp
run 1 big.hp -o big.out.hp
one_line "^ev2hp: big.hp: line 4: the census begun at line 2 totals more than 2^64 bytes$"
printf 'JOB "p"\nDATE ""\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\nMARK 0.500000\nBEGIN_SAMPLE 1.000000\nA\t10\nEND_SAMPLE 1.000000\nMARK 1.500000\nBEGIN_SAMPLE 2.000000\nEND_SAMPLE 2.000000\n' >mark.hp
run 0 mark.hp -o mark.out.hp
cmp -s mark.hp mark.out.hp || fail "MARK lines lost .hp to .hp: $(diff mark.hp mark.out.hp)"

# --- the summary lists every marker, in time order ----------------------------------------
run 0 --summary "$data/markers40-hT.eventlog"
grep -q '^markers    40$' out || fail "--summary: $(grep '^markers' out)"
sed -n '/^markers/,/^damage/p' out | sed '1d;$d' | awk '{print $1}' >times.txt
[ "$(wc -l <times.txt)" = 40 ] || fail "--summary lists $(wc -l <times.txt) markers, wanted 40"
sort -n times.txt | cmp -s - times.txt || fail "--summary markers are not in time order"
grep -q ' burst 1.a$' out && grep -q ' burst 1.b$' out || fail "--summary lost a marker of a burst"

# --- kill -TERM (and HUP, INT) during a run: no file left, the previous output untouched ----
head -c 300000 "$data/leak-hc.eventlog" >part.eventlog
for sig in TERM:15 HUP:1 INT:2; do
    number=${sig#*:}
    sig=${sig%:*}
    rm -f fifo fresh.csv
    mkfifo fifo
    echo previous >prev.svg
    echo previous >prev.hp.gz
    # the writer keeps the FIFO open, so ev2hp waits for more input
    (cat part.eventlog; exec sleep 600) >fifo &
    writer=$!
    # A signal ignored when ev2hp starts stays ignored (nohup); a background job of a
    # script starts with INT ignored, and CI may run under nohup: restore the defaults.
    env --default-signal=HUP,INT,TERM "$EV2HP" fifo -o prev.svg -o prev.hp.gz -o fresh.csv 2>err &
    pid=$!
    n=0
    # up to 60 s: a loaded machine may take long to start ev2hp; no check waits on a clock
    while [ "$(find . -name '.prev.svg.*' | wc -l)" = 0 ] && [ $n -lt 600 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    [ $n -lt 600 ] || fail "$sig: ev2hp made no temporary file"
    kill -"$sig" "$pid"
    wait "$pid"
    status=$?
    want=$((128 + number))
    [ "$status" = "$want" ] || fail "kill -$sig: status $status, wanted $want"
    kill "$writer" 2>/dev/null
    wait "$writer" 2>/dev/null
    writer=""
    [ "$(cat prev.svg)" = previous ] || fail "kill -$sig: the previous output was changed"
    [ "$(cat prev.hp.gz)" = previous ] || fail "kill -$sig: the previous .gz output was changed"
    [ -e fresh.csv ] && fail "kill -$sig: a new output appeared"
    no_leftovers "kill -$sig"
done

[ "$failed" -eq 0 ] && echo "robust_io.sh: all passed"
exit $failed
