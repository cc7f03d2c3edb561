#!/bin/sh
# deps.sh: puppeteer-core for the browser tests and the report's render benchmark,
#
#   tests/browser/deps.sh SRCDIR DEPSDIR
#
# installed by `npm ci` from the project's package.json and package-lock.json into DEPSDIR
# (tests/browser-deps of the build tree), again only when the lock file changed.
# puppeteer-core drives the installed Chromium and downloads no browser. Prints npm's log
# and fails when npm fails.
set -eu
src=$1 deps=$2
if cmp -s "$src/package-lock.json" "$deps/package-lock.json" &&
    [ -d "$deps/node_modules/puppeteer-core" ]; then
    exit 0
fi
mkdir -p "$deps"
cp "$src/package.json" "$src/package-lock.json" "$deps/"
log=$(cd "$deps" && npm ci --no-audit --no-fund --loglevel=error 2>&1) || {
    printf '%s\n' "$log"
    echo "deps.sh: npm ci failed" >&2
    exit 1
}
