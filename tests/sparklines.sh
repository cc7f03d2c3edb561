#!/bin/sh
# sparklines.sh: every band's sparkline (--summary=json's, and --summary=markdown's the same)
# agrees with its column in the JSON export, census by census (tests/sparkcheck.py): the cell of
# the band's largest census is █, and no cell where it reaches an eighth of its peak is
# ▁. On the eventlogs of tests/data and, when it is there, ../shared/corpus (fibheaps-hd:
# a band's peak in one census; fluid-killed-hc: 572 censuses, damaged).
. "${SRCDIR:?}/tests/testlib.sh"
set -- "$data"/*.eventlog
for log in "$SRCDIR"/../shared/corpus/*.eventlog "$SRCDIR"/../shared/corpus/newghc/*.eventlog; do
    [ -f "$log" ] && set -- "$@" "$log"
done
LC_ALL=C.UTF-8 "$PYTHON3" "$SRCDIR/tests/sparkcheck.py" "$EV2HP" "$tmp" "$@" || failed=1
exit $failed
