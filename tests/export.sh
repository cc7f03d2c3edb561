#!/bin/sh
# export.sh: CSV and JSON of real eventlogs load in Python's csv and json modules with one
# row or record per census, the same censuses as the .hp.
. "${SRCDIR:?}/tests/testlib.sh"
for log in "$SRCDIR"/tests/data/*.eventlog; do
    name=$(basename "$log" .eventlog)
    "$EV2HP" "$log" -o "$tmp/$name.hp" -o "$tmp/$name.csv" -o "$tmp/$name.json" || { failed=1; continue; }
    "$PYTHON3" - "$tmp/$name.hp" "$tmp/$name.csv" "$tmp/$name.json" <<'PY' || { echo "FAIL: $name"; failed=1; }
import csv, json, sys
hp, csv_path, json_path = sys.argv[1:]
censuses = sum(1 for line in open(hp, errors="replace") if line.startswith("BEGIN_SAMPLE")) - 2
rows = list(csv.reader(open(csv_path, newline="", errors="replace")))
doc = json.load(open(json_path))
assert rows[0][0] == "time_s", rows[0][:2]
assert len(rows) - 1 == censuses, (len(rows) - 1, censuses)
assert len(doc["censuses"]) == censuses, (len(doc["censuses"]), censuses)
assert len(rows[0]) - 1 == len(doc["bands"])
for row, record in zip(rows[1:], doc["censuses"]):
    assert abs(float(row[0]) - record["time_s"]) < 1e-9
    assert sum(int(v) for v in row[1:]) == sum(b for _, b in record["entries"])
print("ok:", sys.argv[1].rsplit("/", 1)[-1], censuses, "censuses")
PY
done
exit $failed
