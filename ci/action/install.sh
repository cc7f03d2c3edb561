#!/bin/sh
# install.sh: the Action's first step puts ev2hp on PATH. A workflow that names a release
# (uses: OWNER/ev2hp@v1.2.0) gets the .deb attached to that release (gh release download),
# installed with apt-get, which pulls the libraries it needs; that takes seconds. Any
# other ref (a branch, a commit, `uses: ./`), or a release without a .deb for this
# machine, builds the action's own source (its checkout is GITHUB_ACTION_PATH) with the
# packages the build needs, as the README's build does: a few minutes.
#
# EV2HP_INSTALL: auto (the above), source (always build), none (ev2hp is on PATH already).
set -eu
. "$GITHUB_ACTION_PATH/ci/action/gh-host.sh"

case "$EV2HP_INSTALL" in
none)
    if command -v ev2hp >/dev/null; then
        echo "ev2hp is installed already: $(ev2hp --version | head -n 1)"
        exit 0
    fi
    echo "::error::install: none, but there is no ev2hp on PATH"
    exit 1 ;;
auto|source) ;;
*)  echo "::error::install: '$EV2HP_INSTALL' is not auto, source or none"
    exit 1 ;;
esac

arch=$(dpkg --print-architecture)
debs="${RUNNER_TEMP:-/tmp}/ev2hp-deb"
if [ "$EV2HP_INSTALL" = auto ] && [ -n "$EV2HP_ACTION_REPOSITORY" ] &&
    [ -n "$EV2HP_ACTION_REF" ]; then
    rm -rf "$debs"
    if gh release download "$EV2HP_ACTION_REF" --repo "$EV2HP_ACTION_REPOSITORY" \
        --pattern "ev2hp_*_$arch.deb" --dir "$debs" 2>"$debs.err"; then
        deb=$(ls "$debs"/ev2hp_*_"$arch".deb)
        echo "ev2hp from the release $EV2HP_ACTION_REF of" \
            "$EV2HP_ACTION_REPOSITORY: ${deb##*/}"
        sudo apt-get update -qq
        sudo apt-get install -y -qq --no-install-recommends "$deb"
        ev2hp --version | head -n 1
        exit 0
    fi
    echo "no .deb for $arch in the release $EV2HP_ACTION_REF of $EV2HP_ACTION_REPOSITORY" \
        "($(head -n 1 "$debs.err")): building ev2hp from source"
else
    echo "building ev2hp from the action's source ($EV2HP_INSTALL; no release named)"
fi

# The packages configure requires (tests/ci_workflows.py checks this list against
# configure.ac), then the build, in a copy: the action's folder stays as it was.
sudo apt-get update -qq
sudo apt-get install -y -qq --no-install-recommends \
    build-essential git autoconf automake pkg-config \
    libxml2-dev libpng-dev libcairo2-dev libpango1.0-dev zlib1g-dev \
    libmicrohttpd-dev libprotobuf-c-dev protobuf-c-compiler libelf-dev libjansson-dev \
    fonts-dejavu-core
src="${RUNNER_TEMP:-/tmp}/ev2hp-src"
rm -rf "$src"
cp -R "$GITHUB_ACTION_PATH" "$src"
cd "$src"
autoreconf -fi
./configure --quiet
make -j"$(nproc)"
sudo make install
ev2hp --version | head -n 1
