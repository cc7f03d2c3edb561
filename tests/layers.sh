#!/bin/sh
# layers.sh: src/ includes and calls only downward (doc/DESIGN.md, "Layers"), checked by
# tests/layers.py on the tree itself and on the build's objects; and the checker catches
# each kind of break, shown on small trees made here: base/ reaching out, an include
# going up (facts/ including a sink), a cycle between folders and one between modules, an
# undeclared folder, an include of no file; a call going up, two modules calling each
# other, and a sink applying a statistic of the model itself (objects compiled here).
set -u
: "${SRCDIR:?}" "${PYTHON3:=python3}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
check="$SRCDIR/tests/layers.py"

# The tree itself keeps the rule, in its includes and in the calls of the objects built.
build=$(dirname "${EV2HP:?}")
if ! out=$("$PYTHON3" "$check" "$SRCDIR/src" "$build"); then
    fail "src/ breaks the layering:"
    printf '%s\n' "$out"
fi

# tree NAME FILE:INCLUDE...: a tree whose FILE includes INCLUDE ("-" for none).
tree() {
    dir="$tmp/$1"
    shift
    for pair in "$@"; do
        file=${pair%%:*}
        inc=${pair#*:}
        mkdir -p "$dir/$(dirname "$file")"
        touch "$dir/$file"
        [ "$inc" = - ] || printf '#include "%s"\n' "$inc" >>"$dir/$file"
    done
}

# expect NAME STATUS TEXT [calls]: the checker's status on tree NAME (with "calls": on the
# objects of build NAME, beside an empty tree), and a line of its output holding TEXT (the
# offending edge).
mkdir "$tmp/empty"
expect() {
    if [ "${4:-}" = calls ]; then
        out=$("$PYTHON3" "$check" "$tmp/empty" "$tmp/$1")
    else
        out=$("$PYTHON3" "$check" "$tmp/$1")
    fi
    status=$?
    [ "$status" -eq "$2" ] || fail "$1: status $status, expected $2: $out"
    if [ -n "$3" ]; then
        printf '%s\n' "$out" | grep -qF -- "$3" || fail "$1: no line with '$3' in: $out"
    elif [ -n "$out" ]; then
        fail "$1: unexpected output: $out"
    fi
}

tree clean base/a.h:- base/a.c:base/a.h model/m.h:base/a.h read/r.c:model/m.h \
    chart/c.c:read/r.h read/r.h:- sink/s.c:chart/c.h chart/c.h:- main.c:sink/s.h sink/s.h:-
expect clean 0 ""

tree base_out base/a.h:model/m.h model/m.h:-
expect base_out 1 "base/a.h:1: base/ includes model/m.h: base/ may include only base/"

tree upward read/r.c:chart/c.h chart/c.h:-
expect upward 1 "read/r.c:1: includes chart/c.h: chart/ is above read/"

tree folders read/r.h:census/c.h census/c.h:read/x.h read/x.h:-
expect folders 1 "folder cycle: census/ -> read/ (census/c.h:1), read/ -> census/ (read/r.h:1)"

tree modules chart/a.c:chart/b.h chart/b.c:chart/a.h chart/a.h:- chart/b.h:-
expect modules 1 "module cycle: chart/a -> chart/b (chart/a.c:1), chart/b -> chart/a (chart/b.c:1)"

# facts/ (what the outputs state) is below the sinks that write it
tree facts_up facts/f.c:sink/s.h sink/s.h:-
expect facts_up 1 "facts/f.c:1: includes sink/s.h: sink/ is above facts/"

tree undeclared extra/x.c:-
expect undeclared 1 "extra/: a folder that is not a declared layer"

tree missing read/r.c:read/none.h
expect missing 1 'read/r.c:1: includes "read/none.h", which is not a file of src/'

# objects NAME FILE:DEFINES:CALLS...: a build whose src/FILE.o defines function DEFINES
# and calls CALLS ("-" for none), compiled from a C file made here.
objects() {
    dir="$tmp/$1"
    shift
    for spec in "$@"; do
        file=${spec%%:*}
        rest=${spec#*:}
        def=${rest%%:*}
        call=${rest#*:}
        mkdir -p "$dir/src/$(dirname "$file")"
        {
            [ "$call" = - ] || printf 'void %s(void);\n' "$call"
            printf 'void %s(void) {' "$def"
            [ "$call" = - ] || printf ' %s();' "$call"
            printf ' }\n'
        } >"$dir/src/$file.c"
        "${CC:-cc}" -c -o "$dir/src/$(dirname "$file")/libx_a-$(basename "$file").o" \
            "$dir/src/$file.c" || fail "$1: cannot compile $file"
        rm "$dir/src/$file.c"
    done
}

objects calls_clean sink/factory:make:sink_hp_new sink/sink_hp:sink_hp_new:sink_alloc \
    sink/sink:sink_alloc:- read/r:read_it:base_it base/b:base_it:-
expect calls_clean 0 "" calls

objects calls_up read/r:read_it:draw chart/c:draw:-
expect calls_up 1 "read/r uses draw of chart/c: chart/ is above read/ (calls go down only)" calls

objects calls_cycle sink/sink:sink_new:sink_hp_new sink/sink_hp:sink_hp_new:sink_alloc \
    sink/base:sink_alloc:sink_new
expect calls_cycle 1 "call cycle: sink/base -> sink/sink (sink_new), sink/sink -> sink/sink_hp (sink_hp_new), sink/sink_hp -> sink/base (sink_alloc)" calls

# a writer applying the suspect rule itself, not through facts/
objects calls_statistic sink/sink_summary:write_text:profile_is_suspect \
    model/bandstats:profile_is_suspect:-
expect calls_statistic 1 "sink/sink_summary uses profile_is_suspect of model/bandstats: a statistic is decided in facts/, which sink/ only formats" calls

mkdir -p "$tmp/no_objects/src"
expect no_objects 1 "the build has no object files under src/" calls

"$PYTHON3" "$check" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no argument: status is not 2"

exit $failed
