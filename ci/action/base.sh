#!/bin/sh
# base.sh: what this run is compared with. base: auto takes the eventlog this workflow
# kept (the artifact NAME-eventlog) on the base branch's last finished run: none yet (the
# first run) or expired, the run is not compared and the log says why; a failing
# `gh run list` (no actions: read permission, a wrong flag) fails the step. A run on the
# base branch itself is not compared: it keeps its eventlog for the runs after it.
# Outputs: file (the base eventlog, or empty), on-base-branch (true or false).
set -eu
. "$GITHUB_ACTION_PATH/ci/action/gh-host.sh"
branch=${GITHUB_HEAD_REF:-${GITHUB_REF_NAME:-}}
on_base=false
if [ -z "${GITHUB_HEAD_REF:-}" ] && [ "$branch" = "$EV2HP_BASE_BRANCH" ]; then
    on_base=true
fi
echo "on-base-branch=$on_base" >>"$GITHUB_OUTPUT"
file=""
case "$EV2HP_BASE" in
none) echo "base: none: not compared" ;;
auto)
    if [ "$on_base" = true ]; then
        echo "a run on $EV2HP_BASE_BRANCH: not compared; its eventlog is kept for" \
            "later runs"
    else
        dir="${RUNNER_TEMP:-/tmp}/ev2hp-base"
        rm -rf "$dir"
        run=$(gh run list --repo "$GITHUB_REPOSITORY" --branch "$EV2HP_BASE_BRANCH" \
            --workflow "$GITHUB_WORKFLOW" --limit 20 --json databaseId,status \
            --jq '[.[] | select(.status == "completed")][0].databaseId // empty')
        if [ -z "$run" ]; then
            echo "no finished run on $EV2HP_BASE_BRANCH yet: not compared"
        elif gh run download "$run" --repo "$GITHUB_REPOSITORY" --name "$EV2HP_ARTIFACT" \
            --dir "$dir"; then
            got="$dir/${EV2HP_EVENTLOG##*/}"
            [ -f "$got" ] || got=$(find "$dir" -type f | head -n 1)
            # kept in the workspace by the branch's name: the summary says "Compared
            # with ev2hp-base/main.eventlog"
            mkdir -p ev2hp-base
            name=$(printf %s "$EV2HP_BASE_BRANCH" | tr -c 'A-Za-z0-9._-' '-')
            file="ev2hp-base/$name.eventlog"
            mv "$got" "$file"
            echo "compared with $EV2HP_BASE_BRANCH's run $run"
        else
            echo "::warning::$EV2HP_BASE_BRANCH's run $run kept no $EV2HP_ARTIFACT" \
                "(expired?): not compared"
        fi
    fi ;;
*)
    [ -f "$EV2HP_BASE" ] || { echo "::error::base: no file $EV2HP_BASE"; exit 1; }
    file=$EV2HP_BASE ;;
esac
echo "file=$file" >>"$GITHUB_OUTPUT"
