#!/bin/sh
# run.sh: runs the workflow's command (the program and its arguments, as shell text) with
# a heap profile: `+RTS <rts-options> -l -ol<eventlog> -RTS` appended, the eventlog
# written where the next steps read it. -ol takes its file without a space (GHC rejects
# `-ol FILE`); the program must be built with -rtsopts. Its status is the step's.
set -eu
echo "running: $EV2HP_COMMAND +RTS $EV2HP_RTS_OPTIONS -l -ol$EV2HP_EVENTLOG -RTS"
rm -f "$EV2HP_EVENTLOG"
# shellcheck disable=SC2086 # the RTS options are words
sh -c "$EV2HP_COMMAND"' "$@"' sh +RTS $EV2HP_RTS_OPTIONS -l "-ol$EV2HP_EVENTLOG" -RTS
if [ ! -s "$EV2HP_EVENTLOG" ]; then
    echo "::error::the program wrote no eventlog $EV2HP_EVENTLOG (is it built with -rtsopts?)"
    exit 1
fi
