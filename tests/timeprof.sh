#!/bin/sh
# timeprof.sh: time profiles of real GHC runs (tests/data/timeprof) against the .prof the
# runtime wrote in the same run (tests/profcheck.py): the folded stacks of each -P run
# stack for stack, single and -N2 threaded; the GHC 9.10 -p run in total. Then the
# command line: --system-ccs, --from/--to, an input without a time profile, the flame
# graph drawn by default for a time-profile-only eventlog, and --summary's time profile.
set -u
: "${EV2HP:?}" "${SRCDIR:?}" "${PYTHON3:=python3}"
data="$SRCDIR/tests/data/timeprof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

for name in tpsingle-P tpthreaded-N2-P leak-P ghc910-leak-p; do
    "$EV2HP" "$data/$name.eventlog" -o "$tmp/$name.folded" || { fail "$name: status $?"; continue; }
    only=""
    [ "$name" = ghc910-leak-p ] && only=--total-only
    "$PYTHON3" "$SRCDIR/tests/profcheck.py" $only "$data/$name.prof" "$tmp/$name.folded" \
        || fail "$name: folded stacks differ from the .prof"
done

# The threaded run has samples of both capabilities.
"$EV2HP" --summary=json "$data/tpthreaded-N2-P.eventlog" > "$tmp/thr.json" || fail "summary: status $?"
"$PYTHON3" - "$tmp/thr.json" <<'PY' || fail "threaded summary"
import json, sys
t = json.load(open(sys.argv[1]))["time_profile"]
assert t["ticks"] == 198, t["ticks"]
assert len(t["capabilities"]) == 2 and all(c > 0 for c in t["capabilities"]), t
assert t["interval_s"] == 0.001, t
top = t["top"][0]
assert top["label"] == "tri" and top["module"] == "Main" and top["individual_ticks"] == 166, top
PY

# --system-ccs: the runtime's own cost centres come back, and the total is every sample.
"$EV2HP" --system-ccs "$data/tpsingle-P.eventlog" -o "$tmp/sys.folded" || fail "--system-ccs: status $?"
grep -qx 'SYSTEM.SYSTEM 4' "$tmp/sys.folded" && grep -qx 'GC.GC 1' "$tmp/sys.folded" \
    || fail "--system-ccs: no SYSTEM/GC lines"
grep -q '^GC\.\|^SYSTEM\.' "$tmp/tpsingle-P.folded" && fail "system cost centres without --system-ccs"

# --to leaves out the later samples.
"$EV2HP" --to 0.2 "$data/tpsingle-P.eventlog" -o "$tmp/early.folded" || fail "--to: status $?"
early=$(awk '{ n += $NF } END { print n }' "$tmp/early.folded")
[ "$early" -gt 0 ] && [ "$early" -lt 544 ] || fail "--to 0.2: $early samples of 544"

# An eventlog without a time profile: status 4, one line naming the output, no file.
"$EV2HP" "$SRCDIR/tests/data/leak-hc.eventlog" -o "$tmp/none.folded" 2> "$tmp/err"
st=$?
[ $st -eq 4 ] || fail "no time profile: status $st"
grep -q 'none.folded: the input has no time profile' "$tmp/err" || fail "no time profile: $(cat "$tmp/err")"
[ -e "$tmp/none.folded" ] && fail "no time profile: a file was left"

exit $failed
