#!/bin/bash
# bench.sh: the benchmark `make bench` runs. Prints a table; never passes or fails.
#
# First the startup rows: a small real eventlog to .hp, against cat of it (issue 21).
#
# For each eventlog (generated ones, and real ones when present) it times `cat FILE >
# /dev/null` as the floor, then ev2hp writing a .hp file, ev2hp --dump to /dev/null, and
# SVG, PNG and HTML outputs when this ev2hp knows those formats, and SVG with PNG in one
# run (svg+png: the fan-out, one reading for both), and a pprof profile (.pb.gz). Each cell is the median of BENCH_RUNS
# runs (from tests/bench/runstat) of the wall time and of the CPU time (user + system),
# with throughput in MB/s of input (1 MB = 10^6 bytes) for both, the ratio of the wall
# time to cat's, and the largest peak resident set size of the runs. On a shared
# machine the CPU column is the one to compare between runs: wall time includes waiting
# for a processor.
#
# On the dense generated logs, a window (issue 36): a chart, a .hp and the summary of the
# whole run, of its second fifth in seconds and as markers; then the summary alone of the
# whole run, of that window, and of every phase (--phases marker).
#
# For the 4 GiB eventlog of 100,000 bands (gen-hy100k-4G, issue 31) it then prints, for
# SVG, PNG, HTML and --summary, the peak memory in MB (10^6 bytes) and the ratio of each
# one's wall and CPU time to the .hp written to /dev/null (the stdout row), against the
# bounds (128 MB, 1.5x), and the report's size (bound: 24 MB); then the report is opened
# in headless Chromium (tests/browser/report_find.mjs, with the browser tests' puppeteer-
# core), the label of the band with the smallest peak (from --summary=json: the smallest
# peak, then area, then label) is typed into the band table's search box, and it must be
# listed and drawn by its "draw" button: the times of each step are printed.
#
# Inputs are read from the page cache after the first run (the files are made just before
# or kept from an earlier run), so cat measures memory bandwidth, not the disk: ev2hp's
# ratio to cat is the honest figure of its own cost.
#
# Environment:
#   EV2HP, GEN_EVENTLOG, RUNSTAT  the programs (make bench sets them)
#   BENCH_DIR    where generated eventlogs are kept between runs
#                (default ${TMPDIR:-/tmp}/ev2hp-bench)
#   BENCH_QUICK  1: two 128 MiB eventlogs only; otherwise also a 1 GiB one and a 4 GiB
#                one of 100,000 string bands (issue 31: charts, the report and the summary
#                of a run with that many bands, within 128 MB; the peak MiB column)
#   BENCH_ONLY   space-separated names of generated eventlogs (hc-128M, hy-128M, tp-128M,
#                hc-1G, hy100k-4G): only their rows (and what follows from them below),
#                none of the startup, real-eventlog or other rows; e.g.
#                `make bench BENCH_ONLY=hy100k-4G` for issue 31's numbers alone
#   BENCH_RUNS   runs per cell (default 5; 3 for files of 512 MiB and more)
#   BENCH_REAL   space-separated real eventlogs to add (default: $BENCH_DIR/real-*.eventlog)
#   BENCH_SMALL  the small eventlog of the startup rows (default tests/data/labels-hc-g910)
set -u

EV2HP=${EV2HP:-./ev2hp}
GEN_EVENTLOG=${GEN_EVENTLOG:-./tests/bench/gen_eventlog}
RUNSTAT=${RUNSTAT:-./tests/bench/runstat}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/ev2hp-bench}
BENCH_QUICK=${BENCH_QUICK:-0}
BENCH_RUNS=${BENCH_RUNS:-}

mkdir -p "$BENCH_DIR" || exit 1
STAT="$BENCH_DIR/stat.$$"
OUT="$BENCH_DIR/out.$$"
trap 'rm -f "$STAT" "$OUT".*' EXIT

# Generated eventlogs: name, size in MiB, kind of band (time: a time profile, -p), and
# optionally the number of bands.
generated="hc-128M:128:stack hy-128M:128:string tp-128M:128:time"
if [ "$BENCH_QUICK" != 1 ] || [ -n "${BENCH_ONLY:-}" ]; then
    generated="$generated hc-1G:1024:stack hy100k-4G:4096:string:100000"
fi
# only: whether a generated eventlog's rows are asked for (all of them without BENCH_ONLY)
only() { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" $1 "* ]]; }

files=()
for spec in $generated; do
    IFS=: read -r name mib kind nbands <<<"$spec"
    only "$name" || continue
    f="$BENCH_DIR/gen-$name.eventlog"
    # The generator's own timestamp makes a stale file (from an older generator) redone.
    if [ ! -s "$f" ] || [ "$GEN_EVENTLOG" -nt "$f" ]; then
        echo "generating $f ($mib MiB, $kind bands${nbands:+, $nbands of them})..." >&2
        "$GEN_EVENTLOG" -s "$mib" -k "$kind" ${nbands:+-b "$nbands"} "$f" || exit 1
    fi
    files+=("$f")
done
if [ -n "${BENCH_ONLY:-}" ]; then
    :   # the generated ones named, nothing else
elif [ -n "${BENCH_REAL+set}" ]; then
    for f in $BENCH_REAL; do files+=("$f"); done
else
    for f in "$BENCH_DIR"/real-*.eventlog; do
        [ -s "$f" ] && files+=("$f")
    done
fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# run_cell RUNS COMMAND...: runs it RUNS times; sets wall and cpu (medians, seconds) and
# rss (largest, KiB).
run_cell() {
    local runs=$1 walls="" cpus="" i
    shift
    rss=0
    wall=""
    for ((i = 0; i < runs; i++)); do
        if ! "$RUNSTAT" "$STAT" "$@"; then
            wall=""
            return 1
        fi
        read -r w r _ c <"$STAT"
        walls="$walls$w"$'\n'
        cpus="$cpus$c"$'\n'
        [ "$r" -gt "$rss" ] && rss=$r
    done
    wall=$(printf '%s' "$walls" | median)
    cpu=$(printf '%s' "$cpus" | median)
}

supports() { "$EV2HP" -f "$1" --help >/dev/null 2>&1; }

# The browser tests' Chromium and puppeteer-core (tests/report.sh installs the same with
# tests/browser/deps.sh); sets browser and deps, or says why not and fails.
browser_ready() {
    local src
    src=$(cd "$(dirname "$0")/../.." && pwd)
    deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
    browser=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$browser" ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        echo "$1: skipped (chromium, node or npm not installed)"
        return 1
    fi
    if ! sh "$src/tests/browser/deps.sh" "$src" "$deps" >/dev/null 2>&1; then
        echo "$1: skipped (npm ci of puppeteer-core failed)"
        return 1
    fi
}

# Issue 31 on an eventlog of 100,000 bands (FILE): each drawn output's peak and its time
# against the .hp to /dev/null (bounds: 128 MB, 1.5x), the report's size (24 MB), then
# the band with the smallest peak found in the report through its search box.
many_bands() {
    local f=$1 entry out w c r label
    echo "  $(basename "$f"), issue 31 (bounds: 128 MB peak, 1.5x the .hp's time, report 24 MB):"
    for entry in "${bounded[@]}"; do
        read -r out w c r <<<"$entry"
        awk -v o="$out" -v w="$w" -v c="$c" -v r="$r" -v hw="$hp_wall" -v hc="$hp_cpu" 'BEGIN {
            mb = r * 1024 / 1e6
            printf "    %-9s peak %5.1f MB%s; wall %.2fx, cpu %.2fx the .hp to /dev/null%s\n", o,
                mb, (mb <= 128 ? "" : " (PAST 128 MB)"), w / hw, c / hc,
                (w / hw <= 1.5 && c / hc <= 1.5 ? "" : " (past 1.5x)") }'
    done
    [ -n "${html_size:-}" ] && awk -v s="$html_size" 'BEGIN {
        printf "    report    %.1f MB%s\n", s / 1e6, (s / 1e6 <= 24 ? "" : " (PAST 24 MB)") }'
    supports html && browser_ready "    band search" || return 0
    # the report the .html row wrote; the bands' peaks from the summary, not from it
    [ -s "$OUT.html" ] && "$EV2HP" -q "$f" --summary=json >"$OUT.json" || {
        echo "    band search: no report, or ev2hp --summary=json failed"
        return 0
    }
    label=$("${PYTHON3:-python3}" -c 'import json, sys
bands = json.load(open(sys.argv[1]))["bands"]
print(min(bands, key=lambda b: (b["peak"], b["area_byte_s"], b["label"]))["label"])' "$OUT.json")
    printf '    band search, the smallest peak: '
    timeout 900 node "$deps/report_find.mjs" "$browser" "$OUT.html" "$label" ||
        echo "    band search: FAILED"
}

row() {   # row FILE OUTPUT [note]
    if [ -z "$wall" ]; then
        printf '%-24s %7s  %-7s %s\n' "$1" "" "$2" "${3:-failed}"
        return
    fi
    awk -v f="$1" -v o="$2" -v s="$size" -v w="$wall" -v c="$cpu" -v cw="$cat_wall" \
        -v r="$rss" 'BEGIN {
            printf "%-24s %7s  %-7s %8.3f %7.0f %8.3f %7.0f %6.1f %8.1f\n", f,
                (f == "" ? "" : sprintf("%.0f MB", s / 1e6)), o, w, s / 1e6 / w, c,
                (c > 0 ? s / 1e6 / c : 0), w / cw, r / 1024 }'
}

echo "ev2hp benchmark: $("$EV2HP" --version), $(nproc) cores, $(uname -m), runs: ${BENCH_RUNS:-5 (3 for files >= 512 MiB)}"
echo "wall, cpu = median seconds (cpu = user + system); MB/s = input MB (10^6 bytes) per"
echo "second of wall or cpu time; x cat = wall / cat's wall; peak = largest max RSS of the runs"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo
printf '%-24s %7s  %-7s %8s %7s %8s %7s %6s %8s\n' file size output "wall s" "MB/s" \
    "cpu s" "MB/s" "x cat" "peak MiB"
# Startup: a small real eventlog (63 KB) to a .hp on standard output, where loading the
# program and its libraries is most of the cost (doc/performance.md, issue 21). The
# median of 21 runs; the "x cat" column is against cat of the same file.
small=${BENCH_SMALL:-$(cd "$(dirname "$0")/../data" 2>/dev/null && pwd)/labels-hc-g910.eventlog}
if [ -s "$small" ] && [ -z "${BENCH_ONLY:-}" ]; then
    size=$(stat -c %s "$small")
    run_cell 21 sh -c 'exec cat "$1" > /dev/null' sh "$small"
    cat_wall=$wall
    row "startup: $(basename "$small")" cat
    run_cell 21 sh -c 'exec "$1" "$2" > /dev/null' sh "$EV2HP" "$small"
    row "" ".hp"
fi
for f in "${files[@]}"; do
    size=$(stat -c %s "$f")
    runs=${BENCH_RUNS:-$([ "$size" -ge $((512 << 20)) ] && echo 3 || echo 5)}
    name=$(basename "$f")
    cat "$f" >/dev/null   # into the page cache, for every cell alike
    run_cell "$runs" sh -c 'exec cat "$1" > /dev/null' sh "$f"
    cat_wall=$wall
    row "$name" cat
    run_cell "$runs" "$EV2HP" -q "$f" -o "$OUT.hp"
    row "" .hp
    # stdout: the same .hp to /dev/null, where cat's bytes go; the .hp row above also
    # pays the kernel for writing the .hp (a third of the input's size) into a new file.
    run_cell "$runs" sh -c 'exec "$1" -q "$2" > /dev/null' sh "$EV2HP" "$f"
    row "" stdout
    hp_wall=$wall hp_cpu=$cpu html_size=""
    bounded=()   # issue 31's outputs of this file: "output wall cpu rss"
    run_cell "$runs" sh -c 'exec "$1" -q --dump "$2" > /dev/null' sh "$EV2HP" "$f"
    row "" --dump
    for fmt in svg png html; do
        if supports "$fmt"; then
            run_cell "$runs" "$EV2HP" -q "$f" -o "$OUT.$fmt"
            row "" ".$fmt"
            [ -n "$wall" ] && bounded+=(".$fmt $wall $cpu $rss")
            [ "$fmt" = html ] && [ -n "$wall" ] && html_size=$(stat -c %s "$OUT.html")
        else
            wall=""
            row "" ".$fmt" "(this ev2hp has no $fmt output)"
        fi
    done
    # The summary: every band's exact statistics (its peak memory is the one to watch
    # with many bands)
    run_cell "$runs" sh -c 'exec "$1" -q --summary "$2" > /dev/null' sh "$EV2HP" "$f"
    row "" --summary
    [ -n "$wall" ] && bounded+=("--summary $wall $cpu $rss")
    # The fan-out: SVG and PNG in one run draw from one run model (read once), so this
    # should cost little more than the slower of the two alone.
    if supports svg && supports png; then
        run_cell "$runs" "$EV2HP" -q "$f" -o "$OUT.svg" -o "$OUT.png"
        row "" "svg+png"
    fi
    # A time profile (+RTS -p -l): its own output, the folded stacks (.svg above is
    # its flame graph).
    if [[ $name == gen-tp-* ]] && supports folded; then
        run_cell "$runs" "$EV2HP" -q "$f" -o "$OUT.folded"
        row "" .folded
    fi
    # pprof (issue 28): the peak census as a heap profile (a time profile for gen-tp),
    # written at the end of the read; on the dense gen-hc-128M (the 115 MB class) the
    # whole run is to take under 0.3 s.
    if supports pprof; then
        run_cell "$runs" "$EV2HP" -q "$f" -o "$OUT.pb.gz"
        row "" .pb.gz
    fi
    # --compare (issue 27): the file against itself, as a chart with the summary, and
    # the same outputs of one read; the ratio is what a comparison costs over reading
    # once (the base is read whole first, into a run model of its own). The dense logs.
    if [[ $name == gen-hc-* || $name == gen-hy-* ]]; then
        run_cell "$runs" sh -c 'exec "$1" -q "$2" -o "$3" --summary=json > /dev/null' sh \
            "$EV2HP" "$f" "$OUT.svg"
        once=$wall
        row "" "svg+sum"
        run_cell "$runs" sh -c 'exec "$1" -q "$2" --compare "$2" -o "$3" --summary=json \
            > /dev/null' sh "$EV2HP" "$f" "$OUT.svg"
        row "" "compare"
        [ -n "$wall" ] && [ -n "$once" ] &&
            awk -v a="$wall" -v b="$once" 'BEGIN { printf "%-24s %7s  compare against itself: %.2fx one read (svg+sum)\n", "", "", a / b }'
    fi
    # A window (issue 36): the same outputs as svg+sum above (a chart and the summary)
    # and a .hp, over the run's second fifth (its first two "checkpoint" markers), in
    # seconds and as markers; a window is to cost no more than the whole run (the marker
    # rows pay a first read that finds the markers' times).
    if [[ $name == gen-hc-* || $name == gen-hy-* ]]; then
        win=$("$EV2HP" -q "$f" --summary=json | "${PYTHON3:-python3}" -c '
import json, sys
m = [x["time_s"] for x in json.load(sys.stdin)["markers"] if x["text"] == "checkpoint"]
print("%.6f %.6f" % (m[0], m[1]) if len(m) > 1 else "")')
        if [ -n "$win" ]; then
            set -- $win
            run_cell "$runs" sh -c 'exec "$1" -q "$2" -o "$3" -o "$4" --summary=json \
                > /dev/null' sh "$EV2HP" "$f" "$OUT.svg" "$OUT.hp"
            row "" "whole"
            run_cell "$runs" sh -c 'exec "$1" -q "$2" -o "$3" -o "$4" --summary=json \
                --from "$5" --to "$6" > /dev/null' sh "$EV2HP" "$f" "$OUT.svg" "$OUT.hp" "$1" "$2"
            row "" "window"
            run_cell "$runs" sh -c 'exec "$1" -q "$2" -o "$3" -o "$4" --summary=json \
                --from marker:checkpoint --to marker:checkpoint > /dev/null' sh \
                "$EV2HP" "$f" "$OUT.svg" "$OUT.hp"
            row "" "markers"
            # The summary alone (issue 36, session 10): of the whole run, of the same
            # window, and of every phase between "checkpoint" markers (--phases marker:
            # a first read for the markers, then every band's statistics per phase).
            run_cell "$runs" sh -c 'exec "$1" -q "$2" --summary=json > /dev/null' sh \
                "$EV2HP" "$f"
            row "" "sum-run"
            run_cell "$runs" sh -c 'exec "$1" -q "$2" --summary=json --from "$3" --to "$4" \
                > /dev/null' sh "$EV2HP" "$f" "$1" "$2"
            row "" "sum-win"
            if "$EV2HP" --help 2>&1 | grep -q -- --phases; then
                run_cell "$runs" sh -c 'exec "$1" -q "$2" --summary=json --phases marker \
                    > /dev/null' sh "$EV2HP" "$f"
                row "" "sum-phs"
            fi
        fi
    fi
    if [[ $name == gen-hy100k-* ]]; then
        many_bands "$f"
    fi
    rm -f "$OUT".*
done

# The HTML report in a browser (issue 14: the report of the dense eventlog renders in
# under a second): the report of gen-hc-128M is loaded in headless Chromium (puppeteer-
# core, tests/browser/report_render.mjs), the median of 5 loads of the time from navigation
# start to report.js having drawn the page and to the first frame painted with it. Needs
# chromium, node and npm (puppeteer-core is installed as for tests/report.sh); skipped
# with a message without them.
report_render() {
    local f="$BENCH_DIR/gen-hc-128M.eventlog"
    only hc-128M || return 0
    echo
    [ -s "$f" ] && supports html || return 0
    browser_ready "report render" || return 0
    "$EV2HP" -q "$f" -o "$OUT.html" || return 0
    echo "report of gen-hc-128M.eventlog in Chromium (ms since navigation start, median of 5 loads):"
    printf '  '
    timeout 300 node "$deps/report_render.mjs" "$browser" "$OUT.html" 5 ||
        echo "report render: failed"
    rm -f "$OUT.html"
}
report_render
