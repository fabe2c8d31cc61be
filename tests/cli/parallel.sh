#!/bin/sh
# parallel.sh — the two-thread read of large run files (rt_eval_file) gives exactly the values,
# warnings and line numbers of the one-thread read. RETRIAGE_PARALLEL_MIN=0 forces the parallel
# path on small files.
. "$SRCDIR/tests/lib.sh"
export LC_ALL=C
D=$TMPD
# 200 queries × 60 passages, ties included, qrels with grades 0–2 and one query not in the run.
awk 'BEGIN {
    for (q = 1; q <= 200; q++) for (r = 1; r <= 60; r++)
        printf "q%03d Q0 p%03d_%02d %d %.2f t\n", q, q, r, r, (60 - r) / 4.0
}' > "$D/run"
awk 'BEGIN { for (q = 1; q <= 201; q++) for (k = 0; k < 4; k++) printf "q%03d 0 p%03d_%02d %d\n", q, q, (q * 7 + k * 13) % 60 + 1, k % 3 }' > "$D/qrels"
M=RR@10,R@50,nDCG@10,AP,P@5,Success@1,NumRet,MFR
RETRIAGE_PARALLEL_MIN=999999999 "$RETRIAGE" eval -q -m $M "$D/qrels" "$D/run" > "$D/seq" 2> "$D/seq.err"
ok $? "one-thread read"
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" eval -q -m $M "$D/qrels" "$D/run" > "$D/par" 2> "$D/par.err"
ok $? "two-thread read"
cmp -s "$D/seq" "$D/par"; ok $? "same values, per query and mean"
cmp -s "$D/seq.err" "$D/par.err"; ok $? "same warnings"
[ "$(wc -l < "$D/seq")" -gt 1000 ]; ok $? "the comparison covers many values"

# A duplicate in the second half: the warning names the same line either way.
awk 'NR == 9000 { print; print } NR != 9000' "$D/run" > "$D/run.dup"
RETRIAGE_PARALLEL_MIN=999999999 "$RETRIAGE" eval -m $M "$D/qrels" "$D/run.dup" > "$D/seq" 2> "$D/seq.err"
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" eval -m $M "$D/qrels" "$D/run.dup" > "$D/par" 2> "$D/par.err"
cmp -s "$D/seq" "$D/par" && cmp -s "$D/seq.err" "$D/par.err"; ok $? "duplicate in the second half: same values and warning"
grep -q "run.dup:9001: 1 duplicate" "$D/par.err"; ok $? "the warning names line 9001"

# Queries split across the halves (not grouped): falls back to the whole-file read.
awk 'NR % 2 == 1' "$D/run" > "$D/odd"; awk 'NR % 2 == 0' "$D/run" > "$D/even"
cat "$D/odd" "$D/even" > "$D/run.scattered"
RETRIAGE_PARALLEL_MIN=999999999 "$RETRIAGE" eval -q -m $M "$D/qrels" "$D/run" > "$D/seq" 2>/dev/null
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" eval -q -m $M "$D/qrels" "$D/run.scattered" > "$D/par" 2>/dev/null
cmp -s "$D/seq" "$D/par"; ok $? "scattered queries: same values as the grouped file"

# An error in the second half is reported with the whole file's line number.
awk 'NR == 10000 { $5 = "abc" } { print }' "$D/run" > "$D/run.bad"
RETRIAGE_PARALLEL_MIN=0 "$RETRIAGE" eval "$D/qrels" "$D/run.bad" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "run.bad:10000: expected a numeric score" "$D/err"; ok $? "error in the second half names line 10000"
done_testing
