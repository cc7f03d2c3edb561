#!/bin/sh
# report_groups.sh: the report's grouping control groups by --group-by's own keys (issue
# 31). The keys ev2hp writes into a report's data (run.table.group_by) are checked against
# --group-by KEY's JSON export of the same input by tests/report_groups.py: the report's
# bands summed by its keys give --group-by's groups, under the same labels, census by
# census. On the real GHC 9.10 -hi run of 13,276 bands (every -hi key) and on real -hc
# runs (cc, module). No keys (no control, no bytes) where none applies: a -hy run, a .hp,
# generated string bands, a report of bands already grouped by --group-by, and with
# --compare. The page's side,
# in headless Chromium, is tests/report.sh's (tests/browser/report_test.mjs, "groups").
. "${SRCDIR:?}/tests/testlib.sh"

check() {   # check NAME INPUT KEYS...
    name=$1 input=$2
    shift 2
    # the bands as they are (a run of thousands of tables is grouped by type by default)
    "$EV2HP" --group-by none "$input" -o "$tmp/$name.html" -o "$tmp/$name.json" ||
        fail "$name: exit status $?"
    for key in "$@"; do
        "$EV2HP" --group-by "$key" "$input" -o "$tmp/$name-$key.json" ||
            fail "$name --group-by $key: exit status $?"
        verdict=$("$PYTHON3" "$SRCDIR/tests/report_groups.py" "$key" "$tmp/$name.html" \
                  "$tmp/$name.json" "$tmp/$name-$key.json") || fail "$name: $key: $verdict"
    done
    # the keys the report offers are these and no others
    keys=$("$PYTHON3" -c 'import json, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r"id=\"ev2hp-data\">\n(.*?)\n</script>", t, re.S).group(1))
g = d["run"].get("table", {}).get("group_by")
print(" ".join([g["none"]] + [k["key"] for k in g["keys"]]) if g else "none")' "$tmp/$name.html")
    [ "$keys" = "$want" ] || fail "$name: the report offers '$keys', not '$want'"
}

want="table type closure module file location"
check hi-many "$data/hi-many-g910.eventlog.gz" type closure module file location
want="stack cc module"
check leak-hc "$data/leak-hc.eventlog" cc module
check labels-hc-g910 "$data/labels-hc-g910.eventlog" cc module
check labels-hc-g96 "$data/labels-hc-g96.eventlog" cc module

# none applies: no key in the data
none() {   # none NAME ARGS...
    name=$1
    shift
    "$EV2HP" "$@" -o "$tmp/$name.html" || fail "$name: exit status $?"
    verdict=$("$PYTHON3" "$SRCDIR/tests/report_groups.py" none "$tmp/$name.html" - -) ||
        fail "$name: $verdict"
}
none hy "$data/leak-hy.eventlog"
none hp "$data/leak-hc.hp"
none grouped --group-by type "$data/hi-many-g910.eventlog.gz"
none compare "$data/leak-hc.eventlog" --compare "$data/leak-hc.hp"
# string bands (-hy style, tests/bench/gen_eventlog): no key
"$(dirname "$EV2HP")/tests/bench/gen_eventlog" -s 1 -k string -b 500 "$tmp/strings.eventlog" \
    >/dev/null || fail "gen_eventlog"
none strings "$tmp/strings.eventlog"
exit $failed
