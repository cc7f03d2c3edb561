#!/bin/sh
# comment.sh: keeps ONE comment of the pull request up to date: the first comment whose
# body holds the marker <!-- ev2hp --> is edited (PATCH /repos/O/R/issues/comments/ID);
# none yet, one is made (POST /repos/O/R/issues/N/comments). gh api speaks to GitHub (the
# job's token, pull-requests: write). A refusal (a fork's read-only token) is a warning,
# not the job's failure. Output: url (the comment's address).
set -eu
. "$GITHUB_ACTION_PATH/ci/action/gh-host.sh"
marker='<!-- ev2hp -->'
api="repos/$GITHUB_REPOSITORY/issues"
json="$EV2HP_BODY.json"
jq -Rs '{body: .}' "$EV2HP_BODY" >"$json"
# say MESSAGE: the refusal as a warning (with gh's own words); the step ends well
say() { echo "::warning::$1: $(cat "$json.err")"; exit 0; }
# (every page: the pull request may have more than 30 comments)
gh api --paginate "$api/$EV2HP_PR/comments" \
    --jq "[.[] | select(.body | contains(\"$marker\"))][0].id // empty" \
    >"$json.ids" 2>"$json.err" || say "could not read the comments of #$EV2HP_PR"
id=$(head -n 1 "$json.ids")
if [ -n "$id" ]; then
    url=$(gh api --method PATCH "$api/comments/$id" --input "$json" --jq .html_url \
        2>"$json.err") || say "could not edit the comment $id"
    echo "the comment, edited: $url"
else
    url=$(gh api --method POST "$api/$EV2HP_PR/comments" --input "$json" --jq .html_url \
        2>"$json.err") || say "could not comment on #$EV2HP_PR"
    echo "the comment, made: $url"
fi
echo "url=$url" >>"$GITHUB_OUTPUT"
