#!/bin/sh
# capabilities.sh: each capability's shares of a -threaded run (issue 35, item 2).
#   tests/data/caps: real GHC 9.10.3 runs of gcwork.hs at -N2 and -N4 with the
#   scheduler's events (its README says how they were made). tests/caps_check.py reads
#   --summary=json's capabilities against a ThreadScope-like reading of --dump (per
#   capability RUN_THREAD..STOP_THREAD running, GC_START..GC_END collecting, the rest
#   idle): every capability listed, each share within 1e-6, the three summing to 1. The
#   text and Markdown summaries carry the line; a run without scheduler events (the
#   gcstats runs, made with -l-agu) and a .hp have none (JSON null). The heap view's
#   strip per capability (SVG; PNG, PDF and EPS rendered) draws the same shares
#   (tests/capstrip_check.py);
#   a -threaded run of one capability has one strip, a non-threaded run none.
. "${SRCDIR:?}/tests/testlib.sh"
for n in 2 4; do
    run="$data/caps/n$n.eventlog.gz"
    "$EV2HP" --summary=json "$run" > "$tmp/n$n.json" 2> /dev/null || fail "-N$n: status $?"
    "$EV2HP" --dump "$run" > "$tmp/n$n.dump" 2> /dev/null || fail "-N$n --dump: status $?"
    "$PYTHON3" "$SRCDIR/tests/caps_check.py" "$tmp/n$n.json" "$tmp/n$n.dump" $n \
        > "$tmp/n$n.check" || fail "-N$n against --dump: $(cat "$tmp/n$n.check")"
done
"$EV2HP" --summary "$data/caps/n2.eventlog.gz" > "$tmp/n2.txt" 2> /dev/null
grep -qE '^capabilities cap 0: 23\.2 % running, 52\.3 % collecting, 24\.5 % idle; cap 1: 21\.8 % running, 50\.9 % collecting, 27\.3 % idle$' \
    "$tmp/n2.txt" || fail "the text line: $(grep capabilities "$tmp/n2.txt")"
"$EV2HP" --summary=markdown "$data/caps/n4.eventlog.gz" > "$tmp/n4.md" 2> /dev/null
grep -qF 'Capabilities (from the scheduler'"'"'s and the collector'"'"'s events): cap 0: ' "$tmp/n4.md" ||
    fail "the Markdown line"
grep -qF '; cap 3: ' "$tmp/n4.md" || fail "the Markdown line lacks cap 3"
# no scheduler events: no line, null
"$EV2HP" --summary=json "$data/gcstats/n2.eventlog.gz" > "$tmp/agu.json" 2> /dev/null
"$EV2HP" --summary=json "$data/flat-hc.hp" > "$tmp/hp.json" 2> /dev/null
for f in agu hp; do
    "$PYTHON3" -c 'import json, sys
assert json.load(open(sys.argv[1]))["capabilities"] is None' "$tmp/$f.json" ||
        fail "$f: capabilities is not null"
done
"$EV2HP" --summary "$data/gcstats/n2.eventlog.gz" 2> /dev/null | grep -q '^capabilities' &&
    fail "a run without scheduler events has a capabilities line"

# The heap view's strip per capability (SVG and PNG of one drawing): each capability's
# blue, orange and grey areas are its shares in the summary (tests/capstrip_check.py).
# The PDF and EPS of the same drawing, rendered at 96 dpi (a user unit a pixel), alike.
for n in 2 4; do
    run="$data/caps/n$n.eventlog.gz"
    "$EV2HP" --view heap -o "$tmp/n$n.svg" -o "$tmp/n$n.png" -o "$tmp/n$n.pdf" \
        -o "$tmp/n$n.eps" "$run" 2> /dev/null || fail "-N$n heap view: status $?"
    pictures="$tmp/n$n.png"
    if have pdftoppm; then
        pdftoppm -r 96 -png -singlefile "$tmp/n$n.pdf" "$tmp/n$n-pdf" && pictures="$pictures $tmp/n$n-pdf.png"
    fi
    if have gs; then
        gs -q -dSAFER -dBATCH -dNOPAUSE -dEPSCrop -dGraphicsAlphaBits=4 -sDEVICE=png16m -r96 \
            -o "$tmp/n$n-eps.png" "$tmp/n$n.eps" && pictures="$pictures $tmp/n$n-eps.png"
    fi
    echo "-N$n: $pictures"
    for picture in $pictures; do
        "$PYTHON3" "$SRCDIR/tests/capstrip_check.py" "$tmp/n$n.json" "$tmp/n$n.svg" "$picture" \
            > "$tmp/n$n.strip" ||
            fail "-N$n strips ($picture): $(grep -v '^PNG cap\|^cap' "$tmp/n$n.strip")"
    done
done
# the scheduler's events of the gcsched runs: -N1 threaded has one strip, -N4 four
for run in n1 n4qg nonmoving; do
    "$EV2HP" --summary=json "$data/gcsched/$run.eventlog.gz" > "$tmp/$run.json" 2> /dev/null
    "$EV2HP" --view heap -o "$tmp/$run.svg" "$data/gcsched/$run.eventlog.gz" 2> /dev/null ||
        fail "gcsched/$run heap view: status $?"
    "$PYTHON3" "$SRCDIR/tests/capstrip_check.py" "$tmp/$run.json" "$tmp/$run.svg" > "$tmp/$run.strip" ||
        fail "gcsched/$run strips: $(grep -v '^cap' "$tmp/$run.strip")"
done
grep -c 'class="cap-idle"' "$tmp/n1.svg" | grep -qx 1 || fail "-N1: not one strip"
grep -qF '>running Haskell threads</text>' "$tmp/n2.svg" || fail "the strips' legend"
# narrow (480 units): the notes over the collections' lanes on lines of their own, the
# allocation's and the strips' legend cut to the plot (whole in their tooltips)
"$EV2HP" --view heap --width 480 -o "$tmp/narrow.svg" "$data/caps/n4.eventlog.gz" 2> /dev/null ||
    fail "narrow heap view: status $?"
"$PYTHON3" - "$tmp/narrow.svg" <<'PY' || fail "the narrow heap view's notes"
import re, sys
svg = open(sys.argv[1]).read()
alloc = re.search(r'<text class="allocation" x="[\d.]+" y="([\d.]+)"[^>]*><title>allocation rate '
                  r'not drawn: each capability counts its own allocation \(HEAP_ALLOCATED\)'
                  r'</title>allocation rate not drawn[^<]*\u2026</text>', svg)
gc = re.search(r'<text class="gc" x="[\d.]+" y="([\d.]+)"', svg)
assert alloc and gc, "the notes"
assert float(gc.group(1)) - float(alloc.group(1)) >= 10, (alloc.group(1), gc.group(1))
assert re.search(r"<title>each capability, from the scheduler's and the collector's events"
                 r"</title>each capability[^<]*\u2026</text>", svg), "the strips' legend"
PY
# a -threaded run with one capability has its strip; a non-threaded run (rts_p) and a run
# without scheduler events (-l-agu) have none
"$EV2HP" --summary=json "$data/end/grow-killed.eventlog.gz" > "$tmp/one.json" 2> /dev/null
"$EV2HP" --view heap -o "$tmp/one.svg" "$data/end/grow-killed.eventlog.gz" 2> /dev/null ||
    fail "-N1 heap view: status $?"
"$PYTHON3" "$SRCDIR/tests/capstrip_check.py" "$tmp/one.json" "$tmp/one.svg" > "$tmp/one.strip" ||
    fail "one capability's strip: $(cat "$tmp/one.strip")"
for run in "$data/labels-hc-g910.eventlog" "$data/gcstats/n2.eventlog.gz"; do
    "$EV2HP" --view heap -o "$tmp/none.svg" "$run" 2> /dev/null || fail "$run: status $?"
    grep -q 'class="cap-' "$tmp/none.svg" && fail "$run: a strip per capability"
done
exit $failed
