#!/bin/sh
# Placeholder: replaced by the golden test suite.
. "$SRCDIR/tests/lib.sh"
"$RETRIAGE" --version >/dev/null; ok $? "retriage --version runs"
done_testing
