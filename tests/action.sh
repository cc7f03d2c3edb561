#!/bin/sh
# action.sh: the GitHub Action (action.yml) run as GitHub's runner runs it, with real gh,
# git, curl and a GHC-built program, against a local stand-in for GitHub
# (tests/action_test.py says what it checks).
. "${SRCDIR:?}/tests/testlib.sh"
"$PYTHON3" -c 'import yaml' 2>/dev/null || {
    echo "FAIL: python3's yaml module is missing (Debian: python3-yaml, in bootstrap)"
    exit 1
}
"$PYTHON3" "$SRCDIR/tests/action_test.py"
