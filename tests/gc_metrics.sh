#!/bin/sh
# gc_metrics.sh: the collector's series of --serve's /metrics (issue 35, item 3):
# ghc_gc_pause_seconds (a histogram per generation), ghc_gc_collections_total,
# ghc_gc_copied_bytes_total, ghc_gc_allocated_bytes_total, ghc_gc_productivity. Real
# GHC 9.10.3 runs (tests/data/gcstats: -N2 and -N4 -qg, each with its +RTS -s report) are
# served; tests/gc_metrics_check.py checks the scrape against -s (collections, allocation,
# elapsed) and --dump (every bucket, bytes copied), promtool checks it, and a real
# Prometheus scrapes it and holds the collections as -s counts them. Skipped (77) without
# curl; promtool and prometheus are used when installed.
set -eu
. "${SRCDIR:?}/tests/testlib.sh"
skip_without curl
. "$SRCDIR/tests/serve/lib.sh"
gc="$SRCDIR/tests/data/gcstats"
for run in n2 n4qg; do
    "$EV2HP" --dump "$gc/$run.eventlog.gz" >"$work/$run.dump" 2>/dev/null
    "$EV2HP" --summary=json "$gc/$run.eventlog.gz" >"$work/$run.json" 2>/dev/null
    serve_start "$run" --serve 0 "$gc/$run.eventlog.gz"
    wait_ended
    curl -sf "${url}metrics" >"$work/$run.metrics" || fail "$run: GET /metrics"
    if command -v promtool >/dev/null; then
        promtool check metrics <"$work/$run.metrics" || fail "$run: promtool check metrics"
    fi
    "$PYTHON3" "$SRCDIR/tests/gc_metrics_check.py" "$work/$run.metrics" "$gc/$run.stat" \
        "$work/$run.dump" "$work/$run.json" >"$work/$run.check" ||
        fail "$run: $(cat "$work/$run.check")"
    for f in ghc_gc_pause_seconds ghc_gc_collections_total ghc_gc_copied_bytes_total \
        ghc_gc_allocated_bytes_total ghc_gc_productivity; do
        grep -q "^# TYPE $f " "$work/$run.metrics" || fail "$run: no TYPE line for $f"
    done
    serve_stop
done
# a real Prometheus scrapes them
if command -v prometheus >/dev/null; then
    port=$(free_port)
    prometheus_start "$(command -v prometheus)" "$port"
    serve_start prom --serve "127.0.0.1:$port" "$gc/n2.eventlog.gz"
    want=$(sed -n 's/^ *Gen  1 *\([0-9]*\) colls,.*/\1/p' "$gc/n2.stat")
    i=0
    until [ "$(query 'ghc_gc_collections_total{job="ev2hp",gen="1"}')" = "$want" ]; do
        kill -0 "$prom" 2>/dev/null || fail "prometheus exited: $(tail -5 "$work/prometheus.log")"
        [ $i -lt "$(patience_tries 600)" ] ||
            fail "Prometheus never held $want generation-1 collections"
        sleep 0.2
        i=$((i + 1))
    done
    n=$(query 'count(ghc_gc_pause_seconds_bucket{job="ev2hp"})')
    [ "${n:-0}" -ge 4 ] || fail "Prometheus holds ${n:-no} pause buckets"
    q=$(query 'histogram_quantile(0.99, ghc_gc_pause_seconds_bucket{job="ev2hp",gen="0"})')
    [ -n "$q" ] || fail "Prometheus computes no quantile of the pauses"
    serve_stop
    echo "gc_metrics.sh: Prometheus: $want gen-1 collections, $n buckets, gen-0 p99 $q s"
fi
exit $failed
