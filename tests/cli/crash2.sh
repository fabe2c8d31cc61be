#!/bin/sh
# crash2.sh — the other 25 of DESIGN §6's 50 kills (crash.sh has the first 25 and says what they
# check): the same test with another seed (other delays, other operations), so that make -j2 runs
# the two halves side by side. CRASH2_SEED overrides it.
CRASH_SEED=${CRASH2_SEED:-104729}
export CRASH_SEED
exec /bin/sh "$SRCDIR/tests/cli/crash.sh"
