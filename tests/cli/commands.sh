#!/usr/bin/env bash
# commands.sh — the one table of subcommands (cli/cli.c): dispatch, the usage text and every
# "Try '…'" hint come from it, so a hint never names a command that does not exist.
. "${SRCDIR:-.}/tests/lib.sh"
D=$TMPD

run --help
st=0
for c in eval export leak pool; do
    grep -Eq "^  $c +" "$D/out" || { echo "usage lacks $c" | diag; st=1; }
done
report $st "the usage lists every command"
for c in eval export leak pool; do
    run "$c" --help
    [ "$rc" -eq 0 ] && grep -q "^Usage: retriage $c" "$D/out"; report $? "retriage $c --help works"
done

run --bogus-option
st=0
[ "$rc" -eq 1 ] || st=1
grep -q "retriage open" "$D/err" && st=1           # there is no command called open
grep -q "Try 'retriage --help-open'" "$D/err" || st=1
report $st "an unknown workbench option points to --help-open, not to a command that does not exist"

run eval --bogus-option
[ "$rc" -eq 1 ] && grep -q "Try 'retriage eval --help'" "$D/err"; report $? "an unknown eval option points to eval --help"
run bogus
[ "$rc" -eq 1 ] && grep -q "unknown command 'bogus'" "$D/err" && grep -Eq "^  pool +" "$D/err"
report $? "an unknown command is named, and the commands listed"
run
[ "$rc" -eq 1 ] && grep -q "^Usage: retriage" "$D/err"; report $? "no arguments: the usage on stderr, exit 1"

# Every "unknown X" lists the valid values, from the same table the parser reads.
run export --demo --what bogus
[ "$rc" -eq 1 ] && grep -q "(qrels, qrels-diff, tags, breakdown, metrics, per-query, leakage)" "$D/err"
report $? "export: an unknown --what lists every kind"
run export --demo
[ "$rc" -eq 1 ] && grep -q "leakage" "$D/err"; report $? "export: a missing --what lists every kind (leakage too)"
run export --demo --what metrics --format xlsx
[ "$rc" -eq 1 ] && grep -q "(trec, tsv, csv, json, md, latex)" "$D/err"
report $? "export: an unknown format lists the formats"

done_testing
