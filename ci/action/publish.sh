#!/bin/sh
# publish.sh: puts the run's pictures where a pull request comment can show them, and
# writes the comment's Markdown (the job summary gets it too).
#
# The pictures branch (EV2HP_PICTURES_BRANCH, ev2hp-pictures; created on first use, with
# no history shared with the code) holds a folder per commit (heap.png, heap-diff.png
# when compared, trend.png) and the history: history/KEY/COMMIT.json, each run's
# --summary=json naming its commit (--commit, --commit-time), KEY the base branch, pr-N
# for a pull request, or the branch. The trend is drawn from the base branch's last
# EV2HP_TREND_LENGTH recorded commits, then the pull request's own. The commit is pushed
# with the job's token (contents: write); when another run pushed first, it is made again
# on top of theirs (the folders do not overlap), five times at most. The images are
# linked as GITHUB_SERVER_URL/OWNER/REPO/blob/BRANCH/PATH?raw=true: GitHub answers with
# the file's bytes (a redirect to raw.githubusercontent.com), for a private repository
# only to a reader signed in with access to it.
#
# A push that fails (a pull request from a fork has a read-only token) leaves the pictures
# out and says so; it does not fail the job, whose verdict is the gates'.
# Output: body (the comment's Markdown file).
set -eu
out=$EV2HP_OUTPUT_DIR
commit=$EV2HP_COMMIT
short=$(printf %.7s "$commit")
server=${GITHUB_SERVER_URL:-https://github.com}
body="$out/heap-comment.md"

# The history's key for this run (a name for a folder: no slash, nothing odd).
if [ -n "$EV2HP_PR" ]; then
    key="pr-$EV2HP_PR"
else
    key=$(printf %s "$EV2HP_BRANCH" | tr -c 'A-Za-z0-9._-' '-')
fi
base_key=$(printf %s "$EV2HP_BASE_BRANCH" | tr -c 'A-Za-z0-9._-' '-')
# the base branch's name as Markdown text (a branch may be named with * _ [ ] < >...)
base_md=$(printf %s "$EV2HP_BASE_BRANCH" | sed 's/[][\\`*_<>()#!|~&]/\\&/g')

# history_files DIR KEY N: the newest N history files of KEY, oldest first (commit time,
# then name: the same order on every run).
history_files() {
    [ -d "$1/history/$2" ] || return 0
    for f in "$1/history/$2"/*.json; do
        [ -f "$f" ] && printf '%s\t%s\n' "$(jq -r '.commit.time // ""' "$f")" "$f"
    done | sort | tail -n "$3" | cut -f 2
}

published=""
why=""
if [ -n "$EV2HP_PICTURES_BRANCH" ]; then
    repo="${RUNNER_TEMP:-/tmp}/ev2hp-pictures"
    auth=$(printf 'x-access-token:%s' "$EV2HP_TOKEN" | base64 | tr -d '\n')
    git_() {
        git -C "$repo" -c "http.extraheader=AUTHORIZATION: basic $auth" \
            -c user.name='github-actions[bot]' \
            -c user.email='41898282+github-actions[bot]@users.noreply.github.com' "$@"
    }
    rm -rf "$repo"
    git init -q "$repo"
    git_ remote add origin "$server/$GITHUB_REPOSITORY.git"
    try=1
    while :; do
        if git_ fetch -q --depth=1 origin "$EV2HP_PICTURES_BRANCH" 2>"$repo.err"; then
            git_ checkout -q -B "$EV2HP_PICTURES_BRANCH" FETCH_HEAD
        elif grep -q "couldn't find remote ref" "$repo.err"; then
            git_ checkout -q --orphan "$EV2HP_PICTURES_BRANCH"   # the branch's first run
        else
            why="could not fetch $EV2HP_PICTURES_BRANCH: $(tail -n 1 "$repo.err")"
            break
        fi
        mkdir -p "$repo/$commit" "$repo/history/$key"
        cp "$out/heap.png" "$repo/$commit/heap.png"
        [ ! -f "$out/heap-diff.png" ] || cp "$out/heap-diff.png" "$repo/$commit/heap-diff.png"
        # (no JSON summary, e.g. a sha --commit refuses: no point of the trend)
        [ ! -s "$out/heap-summary.json" ] ||
            cp "$out/heap-summary.json" "$repo/history/$key/$commit.json"
        # shellcheck disable=SC2046 # file names: hex and the keys, no blanks
        set -- $(history_files "$repo" "$base_key" "$EV2HP_TREND_LENGTH")
        # shellcheck disable=SC2046
        [ "$key" = "$base_key" ] || set -- "$@" $(history_files "$repo" "$key" 1000)
        rm -f "$out/trend.png" "$out/trend.svg"
        if [ $# -ge 2 ]; then
            if ev2hp --trend "$@" -o "$out/trend.png" -o "$out/trend.svg" 2>"$repo.trend.err"; then
                cp "$out/trend.png" "$repo/$commit/trend.png"
            else
                echo "::warning::the trend: $(head -n 1 "$repo.trend.err")"
            fi
        fi
        git_ add -A
        # (a re-run of a commit draws the same bytes: nothing new to commit, then)
        git_ diff --cached --quiet ||
            git_ commit -q -m "ev2hp: the pictures and history of $commit ($key)"
        if git_ push -q origin "HEAD:refs/heads/$EV2HP_PICTURES_BRANCH" 2>"$repo.err"; then
            published="$server/$GITHUB_REPOSITORY/blob/$EV2HP_PICTURES_BRANCH/$commit"
            echo "the pictures: $EV2HP_PICTURES_BRANCH/$commit"
            break
        fi
        if [ $try -ge 5 ] || ! grep -q -e 'fetch first' -e 'non-fast-forward' "$repo.err"; then
            why="could not push to $EV2HP_PICTURES_BRANCH: $(tail -n 1 "$repo.err")"
            break
        fi
        echo "another run pushed to $EV2HP_PICTURES_BRANCH first: again on top of it ($try)"
        try=$((try + 1))
        git_ checkout -q --detach
        git_ reset -q --hard
        git_ clean -qfdx
    done
    [ -z "$why" ] || echo "::warning::the pictures are not in the comment: $why"
fi

# The comment: a hidden marker (the next run finds it), the verdict, the pictures, the
# links, then ev2hp's own summary (its text from the eventlog escaped by ev2hp).
{
    echo "<!-- ev2hp -->"
    case "$EV2HP_STATUS" in
    0) verdict="✅ every gate passed" ;;
    3) verdict="❌ a gate failed" ;;
    *) verdict="⚠️ a gate could not be checked (status $EV2HP_STATUS)" ;;
    esac
    grep -q '^#### Gates' "$out/heap-summary.md" || verdict="no gates"
    echo "## ev2hp: $verdict"
    echo
    printf 'Commit %s' "$short"
    [ -z "${GITHUB_RUN_ID:-}" ] ||
        printf ' · [the run](%s/%s/actions/runs/%s)' "$server" "$GITHUB_REPOSITORY" "$GITHUB_RUN_ID"
    [ -z "$EV2HP_ARTIFACT_URL" ] ||
        printf ' · [the report and the charts](%s) (heap.html in the artifact)' "$EV2HP_ARTIFACT_URL"
    echo
    echo
    if [ -n "$published" ]; then
        # the heap at the comment's width, then the diff and the trend side by side (a
        # table row; GitHub opens each picture at its full size when clicked)
        echo "![The heap profile of $short]($published/heap.png?raw=true)"
        head="" rule="" row=""
        if [ -f "$out/heap-diff.png" ]; then
            head="$head | Against $base_md" rule="$rule | :---:"
            row="$row | ![This run minus $base_md's, band by band]($published/heap-diff.png?raw=true)"
        fi
        if [ -f "$out/trend.png" ]; then
            head="$head | Across commits" rule="$rule | :---:"
            row="$row | ![The trend across commits]($published/trend.png?raw=true)"
        fi
        [ -z "$row" ] || printf '\n%s |\n%s |\n%s |\n' "$head" "$rule" "$row"
    elif [ -n "$why" ]; then
        echo "*The pictures are not shown: $why.*"
    fi
    echo
    cat "$out/heap-summary.md"
} >"$body"
cat "$body" >>"$GITHUB_STEP_SUMMARY"
echo "body=$body" >>"$GITHUB_OUTPUT"
