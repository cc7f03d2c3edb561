#!/bin/bash
# live.sh: the live part of `make bench` (ev2hp --serve): memory following the dense
# generated eventlog (the 115 MB class: bench.sh's gen-hc-128M, made here when missing)
# and, when bench.sh's full mode made it, the 4 GiB one of 100,000 bands,
# memory over a stream of LIVE_CENSUSES generated censuses (default 1,000,000: flat), the
# latency from a census's last byte to /metrics, and the ingestion rate against a plain
# conversion. Prints numbers (tests/bench/live.py); never passes or fails. With
# BENCH_ONLY (names of bench.sh's generated eventlogs, e.g. hy100k-4G) it follows only
# those, when bench.sh made them. hi100k-1G, made here (1 GiB, 100,000 info tables each
# with its IPE event: the report's snapshot views the IPE table for its grouping control),
# is followed in the full mode and with BENCH_ONLY=hi100k-1G.
set -u
EV2HP=${EV2HP:-./ev2hp}
GEN_EVENTLOG=${GEN_EVENTLOG:-./tests/bench/gen_eventlog}
GEN_CENSUSES=${GEN_CENSUSES:-./tests/bench/gen_censuses}
PYTHON3=${PYTHON3:-python3}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/ev2hp-bench}
LIVE_CENSUSES=${LIVE_CENSUSES:-1000000}
here=$(dirname "$0")
mkdir -p "$BENCH_DIR" || exit 1
hi="$BENCH_DIR/gen-hi100k-1G.eventlog"
make_hi() {
    if [ ! -s "$hi" ] || [ "$GEN_EVENTLOG" -nt "$hi" ]; then
        echo "generating $hi..." >&2
        "$GEN_EVENTLOG" -s 1024 -k ipe -b 100000 "$hi" || exit 1
    fi
}
if [ -n "${BENCH_ONLY:-}" ]; then
    echo "== live (--serve) =="
    for name in $BENCH_ONLY; do
        [ "$name" = hi100k-1G ] && make_hi
        f="$BENCH_DIR/gen-$name.eventlog"
        [ -s "$f" ] && "$PYTHON3" "$here/live.py" follow "$EV2HP" "$f"
    done
    exit 0
fi
dense="$BENCH_DIR/gen-hc-128M.eventlog"
if [ ! -s "$dense" ] || [ "$GEN_EVENTLOG" -nt "$dense" ]; then
    echo "generating $dense..." >&2
    "$GEN_EVENTLOG" -s 128 -k stack "$dense" || exit 1
fi
echo "== live (--serve) =="
"$PYTHON3" "$here/live.py" follow "$EV2HP" "$dense"
# 100,000 bands (issue 31: peak RSS bounded whatever the bands), when bench.sh made it
many="$BENCH_DIR/gen-hy100k-4G.eventlog"
[ -s "$many" ] && "$PYTHON3" "$here/live.py" follow "$EV2HP" "$many"
make_hi
"$PYTHON3" "$here/live.py" follow "$EV2HP" "$hi"
for f in ${BENCH_REAL:-"$BENCH_DIR"/real-*.eventlog}; do
    [ -s "$f" ] && "$PYTHON3" "$here/live.py" follow "$EV2HP" "$f"
done
"$PYTHON3" "$here/live.py" flat "$EV2HP" "$GEN_CENSUSES" "$LIVE_CENSUSES"
"$PYTHON3" "$here/live.py" latency "$EV2HP" "$GEN_CENSUSES" 200
