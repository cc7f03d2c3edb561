#!/bin/sh
# views.sh: --view, growth and suspects, and PDF/PostScript/EPS as a user meets them, on
# the real eventlogs in tests/data: every view of every eventlog in SVG, PNG, PDF and EPS
# (the heap view of an eventlog without heap censuses too); PDFs that pdfinfo reads (title
# set, one page) and pdftoppm renders; EPS that ghostscript renders; identical bytes from
# identical runs; values in the SVG; suspects on a leaking program (the map the bundled
# example builds, first) and none on a program whose memory stays flat.
. "${SRCDIR:?}/tests/testlib.sh"

# Each case is ev2hp writing the four formats, then pdfinfo and pdftoppm on its PDF; the
# SVGs are checked by one xmllint and the EPS files rendered by one ghostscript after the
# loop (each starts in a fraction of a second, 84 times over), and a file is named by
# trying them one by one only when the batch fails.
printf '\211PNG\r\n\032\n' > "$tmp/png-signature"
views="area normalized stream lines heap detail"
svgs="" eps=""
for log in "$data"/*.eventlog "$data"/noheap/*.eventlog; do
    name=$(basename "$log" .eventlog)
    for view in $views; do
        out="$tmp/$name-$view"
        if ! "$EV2HP" -q "$log" --view "$view" -o "$out.svg" -o "$out.png" -o "$out.pdf" \
                -o "$out.eps" 2> "$tmp/err"; then
            fail "$name --view $view: exit status: $(cat "$tmp/err")"
            continue
        fi
        for f in svg png pdf eps; do
            [ -s "$out.$f" ] || fail "$name --view $view: empty .$f"
        done
        svgs="$svgs $out.svg"
        eps="$eps $out.eps"
        cmp -s -n 8 "$out.png" "$tmp/png-signature" || fail "$name --view $view: not a PNG"
        if have pdfinfo; then
            pdfinfo "$out.pdf" > "$tmp/info" 2>&1 || fail "$name --view $view: pdfinfo: $(cat "$tmp/info")"
            pages="" title="" size=""
            while IFS= read -r line; do
                case $line in
                    "Pages:"*) pages=${line#Pages:} ;;
                    "Title:"*) title=${line#Title:} ;;
                    "Page size:"*) size=${line#Page size:} ;;
                esac
            done < "$tmp/info"
            [ "$(echo $pages)" = 1 ] || fail "$name --view $view: PDF pages"
            [ -n "$(echo $title)" ] || fail "$name --view $view: PDF without a title"
            case $(echo $size) in
                "960 x 540 pts"*) ;;
                *) fail "$name --view $view: page size" ;;
            esac
        fi
        if have pdftoppm; then
            pdftoppm -r 20 -png -singlefile "$out.pdf" "$tmp/page" 2> "$tmp/err" &&
                [ -s "$tmp/page.png" ] || fail "$name --view $view: pdftoppm: $(cat "$tmp/err")"
            rm -f "$tmp/page.png"
        fi
        rm -f "$out.png" "$out.pdf"
    done
done
# shellcheck disable=SC2086 # one word per file (no spaces in these names)
if have xmllint && ! xmllint --noout $svgs 2> "$tmp/err"; then
    fail "SVG not XML: $(head -c 600 "$tmp/err")"
fi
if have gs; then
    render_eps() {   # render_eps OUTPUT EPS...: each EPS a page of OUTPUT (%03d numbered)
        out=$1
        shift
        gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=png16m -r20 -dEPSCrop -sOutputFile="$out" \
            "$@" > "$tmp/err" 2>&1
    }
    mkdir "$tmp/eps"
    # shellcheck disable=SC2086
    set -- $eps
    if ! { render_eps "$tmp/eps/page-%03d.png" "$@" &&
            [ "$(find "$tmp/eps" -name 'page-*.png' -size +0 | wc -l)" -eq $# ]; }; then
        batch=$(head -c 300 "$tmp/err") named=0
        for f in "$@"; do
            render_eps "$tmp/eps/one.png" "$f" && [ -s "$tmp/eps/one.png" ] || {
                fail "$(basename "$f" .eps): ghostscript: $(head -c 300 "$tmp/err")"
                named=1
            }
            rm -f "$tmp/eps/one.png"
        done
        [ "$named" = 1 ] || fail "ghostscript on all the EPS files at once: $batch"
    fi
fi
have pdfinfo || echo "views.sh: pdfinfo not installed (poppler-utils): PDFs not read back"
have gs || echo "views.sh: ghostscript not installed: EPS not rendered"

# The heap view of an eventlog without heap censuses: totals, allocation, collections.
"$EV2HP" "$data/noheap/flat.eventlog" --view heap -o "$tmp/noh.svg" ||
    fail "heap view without censuses: status $?"
grep -q 'class="total"' "$tmp/noh.svg" || fail "heap view without censuses: no totals"
grep -q 'class="allocation"' "$tmp/noh.svg" || fail "heap view without censuses: no allocation"
grep -q 'collections, each pause as long as it lasted: gen 0 [1-9][0-9]*, ' "$tmp/noh.svg" ||
    fail "heap view: no collections"

# Identical runs, identical bytes, for every document format (nothing from the clock):
# each format twice, a second apart (one pause for all of them).
for f in pdf ps eps png svg; do
    "$EV2HP" "$data/leak-hc.eventlog" --view detail -o "$tmp/a.$f" || fail ".$f: status $?"
done
sleep 1
for f in pdf ps eps png svg; do
    "$EV2HP" "$data/leak-hc.eventlog" --view detail -o "$tmp/b.$f" || fail ".$f: status $?"
    cmp -s "$tmp/a.$f" "$tmp/b.$f" || fail ".$f: two runs differ"
done
head -1 "$tmp/a.eps" | grep -qx '%!PS-Adobe-3.0 EPSF-3.0' || fail "EPS header"
head -1 "$tmp/a.ps" | grep -qx '%!PS-Adobe-3.0' || fail "PS header"
# No creation date from the clock, nor a made-up one (1 January 1970); SOURCE_DATE_EPOCH's
# when it is set (reproducible builds); a malformed one is a usage error, nothing written.
grep -aq 'CreationDate' "$tmp/a.ps" && fail "PS: a creation date without SOURCE_DATE_EPOCH"
grep -aq 'CreationDate' "$tmp/a.pdf" && fail "PDF: a creation date without SOURCE_DATE_EPOCH"
SOURCE_DATE_EPOCH=1700000000 "$EV2HP" "$data/leak-hc.eventlog" -o "$tmp/d.pdf" -o "$tmp/d.ps" ||
    fail "SOURCE_DATE_EPOCH: status $?"
grep -aqx '%%CreationDate: 2023-11-14T22:13:20Z' "$tmp/d.ps" || fail "PS: not SOURCE_DATE_EPOCH's date"
if have pdfinfo; then
    pdfinfo "$tmp/a.pdf" | grep -q '^CreationDate:' && fail "pdfinfo: $(pdfinfo "$tmp/a.pdf")"
    pdfinfo "$tmp/d.pdf" | grep -q '^CreationDate: *Tue Nov 14 22:13:20 2023 UTC$' ||
        fail "pdfinfo with SOURCE_DATE_EPOCH: $(pdfinfo "$tmp/d.pdf")"
fi
SOURCE_DATE_EPOCH=yesterday "$EV2HP" "$data/leak-hc.eventlog" -o "$tmp/e.pdf" 2> "$tmp/err"
[ $? -eq 2 ] || fail "a malformed SOURCE_DATE_EPOCH is not a usage error"
grep -q "SOURCE_DATE_EPOCH wants Unix seconds" "$tmp/err" || fail "$(cat "$tmp/err")"
[ -e "$tmp/e.pdf" ] && fail "a malformed SOURCE_DATE_EPOCH wrote the PDF"
if have pdftotext; then
    # text as text: the labels can be read back out of the PDF
    pdftotext "$tmp/a.pdf" - | grep -q 'buildMap' || fail "PDF text is not text"
fi
"$EV2HP" "$data/leak-hc.eventlog" -f pdf > "$tmp/piped.pdf" || fail "-f pdf to a pipe"
cmp -s "$tmp/piped.pdf" "$tmp/a.pdf" && fail "-f pdf: the area view should differ from detail"
head -c 5 "$tmp/piped.pdf" | grep -q '%PDF-' || fail "-f pdf: not a PDF"

# Values in the SVG: the normalized view's axis is in percent; the detail view gives
# each band's peak and growth as --summary=json does.
"$EV2HP" "$data/leak-hc.eventlog" --view normalized -o "$tmp/n.svg"
grep -q '>100 %<' "$tmp/n.svg" || fail "normalized: no 100 % tick"
grep -q '>MiB<\|[0-9] MiB<' "$tmp/n.svg" && grep -q 'class="axis"[^>]*>[0-9.]* MiB<' "$tmp/n.svg" &&
    fail "normalized: memory ticks on a percent axis"
"$EV2HP" "$data/leak-hc.eventlog" --view detail -o "$tmp/d.svg" --summary=json > "$tmp/s.json"
"$PYTHON3" - "$tmp/s.json" "$tmp/d.svg" <<'PY' || fail "detail view values"
import json, sys, re
s = json.load(open(sys.argv[1]))
svg = open(sys.argv[2]).read()
def fmt(b):
    for u in ["B", "KiB", "MiB", "GiB"]:
        if b < 1024 or u == "GiB":
            break
        b /= 1024
    if u == "B":
        return "%.0f B" % b
    return "%.*f %s" % (0 if b >= 100 else 1 if b >= 10 else 2, b, u)
top = s["bands"][0]
label = re.sub(r"^\(\d+\)", "", top["label"])
assert fmt(top["peak"]) in svg, ("peak", fmt(top["peak"]))
g = top["growth_bytes_per_s"]
assert ("+" if g > 0 else "-") + fmt(abs(g)) + "/s" in svg, ("growth", g)
PY

# Growth and suspects in the summary.
"$EV2HP" --summary=json "$data/leak-hc.eventlog" > "$tmp/leak.json" || fail "summary: status $?"
"$EV2HP" --summary=json "$data/leak-hT.eventlog" > "$tmp/leakT.json" || fail "summary: status $?"
"$EV2HP" --summary=json "$data/flat-hc.eventlog" > "$tmp/flat.json" || fail "summary: status $?"
"$PYTHON3" - "$tmp/leak.json" "$tmp/leakT.json" "$tmp/flat.json" <<'PY' || fail "suspects"
import json, sys
leak, leak_t, flat = (json.load(open(p)) for p in sys.argv[1:4])
for s in (leak, leak_t, flat):
    for b in s["bands"]:
        assert isinstance(b["growth_bytes_per_s"], float) or isinstance(b["growth_bytes_per_s"], int)
        assert 0 <= b["growth_r2"] <= 1, b
    assert s["suspect_rule"] == {"min_censuses": 4, "min_r2": 0.8, "min_rise_of_peak": 0.1}
# the bundled example leaks its map: built, then held to the end
assert leak["suspects"], leak["suspects"]
assert "buildMap" in leak["suspects"][0]["label"], leak["suspects"][0]
assert leak["suspects"][0]["rise_r2"] >= 0.8
# the same program, not profiled (-hT): the map's strings, then its nodes
assert leak_t["suspects"][0]["label"] == "ghc-prim:GHC.Types.:", leak_t["suspects"]
assert leak_t["suspects"][1]["label"] == "containers-0.6.4.1:Data.Map.Internal.Bin"
# flat memory: nothing grows
assert flat["suspects"] == [], flat["suspects"]
assert all(abs(b["growth_bytes_per_s"]) < 1000 for b in flat["bands"]), flat["bands"]
PY
"$EV2HP" --summary "$data/flat-hc.eventlog" | grep -qx 'suspects   none' || fail "text: suspects none"
"$EV2HP" --summary "$data/leak-hc.eventlog" > "$tmp/leak.txt"
grep -A1 '^suspects ' "$tmp/leak.txt" | tail -1 | grep -q 'buildMap' || fail "text: first suspect"
"$EV2HP" --summary --sort growth "$data/leak-hc.eventlog" > "$tmp/g.txt"
grep -q '^bands .*the fastest growing:' "$tmp/g.txt" || fail "--sort growth: heading"
sed -n '/^bands /{n;n;p}' "$tmp/g.txt" | grep -q 'lazySum' || fail "--sort growth: fastest first"

# Refusals.
"$EV2HP" --view pie "$data/leak-hc.eventlog" -o "$tmp/x.svg" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--view pie: status"
grep -q "^ev2hp: --view wants area, normalized, stream, lines, heap, detail, diff, flame or icicle, not 'pie'" "$tmp/err" ||
    fail "--view pie: message: $(cat "$tmp/err")"
[ -e "$tmp/x.svg" ] && fail "--view pie: wrote a file"
"$EV2HP" --sort fastest "$data/leak-hc.eventlog" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--sort fastest: status"

exit $failed
