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
# Many per-query lines (1,100 queries × 4 measures) are formatted in two halves on two threads:
# the same lines, in the same order, as each measure alone (formatted on one) interleaved.
awk 'BEGIN { for (q = 1; q <= 1100; q++) for (r = 1; r <= 10; r++)
    printf "q%04d Q0 p%04d_%d %d %.6f t\n", q, q, (r * 3 + q) % 10, r, 1 / (r + q / 7.0) }' > "$D/big.run"
awk 'BEGIN { for (q = 1; q <= 1100; q++) for (k = 0; k < 3; k++) printf "q%04d 0 p%04d_%d %d\n", q, q, (q + k * 4) % 10, k % 3 }' > "$D/big.qrels"
"$RETRIAGE" eval -q -m RR@10,AP,nDCG@10,P@5 "$D/big.qrels" "$D/big.run" > "$D/big.all" 2> /dev/null
for m in RR@10 AP nDCG@10 P@5; do
    "$RETRIAGE" eval -q -m "$m" "$D/big.qrels" "$D/big.run" 2> /dev/null | grep -v "	all	" > "$D/big.$m"
done
paste -d '\n' "$D/big.RR@10" "$D/big.AP" "$D/big.nDCG@10" "$D/big.P@5" > "$D/big.want"
grep -v "	all	" "$D/big.all" > "$D/big.got"
[ "$(wc -l < "$D/big.got")" -eq 4400 ] && cmp -s "$D/big.want" "$D/big.got"
ok $? "4,400 per-query lines formatted on two threads: those of one measure at a time, in order"

done_testing
