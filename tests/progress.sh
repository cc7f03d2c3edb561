#!/bin/sh
# progress.sh: the progress line shows when asked or on a terminal, and stays out of
# redirected standard error otherwise (issue 6).
. "${SRCDIR:?}/tests/testlib.sh"
log="$SRCDIR/tests/data/leak-hc.eventlog"   # 1.2 MB, 22 censuses
progress_lines() { grep -c 'MB/s, [0-9]* census' "$tmp/err"; }

# Default, standard error a file: no progress, whatever the size.
"$EV2HP" "$log" -o "$tmp/a.hp" 2> "$tmp/err" || fail "default run failed"
[ "$(progress_lines)" -eq 0 ] || fail "progress in redirected stderr: $(cat "$tmp/err")"

# --progress into a file: one line per report, the last one at 100%, no terminal codes.
"$EV2HP" --progress "$log" -o "$tmp/b.hp" 2> "$tmp/err" || fail "--progress run failed"
grep -q '^ev2hp: 100% of 1 MB, [0-9]* MB/s, 22 censuses$' "$tmp/err" ||
    fail "--progress: no final line: $(cat "$tmp/err")"
grep -q "$(printf '\033')" "$tmp/err" && fail "--progress into a file writes terminal codes"
cmp -s "$tmp/a.hp" "$tmp/b.hp" || fail "--progress changed the output"

# From a pipe the size is unknown: bytes read instead of a percentage.
cat "$log" | "$EV2HP" --progress > /dev/null 2> "$tmp/err"
grep -q '^ev2hp: 1 MB read, [0-9]* MB/s, 22 censuses$' "$tmp/err" ||
    fail "--progress from a pipe: $(cat "$tmp/err")"

# The last of --progress / --no-progress wins.
"$EV2HP" --progress --no-progress "$log" -o "$tmp/c.hp" 2> "$tmp/err"
[ "$(progress_lines)" -eq 0 ] || fail "--no-progress after --progress still reports"

# On a terminal (script(1) gives one): the line is rewritten in place and erased at the
# end; a small input shows none unless asked.
if command -v script > /dev/null 2>&1 && script -q -c true /dev/null > /dev/null 2>&1; then
    esc=$(printf '\033')
    # Half the input, a pause longer than the report interval, the rest: at least one
    # report is due while reading.
    cat > "$tmp/slow.sh" <<SLOW
(head -c 600000 '$log'; sleep 0.3; tail -c +600001 '$log') | '$EV2HP' --progress -o '$tmp/d.hp'
echo status=\$?
SLOW
    script -q -c "sh '$tmp/slow.sh'" /dev/null > "$tmp/tty" 2>&1
    shown=$(grep -o "ev2hp: [^$esc]*$esc\[K" "$tmp/tty" | wc -l)
    erases=$(grep -o "$esc\[K" "$tmp/tty" | wc -l)
    [ "$shown" -ge 1 ] || fail "tty: no progress line: $(od -c "$tmp/tty" | head)"
    [ "$erases" -eq $((shown + 1)) ] || fail "tty: the line was not erased at the end"
    tr -d '\r' < "$tmp/tty" | grep -q "$esc\[Kstatus=0" ||
        fail "tty: not erased before what follows: $(od -c "$tmp/tty" | tail -4)"
    cmp -s "$tmp/a.hp" "$tmp/d.hp" || fail "tty: --progress changed the output"
    script -q -c "'$EV2HP' '$log' -o '$tmp/e.hp'; echo status=\$?" /dev/null > "$tmp/tty" 2>&1
    grep -q 'MB/s' "$tmp/tty" && fail "tty: progress for a small file without --progress"
    grep -q 'status=0' "$tmp/tty" || fail "tty: default run: $(cat "$tmp/tty")"
else
    echo "script(1) not usable here: terminal cases skipped"
fi
exit $failed
