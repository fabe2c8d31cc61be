#!/bin/sh
# replays.sh — every fuzz target (tests/fuzz/fuzz_NAME.c) is replayed by make check: its check
# program tests/fuzz/fuzz_NAME was built, which takes one line in tests/fuzz/Makefile.inc
# (FUZZ_REPLAYS += tests/fuzz/fuzz_NAME). A target added without it fails here, naming the line.
. "${SRCDIR:-.}/tests/lib.sh"
B=$(dirname "$RETRIAGE")
for c in "$SRCDIR"/tests/fuzz/fuzz_*.c; do
    name=$(basename "$c" .c)
    [ -x "$B/tests/fuzz/$name" ]
    ok $? "$name is replayed by make check$([ -x "$B/tests/fuzz/$name" ] || echo " (add FUZZ_REPLAYS += tests/fuzz/$name to tests/fuzz/Makefile.inc)")"
    [ -d "$SRCDIR/tests/fuzz/seeds/${name#fuzz_}" ] || echo "# $name has no seeds in tests/fuzz/seeds/${name#fuzz_}/: nothing to replay"
done
done_testing
