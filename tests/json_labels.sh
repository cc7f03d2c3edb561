#!/bin/sh
# json_labels.sh: the JSON outputs name every -hc band three ways that agree with each
# other and with the runtime. On real -hc eventlogs: a band's "stack" (innermost first),
# joined by '/' as the runtime joins frames ("Module.CAF" for a CAF), is its whole label
# ("label" without ev2hp's "(n)"); the set of "hp_label"s is the set of labels in the
# runtime's own .hp of the same run (its -L cut, ccsIDs aside) and each is what ev2hp's
# .hp writes for that band, less the bytes of a character the cut split (JSON holds whole
# characters: no U+FFFD); --summary=json gives its bands the same names.
. "${SRCDIR:?}/tests/testlib.sh"
for name in flat-hc leak-hc labels-hc-g96 labels-hc-g910; do
    log="$SRCDIR/tests/data/$name.eventlog"
    "$EV2HP" "$log" -o "$tmp/$name.json" -o "$tmp/$name.hp" --summary=json >"$tmp/$name.sum" \
        || { echo "FAIL: $name: ev2hp exited $?"; failed=1; continue; }
    "$PYTHON3" - "$tmp/$name.json" "$tmp/$name.sum" "$tmp/$name.hp" \
        "$SRCDIR/tests/data/$name.hp" <<'PY' || { echo "FAIL: $name"; failed=1; }
import json, re, sys
doc_path, sum_path, ours_path, runtime_path = sys.argv[1:]
doc = json.load(open(doc_path, encoding="utf-8"))
summary = json.load(open(sum_path, encoding="utf-8"))
number = re.compile(r"^\(\d+\)")
assert "\ufffd" not in open(doc_path, encoding="utf-8").read()
# .hp files are read with errors="ignore": the bytes of a character the runtime's cut
# split are left out, as the JSON leaves them out

def hp_labels(path):
    labels = set()
    for line in open(path, encoding="utf-8", errors="ignore"):
        if "\t" in line:
            labels.add(line.split("\t", 1)[0])
    return labels

ours, runtime = hp_labels(ours_path), hp_labels(runtime_path)
stacks = 0
for band in doc["bands"]:
    whole = number.sub("", band["label"])
    stack = band["stack"]   # every band of a -hc eventlog is a stack
    frames = [f["module"] + ".CAF" if f["label"] == "CAF" else f["label"] for f in stack]
    assert ("/".join(frames) if frames else "MAIN") == whole, (frames, whole)
    for f in stack:
        assert f["module"] and f["srcloc"], f
    prefix = band["label"][:len(band["label"]) - len(whole)]
    assert prefix + band["hp_label"] in ours, (prefix, band["hp_label"])
    stacks += len(stack) > 1
assert stacks > 0
cut = {b["hp_label"] for b in doc["bands"]}
runtime_cut = {number.sub("", l) for l in runtime}
assert cut == runtime_cut, (sorted(cut ^ runtime_cut))
if "labels-" in doc_path:   # long stacks: the runtime's cut and the whole label differ
    assert any(b["hp_label"] != number.sub("", b["label"]) for b in doc["bands"])
by_label = {b["label"]: b for b in doc["bands"]}
for b in summary["bands"]:
    assert b["hp_label"] == by_label[b["label"]]["hp_label"], b["label"]
    assert b["stack"] == by_label[b["label"]]["stack"], b["label"]
print("ok:", doc_path.rsplit("/", 1)[-1], len(doc["bands"]), "bands")
PY
done
# A .hp names bands only by their cut labels: no stack to give.
"$EV2HP" "$SRCDIR/tests/data/leak-hc.hp" -o "$tmp/fromhp.json" || failed=1
"$PYTHON3" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["bands"] and all("stack" not in b and b["hp_label"] for b in doc["bands"])
' "$tmp/fromhp.json" || { echo "FAIL: bands of a .hp"; failed=1; }
exit $failed
