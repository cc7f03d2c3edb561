#!/bin/sh
# debian_package.sh: the Debian package (debian/) as a user gets it. The source tree is
# copied twice (to paths of different lengths) and each copy built with
# `dpkg-buildpackage -us -uc -b`; the two .debs must be the same bytes (SOURCE_DATE_EPOCH
# from debian/changelog, as dpkg sets it). The .deb must hold the program, the manual, the
# docs and the examples and name the libraries ev2hp opens with dlopen (libmicrohttpd) and
# the font the PNG needs, which dpkg-shlibdeps cannot see; lintian must report no error and
# no warning. Then it is installed with `apt-get install ./ev2hp_*.deb` into a fresh
# minbase chroot of each suite in DEBIAN_PACKAGE_SUITES ("bookworm sid" unless set: the
# stable release and unstable, whose libraries are the next release's), made by
# debootstrap from the machine's own Debian mirror as ../shared/tools/newghc.sh does,
# where ev2hp draws the example's SVG, PNG and HTML (the same bytes as this build's ev2hp;
# sid's PNG the same but for text's grey edges) and `ev2hp --serve` answers curl inside
# the chroot.
#
# Skipped (77), saying why, when not root (debootstrap and chroot need it), when
# dpkg-buildpackage, debhelper, lintian or debootstrap are missing, or when the mirror
# cannot be reached. The debootstrapped chroot of each suite (with apt's lists and curl) is
# kept in tests/debian-chroot of the build tree (or EV2HP_CHROOT_CACHE): a cold run spends
# most of its time there; every run installs into a fresh copy of it. Set,
# EV2HP_SKIP_DEBIAN_PACKAGE (its value the reason) skips the test: .ci/run's second suite.
. "${SRCDIR:?}/tests/testlib.sh"

if [ -n "${EV2HP_SKIP_DEBIAN_PACKAGE:-}" ]; then
    echo "debian_package.sh: $EV2HP_SKIP_DEBIAN_PACKAGE (EV2HP_SKIP_DEBIAN_PACKAGE): skipped"
    exit 77
fi
if [ "$(id -u)" != 0 ]; then
    echo "debian_package.sh: not root (debootstrap and chroot need it): skipped"
    exit 77
fi
skip_without dpkg-buildpackage dh lintian debootstrap

# The version a user sees in the package is the one configure.ac declares.
version=$(sed -n 's/^AC_INIT(\[ev2hp\], \[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")
changelog_version=$(cd "$SRCDIR" && dpkg-parsechangelog -S Version)
[ "$version" = "$changelog_version" ] ||
    fail "debian/changelog's version $changelog_version is not configure.ac's $version"
arch=$(dpkg --print-architecture)
deb=ev2hp_${changelog_version}_$arch.deb

# copy_source DIR: the source files of SRCDIR into DIR, writable, with the copy's own
# times (as a fresh checkout has): git's files (tracked, and new ones not ignored) when
# SRCDIR is the top of a git work tree, else (a tarball: `make distcheck` unpacks it inside
# the work tree) the tree without distcheck's build (_build, _inst) and the chroots.
copy_source() {
    mkdir -p "$1"
    if [ "$(git -C "$SRCDIR" rev-parse --show-toplevel 2>/dev/null)" = \
        "$(cd "$SRCDIR" && pwd -P)" ]; then
        (cd "$SRCDIR" && git ls-files -co --exclude-standard -z | tar -cf - --null -T -)
    else
        (cd "$SRCDIR" && tar -cf - --exclude=./_build --exclude=./_inst \
            --exclude=./tests/debian-chroot .)
    fi | tar -m -xf - -C "$1"
    chmod -R u+w "$1"   # distcheck's source tree is read-only; the build writes in its copy
}

# Two builds at once (the second at a longer path), each logged beside its copy.
started=$(date +%s)
copy_source "$tmp/a/ev2hp"
copy_source "$tmp/b/a-longer-folder/ev2hp"
for d in "$tmp/a/ev2hp" "$tmp/b/a-longer-folder/ev2hp"; do
    # (not under this make: the variables of its command line and its job server)
    (cd "$d" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b \
        >../build.log 2>&1; echo $? >../build.status) &
done
wait
for d in "$tmp/a" "$tmp/b/a-longer-folder"; do
    if [ "$(cat "$d/build.status")" != 0 ] || [ ! -f "$d/$deb" ]; then
        tail -n 30 "$d/build.log"
        fail "dpkg-buildpackage in $d: status $(cat "$d/build.status"), no $deb"
        exit 1
    fi
done
echo "debian_package.sh: two builds in $(($(date +%s) - started)) s"
for f in "$deb" "ev2hp-dbgsym_${changelog_version}_$arch.deb"; do
    cmp "$tmp/a/$f" "$tmp/b/a-longer-folder/$f" ||
        fail "$f: two builds of one tree differ ($(dpkg-deb -c "$tmp/a/$f" >"$tmp/c1";
            dpkg-deb -c "$tmp/b/a-longer-folder/$f" >"$tmp/c2"; diff "$tmp/c1" "$tmp/c2" |
            head -n 5 | tr '\n' ' '))"
done

# What the package holds and names.
dpkg-deb -c "$tmp/a/$deb" | awk '{ print $6 }' >"$tmp/contents"
for path in ./usr/bin/ev2hp ./usr/share/man/man1/ev2hp.1.gz \
    ./usr/share/doc/ev2hp/copyright ./usr/share/doc/ev2hp/changelog.gz \
    ./usr/share/doc/ev2hp/README.md.gz ./usr/share/doc/ev2hp/guide.md.gz \
    ./usr/share/doc/ev2hp/examples/leak-hc.eventlog ./usr/share/doc/ev2hp/examples/README.md; do
    grep -qxF "$path" "$tmp/contents" || fail "$deb has no $path"
done
depends=$(dpkg-deb -f "$tmp/a/$deb" Depends)
for want in "libmicrohttpd12t64 | libmicrohttpd12 (>= 0.9.71)" fonts-dejavu-core \
    "libc6 (>=" "libcairo2 (>=" "libpango-1.0-0 (>=" "libxml2 (>="; do
    case ", $depends," in
        *", $want"*) ;;
        *) fail "$deb's Depends has no $want: $depends" ;;
    esac
done

# lintian: no error, no warning (information tags are printed, not failures).
lintian --fail-on error,warning "$tmp/a/ev2hp_${changelog_version}_$arch.changes" \
    >"$tmp/lintian" 2>&1 || fail "lintian: $(grep -v '^running with root' "$tmp/lintian")"
grep -v '^running with root' "$tmp/lintian"

# The outputs the installed ev2hp must write, as this build's ev2hp writes them.
# (The input's name, which the PNG records, is the same: example.eventlog, the issue's.)
cp "$SRCDIR/share/examples/leak-hc.eventlog" "$tmp/example.eventlog"
(cd "$tmp" && "$EV2HP" example.eventlog -o x.svg -o x.png -o x.html) ||
    fail "this build's ev2hp cannot draw example.eventlog"

cache=${EV2HP_CHROOT_CACHE:-$PWD/tests/debian-chroot}
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
[ -n "$mirror" ] || mirror=$(awk '/^deb / { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
in_root() {
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        LANG=C.UTF-8 HOME=/root "$@"
}
root=""
unmount_root() {
    if [ -n "$root" ] && mountpoint -q "$root/proc"; then umount "$root/proc"; fi
}
trap 'unmount_root; rm -rf --one-file-system "$tmp"' EXIT

for suite in ${DEBIAN_PACKAGE_SUITES:-bookworm sid}; do
    started=$(date +%s)
    # The suite's chroot, made once: minbase, curl (to ask --serve), apt's lists.
    if [ ! -x "$cache/$suite/usr/bin/curl" ]; then
        rm -rf --one-file-system "$cache/$suite.new"
        mkdir -p "$cache"
        if ! debootstrap --variant=minbase --include=curl,ca-certificates "$suite" \
            "$cache/$suite.new" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
            tail -n 5 "$tmp/debootstrap.log"
            rm -rf --one-file-system "$cache/$suite.new"
            echo "debian_package.sh: debootstrap could not make a $suite chroot from" \
                "$mirror (no network?): the install is not checked"
            [ "$failed" = 0 ] && exit 77
            exit 1
        fi
        rm -rf --one-file-system "$cache/$suite"
        mv "$cache/$suite.new" "$cache/$suite"
        echo "debian_package.sh: debootstrap of $suite in $(($(date +%s) - started)) s"
    fi
    root="$tmp/root-$suite"
    cp -a "$cache/$suite" "$root"
    mount -t proc proc "$root/proc"
    if ! in_root apt-get -o Acquire::Check-Valid-Until=false update -qq >"$tmp/apt.log" 2>&1; then
        cat "$tmp/apt.log"
        unmount_root
        echo "debian_package.sh: apt-get update in the $suite chroot failed (no network?):" \
            "the install is not checked"
        [ "$failed" = 0 ] && exit 77
        exit 1
    fi
    cp "$tmp/a/$deb" "$root/tmp/"
    if in_root apt-get install -y -q --no-install-recommends "/tmp/$deb" >"$tmp/apt.log" 2>&1; then
        # Run every output in the chroot, in a folder of its own, from the package's example.
        mkdir "$root/tmp/run"
        in_root sh -c 'cd /tmp/run &&
            cp /usr/share/doc/ev2hp/examples/leak-hc.eventlog example.eventlog &&
            ev2hp example.eventlog -o x.svg -o x.png -o x.html' >"$tmp/run.out" 2>&1 ||
            fail "$suite: ev2hp example -o x.svg -o x.png -o x.html: $(cat "$tmp/run.out")"
        for f in x.svg x.html; do
            cmp "$tmp/$f" "$root/tmp/run/$f" ||
                fail "$suite: the installed ev2hp's $f differs from this build's"
        done
        # The PNG: the same bytes on this machine's own suite (the same libraries). On
        # another, the suite's FreeType draws text's grey edges its own way (sid: 2 % of
        # the pixels): the same size, every coloured pixel the same, only grey ones differ.
        if ! cmp -s "$tmp/x.png" "$root/tmp/run/x.png"; then
            if [ "$suite" = "$(. /etc/os-release && echo "$VERSION_CODENAME")" ]; then
                fail "$suite: the installed ev2hp's x.png differs from this build's"
            else
                "$PYTHON3" - "$SRCDIR/tests" "$tmp/x.png" "$root/tmp/run/x.png" "$suite" <<'PY' ||
import sys
sys.path.insert(0, sys.argv[1])
import pngread
w, h, ours = pngread.read(sys.argv[2])
w2, h2, theirs = pngread.read(sys.argv[3])
if (w, h) != (w2, h2):
    sys.exit("%s's PNG is %dx%d, this build's %dx%d" % (sys.argv[4], w2, h2, w, h))
grey = lambda c: c[0] == c[1] == c[2]
differ = [(x, y) for y in range(h) for x in range(w) if ours(x, y) != theirs(x, y)]
coloured = [p for p in differ if not (grey(ours(*p)) and grey(theirs(*p)))]
if coloured:
    sys.exit("%d coloured pixels differ, the first at %s" % (len(coloured), coloured[0]))
print("debian_package.sh: %s: x.png: %.1f %% of the pixels differ, all grey (text's edges)"
      % (sys.argv[4], 100.0 * len(differ) / (w * h)))
PY
                    fail "$suite: the installed ev2hp's x.png is not this build's picture"
            fi
        fi
        # --serve: started in the chroot, asked with curl there, stopped with SIGTERM.
        tries=$(patience_tries 300)
        cat >"$root/tmp/serve.sh" <<EOF
cd /tmp/run
ev2hp --serve 127.0.0.1:0 example.eventlog 2>serve.err &
pid=\$!
i=0
while [ \$i -lt $tries ]; do
    url=\$(sed -n 's/^ev2hp: serving \(http:[^ ]*\)\$/\1/p' serve.err)
    [ -n "\$url" ] && break
    kill -0 \$pid 2>/dev/null || break   # ended without serving
    sleep 0.1
    i=\$((i + 1))
done
if [ -z "\$url" ]; then
    echo "no 'ev2hp: serving' line in $tries tries: \$(cat serve.err)"
    kill \$pid 2>/dev/null
    exit 1
fi
curl -sS -o page.html -w '%{http_code}\n' "\$url" || { kill \$pid; exit 1; }
curl -sS -o chart.png -w '%{http_code}\n' "\${url}chart.png" || { kill \$pid; exit 1; }
kill -TERM \$pid
wait \$pid
echo "status \$?"
EOF
        in_root sh /tmp/serve.sh >"$tmp/serve.out" 2>&1
        if [ "$(cat "$tmp/serve.out")" != "200
200
status 0" ]; then
            fail "$suite: ev2hp --serve and curl: $(cat "$tmp/serve.out")"
        else
            page="$root/tmp/run/page.html"
            grep -q '<meta name="generator" content="ev2hp' "$page" ||
                fail "$suite: --serve's / is not the report: $(head -c 200 "$page")"
            head -c 8 "$root/tmp/run/chart.png" | od -An -tx1 |
                grep -q '89 50 4e 47 0d 0a 1a 0a' ||
                fail "$suite: --serve's /chart.png is not a PNG"
        fi
    else
        tail -n 20 "$tmp/apt.log"
        fail "$suite: apt-get install ./$deb failed"
    fi
    unmount_root
    rm -rf --one-file-system "$root"
    root=""
    echo "debian_package.sh: $suite: installed and run in $(($(date +%s) - started)) s"
done
exit $failed
