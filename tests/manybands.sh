#!/bin/sh
# manybands.sh: a real -hi run with thousands of bands (issue 31): tests/data/hi-many-g910,
# GHC 9.10.3, 3,600 generated functions (tests/data/hi-many.py), 13,276 bands, 62,281 IPE
# events, two of which end a block and declare an end one byte past it.
. "${SRCDIR:?}/tests/testlib.sh"

log="$data/hi-many-g910.eventlog.gz"
gunzip -c "$data/hi-many-g910.hp.gz" > "$tmp/runtime.hp"

# Read as GHC wrote it: no warning, the runtime's .hp.
"$EV2HP" "$log" > "$tmp/ours.hp" 2> "$tmp/err" || fail "hp: exit status $?"
[ -s "$tmp/err" ] && fail "hp: unexpected message: $(cat "$tmp/err")"
verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$tmp/runtime.hp" "$tmp/ours.hp") ||
    fail "hp: $verdict"

# Every IPE event read (the two at a block's end included) and every info table it names
# named in the JSON export and the summary: no band whose address has an IPE event is
# shown by its address.
"$EV2HP" --dump "$log" > "$tmp/dump" 2>> "$tmp/err" || fail "dump: exit status $?"
n=$(grep -c ' IPE info=' "$tmp/dump")
[ "$n" -eq 62281 ] || fail "dump: $n IPE events, not 62281"
"$EV2HP" "$log" -o "$tmp/all.json" 2>> "$tmp/err" || fail "json: exit status $?"
"$EV2HP" --summary=json "$log" > "$tmp/summary.json" 2>> "$tmp/err" || fail "summary: $?"
[ -s "$tmp/err" ] && fail "unexpected message: $(cat "$tmp/err")"
"$PYTHON3" - "$tmp/dump" "$tmp/all.json" "$tmp/summary.json" <<'PY' || fail "IPE names"
import json, re, sys
named = {int(m.group(1)) for m in re.finditer(r' IPE info=(\d+) ', open(sys.argv[1]).read())}
for path, key in ((sys.argv[2], "bands"), (sys.argv[3], "bands")):
    bands = json.load(open(path))[key]
    hits = 0
    for b in bands:
        if int(b["hp_label"], 16) in named:
            hits += 1
            if b["label"] == b["hp_label"]:
                sys.exit(f"{path}: {b['hp_label']} has an IPE event but no name")
    if hits < 13000:
        sys.exit(f"{path}: only {hits} bands named")
# the IPE event at the first block's end names a band
labels = {b["label"] for b in json.load(open(sys.argv[2]))["bands"]}
if ":_G4_561_con_info :: [] at ./G4.hs:102:1-55" not in labels:
    sys.exit("no band :_G4_561_con_info")
PY
# both IPE events at a block's end (offsets 2100526 and 4197641), whole
for t in ':_G4_561_con_info" closure_desc="4" type_desc="\[\]" label="f43" module="G4" srcloc="./G4.hs:102:1-55"' \
         ':_G1_800_con_info" closure_desc="4" type_desc="\[\]" label="funs" module="G1" srcloc="./G1.hs:1217:1-3497"'; do
    grep -q "table_name=\"$t" "$tmp/dump" || fail "dump: no IPE event $t"
done

# The defaults draw the --bands largest bands, named, whatever their number (no 1 %
# trace folding all 13,276 into OTHER): at least 5 named bands in colours of their own,
# found among the PNG's pixels. --trace folds small bands only when given: at 1 % only
# the two largest (unnamed) bands stay.
"$EV2HP" "$log" -o "$tmp/chart.svg" -o "$tmp/chart.png" 2>> "$tmp/err" || fail "chart: $?"
$PYTHON3 "$SRCDIR/tests/chartcheck.py" named "$tmp/chart.svg" "$tmp/chart.png" 5 ||
    fail "chart: too few named bands"
"$EV2HP" "$log" --trace 1 -o "$tmp/trace.svg" 2>> "$tmp/err" || fail "trace: $?"
n=$(grep -o '<path class="band"' "$tmp/trace.svg" | wc -l)
[ "$n" -eq 3 ] || fail "--trace 1: $n bands drawn, not 2 and OTHER"

exit $failed
