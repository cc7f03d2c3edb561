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
#
# Several browser tests start at once under `make check -j`: one holds DEPSDIR's lock
# (flock) while it installs, the others wait for it instead of reading a node_modules that
# `npm ci` is still writing; a script is copied under a temporary name and renamed, so a
# test already running never imports a half-written file.
set -eu
src=$1 deps=$2
mkdir -p "$deps"
exec 9>"$deps.lock"
flock 9
for script in "$src"/tests/browser/*.mjs; do
    name=$(basename "$script")
    if ! cmp -s "$script" "$deps/$name"; then
        cp "$script" "$deps/.$name.tmp"
        mv -f "$deps/.$name.tmp" "$deps/$name"
    fi
done
if cmp -s "$src/package-lock.json" "$deps/package-lock.json" &&
    [ -d "$deps/node_modules/puppeteer-core" ]; then
    exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$deps/"
log=$(cd "$deps" && npm ci --no-audit --no-fund --loglevel=error 2>&1) || {
    printf '%s\n' "$log"
    rm -f "$deps/package-lock.json"   # so that the next test installs again
    echo "deps.sh: npm ci failed" >&2
    exit 1
}
