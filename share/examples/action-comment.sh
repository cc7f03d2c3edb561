#!/bin/sh
# action-comment.sh EV2HP OUT.png: the README's picture of the pull request comment ev2hp's
# Action keeps (make-examples.sh makes share/examples/action-comment.png with it): the comment's Markdown is written by the action's
# own scripts (ci/action/profile.sh and publish.sh, as the runner runs them, the pictures
# branch a local bare repository reached as file://), from bundled runs: this pull
# request's tests/data/flat-hc.eventlog against a base at 90 % of it, after three commits
# of main at 80, 85 and 90 % (the trend). Then cmark-gfm renders it with GitHub's
# extensions and headless Chromium photographs the top of it in a frame like GitHub's.
#
# Run from the top of the source tree; needs git, cmark-gfm and chromium.
set -eu
src=$(pwd)
ev2hp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shot=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/site/owner"
ln -s "$ev2hp" "$tmp/bin/ev2hp"
PATH="$tmp/bin:$PATH"

# scaled PCT: flat-hc's censuses at PCT % (a .hp, which ev2hp reads as it reads an eventlog)
scaled() {
    awk -F '\t' -v p="$1" 'NF == 2 { printf "%s\t%d\n", $1, $2 * p / 100; next } { print }' \
        "$src/tests/data/flat-hc.hp" > "$tmp/flat-$1.hp"
}
for p in 80 85 90; do scaled $p; done

# main's history: three commits, a day apart
git init -q --bare "$tmp/site/owner/project.git"
git init -q "$tmp/seed"
mkdir -p "$tmp/seed/history/main"
day=1
for p in 80 85 90; do
    sha=$(printf '%s%07d' "c0ffee$p" 0 | cut -c 1-13)$(printf '%027d' $day)
    ev2hp "$tmp/flat-$p.hp" --summary=json --commit "$sha" \
        --commit-time "2026-11-0${day}T10:00:00Z" --commit-subject "main, day $day" \
        > "$tmp/seed/history/main/$sha.json"
    day=$((day + 1))
done
git -C "$tmp/seed" add -A
git -C "$tmp/seed" -c user.name=a -c user.email=a@b commit -q -m seed
git -C "$tmp/seed" push -q "$tmp/site/owner/project.git" HEAD:refs/heads/ev2hp-pictures

# the pull request's run, as the action's steps make it
mkdir -p "$tmp/ws"
cd "$tmp/ws"
cp "$src/tests/data/flat-hc.eventlog" heap.eventlog
mkdir ev2hp-base
cp "$tmp/flat-90.hp" ev2hp-base/main.eventlog   # where base.sh puts main's
export GITHUB_ACTION_PATH="$src" GITHUB_OUTPUT="$tmp/output" GITHUB_STEP_SUMMARY="$tmp/summary"
export GITHUB_SERVER_URL="file://$tmp/site" GITHUB_REPOSITORY=owner/project RUNNER_TEMP="$tmp"
export GITHUB_RUN_ID=4242 EV2HP_OUTPUT_DIR=heap-profile EV2HP_EVENTLOG=heap.eventlog
export EV2HP_COMMIT=5eed5eed0123456789abcdef0123456789abcdef EV2HP_BASE_FILE=ev2hp-base/main.eventlog
export EV2HP_MAX_PEAK=512M EV2HP_MAX_INCREASE=20 EV2HP_MAX_GROWTH=1M/s EV2HP_ARGS="--bands 6"
export EV2HP_OUTPUTS="svg png html" EV2HP_TOKEN=none EV2HP_STATUS=0 EV2HP_PR=12
export EV2HP_PICTURES_BRANCH=ev2hp-pictures EV2HP_TREND_LENGTH=20 EV2HP_BASE_BRANCH=main
export EV2HP_ARTIFACT_URL=https://github.com/owner/project/actions/runs/4242/artifacts/1 EV2HP_BRANCH=feature
sh "$src/ci/action/profile.sh" > /dev/null
sh "$src/ci/action/publish.sh" > /dev/null

# the pictures as a browser fetches them: the committed files, here from the bare repository
sed -n 's/^body=//p' "$tmp/output" | xargs cat > "$tmp/comment.md"
git -C "$tmp/site/owner/project.git" archive ev2hp-pictures "$EV2HP_COMMIT" | tar -xf - -C "$tmp"
# (relative links: cmark-gfm drops file: ones)
sed "s|file://$tmp/site/owner/project/blob/ev2hp-pictures/\([^)]*\)?raw=true|\1|g" \
    "$tmp/comment.md" | cmark-gfm --extension table --extension strikethrough \
    --extension autolink --extension tagfilter > "$tmp/body.html"
{
    cat <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { margin: 0; padding: 16px; background: #fff; font: 14px/1.5 "DejaVu Sans", sans-serif; color: #1f2328; }
.box { border: 1px solid #d0d7de; border-radius: 6px; width: 860px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px; color: #59636e; border-radius: 6px 6px 0 0; }
.head b { color: #1f2328; }
.body { padding: 4px 16px 16px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
h3 { font-size: 1.25em; } h4 { font-size: 1em; }
table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #d1d9e0; padding: 4px 10px; }
tr:nth-child(2n) { background: #f6f8fa; } img { max-width: 100%; }
code { background: #eff1f3; border-radius: 4px; padding: .1em .3em; font-size: 85%; }
a { color: #0969da; text-decoration: none; }
</style></head><body><div class="box"><div class="head"><b>github-actions</b> bot commented · edited</div><div class="body">
HTML
    cat "$tmp/body.html"
    echo '</div></div></body></html>'
} > "$tmp/comment.html"
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --window-size=894,1000 --screenshot="$tmp/shot.png" "file://$tmp/comment.html" 2>/dev/null
cp "$tmp/shot.png" "$shot"
