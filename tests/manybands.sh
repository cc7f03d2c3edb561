#!/bin/sh
# manybands.sh: a real -hi run with thousands of bands (issue 31): tests/data/hi-many-g910,
# GHC 9.10.3, 3,600 generated functions (tests/data/hi-many.py), 13,276 bands, 62,281 IPE
# events, two of which end a block and declare an end one byte past it.
. "${SRCDIR:?}/tests/testlib.sh"

log="$data/hi-many-g910.eventlog.gz"
gunzip -c "$data/hi-many-g910.hp.gz" > "$tmp/runtime.hp"

# Read as GHC wrote it: the runtime's .hp, and no warning but the one note that the tables
# without an IPE event (the libraries', the runtime's) are addresses --binary would name.
unnamed_note='29 info tables have no IPE event and are shown as addresses (0x855248, ...): --binary PROG names them from the program'"'"'s symbol table'
expected_notes() {   # drops the note from the messages in $1
    grep -vxF "ev2hp: $log: $unnamed_note" "$1" > "$1.rest"; mv "$1.rest" "$1"
}
"$EV2HP" "$log" > "$tmp/ours.hp" 2> "$tmp/err" || fail "hp: exit status $?"
[ "$(cat "$tmp/err")" = "ev2hp: $log: $unnamed_note" ] || fail "hp: messages: $(cat "$tmp/err")"
: > "$tmp/err"
verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$tmp/runtime.hp" "$tmp/ours.hp") ||
    fail "hp: $verdict"

# Every IPE event read (the two at a block's end included) and every info table it names
# named in the JSON export and the summary (of every table: --group-by table; by default
# a run of thousands is grouped by type, tests/autogroup.sh): no band whose address has
# an IPE event is shown by its address.
"$EV2HP" --dump "$log" > "$tmp/dump" 2>> "$tmp/err" || fail "dump: exit status $?"
n=$(grep -c ' IPE info=' "$tmp/dump")
[ "$n" -eq 62281 ] || fail "dump: $n IPE events, not 62281"
"$EV2HP" "$log" -o "$tmp/all.json" 2>> "$tmp/err" || fail "json: exit status $?"
"$EV2HP" --summary=json --group-by table "$log" > "$tmp/summary.json" 2>> "$tmp/err" ||
    fail "summary: $?"
expected_notes "$tmp/err"
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

# Every table (--group-by table) draws the --bands largest bands, named, whatever their
# number (no 1 % trace folding all 13,276 into OTHER): at least 5 named bands in colours
# of their own, found among the PNG's pixels. --trace folds small bands only when given:
# at 1 % only the two largest (unnamed) bands stay.
"$EV2HP" "$log" --group-by table -o "$tmp/chart.svg" -o "$tmp/chart.png" 2>> "$tmp/err" ||
    fail "chart: $?"
$PYTHON3 "$SRCDIR/tests/chartcheck.py" named "$tmp/chart.svg" "$tmp/chart.png" 5 ||
    fail "chart: too few named bands"
"$EV2HP" "$log" --group-by table --trace 1 -o "$tmp/trace.svg" 2>> "$tmp/err" || fail "trace: $?"
n=$(grep -o '<path class="band"' "$tmp/trace.svg" | wc -l)
[ "$n" -eq 3 ] || fail "--trace 1: $n bands drawn, not 2 and OTHER"

# --group-by KEY merges bands exactly: each group's bytes in every census are its
# members' (tests/groupcheck.py works the groups out from the IPE events itself), in the
# JSON export, the .hp (labels are the groups), the summary and the chart.
for key in type closure module file location; do
    "$EV2HP" --group-by "$key" "$log" -o "$tmp/$key.json" -o "$tmp/$key.hp" 2>> "$tmp/err" ||
        fail "group-by $key: exit status $?"
    verdict=$("$PYTHON3" "$SRCDIR/tests/groupcheck.py" "$key" "$tmp/all.json" "$tmp/$key.json" \
              "$tmp/dump") || fail "group-by $key: $verdict"
done
"$PYTHON3" - "$tmp/type.json" "$tmp/type.hp" <<'PY' || fail "group-by type: .hp"
import json, sys
export = json.load(open(sys.argv[1]))
hp_label = {b["id"]: b["hp_label"] for b in export["bands"]}
want = [{hp_label[b]: n for b, n in c["entries"]} for c in export["censuses"]]
got, cur = [], None
for line in open(sys.argv[2]):
    if line.startswith("BEGIN_SAMPLE"):
        cur = {}
    elif line.startswith("END_SAMPLE"):
        if cur:
            got.append(cur)
        cur = None
    elif cur is not None:
        label, n = line.rstrip("\n").rsplit("\t", 1)
        cur[label] = int(n)
if got != want:
    sys.exit("the .hp's censuses are not the JSON export's groups")
if "Box" not in want[-1] or "Maybe" not in want[-1]:
    sys.exit("no group Box or Maybe")
PY
"$EV2HP" --group-by type --summary=json "$log" > "$tmp/type.summary" 2>> "$tmp/err" ||
    fail "group-by type --summary: $?"
"$PYTHON3" -c 'import json, sys; b = json.load(open(sys.argv[1]))["bands"]
sys.exit(0 if len(b) == 81 and "Box" in {x["label"] for x in b} else "summary: %d bands" % len(b))' \
    "$tmp/type.summary" || fail "group-by type: the summary's bands are not the 81 groups"
"$EV2HP" --group-by type "$log" -o "$tmp/type.svg" 2>> "$tmp/err" || fail "type.svg: $?"
grep -q '<title>Box</title>' "$tmp/type.svg" || fail "group-by type: no band Box in the chart"
expected_notes "$tmp/err"
[ -s "$tmp/err" ] && fail "group-by: unexpected message: $(cat "$tmp/err")"

# -hc: by the innermost cost centre and by its module (real GHC 9.10 and 9.6 runs)
for name in labels-hc-g910 labels-hc-g96; do
    "$EV2HP" "$data/$name.eventlog" -o "$tmp/$name.json" || fail "$name: $?"
    for key in cc module; do
        "$EV2HP" --group-by "$key" "$data/$name.eventlog" -o "$tmp/$name-$key.json" ||
            fail "$name: group-by $key: $?"
        verdict=$("$PYTHON3" "$SRCDIR/tests/groupcheck.py" "$key" "$tmp/$name.json" \
                  "$tmp/$name-$key.json") || fail "$name: group-by $key: $verdict"
    done
done
# a key the profile has not: said, and the bands left as they are
"$EV2HP" --group-by type "$data/leak-hc.eventlog" -o "$tmp/leak.csv" 2> "$tmp/err" ||
    fail "leak-hc --group-by type: exit status $?"
grep -q "^ev2hp: $data/leak-hc.eventlog: --group-by: no band of this profile has that key" \
    "$tmp/err" || fail "leak-hc --group-by type: $(cat "$tmp/err")"
"$EV2HP" --group-by kind "$log" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "^ev2hp: --group-by wants table, type" "$tmp/err" ||
    fail "--group-by kind: $(cat "$tmp/err")"

exit $failed
