#!/bin/sh
# report_url.sh: --summary=markdown --report-url URL (issue 36, item 4): each band of the
# table and of the suspects links to the report opened at it (URL#band=LABEL, and the
# summary's window with --from/--to), rendered by cmark-gfm as links whose text is the
# band's name and whose labels still never act (markup, pipes, autolinks, entities); a URL
# that is not http://, https:// or relative, or has a fragment, a space or a control
# character, or --report-url without --summary=markdown, is a usage error (status 2).
# That the links open the report at their band is tests/report_window.sh's (a browser).
set -u
. "${SRCDIR:?}/tests/testlib.sh"

for url in 'javascript:alert(1)' 'JavaScript:alert(1)' 'data:text/html,x' 'file:///etc/passwd' \
    'http://' 'https:///x' 'https://h/r.html#x' 'r.html#band=x' 'a b.html' "$(printf 'r\001.html')" ''; do
    run 2 "$data/leak-hc.eventlog" --summary=markdown --report-url "$url"
    grep -q -- "--report-url" "$tmp/err" || fail "--report-url '$url': $(cat "$tmp/err")"
    LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err" && fail "--report-url: a control character echoed"
done
run 2 "$data/leak-hc.eventlog" --summary=markdown --report-url "$(printf 'r\033[31m.html')"
LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err" && fail "--report-url: an escape sequence echoed"
run 2 "$data/leak-hc.eventlog" --summary --report-url r.html
grep -q "summary=markdown" "$tmp/err" || fail "--report-url without markdown: $(cat "$tmp/err")"

# doc/guide.md's example, as written (tests/docs_examples.sh runs it too, on the bundled
# example: the same run)
cp "$data/leak-hc.eventlog" "$tmp/prog.eventlog"
( cd "$tmp" && "$EV2HP" prog.eventlog -o report.html --summary=markdown --report-url report.html > summary.md ) ||
    fail "the guide's example"
grep -q '^| \[(8)buildMap.\\\\/buildMap/main.m/main\](report.html#band=buildMap.%5C%2FbuildMap%2Fmain.m%2Fmain) |' \
    "$tmp/summary.md" || fail "no link for the largest band: $(grep '^| \[' "$tmp/summary.md" | head -2)"
run 0 "$data/leak-hc.eventlog" --from 1 --to 3.5 --summary=markdown --report-url 'https://ci.example.org/r/report.html'
grep -q '](https://ci.example.org/r/report.html#band=lazySum%2Fmain&window=1%2C3.5)' "$tmp/out" ||
    fail "the window is not in the links: $(grep lazySum "$tmp/out")"
grep -q '^- \*\*Window:\*\* .*(\[the report on it\](https://ci.example.org/r/report.html#window=1%2C3.5))$' \
    "$tmp/out" || fail "the window's line does not link the report: $(grep Window "$tmp/out")"

# hostile labels (as tests/ci.sh's) through cmark-gfm with GitHub's extensions
hp_labelled "$tmp/evil.hp" evil '<script>alert(1)</script>' 'a|b' \
    '`code` and *stars* and _under_)' '[link](http://example.com) <b>bold</b> &amp;' \
    '$x$ @someone #1 ~~gone~~ \' 'www.example.org/path' 'x@example.org and javascript:alert(2)'
url='https://ci.example.org/r (1)/report.html?a=1&copy;=2&lt=<x>'
url=$(printf '%s' "$url" | sed 's/ /%20/g')
LC_ALL=C "$EV2HP" --summary=markdown --report-url "$url" "$tmp/evil.hp" > "$tmp/evil.md" ||
    fail "hostile labels: status $?"
skip_without cmark-gfm
gfm_seen "$tmp/evil.md" "$tmp/evil.seen" || fail "cmark-gfm: status $?"
"$PYTHON3" - "$tmp/evil.seen" <<'PY' || fail "the links do not render as links to their bands"
import json, sys, urllib.parse
page = json.load(open(sys.argv[1]))
bad = set(page["tags"]) - {"h3", "h4", "ul", "li", "strong", "p", "table", "thead", "tbody",
                          "tr", "th", "td", "code", "a"}
assert not bad, bad
base = "https://ci.example.org/r%20%281%29/report.html?a=1&copy%3B=2&lt=%3Cx%3E#"
labels = ["<script>alert(1)</script>", "a|b", "`code` and *stars* and _under_)",
          "[link](http://example.com) <b>bold</b> &amp;", "$x$ @someone #1 ~~gone~~ \\",
          "www.example.org/path", "x@example.org and javascript:alert(2)"]
seen = set()
for href, text in page["links"]:
    assert href.startswith(base), href
    band = urllib.parse.parse_qs(href[len(base):])["band"][0]
    assert text.replace("\u2060", "") == band, (text, band)
    seen.add(band)
assert seen == set(labels), seen ^ set(labels)
PY
exit $failed
