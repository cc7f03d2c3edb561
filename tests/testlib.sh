# testlib.sh: the start every shell test shares; a test sources it first:
#
#     . "${SRCDIR:?}/tests/testlib.sh"
#
# It takes what `make check` sets (EV2HP, the program; SRCDIR, the source tree; PYTHON3),
# names the corpus folder ($data), makes a temporary folder of the test's own ($tmp,
# from mktemp, removed on exit: tests run in parallel under `make -j check`, so nothing
# may use a fixed name), and defines fail, which records a failure and goes on so that
# one run reports every broken case, and skip_without, which skips a test whose tools
# are not installed. A test ends with `exit $failed` (0 or 1; never 77
# or 99, which the harness reads as "skipped" and "hard error").
set -u
: "${EV2HP:?}" "${SRCDIR:?}" "${PYTHON3:=python3}"
data="$SRCDIR/tests/data"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ev2hp-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# In a sanitized build (--enable-asan), LeakSanitizer's scan at the exit of every ev2hp
# run a shell test starts (hundreds, each drawing run's font caches scanned) doubles the
# suite's cost, for runs that end seconds later. The C unit tests keep the leak checks
# for the same code in process; the tests of an ev2hp that runs on (the live server,
# followed streams), where a leak would grow, call leak_checks. Later options win.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
leak_checks() { ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=1"; }

# have TOOL: whether TOOL is installed (a test that can do without it says so).
have() { command -v "$1" >/dev/null 2>&1; }

# skip_without TOOL...: unless every TOOL is installed (on PATH; a TOOL "a|b" is either),
# says which is not and ends the test as skipped (status 77).
skip_without() {
    for want in "$@"; do
        for one in $(echo "$want" | tr '|' ' '); do
            command -v "$one" >/dev/null && continue 2
        done
        echo "${0##*/}: $want not installed: skipped"
        exit 77
    done
}

# find_chromium: the installed Chromium's path (empty when there is none).
find_chromium() {
    command -v chromium || command -v chromium-browser || true
}

# browser_setup [TOOL...]: for a test that drives a page in headless Chromium: skips it
# (77) without chromium, node, npm or a TOOL it names, and sets browser (Chromium's path)
# and deps (the folder of puppeteer-core and the scripts of tests/browser: REPORT_DEPS, or
# tests/browser-deps of the build tree; tests/browser/deps.sh installs it).
browser_setup() {
    skip_without "chromium|chromium-browser" node npm "$@"
    browser=$(find_chromium)
    deps=${REPORT_DEPS:-$PWD/tests/browser-deps}
    sh "$SRCDIR/tests/browser/deps.sh" "$SRCDIR" "$deps"
}

# run STATUS ARGS...: runs ev2hp with ARGS, its standard output in $tmp/out and error in
# $tmp/err, the status in $status; a status other than STATUS is a failure.
run() {
    expected=$1
    shift
    "$EV2HP" "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ "$status" = "$expected" ] ||
        fail "ev2hp $*: status $status, wanted $expected ($(head -c 300 "$tmp/err"))"
}

# patience SECONDS: how long a test waits for something that takes SECONDS on an idle
# machine: SECONDS times the load per core (the 1-minute load average over the cores,
# at least 1, at most 8), so that `make check -j16` on 2 cores waits longer instead of
# failing. A message about a wait that ran out says the patience and the load
# (patience_said). No /proc/loadavg: SECONDS.
patience() {
    awk -v s="$1" -v n="$(nproc 2>/dev/null || echo 1)" '
        { f = $1 / n; if (f < 1) f = 1; if (f > 8) f = 8; printf "%.1f\n", s * f; found = 1 }
        END { if (!found) print s }' /proc/loadavg 2>/dev/null || echo "$1"
}
patience_said() {
    echo "waited $1 s, the patience at load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?') on $(nproc 2>/dev/null || echo '?') cores"
}
# patience_tries TRIES: TRIES (of a wait that tries at a fixed step) scaled as patience
# scales seconds, a whole number.
patience_tries() {
    awk -v t="$1" -v f="$(patience 1)" 'BEGIN { printf "%d\n", t * f + 0.5 }'
}

# hp_labelled FILE JOB LABEL...: writes FILE, a .hp (inputs may be .hp, whose band names
# are any bytes but a tab or a newline) of six censuses, at 1 to 6 s, with a band per
# LABEL, for tests of labels that must never act (markup, control characters). Every band
# grows, each more slowly than the one before: at census i the first holds i * 6000
# bytes, the next i * 5000, 4000, 3000, 2000, 1500 and 1000 (seven LABELs at the most).
hp_labelled() {
    hp_file=$1 hp_job=$2
    shift 2
    {
        printf 'JOB "%s"\nDATE "now"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n' "$hp_job"
        for i in 1 2 3 4 5 6; do
            printf 'BEGIN_SAMPLE %d.0\n' "$i"
            hp_weights="6000 5000 4000 3000 2000 1500 1000"
            for label in "$@"; do
                printf '%s\t%d\n' "$label" $((i * ${hp_weights%% *}))
                hp_weights=${hp_weights#* }
            done
            printf 'END_SAMPLE %d.0\n' "$i"
        done
    } >"$hp_file"
}

# gfm_seen MARKDOWN JSON: what a reader of MARKDOWN sees on GitHub, for tests of text that
# must never act in a Markdown summary: the page cmark-gfm makes of it with GitHub's
# extensions (table, strikethrough, autolink; a test without cmark-gfm skips before), as
# JSON: {"html": the page, "tags": every tag in it, "rows": the text of each table row's
# cells, "links": the [href, text] of each link}.
gfm_seen() {
    cmark-gfm -e table -e strikethrough -e autolink "$1" > "$2.html" || return 1
    "$PYTHON3" - "$2.html" > "$2" <<'PY'
import html.parser, json, sys
page = open(sys.argv[1]).read()
class Seen(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.rows, self.links = set(), [], []
        self.cell = self.text = None
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "a":
            self.links.append([dict(attrs)["href"], ""])
            self.text = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(self.cell)
            self.cell = None
        elif tag == "a":
            self.links[-1][1] = self.text
            self.text = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.text is not None:
            self.text += data
p = Seen()
p.feed(page)
p.close()
json.dump({"html": page, "tags": sorted(p.tags), "rows": p.rows, "links": p.links}, sys.stdout)
PY
}
