# lib.sh: what the pprof tests (tests/pprof.sh, tests/serve_pprof.sh) share, sourced after
# tests/testlib.sh: Go set up to build offline from Debian's packages with its caches in
# the test's folder, and pprofcheck.go (Google's own parser) built as $pprofcheck. A test
# without golang-github-google-pprof-dev is skipped (77); one that cannot build it fails.
skip_without go
export HOME="$tmp" GOCACHE="$tmp/gocache" GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
[ -d /usr/share/gocode/src/github.com/google/pprof/profile ] || {
    echo "${0##*/}: golang-github-google-pprof-dev not installed: skipped"
    exit 77
}
check="$SRCDIR/tests/pprof/check.py"
pprofcheck="$tmp/pprofcheck"
(cd "$tmp" && go build -o "$pprofcheck" "$SRCDIR/tests/pprof/pprofcheck.go") ||
    { echo "FAIL: cannot build tests/pprof/pprofcheck.go"; exit 1; }
