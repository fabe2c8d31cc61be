#!/bin/sh
# script_errors.sh — a bad script line stops headless mode with exit status 2 and the line
# number; the man page's key section is the action table's.
. "$SRCDIR/tests/lib.sh"
export RETRIAGE_DEMO="$SRCDIR/data/demo/workspace.json" XDG_CACHE_HOME="$TMPD/cache" LC_ALL=C.UTF-8
[ -f "$RETRIAGE_DEMO" ] || skip_all "the demo workspace is missing"

check() {  # check NAME SCRIPT-TEXT EXPECTED-STDERR-PATTERN
    printf '%s\n' "$2" > "$TMPD/s"
    "$RETRIAGE" --demo --journal-dir "$TMPD/j" --script "$TMPD/s" --size 80x24 > /dev/null 2> "$TMPD/err"
    rc=$?
    [ $rc -eq 2 ]; ok $? "$1: exit status 2 (got $rc)"
    grep -q "$3" "$TMPD/err"; ok $? "$1: message names the line"
    grep -q "$3" "$TMPD/err" || diag < "$TMPD/err"
}
check "unknown command" "$(printf 'j\n:frobnicate\n')" "s:2: unknown command"
check "unknown key name" "$(printf '# comment\n\nj <Nope>\n')" "s:3: unknown key <Nope>"
check "unclosed key name" "<Enter" "s:1: unclosed"
check "failing command" ":goto no-such-query" "s:1: no query with id"
check "bad resize" ":resize 0 x" "s:1: usage: :resize"
"$RETRIAGE" --demo --journal-dir "$TMPD/j" --script "$TMPD/missing-script" > /dev/null 2> "$TMPD/err"
[ $? -eq 2 ]; ok $? "missing script file: exit status 2"

# The load report view lists what was loaded (paths vary with the checkout, so grep).
printf 'L\n:snapshot %s\n' "$TMPD/report.txt" > "$TMPD/s"
"$RETRIAGE" --demo --journal-dir "$TMPD/j" --script "$TMPD/s" --size 200x20 > /dev/null 2>&1; ok $? "load report view opens"
grep -q 'queries.tsv: 34 queries' "$TMPD/report.txt"; ok $? "load report: queries counted"
grep -q 'qrels.trec: 138 judgments for 34 queries' "$TMPD/report.txt"; ok $? "load report: judgments counted"
grep -q 'run rerank, 1700 passages for 34 queries' "$TMPD/report.txt"; ok $? "load report: runs counted"
grep -q 'collection.tsv: 312 passages' "$TMPD/report.txt"; ok $? "load report: passages counted"

# The man page's KEYS block equals what the action table prints.
"$RETRIAGE" --help-keys man > "$TMPD/keys"
awk '/^\.\\" BEGIN KEYS/{on=1; next} /^\.\\" END KEYS/{on=0} on' "$SRCDIR/man/retriage.1" > "$TMPD/man-keys"
cmp -s "$TMPD/keys" "$TMPD/man-keys"; ok $? "man page KEYS section is generated from the action table (make man-keys)"
"$RETRIAGE" --help-keys | grep -q ':goto QID'; ok $? "--help-keys lists :goto"
done_testing
