#!/bin/sh
# Every command of the README, doc/guide.md and the manual's EXAMPLES runs as written, on
# the fixtures tests/docs_examples.py maps the documents' file names to, with the status
# and the output the documents show; lines that cannot run here are listed with why.
. "${SRCDIR:?}/tests/testlib.sh"
"$PYTHON3" "$SRCDIR/tests/docs_examples.py" "$SRCDIR" "$tmp/docs" || fail "docs_examples.py"
exit $failed
