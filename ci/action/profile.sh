#!/bin/sh
# profile.sh: ev2hp reads the eventlog once for the outputs the workflow asked for (the
# PNG always: the comment shows it), the Markdown summary, the gates and their JUnit
# report; once more for the JSON summary the history keeps (naming the commit: the
# trend's points), and, compared with a base, once more for the diff view's
# PNG. The gates' verdict does not fail this step: the outputs, the summary and the
# comment come first, and the action's last step fails with ev2hp's status.
# With `benchmark` among the outputs, --summary=benchmark too (heap-benchmark.json).
# Outputs: status (ev2hp's), summary (the Markdown file), compared (true or false).
set -eu
out=$EV2HP_OUTPUT_DIR
mkdir -p "$out"
[ -s "$EV2HP_EVENTLOG" ] || { echo "::error::no eventlog $EV2HP_EVENTLOG"; exit 1; }

set --
[ -z "$EV2HP_MAX_PEAK" ] || set -- "$@" --max-peak "$EV2HP_MAX_PEAK"
[ -z "$EV2HP_MAX_GROWTH" ] || set -- "$@" --max-growth "$EV2HP_MAX_GROWTH"
compared=false
if [ -n "$EV2HP_BASE_FILE" ]; then
    compared=true
    set -- "$@" --compare "$EV2HP_BASE_FILE"
    [ -z "$EV2HP_MAX_INCREASE" ] || set -- "$@" --max-increase "$EV2HP_MAX_INCREASE"
fi
# shellcheck disable=SC2086 # args: options, as words
set -- "$@" $EV2HP_ARGS

outputs="-o $out/heap.png"
for ext in $EV2HP_OUTPUTS; do
    case "$ext" in
    png|benchmark) ;;
    svg|html|pdf|hp|json|csv|eps|ps|folded) outputs="$outputs -o $out/heap.$ext" ;;
    *) echo "::error::outputs: '$ext' is not an output ev2hp writes"; exit 1 ;;
    esac
done

status=0
# shellcheck disable=SC2086 # outputs: -o FILE pairs (the folder's name has no blanks)
ev2hp "$EV2HP_EVENTLOG" "$@" $outputs --junit "$out/heap-junit.xml" \
    --summary=markdown >"$out/heap-summary.md" || status=$?
echo "status=$status" >>"$GITHUB_OUTPUT"
echo "compared=$compared" >>"$GITHUB_OUTPUT"
if [ ! -s "$out/heap-summary.md" ]; then
    echo "::error::ev2hp could not read $EV2HP_EVENTLOG (status $status)"
    exit "$status"
fi
echo "summary=$out/heap-summary.md" >>"$GITHUB_OUTPUT"

# The run as the history keeps it: --summary=json naming the commit, with its time and
# subject when the checkout has it (a pull request's head may not be in a shallow one).
set -- "$@" --commit "$EV2HP_COMMIT"
if time=$(git log -1 --format=%cI "$EV2HP_COMMIT" 2>/dev/null); then
    subject=$(git log -1 --format=%s "$EV2HP_COMMIT")
    set -- "$@" --commit-time "$time" --commit-subject "$subject"
fi
ev2hp "$EV2HP_EVENTLOG" "$@" --summary=json 2>/dev/null >"$out/heap-summary.json" || true

# benchmark: the JSON github-action-benchmark reads (customSmallerIsBetter)
case " $EV2HP_OUTPUTS " in
*" benchmark "*)
    # shellcheck disable=SC2086
    ev2hp "$EV2HP_EVENTLOG" $EV2HP_ARGS --summary=benchmark >"$out/heap-benchmark.json" ;;
esac

if [ "$compared" = true ]; then
    # shellcheck disable=SC2086
    ev2hp "$EV2HP_EVENTLOG" --compare "$EV2HP_BASE_FILE" $EV2HP_ARGS --view diff \
        -o "$out/heap-diff.png" 2>/dev/null ||
        echo "::warning::the diff view could not be drawn"
fi
exit 0
