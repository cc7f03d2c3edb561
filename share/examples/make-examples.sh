#!/bin/sh
# make-examples.sh EV2HP SRCDIR OUTDIR: makes every picture of share/examples (the README's
# and the user guide's) again with EV2HP from the files in the source tree, into OUTDIR.
# `make examples` runs it into share/examples; tests/docs_examples.sh checks that every
# picture the documents show is one this script makes. Each picture's command is the one
# its caption shows. Three pictures need a browser and are made only when asked
# (EXAMPLES_SCREENSHOTS=1, with chromium, node and npm; go for the second; git and
# cmark-gfm for the third):
# leak-hc-report.png, the HTML report hovered at 2.9 s (report_test.mjs's "shot" case, as
# tests/report.sh runs it, with puppeteer-core installed into the build tree's
# tests/browser-deps), leak-hc-pprof.png, `go tool pprof -http`'s flame graph of
# leak-hc.pb.gz, and action-comment.png, the GitHub Action's pull request comment
# (action-comment.sh).
set -eu
# Inputs are named from the source tree's top, as the captions name them (the diff view's
# subtitle names its base file).
build=$(pwd)
ev2hp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(cd "$3" && pwd)
cd "$2"
python=${PYTHON3:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ev2hp-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
example=share/examples/leak-hc.eventlog

# The bundled example as the default chart, its PNG, and every other heap view.
"$ev2hp" "$example" -o "$out/leak-hc.svg" -o "$out/leak-hc.png"
for view in normalized stream lines heap detail; do
    "$ev2hp" "$example" --view "$view" -o "$out/leak-hc-$view.svg"
done
# The heap census at the peak as a flame graph, and a time profile's flame graph.
"$ev2hp" "tests/data/leak-hc.eventlog" --view flame -o "$out/leak-hc-flame.svg"
"$ev2hp" "tests/data/timeprof/tpsingle-P.eventlog" -o "$out/tpsingle-flame.svg"
# Two builds of one program (tests/evlayout.py rebuild): the diff view of their heaps and
# the differential flame graph of their time profiles.
"$python" "tests/evlayout.py" rebuild=lazySum,insertT "tests/data/leak-hc.eventlog" \
    "$tmp/second.eventlog"
"$ev2hp" "$tmp/second.eventlog" --compare "tests/data/leak-hc.eventlog" --view diff \
    --title 'leak: a second build against the first' -o "$out/leak-hc-diff.svg"
"$python" "tests/evlayout.py" 'rebuild=insertT,buildMap.\' \
    "tests/data/timeprof/leak-P.eventlog" "$tmp/second-P.eventlog"
"$ev2hp" "$tmp/second-P.eventlog" --compare "tests/data/timeprof/leak-P.eventlog" \
    --view flame -o "$out/leak-P-diff-flame.svg"

[ "${EXAMPLES_SCREENSHOTS:-0}" = 1 ] || exit 0
# The pull request comment of ev2hp's GitHub Action, made by its own scripts.
sh share/examples/action-comment.sh "$ev2hp" "$out/action-comment.png"
# The report of the bundled example in headless Chromium, the pointer at 2.9 s.
deps=$build/tests/browser-deps
sh tests/browser/deps.sh . "$deps"
"$ev2hp" -q "$example" -o "$tmp/shot.html" -o "$tmp/shot.json" --summary=json \
    >"$tmp/shot.summary.json"
"$ev2hp" -q "$example" -o "$tmp/shot.folded"
node "$deps/report_test.mjs" "$(command -v chromium || command -v chromium-browser)" "$tmp" \
    "shot|$tmp/shot.html|$tmp/shot.json|shot=$out/leak-hc-report.png|$tmp/shot.summary.json|$tmp/shot.folded"
# go tool pprof's own web UI on the peak census's profile, drawn by headless Chromium.
"$ev2hp" "$example" -o "$tmp/leak-hc.pb.gz"
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
go tool pprof -no_browser -http="127.0.0.1:$port" "$tmp/leak-hc.pb.gz" >"$tmp/pprof.log" 2>&1 &
pprof=$!
tries=0
until curl -sf "http://127.0.0.1:$port/ui/flamegraph" >/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -lt 600 ] || { kill "$pprof"; echo "go tool pprof did not start" >&2; exit 1; }
    sleep 0.1
done
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
    --window-size=1100,220 --screenshot="$out/leak-hc-pprof.png" \
    "http://127.0.0.1:$port/ui/flamegraph" >/dev/null 2>&1
kill "$pprof"
