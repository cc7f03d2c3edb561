#!/bin/sh
# deps.sh: puppeteer-core for the browser tests and the report's render benchmark,
#
#   tests/browser/deps.sh SRCDIR DEPSDIR
#
# installed by `npm ci` from the project's package.json and package-lock.json into DEPSDIR
# (tests/browser-deps of the build tree), again only when the lock file changed.
# puppeteer-core drives the installed Chromium and downloads no browser. Prints npm's log
# and fails when npm fails. Copies the scripts of tests/browser there too (each time): they
# import puppeteer-core and launch.mjs from the folder they run in.
set -eu
src=$1 deps=$2
mkdir -p "$deps"
# The scripts and the module they share, next to the node_modules they import from.
cp "$src"/tests/browser/*.mjs "$deps/"
if cmp -s "$src/package-lock.json" "$deps/package-lock.json" &&
    [ -d "$deps/node_modules/puppeteer-core" ]; then
    exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$deps/"
log=$(cd "$deps" && npm ci --no-audit --no-fund --loglevel=error 2>&1) || {
    printf '%s\n' "$log"
    echo "deps.sh: npm ci failed" >&2
    exit 1
}
