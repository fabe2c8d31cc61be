#!/bin/sh
# golden_trec_eval — `retriage eval` against trec_eval 10.0's own regression outputs
# (../shared/data/trec_eval-fixtures: usnistgov/trec_eval test/, plus expected-extra/ made with
# the same build). Every measure retriage shares with trec_eval is compared per query and for
# 'all'. These outputs print 4 decimals (%6.4f), so values are compared at 5e-5.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/golden/golden_lib.sh"
need_shared trec_eval-fixtures
F=$SHARED_DATA/trec_eval-fixtures
T=$TOL_4DP

# The quicktest commands of trec_eval's Makefile (quicktest-commands.txt) that use measures
# retriage has. Without -c trec_eval averages over the run's queries; in each of these files every
# qrels query is in the run, so that is the same set as retriage's (the qrels queries).
te_check "out.test (official measures, means)" "$F/out.test" 0 $T "$F/qrels.test" "$F/results.test"
te_check "out.test from qrels.test.with-comments (comment lines, a hash sign inside a docno)" \
    "$F/out.test" 0 $T "$F/qrels.test.with-comments" "$F/results.test"
te_check "out.comment.test (docnos with hash signs, run-only queries ignored)" \
    "$F/out.comment.test" 0 $T "$F/qrels.comment.test" "$F/results.comment.test"
te_check "out.test.a (all_trec means)" "$F/out.test.a" 0 $T "$F/qrels.test" "$F/results.test"
te_check "out.test.aq (all_trec per query)" "$F/out.test.aq" 0 $T "$F/qrels.test" "$F/results.test"
te_check "out.test.aqc (-c, topic 302 missing from results.trunc)" \
    "$F/out.test.aqc" 0 $T "$F/qrels.test" "$F/results.trunc"
# -M100: recip_rank is RR@100, and the measures whose own cutoff is <= 100 are unaffected.
te_check "out.test.aqcM (-c -M100: RR@100 and cutoffs <= 100)" \
    "$F/out.test.aqcM" 100 $T "$F/qrels.test" "$F/results.trunc"
te_check "out.test.aql (-l2 on graded qrels.rel_level; nDCG ignores the level)" \
    "$F/out.test.aql" 0 $T -l 2 "$F/qrels.rel_level" "$F/results.test"
# meas_params: P.5,7,3 recall.20,2000 ndcg_cut.10,20,23.4 success.2,5,20. trec_eval's "ndcg" line
# there uses custom gains (-mndcg.1=3,2=9,4=4.5) and prints as "ndcg_1=3,2=9,4=4.5", which maps to
# no retriage measure.
te_check "out.test.meas_params (P_3/5/7, recall_20/2000, ndcg_cut_10/20/23, success_2/5/20)" \
    "$F/out.test.meas_params" 0 $T "$F/qrels.test" "$F/results.test"

# expected-extra/ (expected-extra/COMMANDS.txt): MRR@10 and Success@k with -c. Despite being
# generated for this project they print trec_eval's stock 4 decimals, hence 5e-5 here too.
X=$F/expected-extra
te_check "expected-extra out.test.qc.rr_success (RR, Success@1/10/50)" \
    "$X/out.test.qc.rr_success" 0 $T "$F/qrels.test" "$F/results.test"
te_check "expected-extra out.test.qcM10.rr_success (RR@10, Success@1/10)" \
    "$X/out.test.qcM10.rr_success" 10 $T "$F/qrels.test" "$F/results.test"
te_check "expected-extra out.trunc.qc.rr_success (302 missing scores 0)" \
    "$X/out.trunc.qc.rr_success" 0 $T "$F/qrels.test" "$F/results.trunc"
te_check "expected-extra out.trunc.qcM10.rr_success" \
    "$X/out.trunc.qcM10.rr_success" 10 $T "$F/qrels.test" "$F/results.trunc"
te_check "expected-extra out.rel_level.l2.qcM10.rr_success (-l2)" \
    "$X/out.rel_level.l2.qcM10.rr_success" 10 $T -l 2 "$F/qrels.rel_level" "$F/results.test"

# Under -M10 trec_eval's success_50 is success_10 (the ranking is cut first); retriage's
# Success@50 is not cut, so it must equal the full-depth success_50 instead.
"$RETRIAGE" eval -q -m Success@50 "$F/qrels.test" "$F/results.test" >"$TMPD/s50" 2>/dev/null
ref=$(awk '$1 == "success_50" && $2 == "all" { print $3 }' "$X/out.test.qc.rr_success")
near "$(value_of "$TMPD/s50" Success@50 all)" "$ref" $T
ok $? "Success@50 is full-depth success_50 ($ref), not -M10's success_50"

# The run's TREC tag names it, like trec_eval's runid.
"$RETRIAGE" eval -m RR "$F/qrels.test" "$F/results.test" >"$TMPD/name" 2>/dev/null
[ "$(cut -f 1 "$TMPD/name")" = STANDARD ]
ok $? "run name is the tag column (runid STANDARD)"

done_testing
