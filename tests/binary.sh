#!/bin/sh
# binary.sh: --binary PROG names the -hi info tables the eventlog has no IPE event for
# from PROG's ELF symbol table (issue 39). A real GHC 9.10 run whose memory sits in a
# Data.Map of Strings (tests/data/binary: its source, commands, the runtime's .hp and the
# executable's symbol table): its largest bands are ghc-prim's (:) and containers' Bin
# (Debian's libraries carry no IPE) and the runtime's STACK. Each is found in `nm` of the
# same executable, at its census address plus two words (the address rule, DESIGN), and
# must be named in every output: the summaries, JSON, CSV, SVG, the report, folded
# stacks, pprof, --group-by and --compare; the .hp stays the runtime's. Then the
# messages: without --binary, one note saying how to name them; a file that is missing,
# not ELF or stripped, one line naming it, status 1.
. "${SRCDIR:?}/tests/testlib.sh"
skip_without nm strip

d="$data/binary"
log="$d/mapstrings-hi-g910.eventlog.gz"
prog="$tmp/mapstrings"
gunzip -c "$d/mapstrings-g910.debug.gz" > "$prog" || fail "gunzip the executable"
nm "$prog" > "$tmp/nm" || fail "nm cannot read the executable"

# The three tables, their symbols as nm lists them, and the names people read.
cat > "$tmp/expected" <<'TABLE'
ghczmprim_GHCziTypes_ZC_con_info ghc-prim:GHC.Types.: GHC.Types
containerszm0zi7zminplace_DataziMapziInternal_Bin_con_info containers-0.7:Data.Map.Internal.Bin Data.Map.Internal
stg_STACK_info STACK rts
TABLE

# says STATUS MESSAGE WHAT ARGS...: ev2hp ARGS exits with STATUS and says MESSAGE, that
# line alone, on standard error (WHAT names the case when it does not).
says() {
    status=$1 message=$2 what=$3
    shift 3
    run "$status" "$@"
    [ "$(cat "$tmp/err")" = "$message" ] || fail "$what: $(cat "$tmp/err")"
}

run 0 --binary "$prog" "$log" -o "$tmp/ours.hp" -o "$tmp/all.json" -o "$tmp/all.csv" \
    -o "$tmp/chart.svg" -o "$tmp/report.html" -o "$tmp/peak.folded" -o "$tmp/peak.pb.gz"
cp "$tmp/err" "$tmp/named.err"
run 0 --binary "$prog" "$log" --view flame -o "$tmp/flame.svg"
for frame in GHC.Types ghc-prim:GHC.Types.: Data.Map.Internal rts STACK; do
    grep -qx ".*<title>$frame" "$tmp/flame.svg" || fail "the census flame graph has no frame $frame"
done
run 0 --binary "$prog" --summary=json "$log"
cp "$tmp/out" "$tmp/summary.json"
run 0 --binary "$prog" --summary "$log"
cp "$tmp/out" "$tmp/summary.txt"
run 0 --binary "$prog" --group-by type --summary=json "$log"
cp "$tmp/out" "$tmp/type.json"
run 0 --binary "$prog" --group-by module --summary=json "$log"
cp "$tmp/out" "$tmp/module.json"
run 0 --binary "$prog" --base-binary "$prog" --compare "$log" --summary=json "$log"
cp "$tmp/out" "$tmp/compare.json"
pprof_raw=""
if command -v go >/dev/null 2>&1; then
    HOME="$tmp" GOCACHE="$tmp/gocache" go tool pprof -raw "$tmp/peak.pb.gz" \
        > "$tmp/pprof.raw" 2> "$tmp/pprof.err" || fail "go tool pprof -raw: $(head -3 "$tmp/pprof.err")"
    pprof_raw="$tmp/pprof.raw"
fi

# The .hp is the runtime's, census for census, its bands the addresses the runtime prints.
verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$d/mapstrings-hi-g910.hp" "$tmp/ours.hp") ||
    fail "hp: $verdict"

"$PYTHON3" - "$tmp" "$d/mapstrings-hi-g910.hp" "$pprof_raw" <<'PY' || fail "names"
import csv, json, os, re, sys
tmp, runtime_hp, pprof_raw = sys.argv[1:4]
nm = {}
for line in open(os.path.join(tmp, "nm")):
    parts = line.split()
    if len(parts) == 3:
        nm[parts[2]] = int(parts[0], 16)
hp_bands = set(re.findall(r"^(0x[0-9a-f]+)\t", open(runtime_hp).read(), re.M))
tables = []
for line in open(os.path.join(tmp, "expected")):
    symbol, name, module = line.split()
    assert symbol in nm, "nm has no " + symbol
    # the address rule: the census's address is the symbol's less two 8-byte words
    address = "0x%x" % (nm[symbol] - 16)
    assert address in hp_bands, (symbol, address, "not a band of the runtime's .hp")
    tables.append((address, name, module))
ours_hp = open(os.path.join(tmp, "ours.hp")).read()
for address, name, module in tables:
    assert re.search("^%s\t" % address, ours_hp, re.M), (".hp keeps the address", address)
    assert name not in ours_hp, (".hp: the runtime's has no names", name)

exported = {b["hp_label"]: b["label"] for b in json.load(open(os.path.join(tmp, "all.json")))["bands"]}
summary = json.load(open(os.path.join(tmp, "summary.json")))
summary_labels = {b["label"] for b in summary["bands"]}
header = next(csv.reader(open(os.path.join(tmp, "all.csv"))))
svg = open(os.path.join(tmp, "chart.svg")).read()
html = open(os.path.join(tmp, "report.html")).read()
text = open(os.path.join(tmp, "summary.txt")).read()
folded = dict(l.rsplit(" ", 1) for l in open(os.path.join(tmp, "peak.folded")).read().split("\n") if l)
for address, name, module in tables:
    assert exported.get(address) == name, ("json", address, exported.get(address))
    assert name in summary_labels, ("summary json", name, sorted(summary_labels)[:10])
    assert name in header and address not in header, ("csv", name)
    assert "<title>%s</title>" % name in svg, ("svg legend", name)
    assert '"%s"' % name in html, ("report data", name)
    assert re.search(r"  %s\n" % re.escape(name), text), ("text summary", name)
    assert "%s;%s" % (module, name) in folded, ("folded: module -> table", name)
    assert address not in svg and address not in " ".join(folded), ("address shown", address)
# the largest band of the peak census is (:), in every output
top = max(folded.items(), key=lambda kv: int(kv[1]))[0]
assert top == "GHC.Types;ghc-prim:GHC.Types.:", top
if pprof_raw:
    raw = open(pprof_raw).read()
    for address, name, module in tables:
        assert "band:[%s]" % name in raw, ("pprof sample label", name)
        assert re.search(r"^ +\d+: 0x0 M=1 %s :0" % re.escape(name), raw, re.M), ("pprof frame", name)
        assert re.search(r"^ +\d+: 0x0 M=1 %s :0" % re.escape(module), raw, re.M), ("pprof module", module)

# --group-by: the module from the symbol; type: the constructor stands for its type
groups = {b["label"] for b in json.load(open(os.path.join(tmp, "module.json")))["bands"]}
assert {"GHC.Types", "Data.Map.Internal", "Main"} <= groups, groups
groups = {b["label"] for b in json.load(open(os.path.join(tmp, "type.json")))["bands"]}
assert {"ghc-prim:GHC.Types.:", "containers-0.7:Data.Map.Internal.Bin", "[]"} <= groups, groups
# --compare with BASE named by --base-binary: the named bands pair by their names
pairs = {b["label"]: b["match"] for b in json.load(open(os.path.join(tmp, "compare.json")))["compare"]["bands"]}
for address, name, module in tables:
    assert pairs.get(name) == "same", ("compare", name, pairs.get(name))
PY

# The profiled build: its info tables carry StgProfInfo, so the census's address is four
# words before the symbol (RTS_IDENTIFIER "rts_p"); the .hp is still the runtime's.
gunzip -c "$d/mapstrings-prof-g910.debug.gz" > "$tmp/prof" || fail "gunzip the profiled executable"
nm "$tmp/prof" > "$tmp/prof.nm" || fail "nm cannot read the profiled executable"
plog="$d/mapstrings-prof-hi-g910.eventlog.gz"
run 0 --binary "$tmp/prof" "$plog" -o "$tmp/prof.hp" -o "$tmp/prof.json" -o "$tmp/prof.folded"
verdict=$("$PYTHON3" "$SRCDIR/tests/hpcheck.py" "$d/mapstrings-prof-hi-g910.hp" "$tmp/prof.hp") ||
    fail "profiled hp: $verdict"
"$PYTHON3" - "$tmp" "$d/mapstrings-prof-hi-g910.hp" <<'PY' || fail "profiled names"
import json, os, re, sys
tmp, runtime_hp = sys.argv[1:3]
nm = {p[2]: int(p[0], 16) for p in (l.split() for l in open(os.path.join(tmp, "prof.nm"))) if len(p) == 3}
hp_bands = set(re.findall(r"^(0x[0-9a-f]+)\t", open(runtime_hp).read(), re.M))
exported = {b["hp_label"]: b["label"] for b in json.load(open(os.path.join(tmp, "prof.json")))["bands"]}
folded = open(os.path.join(tmp, "prof.folded")).read()
for line in open(os.path.join(tmp, "expected")):
    symbol, name, module = line.split()
    address = "0x%x" % (nm[symbol] - 32)
    assert address in hp_bands, (symbol, address, "not a band of the runtime's .hp")
    assert exported.get(address) == name, ("json", address, exported.get(address))
    assert "\n%s;%s " % (module, name) in "\n" + folded, ("folded", name)
PY

# What stays an address is said once: no IPE event, no symbol.
[ "$(grep -c 'no IPE event, no symbol in' "$tmp/named.err")" = 1 ] &&
    [ "$(wc -l < "$tmp/named.err")" = 1 ] || fail "--binary: messages: $(cat "$tmp/named.err")"
# Without --binary, once: how to name them.
says 0 "ev2hp: $log: 33 info tables have no IPE event and are shown as addresses (0x416168, ...): --binary PROG names them from the program's symbol table" \
    "without --binary" "$log" -o "$tmp/plain.svg"
run 0 "$log" --summary
grep -q "^  33 info tables have no IPE event and are shown as addresses .*--binary PROG" "$tmp/out" ||
    fail "without --binary: the summary does not say how to name them"
# BASE without --base-binary: its note names that option.
run 0 --binary "$prog" --compare "$log" "$log" -o "$tmp/cmp.svg"
grep -q "^ev2hp: $log: 33 info tables .*: --base-binary PROG names them" "$tmp/err" ||
    fail "BASE without --base-binary: $(cat "$tmp/err")"

# An input --binary cannot name: said once, the outputs written.
says 0 "ev2hp: $data/leak-hc.eventlog: --binary names the info tables of a -hi profile; this one is by cost-centre stack: it names nothing" \
    "--binary on -hc" --binary "$prog" "$data/leak-hc.eventlog" -o "$tmp/hc.svg"
says 0 "ev2hp: $d/mapstrings-hi-g910.hp: --binary names the info tables of an eventlog; a .hp's bands stay as the runtime wrote them" \
    "--binary on a .hp" --binary "$prog" "$d/mapstrings-hi-g910.hp" -o "$tmp/fromhp.svg"

# A file that cannot name anything: one line naming it, status 1, nothing written.
strip -o "$tmp/stripped" "$prog" || fail "strip"
says 1 "ev2hp: $tmp/stripped: no symbol table (the program is stripped): --binary wants the executable as linked, or its debug file (objcopy --only-keep-debug)" \
    stripped --binary "$tmp/stripped" "$log" -o "$tmp/x.svg"
says 1 "ev2hp: $d/mapstrings-hi-g910.hp: not an ELF file: --binary wants the program's executable" \
    "not ELF" --binary "$d/mapstrings-hi-g910.hp" "$log" -o "$tmp/x.svg"
says 1 "ev2hp: $tmp/none: cannot open: No such file or directory" missing \
    --binary "$tmp/none" "$log" -o "$tmp/x.svg"
run 1 --base-binary "$tmp/stripped" --binary "$prog" --compare "$log" "$log" -o "$tmp/x.svg"
grep -q "^ev2hp: $tmp/stripped: no symbol table" "$tmp/err" || fail "--base-binary stripped: $(cat "$tmp/err")"
[ -e "$tmp/x.svg" ] && fail "an output was written after a --binary error"
run 2 --base-binary "$prog" "$log"
grep -q "^ev2hp: --base-binary names BASE's info tables: it needs --compare BASE" "$tmp/err" ||
    fail "--base-binary without --compare: $(cat "$tmp/err")"
exit $failed
