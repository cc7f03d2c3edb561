#!/bin/sh
# terminal_text.sh: a label's terminal control sequence never reaches a terminal as it is.
# A .hp (inputs may be .hp) whose job and band hold ESC [31m:
#   - `ev2hp x.hp` with standard output a terminal (a pseudo-terminal here) writes them as
#     \x1b (textout_plain), a UTF-8 label as itself; to a pipe, the .hp keeps the
#     runtime's bytes (ESC included), census for census;
#   - its pprof profile, shown by Google's `go tool pprof -top` (which prints strings as
#     they are), shows \x1b, not ESC.
# The pprof half is skipped without go and Debian's pprof sources (tests/pprof/lib.sh).
set -u
. "${SRCDIR:?}/tests/testlib.sh"

esc=$(printf '\033')
printf 'JOB "prog %s[31mjob"\nDATE "now"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n' "$esc" \
    >"$tmp/ctl.hp"
for i in 1 2; do
    printf 'BEGIN_SAMPLE %d.0\nred %s[31mrose\t%d\ncaf\303\251\t5\nEND_SAMPLE %d.0\n' \
        "$i" "$esc" $((i * 100)) "$i"
done >>"$tmp/ctl.hp"

# standard output a terminal
"$PYTHON3" - "$EV2HP" "$tmp/ctl.hp" "$tmp/tty.out" <<'PY' || fail "ev2hp on a terminal"
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], ["ev2hp", sys.argv[2]])
out = b""
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
_, status = os.waitpid(pid, 0)
open(sys.argv[3], "wb").write(out)
sys.exit(os.waitstatus_to_exitcode(status))
PY
grep -q "$esc" "$tmp/tty.out" && fail "the .hp on a terminal holds ESC: $(od -c "$tmp/tty.out" | head -3)"
grep -q 'JOB "prog \\x1b\[31mjob"' "$tmp/tty.out" || fail "the job on a terminal is not escaped"
grep -q 'red \\x1b\[31mrose	200' "$tmp/tty.out" || fail "the label on a terminal is not escaped"
grep -q "caf$(printf '\303\251')	5" "$tmp/tty.out" || fail "a UTF-8 label on a terminal is not itself"

# to a pipe: the runtime's bytes
"$EV2HP" "$tmp/ctl.hp" | grep -q "^red $esc\[31mrose	200$" ||
    fail "the .hp to a pipe does not keep the label as the runtime wrote it"

# pprof, as go tool pprof prints it
if command -v go >/dev/null && [ -d /usr/share/gocode/src/github.com/google/pprof/profile ]; then
    run 0 "$tmp/ctl.hp" -o "$tmp/ctl.pb.gz"
    (
        export HOME="$tmp" GOCACHE="$tmp/gocache" GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
        go tool pprof -top "$tmp/ctl.pb.gz"
    ) >"$tmp/top.txt" 2>&1 || fail "go tool pprof -top: $(head -3 "$tmp/top.txt")"
    grep -q "$esc" "$tmp/top.txt" && fail "go tool pprof -top prints ESC: $(od -c "$tmp/top.txt" | head -3)"
    grep -q 'red \\x1b\[31mrose' "$tmp/top.txt" || fail "go tool pprof -top: no escaped label: $(cat "$tmp/top.txt")"
else
    echo "terminal_text.sh: go or Debian's pprof sources missing: pprof not checked"
fi
exit $failed
