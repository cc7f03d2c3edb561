#!/bin/sh
# pprof.sh: heap and time profiles as pprof profiles (-o x.pb.gz, .pprof, -f pprof), read
# with Google's own parser: tests/pprof/pprofcheck.go (github.com/google/pprof/profile,
# Debian's golang-github-google-pprof-dev), built here offline, and `go tool pprof`.
# Each profile is checked against ev2hp's other outputs of the same input
# (tests/pprof/check.py): a heap profile is the .hp's census at the peak, entry for
# entry; a time profile has the folded stacks' stacks and counts. Then the frames of each
# breakdown (-hc: cost-centre stacks with .hs files and lines; -hi: info tables with the
# IPE's file and line under their module; -hT: the band's label), go tool pprof's
# -diff_base on two runs of one program, and an input with nothing to write.
. "${SRCDIR:?}/tests/testlib.sh"
. "$SRCDIR/tests/pprof/lib.sh"

# read NAME PROFILE: PROFILE parsed and checked valid by Google's parser into NAME.json.
read_profile() {
    "$pprofcheck" "$2" >"$tmp/$1.json" || fail "$1: Google's parser refuses $2"
    "$PYTHON3" "$check" strings "$2" >/dev/null || fail "$1: strings of $2"
}

# Heap profiles of each kind of breakdown against the .hp of the same run.
# (pprof/ghc910-leak-hi is GHC 9.10's run of tests/data/damaged/leak.hs with IPE.)
for name in leak-hc leak-hT leak-hd clausify-hm pprof/ghc910-leak-hi; do
    base=$(basename "$name")
    run 0 "$data/$name.eventlog" -o "$tmp/$base.hp" -o "$tmp/$base.pb.gz"
    read_profile "$base" "$tmp/$base.pb.gz"
    "$PYTHON3" "$check" heap "$tmp/$base.json" "$tmp/$base.hp" >/dev/null ||
        fail "$name: the heap profile is not the .hp's peak census"
done

# A large real -hi run (13,276 bands named by 62,281 IPE events), gzipped input.
run 0 "$data/hi-many-g910.eventlog.gz" -o "$tmp/hi-many.hp" -o "$tmp/hi-many.pb.gz"
read_profile hi-many "$tmp/hi-many.pb.gz"
"$PYTHON3" "$check" heap "$tmp/hi-many.json" "$tmp/hi-many.hp" >/dev/null ||
    fail "hi-many: the heap profile is not the .hp's peak census"

# --at: the last census at or before it, said in the comment; none before it: status 1.
run 0 --at 2 "$data/leak-hc.eventlog" -o "$tmp/at.pb.gz"
read_profile at "$tmp/at.pb.gz"
"$PYTHON3" "$check" heap "$tmp/at.json" "$tmp/leak-hc.hp" 2 >/dev/null ||
    fail "--at 2: not the last census at or before 2 s"
grep -q '"ev2hp: the heap census last at or before --at 2.000 s, at 1.94 s"' "$tmp/at.json" ||
    fail "--at 2: the comment: $(head -c 300 "$tmp/at.json")"
run 1 --at 0.001 "$data/leak-hc.eventlog" -o "$tmp/early.pb.gz"
grep -q "early.pb.gz: no heap census at or before --at 0.001 s" "$tmp/err" ||
    fail "--at before the first census: $(cat "$tmp/err")"
[ ! -e "$tmp/early.pb.gz" ] || fail "--at before the first census: a file was written"

# -hc: cost-centre stacks, leaf first, each frame with its .hs file and first line.
"$PYTHON3" - "$tmp/leak-hc.json" <<'PY' || fail "-hc frames"
import json, sys
p = json.load(open(sys.argv[1]))
stacks = {s["labels"]["band"][0]: s["frames"] for s in p["samples"]}
top = stacks["buildMap.\\/buildMap/main.m/main"]
assert [(f["name"], f["file"], f["line"]) for f in top] == [
    ("Main.buildMap.\\", "Leak.hs", 21), ("Main.buildMap", "Leak.hs", 21),
    ("Main.main.m", "Leak.hs", 31), ("Main.main", "Leak.hs", 27)], top
assert top[0]["start_line"] == 21
assert [f["name"] for f in stacks["MAIN"]] == ["MAIN"]
multi = [s for s in p["samples"] if len(s["frames"]) > 1]
assert len(multi) >= 2, multi
assert p["time_nanos"] > 1.7e18, p["time_nanos"]
assert p["comments"] == ["leak 300000 +RTS -hc -l -i0.02",
                         "ev2hp: the heap census at the peak, at 4.21 s"], p["comments"]
PY

# -hi: a tree module -> type -> table: the info table (name, closure type named as GHC 9.10
# numbers it) at the IPE's file and line, under its type, under its module.
"$PYTHON3" - "$tmp/ghc910-leak-hi.json" <<'PY' || fail "-hi frames"
import json, sys
p = json.load(open(sys.argv[1]))
named = [s for s in p["samples"] if len(s["frames"]) == 3]
assert len(named) >= 8, len(named)
rec = [s for s in named if s["frames"][0]["name"].startswith("Rec_Main_3_con_info")][0]
leaf, type_, module = rec["frames"]
assert leaf["name"] == "Rec_Main_3_con_info, CONSTR", leaf
assert (leaf["file"], leaf["line"]) == ("leak.hs", 17), leaf
assert type_["name"] == "Rec", type_
assert (module["name"], module["file"]) == ("Main", "leak.hs"), module
closures = {s["frames"][0]["name"].split(", ")[-1] for s in named}
assert {"CONSTR", "CONSTR_0_1", "THUNK_0_1"} <= closures, closures
assert not any(c.startswith("closure ") for c in closures), closures
assert rec["labels"]["band"] == ["Rec_Main_3_con_info :: Rec at leak.hs:17:37"], rec
# an address without an IPE event is one frame, the address
bare = [s for s in p["samples"] if len(s["frames"]) == 1]
assert all(s["frames"][0]["name"].startswith("0x") for s in bare), bare
PY

# -hT: one frame, the band's label.
"$PYTHON3" - "$tmp/leak-hT.json" <<'PY' || fail "-hT frames"
import json, sys
p = json.load(open(sys.argv[1]))
for s in p["samples"]:
    assert [f["name"] for f in s["frames"]] == s["labels"]["band"], s
assert "ghc-prim:GHC.Types.:" in [s["labels"]["band"][0] for s in p["samples"]]
PY

# A time profile (+RTS -p -l): the folded stacks' stacks and counts; .pprof and -f pprof
# gzip it themselves (x.pb.gz is gzipped by the output on its way: not twice).
tp="$data/timeprof/tpsingle-P.eventlog"
run 0 "$tp" -o "$tmp/tp.folded" -o "$tmp/tp.pprof"
read_profile tp "$tmp/tp.pprof"
"$PYTHON3" "$check" time "$tmp/tp.json" "$tmp/tp.folded" >/dev/null ||
    fail "the time profile is not the folded stacks"
run 0 -f pprof "$tp" -o -
cp "$tmp/out" "$tmp/stdout.pprof"
read_profile stdout "$tmp/stdout.pprof"
cmp -s "$tmp/stdout.pprof" "$tmp/tp.pprof" ||
    fail "-f pprof on standard output differs from .pprof"
# ... but not to a terminal (gzipped bytes): script(1) runs ev2hp on a pseudo-terminal.
if command -v script >/dev/null 2>&1 && script -qec "true" /dev/null >/dev/null 2>&1; then
    script -qec "\"$EV2HP\" \"$tp\" -f pprof; echo status=\$?" /dev/null \
        >"$tmp/tty" 2>&1 </dev/null
    grep -q "refusing to write a pprof profile to a terminal" "$tmp/tty" &&
        grep -q "status=2" "$tmp/tty" || fail "-f pprof on a terminal: $(head -c 200 "$tmp/tty")"
fi
run 0 "$tp" -o "$tmp/tp.pb.gz"
read_profile tpgz "$tmp/tp.pb.gz"
cmp -s "$tmp/tp.json" "$tmp/tpgz.json" || fail "x.pb.gz and x.pprof differ"
"$PYTHON3" - "$tmp/tp.json" <<'PY' || fail "time profile header"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["period"] == 1000000 and p["duration_nanos"] > 0, p
assert any(len(s["frames"]) > 2 and s["frames"][0]["file"] == "tpsingle.hs"
           and s["frames"][0]["line"] > 0 for s in p["samples"])
PY
# --system-ccs keeps the runtime's own cost centres, as in the folded stacks.
run 0 --system-ccs "$tp" -o "$tmp/sys.folded" -o "$tmp/sys.pb.gz"
read_profile sys "$tmp/sys.pb.gz"
"$PYTHON3" "$check" time "$tmp/sys.json" "$tmp/sys.folded" >/dev/null ||
    fail "--system-ccs: the time profile is not the folded stacks"

# go tool pprof compares two runs of one program (GHC 9.6 and 9.10 builds).
run 0 "$data/labels-hc-g96.eventlog" -o "$tmp/base.pb.gz"
run 0 "$data/labels-hc-g910.eventlog" -o "$tmp/new.pb.gz"
if go tool pprof -top -diff_base "$tmp/base.pb.gz" "$tmp/new.pb.gz" \
    >"$tmp/diff" 2>"$tmp/differr"; then
    grep -q "inuse_space" "$tmp/diff" && grep -q "flat%" "$tmp/diff" ||
        fail "-diff_base: no table: $(head -5 "$tmp/diff")"
else
    fail "go tool pprof -diff_base: $(head -3 "$tmp/differr")"
fi

# The guide's example (doc/guide.md, "pprof profiles"): the bundled eventlog, and go tool
# pprof's table of it.
run 0 "$SRCDIR/share/examples/leak-hc.eventlog" -o "$tmp/leak-hc-example.pb.gz"
go tool pprof -top "$tmp/leak-hc-example.pb.gz" >"$tmp/top" 2>&1 ||
    fail "guide: go tool pprof -top"
grep -q "Main.buildMap" "$tmp/top" && grep -q "Type: inuse_space" "$tmp/top" ||
    fail "guide: go tool pprof -top: $(head -8 "$tmp/top")"

# An input with neither censuses nor a time profile: status 1, said, nothing written.
run 1 "$data/noheap/flat.eventlog" -o "$tmp/none.pb.gz"
grep -q "none.pb.gz: the input has neither a heap census nor a time profile" "$tmp/err" ||
    fail "no census: $(cat "$tmp/err")"
[ ! -e "$tmp/none.pb.gz" ] || fail "no census: a file was written"
[ -z "$(ls "$tmp" | grep '^none\|^\.none')" ] || fail "no census: something left behind"

exit $failed
