#!/bin/sh
# ci_workflows.sh: the example CI workflows (doc/ci/github-actions.yml, doc/ci/gitlab-ci.yml)
# parse as YAML and their shell steps pass with a GHC-built program run with their own
# +RTS line, Debian's gh and curl checking every command line, only the network and
# tokens stubbed (tests/ci_workflows.py says how), so the examples cannot rot.
set -u
: "${EV2HP:?}" "${SRCDIR:?}" "${PYTHON3:=python3}"
"$PYTHON3" -c 'import yaml' 2> /dev/null || {
    echo "FAIL: python3's yaml module is missing (Debian: python3-yaml, in bootstrap)"
    exit 1
}
exec "$PYTHON3" "$SRCDIR/tests/ci_workflows.py"
